r"""
李航 习题5.1 / Li Hang, exercise 5.1: a C4.5 tree (information gain ratio) on 表5.1
===================================================================================

**题目**：根据表 5.1 所给的训练数据集，利用信息增益比（C4.5 算法）生成决策树。

**Question**: from the training data of 表5.1 (the loan applications), generate a decision tree
with the information gain ratio (the C4.5 algorithm, 算法5.3).

**答案 / Answer**: at the root the gain ratios :math:`g_R(D,A)=g(D,A)/H_A(D)` (式5.10) are
年龄 0.052, 有工作 0.352, 有自己的房子 0.433, 信贷情况 0.232, so the root tests 有自己的房子;
its 是 branch is pure (是). On the 否 branch (9 rows) 有工作 has the largest ratio (1.0: it
splits the branch into two pure parts), giving

* 有自己的房子 = 是 → 是
* 有自己的房子 = 否, 有工作 = 是 → 是
* 有自己的房子 = 否, 有工作 = 否 → 否

the same tree as ID3's in 例5.3. :class:`hyperplane.tree.DecisionTreeClassifier` with
``criterion="gain_ratio"`` builds it, and :func:`hyperplane.tree.split_table` prints the ratios;
both are checked against 式5.7–5.10 written in NumPy below. Note that the library's gain ratio
follows C4.5 as Quinlan released it (only attributes of at least average gain compete on the
ratio, 周志华 §4.2.2), while 算法5.3 takes the largest ratio outright; on 表5.1 both pick the same
attributes, which the page checks.

**答案（中文）**：根结点上各属性的信息增益比 g_R(D, A) = g(D, A)/H_A(D)（式5.10）为：年龄 0.052，有工作 0.352，有自己的房子 0.433，信贷情况 0.232，所以根结点检验“有自己的房子”，其“是”分支是纯的（是）。在“否”分支（9 行）上“有工作”的增益比最大（1.0，把分支分成两个纯的部分），得到：有自己的房子 = 是 → 是；有自己的房子 = 否、有工作 = 是 → 是；有自己的房子 = 否、有工作 = 否 → 否，与例5.3 中 ID3 的树相同。库中的 DecisionTreeClassifier(criterion="gain_ratio") 生成这棵树。

**与公开解答比较 / Compared with public solutions**

datawhale 的《统计学习方法》习题解答（statistical-learning-method-solutions-manual）：树的形状相同，但它的代码用类别熵 H(D) 而不是 H_A(D) 去除 g(D, A)；根结点上恰好得到同一个值 0.4325（“有自己的房子”按 6:9 划分，与类别的比例相同），在别处则不同（有工作：0.333，应为 0.352），本页按式5.10 计算是对的。

The datawhale solutions manual reaches the same tree shape; its code divides :math:`g(D,A)` by the
class entropy :math:`H(D)` rather than :math:`H_A(D)`, which happens to give the same root ratio
(0.4325) because 有自己的房子 splits the rows 6:9 as the classes do, and differs elsewhere (有工作: 0.333
against 0.352).
"""

import matplotlib.pyplot as plt
import numpy as np

from hyperplane.datasets import load_loan
from hyperplane.plot import apply_cjk_font, cjk_rc, plot_tree
from hyperplane.tree import DecisionTreeClassifier, export_text, split_table

X, y = load_loan()


def entropy(labels):
    _, counts = np.unique(labels, return_counts=True)
    p = counts / counts.sum()
    return -(p * np.log2(p)).sum()


def gain_ratio(column, labels):
    """式5.8 g(D,A) = H(D) - H(D|A) over 式5.10's H_A(D)."""
    values, counts = np.unique(column, return_counts=True)
    conditional = sum(c / len(labels) * entropy(labels[column == v]) for v, c in zip(values, counts))
    return (entropy(labels) - conditional) / entropy(column)


# %%
# 根结点 / The root: gain ratios by the library and by hand
# ---------------------------------------------------------
table = split_table(X, y, criterion="gain_ratio")
by_hand = {a: gain_ratio(X[a].to_numpy(), y.to_numpy()) for a in X.columns}
table["by hand (式5.10)"] = [by_hand[a] for a in table.index]
print(table[["info_gain", "gain_ratio", "by hand (式5.10)"]].round(4))
np.testing.assert_allclose(table["gain_ratio"], table["by hand (式5.10)"], atol=1e-12)
assert max(by_hand, key=by_hand.get) == "有自己的房子"

# %%
# 有自己的房子 = 否: the second level
# -----------------------------------
rest = (X["有自己的房子"] == "否").to_numpy()
second = {a: gain_ratio(X[a].to_numpy()[rest], y.to_numpy()[rest]) for a in X.columns if a != "有自己的房子"}
print({a: round(r, 4) for a, r in second.items()})
assert max(second, key=second.get) == "有工作"

tree = DecisionTreeClassifier(criterion="gain_ratio").fit(X, y)
print(export_text(tree))
assert tree.n_leaves_ == 3 and tree.score(X, y) == 1.0

with cjk_rc():
    figure, ax = plt.subplots(figsize=(6, 4))
    plot_tree(tree, ax=ax, title="习题5.1: C4.5 (信息增益比), 表5.1")
apply_cjk_font(figure)
plt.show()
