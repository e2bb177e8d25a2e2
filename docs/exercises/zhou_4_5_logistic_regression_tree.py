r"""
周志华 习题4.5 / Zhou Zhihua, exercise 4.5: a tree whose splits are chosen by logistic regression
=================================================================================================

**题目**：试编程实现基于对率回归进行划分选择的决策树算法，并为表 4.3 中数据生成一棵决策树。

**Question**: implement a decision tree that chooses its splits by logistic regression, and grow a
tree on the data of 表4.3 (西瓜数据集3.0).

**答案 / Answer**: hyperplane has no logistic-regression tree; the nearest honest thing is to write
the tree here (图4.2's recursion) and let :class:`hyperplane.linear.LogisticRegression` (§3.3)
choose each split. Each internal node fits a logistic regression on all attributes (discrete ones
one-hot encoded, continuous ones standardised) to its samples and sends a sample to the left child
when :math:`p(\text{好瓜}\mid x)\ge\frac12` — a multivariate split, a hyperplane in attribute space
like the nodes of 图4.10–4.13. A node becomes a leaf when it is pure, when the regression puts all
its samples on one side, or at the depth limit.

On 西瓜数据集3.0 with the penalty ``C=10`` the root's regression misplaces 编号7 and 编号15, one
more regression in each child separates them, and the tree has 4 leaves and no training error,
against the 5 leaves of the univariate information-gain tree of 习题4.3. With ``C=100`` (a weaker
penalty) the root's hyperplane alone separates the 17 melons (2 leaves): the data are linearly
separable once the discrete attributes are one-hot encoded. The page checks every node's split
against scikit-learn's ``LogisticRegression`` on the same encoded rows.

**答案（中文）**：hyperplane 没有对率回归树，本页按图4.2 的递归写出这棵树，每个内部结点用库中的 LogisticRegression（§3.3）在该结点的样本上拟合（离散属性独热编码，连续属性标准化），p(好瓜 | x) ≥ 1/2 的样本进入左子结点：这是多变量划分，是属性空间中的一个超平面（如图4.10–4.13）。结点纯、回归把所有样本分到同一侧或达到深度上限时成为叶结点。C = 10 时根结点的回归分错 编号7 与 编号15，每个子结点再做一次回归即可分开；C = 100 时根结点的超平面单独就分开了 17 个瓜（独热编码后数据线性可分）。每个结点的划分都与 scikit-learn 的 LogisticRegression 核对过。

**与公开解答比较 / Compared with public solutions**

公开解答（han1057578619 的习题集）没有实现，只提出用对率回归权重最大的属性作单变量划分，并指出独热编码后权重难以归到属性上。本页做法不同：直接以对率回归的超平面 p(好瓜|x) ≥ 1/2 作多变量划分，避开了权重归属的问题；权重大小还依赖属性的尺度，用它挑属性并不可靠。

The public solution set of han1057578619 leaves this unimplemented; it suggests splitting on the
attribute with the largest logistic-regression weight and notes that one-hot encoding makes weights
hard to assign to attributes. This page does otherwise: the regression's hyperplane p(好瓜|x) ≥ 1/2
itself is the (multivariate) split, which avoids the question; a weight's size also depends on the
attribute's scale, so choosing attributes by it is unreliable.
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression as SklearnLogisticRegression

from hyperplane.datasets import load_watermelon
from hyperplane.linear import LogisticRegression
from hyperplane.plot import apply_cjk_font
from hyperplane.tree import DecisionTreeClassifier

X, y = load_watermelon("3.0")
encoded = pd.get_dummies(X, dtype=float)
numeric = ["密度", "含糖率"]
encoded[numeric] = (encoded[numeric] - encoded[numeric].mean()) / encoded[numeric].std()
target = (y == "是").astype(int)


def grow(rows, C, depth=0, max_depth=4):
    """图4.2 with a logistic-regression split: returns a nested dict; prints the tree."""
    labels = target.loc[rows]
    pad = "    " * depth
    if labels.nunique() == 1 or depth == max_depth:
        leaf = "是" if labels.mean() >= 0.5 else "否"
        print(f"{pad}leaf {leaf}: 编号 {rows.tolist()}")
        return {"leaf": leaf, "rows": rows.tolist()}
    model = LogisticRegression(C=C, tol=1e-10).fit(encoded.loc[rows], labels)
    peer = SklearnLogisticRegression(C=C, tol=1e-10, max_iter=10000).fit(encoded.loc[rows], labels)
    left = model.predict_proba(encoded.loc[rows])[:, 1] >= 0.5
    assert np.array_equal(left, peer.predict_proba(encoded.loc[rows])[:, 1] >= 0.5)
    if left.all() or not left.any():
        leaf = "是" if labels.mean() >= 0.5 else "否"
        print(f"{pad}leaf {leaf} (no split): 编号 {rows.tolist()}")
        return {"leaf": leaf, "rows": rows.tolist()}
    top = pd.Series(model.coef_[0], index=encoded.columns).abs().nlargest(3)
    print(f"{pad}node: logistic regression on {len(rows)} melons, largest |w|: "
          + ", ".join(f"{k} {v:.2f}" for k, v in top.items()))
    return {"model": model, "left": grow(rows[left], C, depth + 1, max_depth),
            "right": grow(rows[~left], C, depth + 1, max_depth)}


def predict(node, row):
    while "leaf" not in node:
        node = node["left"] if node["model"].predict_proba(row)[0, 1] >= 0.5 else node["right"]
    return node["leaf"]


def leaves(node):
    return 1 if "leaf" in node else leaves(node["left"]) + leaves(node["right"])


print("C = 10:")
tree = grow(X.index.to_numpy(), C=10.0)
predictions = pd.Series([predict(tree, encoded.loc[[i]]) for i in X.index], index=X.index)
print(f"{leaves(tree)} leaves, training accuracy {np.mean(predictions == y):.3f}")
univariate = DecisionTreeClassifier(criterion="info_gain").fit(X, y)
print(f"information-gain tree (习题4.3): {univariate.n_leaves_} leaves")
assert np.mean(predictions == y) == 1.0 and leaves(tree) == 4 < univariate.n_leaves_
print("C = 100 (a weaker penalty):")
assert leaves(grow(X.index.to_numpy(), C=100.0)) == 2

figure, ax = plt.subplots(figsize=(5.5, 4))
root = tree["model"]
score = root.decision_function(encoded)
ax.scatter(range(1, 18), score, c=np.where(y == "是", "C3", "C0"))
ax.axhline(0, color="k", lw=0.8)
ax.set_xlabel("编号")
ax.set_ylabel("根结点的 w·x + b")
ax.set_title("习题4.5: 对率回归划分 (根结点), 西瓜数据集3.0")
apply_cjk_font(figure)
plt.show()
