r"""
周志华 习题4.1 / Zhou Zhihua, exercise 4.1: a consistent tree exists when no data conflict
==========================================================================================

**题目**：试证明对于不含冲突数据（即特征向量完全相同但标记不同）的训练集，必存在与训练集一致（即训练误差为 0）的决策树。

**Question**: prove that for a training set with no conflicting data (identical feature vectors
with different labels) there is always a decision tree consistent with the training set (zero
training error).

**答案 / Answer**. Build the tree by splitting every node that is not pure (图4.2 without its
stopping rules 2 and 3 where they would stop early): on a discrete attribute, one branch per value;
on a continuous attribute, a cut between two distinct values present in the node (§4.4.1). A node
whose samples are not all of one class contains two samples :math:`x_i\ne x_j` with
:math:`y_i\ne y_j` (no conflicts), so some attribute :math:`a` has :math:`x_i^a\ne x_j^a`, and
splitting on :math:`a` (at a cut between the two values if continuous) sends them to different
children. Each split is into non-empty, strictly smaller subsets, so the process ends after
finitely many steps (at most :math:`m-1` splits), and it can only end at pure leaves: every
training sample is classified correctly by its leaf's label. (Formally: induction on the number of
samples in a node; a pure node is a consistent leaf, an impure one has a split into smaller
impure-or-pure nodes, each consistent by hypothesis.)

Conflicting data break this: identical vectors with different labels reach the same leaf whatever
the splits, and the best training error is the number of minority labels among such duplicates.

The page fits unpruned :class:`hyperplane.tree.DecisionTreeClassifier` trees (information gain and
Gini; the library's C4.5 adds J48's stopping rules for numeric cuts) on 西瓜数据集2.0 and 3.0 and on random data: zero training error each time;
after making two samples conflict, the training error is exactly the number of irreducible
mistakes counted by hand.

**答案（中文）**：按图4.2 划分每个不纯的结点（不让停止条件 2、3 提前停止）：离散属性每个取值一个分支，连续属性在结点中两个不同取值之间切分（§4.4.1）。不纯的结点含有两个标记不同的样本 x_i ≠ x_j（无冲突），所以有某个属性 a 使两者取值不同，按 a 划分就把它们分到不同的子结点。每次划分都得到非空且更小的子集，过程有限步结束，结束时每个叶结点都是纯的，这棵树的训练误差为 0。

**与公开解答比较 / Compared with public solutions**

公开解答（han1057578619 的习题集）从图4.2 的三种叶结点情形出发论证：无冲突数据时，结点只会在样本同类或属性用尽时成为叶结点，而属性用尽时无冲突意味着样本同类。与本页的构造性证明结论一致。

The public solution set of han1057578619 argues from the three leaf cases of 图4.2: without
conflicting data a node becomes a leaf only when its samples are of one class or the attributes are
used up, and with no conflicts the latter implies the former. It reaches the conclusion of this
page's constructive proof.
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from hyperplane.datasets import load_watermelon
from hyperplane.plot import apply_cjk_font, cjk_rc, plot_tree
from hyperplane.tree import DecisionTreeClassifier

rng = np.random.default_rng(0)
cases = {f"西瓜数据集{v}": load_watermelon(v) for v in ("2.0", "3.0")}
X_random = pd.DataFrame(rng.integers(0, 3, size=(200, 6)).astype(str), columns=list("abcdef"))
X_random["x"] = rng.normal(size=200)
cases["random, 200 rows"] = (X_random, pd.Series(rng.integers(0, 2, size=200)))
for name, (X, y) in cases.items():
    for criterion in ("info_gain", "gini"):
        tree = DecisionTreeClassifier(criterion=criterion).fit(X, y)
        print(f"{name}, {criterion}: {tree.n_leaves_} leaves, training accuracy {tree.score(X, y):.3f}")
        assert tree.score(X, y) == 1.0
# C4.5 as released (criterion="gain_ratio", J48's rules) also stops where no cut of a numeric
# attribute leaves enough rows on each side or pays its MDL charge: a stopping rule, not a failure
# of the construction above.
tree = DecisionTreeClassifier(criterion="gain_ratio").fit(*cases["random, 200 rows"])
print(f"random, gain_ratio (J48's stopping rules): training accuracy "
      f"{tree.score(*cases['random, 200 rows']):.3f}")

# %%
# 冲突数据 / With conflicting data
# --------------------------------
X, y = load_watermelon("2.0")
X_conflict = pd.concat([X, X.iloc[[0, 5]]], ignore_index=True)   # 编号1 and 编号6 once more ...
y_conflict = pd.concat([y, pd.Series(["否", "否"])], ignore_index=True)  # ... now labelled 否
# rows with equal vectors must share a prediction: the best possible errors are the minorities
groups = X_conflict.astype(str).agg("|".join, axis=1)
irreducible = sum(len(g) - g.value_counts().max() for _, g in y_conflict.groupby(groups))
tree = DecisionTreeClassifier().fit(X_conflict, y_conflict)
errors = int((tree.predict(X_conflict) != y_conflict).sum())
print(f"with two conflicting rows: {errors} training errors, {irreducible} unavoidable")
assert errors == irreducible == 2

with cjk_rc():
    figure, ax = plt.subplots(figsize=(10, 5))
    plot_tree(DecisionTreeClassifier().fit(*cases["西瓜数据集2.0"]), ax=ax,
              title="习题4.1: 训练误差为 0 的决策树 (西瓜数据集2.0)")
apply_cjk_font(figure)
plt.show()
