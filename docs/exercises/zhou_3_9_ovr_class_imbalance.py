r"""
周志华 习题3.9 / Zhou Zhihua, exercise 3.9: why OvR and MvM need no special care for imbalance
==============================================================================================

**题目**：使用 OvR 和 MvM 将多分类任务分解为二分类任务求解时，试述为何无需专门针对类别不平衡性进行处理。

**Question**: when a multi-class task is decomposed into binary tasks by OvR or MvM, explain why
no special treatment of class imbalance is needed.

**答案 / Answer**: the binary tasks of OvR (one class against the other :math:`N-1`) are
imbalanced even when the classes are balanced, but the decomposition treats every class the same
way. Each class is the small "positive" side of exactly one OvR task, so every classifier's
scores are shifted towards "negative" by a similar amount; the final decision compares the
classifiers' confidences with each other (§3.5: the class of the most confident positive), and
shifts common to all of them cancel in that comparison. The same holds for MvM codes in which each
class is on the positive side as often as on the negative side. Rescaling each binary task
(式3.48, threshold :math:`m^+/m^-`) would move all scores in the same way and change little.
(This concerns the imbalance created by the decomposition; if the original classes are themselves
imbalanced, that imbalance remains and may still need §3.6's remedies.)

The page decomposes UCI's *Wine* (3 classes, 59/71/48 rows; each OvR task about 1:2) into
three binary :class:`hyperplane.linear.LogisticRegression` tasks, and compares by 10-fold
cross-validation (a) the OvR decision by the largest :math:`p(+|x)` and (b) the same with every
task rescaled by 式3.48: the two decisions nearly coincide. The figure shows, per task and fold,
how often the task alone says "positive" at the threshold 0.5 against its class's share.

**答案（中文）**：OvR 拆出的每个二分类任务（一类对其余 N − 1 类）本身是不平衡的，但拆分对每个类作同样的处理：每个类恰好在一个任务中是较小的“正类”，各分类器的输出向“负类”偏移的程度相近，而最终决策比较的是各分类器之间的置信度（§3.5：取置信度最大的正类），共同的偏移在比较中抵消。MvM 的编码若使每个类在正、负两侧出现的次数相当，道理相同。对每个任务做式3.48 的再缩放会使所有输出同向移动，改变不大。

**与公开解答比较 / Compared with public solutions**

公开解答（han1057578619 的习题集）引用书中 §3.5 的说法：OvR、MvM 对每个类作相同处理，拆出的二分类任务中类别不平衡的影响相互抵消。与本页一致；本页还用实验检验了这一点。

The public solution set of han1057578619 quotes §3.5: OvR and MvM treat every class alike, so the
imbalance of their binary tasks cancels. This agrees with this page, which also checks it by
experiment.
"""

import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import load_wine
from sklearn.model_selection import StratifiedKFold

from hyperplane.linear import LogisticRegression
from hyperplane.plot import apply_cjk_font

X, y = load_wine(return_X_y=True)
X = X[:, [0, 1, 4, 10]]  # four attributes only, so that the tasks are not trivially separable
print("class sizes:", np.bincount(y))
plain, rescaled, per_task = [], [], []
for train, test in StratifiedKFold(10, shuffle=True, random_state=0).split(X, y):
    mean, std = X[train].mean(axis=0), X[train].std(axis=0)
    Z = (X - mean) / std
    p = np.empty((len(test), 3))
    ratios = np.empty(3)
    for c in range(3):
        task = LogisticRegression(C=1.0).fit(Z[train], (y[train] == c).astype(int))
        p[:, c] = task.predict_proba(Z[test])[:, 1]
        ratios[c] = np.mean(y[train] == c) / np.mean(y[train] != c)  # m+/m- of the task
        per_task.append((np.mean(p[:, c] > 0.5), np.mean(y[test] == c)))
    odds = p / (1 - p)
    plain.append(p.argmax(axis=1) == y[test])
    rescaled.append((odds / ratios).argmax(axis=1) == y[test])  # 式3.48 on every task
plain, rescaled = np.concatenate(plain), np.concatenate(rescaled)
print(f"OvR by the largest p(+|x):          accuracy {plain.mean():.3f}")
print(f"OvR with every task rescaled (3.48): accuracy {rescaled.mean():.3f}")
print(f"the two decisions agree on {np.mean(plain == rescaled):.1%} of the rows")
assert abs(plain.mean() - rescaled.mean()) < 0.03
predicted, actual = np.array(per_task).T
print(f"each task alone at 0.5: predicts positive for {predicted.mean():.3f} of the rows, "
      f"its class is {actual.mean():.3f} of them")

figure, ax = plt.subplots(figsize=(5, 3.5))
ax.scatter(actual, predicted)
ax.plot([0, 0.5], [0, 0.5], "k:")
ax.set_xlabel("fraction of the fold in the task's class")
ax.set_ylabel("fraction predicted positive at 0.5")
ax.set_title("习题3.9: 各二分类任务单独看是不平衡的")
apply_cjk_font(figure)
plt.show()
