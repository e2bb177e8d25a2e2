r"""
周志华 习题4.10 / Zhou Zhihua, exercise 4.10: a multivariate decision tree on 西瓜数据集3.0
===========================================================================================

**题目**：从网上下载或自己编程实现任意一种多变量决策树算法，并观察其在西瓜数据集 3.0 上产生的结果。

**Question**: download or implement any multivariate decision tree algorithm and observe the
result it produces on watermelon data set 3.0.

**答案 / Answer**: :class:`hyperplane.tree.ObliqueTreeClassifier` is OC1 (Murthy, Kasif & Salzberg
1994), a multivariate tree of §4.5: each internal node tests a linear combination
:math:`\sum_iw_ia_i\le t` (图4.12–4.13), found by coefficient-wise hill climbing on the Gini index
with random jumps. Discrete attributes are one-hot encoded.

* On the two continuous attributes (密度, 含糖率) the tree has 3 leaves: the root's oblique test
  :math:`-0.287\,\text{密度}+0.958\,\text{含糖率}\le0.0028` isolates 7 bad melons, then
  密度 :math:`\le0.3815` separates the rest, with no training error; the univariate Gini tree on the same two
  columns needs 5 leaves, an axis-parallel staircase (§4.5's point).
* On all eight attributes of 3.0 the oblique tree also fits the 17 melons with 3 leaves.

The page prints every node's test, routes the 17 melons through those tests by hand (NumPy) to
check the leaf counts the library stores, and compares the number of leaves with the univariate
:class:`hyperplane.tree.DecisionTreeClassifier` on the same columns.

**答案（中文）**：库中的 ObliqueTreeClassifier 是 OC1（Murthy、Kasif 与 Salzberg 1994），属于 §4.5 的多变量决策树：每个内部结点检验属性的线性组合 Σ w_i a_i ≤ t（图4.12–4.13），以基尼指数为准则逐个系数爬山并随机跳出。离散属性独热编码。只用两个连续属性（密度、含糖率）时树有 3 个叶结点：根结点的斜划分 −0.287 密度 + 0.958 含糖率 ≤ 0.0028 分出 7 个坏瓜，再以 密度 ≤ 0.3815 分开其余，训练误差为 0；同样两列上的单变量基尼树需要 5 个叶结点，是与坐标轴平行的阶梯形边界（§4.5 的要点）。

**与公开解答比较 / Compared with public solutions**

公开解答（han1057578619 的习题集）此题未完成。本页用库中的 OC1 斜决策树给出了结果。

The public solution set of han1057578619 leaves this exercise unfinished; this page gives the result
of the library's OC1 oblique tree.
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from hyperplane.datasets import load_watermelon
from hyperplane.plot import apply_cjk_font
from hyperplane.tree import DecisionTreeClassifier, ObliqueTreeClassifier

X, y = load_watermelon("3.0")
inputs = {"密度, 含糖率": X[["密度", "含糖率"]], "all 8 attributes (one-hot)": pd.get_dummies(X, dtype=float)}


def describe(model, columns):
    for node in range(len(model.threshold_)):
        if model.children_left_[node] < 0:
            print(f"  node {node}: leaf, class counts {model.value_[node].tolist()}")
            continue
        terms = " ".join(f"{w:+.3f}*{c}" for w, c in zip(model.coef_[node], columns) if abs(w) > 1e-12)
        print(f"  node {node}: {terms} <= {model.threshold_[node]:.4f} ? -> {model.children_left_[node]} "
              f"else {model.children_right_[node]}")


def route(model, A):
    """The leaf of each row, following w.x <= t by hand."""
    leaves = np.zeros(len(A), dtype=int)
    for i, row in enumerate(A):
        node = 0
        while model.children_left_[node] >= 0:
            go_left = row @ model.coef_[node] <= model.threshold_[node]
            node = model.children_left_[node] if go_left else model.children_right_[node]
        leaves[i] = node
    return leaves


models = {}
for name, A in inputs.items():
    oblique = ObliqueTreeClassifier(random_state=0).fit(A, y)
    univariate = DecisionTreeClassifier(criterion="gini").fit(A, y)
    models[name] = oblique
    print(f"{name}: oblique tree {oblique.n_leaves_} leaves (accuracy {oblique.score(A, y):.3f}), "
          f"univariate Gini tree {univariate.n_leaves_} leaves")
    describe(oblique, A.columns)
    leaves = route(oblique, A.to_numpy(dtype=float))
    for leaf in np.unique(leaves):
        counts = [np.sum((leaves == leaf) & (y.to_numpy() == c)) for c in oblique.classes_]
        assert counts == oblique.value_[leaf].tolist()
    assert oblique.score(A, y) == 1.0 and oblique.n_leaves_ <= univariate.n_leaves_

figure, ax = plt.subplots(figsize=(5.5, 4.5))
model, A = models["密度, 含糖率"], inputs["密度, 含糖率"]
xx, yy = np.meshgrid(np.linspace(0.2, 0.8, 200), np.linspace(0.0, 0.5, 200))
grid = pd.DataFrame(np.column_stack([xx.ravel(), yy.ravel()]), columns=A.columns)
ax.contourf(xx, yy, (model.predict(grid) == "是").reshape(xx.shape), alpha=0.2, cmap="coolwarm")
good = (y == "是").to_numpy()
ax.scatter(A["密度"][good], A["含糖率"][good], c="C3", label="好瓜")
ax.scatter(A["密度"][~good], A["含糖率"][~good], c="C0", marker="x", label="坏瓜")
ax.set_xlabel("密度")
ax.set_ylabel("含糖率")
ax.set_title("习题4.10: 多变量决策树 (OC1), 西瓜数据集3.0")
ax.legend()
apply_cjk_font(figure)
plt.show()
