r"""
周志华 习题3.10* / Zhou Zhihua, exercise 3.10*: when rescaling is optimal for multi-class costs
===============================================================================================

**题目**：试推导出多分类代价敏感学习（仅考虑基于类别的误分类代价）使用“再缩放”能获得理论最优解的条件。

**Question**: derive the condition under which "rescaling" gives the theoretically optimal
solution of multi-class cost-sensitive learning (with class-dependent misclassification costs
only).

**答案 / Answer**. Let :math:`\mathrm{cost}_{ij}` be the cost of predicting class :math:`j` for a
sample of class :math:`i` (:math:`\mathrm{cost}_{ii}=0`). The Bayes-optimal decision minimises the
expected cost, :math:`h^*(x)=\arg\min_j\sum_ip(i\mid x)\,\mathrm{cost}_{ij}`. Rescaling gives each
class a weight :math:`w_i>0` and predicts :math:`\arg\max_iw_ip(i\mid x)` (for two classes,
:math:`w_+/w_-=\mathrm{cost}_{+-}/\mathrm{cost}_{-+}`, 式3.48's :math:`m^-/m^+` analogue). For the two rules
to agree for every posterior, they must agree on every pair of classes on the boundary between
them (where only :math:`p(i|x)` and :math:`p(j|x)` are non-zero): the cost rule prefers :math:`i`
over :math:`j` iff :math:`p(i|x)\,\mathrm{cost}_{ij}>p(j|x)\,\mathrm{cost}_{ji}`, the rescaled rule
iff :math:`w_ip(i|x)>w_jp(j|x)`. Hence we need

.. math::

   \frac{w_i}{w_j}=\frac{\mathrm{cost}_{ij}}{\mathrm{cost}_{ji}}\quad\text{for all } i\ne j,
   \qquad\text{i.e.}\quad w_i\,\mathrm{cost}_{ji}-w_j\,\mathrm{cost}_{ij}=0,

:math:`\binom N2` homogeneous linear equations in :math:`N` unknowns. Rescaling is optimal iff
this system has a solution with all :math:`w_i>0`, i.e. iff its coefficient matrix has rank less
than :math:`N` (Zhou & Liu 2006, "On multi-class cost-sensitive learning"); equivalently the ratios
are consistent around every cycle,
:math:`\mathrm{cost}_{ij}\mathrm{cost}_{jk}\mathrm{cost}_{ki}=\mathrm{cost}_{ji}\mathrm{cost}_{kj}\mathrm{cost}_{ik}`.
Two classes always satisfy it. The condition makes every *pairwise* decision optimal, which is
how the derivation (and Zhou & Liu's) argues; where three or more posteriors are substantial the
two rules can still differ slightly, and they coincide everywhere when the cost depends only on
the true class, :math:`\mathrm{cost}_{ij}=c_i` (then
:math:`\sum_ip(i|x)\mathrm{cost}_{ij}=\sum_ic_ip(i|x)-c_jp(j|x)` and :math:`w_i=c_i`). When the
condition fails, rescaling is only an approximation and a decomposition into pairs (rescaling each
pair) or a direct expected-cost decision is needed.

hyperplane has no cost-sensitive estimator (class weights in :class:`hyperplane.svm.SVC` rescale
the bounds, not a cost matrix); the page takes the posteriors :math:`p(i\mid x)` of a softmax
:class:`hyperplane.linear.LogisticRegression` on three Gaussian classes and compares, on a grid,
the expected-cost decision with the rescaled one for three cost matrices: one that depends only on
the true class (they agree everywhere), a consistent one (rank 2: they agree wherever at most two
posteriors matter, and differ only near the point where the three regions meet) and an
inconsistent one (rank 3: no :math:`w` works; the nearest weights disagree on a larger part of the
plane, also where only two classes compete).

**答案（中文）**：记 cost_ij 为把第 i 类样本预测为第 j 类的代价（cost_ii = 0）。再缩放给每类一个权重 w_i > 0，预测 argmax_i w_i p(i | x)。要与期望代价最小的决策在每一对类别的边界上一致，需对所有 i ≠ j 有 w_i / w_j = cost_ij / cost_ji，即齐次线性方程组 w_i cost_ji − w_j cost_ij = 0 有全为正的解，亦即其系数矩阵的秩小于类别数 N（Zhou 与 Liu 2006）；等价地，任意三类满足 cost_ij cost_jk cost_ki = cost_ji cost_kj cost_ik。两类时总成立；条件不成立时再缩放只是近似。

**与公开解答比较 / Compared with public solutions**

公开解答（han1057578619 的习题集）同样依据 Zhou 与 Liu (2006) 的论文，得出同一条件：由 w_i cost_ji = w_j cost_ij 组成的齐次线性方程组有非零解，即系数矩阵的秩小于类别数。与本页一致。

The public solution set of han1057578619 also follows Zhou & Liu (2006) and reaches the same
condition: the homogeneous system w_i cost_ji = w_j cost_ij has a non-zero solution, i.e. its
coefficient matrix has rank below the number of classes. It agrees with this page.
"""

import itertools

import matplotlib.pyplot as plt
import numpy as np

from hyperplane.linear import LogisticRegression
from hyperplane.plot import apply_cjk_font

rng = np.random.default_rng(0)
centres = np.array([[0.0, 0.0], [2.5, 0.0], [1.2, 2.2]])
X = np.vstack([rng.normal(c, 1.0, size=(60, 2)) for c in centres])
y = np.repeat(np.arange(3), 60)
model = LogisticRegression(C=1.0).fit(X, y)
xx, yy = np.meshgrid(np.linspace(-2.5, 5, 150), np.linspace(-2.5, 4.5, 150))
posterior = model.predict_proba(np.column_stack([xx.ravel(), yy.ravel()]))


def system(cost):
    """Rows w_i cost_ji - w_j cost_ij = 0 for every pair i < j."""
    rows = []
    for i, j in itertools.combinations(range(len(cost)), 2):
        row = np.zeros(len(cost))
        row[i], row[j] = cost[j, i], -cost[i, j]
        rows.append(row)
    return np.array(rows)


by_true_class = np.array([[0, 4, 4], [2, 0, 2], [1, 1, 0]], dtype=float)  # cost_ij = c_i
consistent = np.array([[0, 2, 4], [1, 0, 2], [1, 1, 0]], dtype=float)     # ratios 2, 2 and 4 = 2 * 2
inconsistent = np.array([[0, 1, 5], [1, 0, 1], [1, 1, 0]], dtype=float)
two_way = np.sort(posterior, axis=1)[:, 0] < 1e-3  # grid points where only two classes compete
maps, agreement = {}, {}
for name, cost in (("by true class", by_true_class), ("consistent", consistent),
                   ("inconsistent", inconsistent)):
    A = system(cost)
    rank = np.linalg.matrix_rank(A)
    w = np.linalg.svd(A)[2][-1]
    w = w / w[np.argmax(np.abs(w))]  # the null vector when rank < 3, else the best least-squares w
    optimal = (posterior @ cost).argmin(axis=1)   # argmin_j sum_i p(i|x) cost_ij
    rescaled = (posterior * w).argmax(axis=1)     # argmax_i w_i p(i|x)
    agree = np.mean(optimal == rescaled)
    pairwise = np.mean(optimal[two_way] == rescaled[two_way])
    maps[name], agreement[name] = (optimal, rescaled), (agree, pairwise)
    print(f"{name}: rank {rank}, w = {np.round(w, 4)}; rescaling = the optimal decision on "
          f"{agree:.2%} of the grid, on {pairwise:.2%} of the two-class part")
    assert (rank < 3) == (name != "inconsistent")
assert agreement["by true class"] == (1.0, 1.0)
assert agreement["consistent"][1] == 1.0 and agreement["consistent"][0] > 0.98
assert agreement["inconsistent"][1] < 1.0
# the consistent matrix satisfies the cycle condition, the inconsistent one does not
c, d = consistent, inconsistent
assert np.isclose(c[0, 1] * c[1, 2] * c[2, 0], c[1, 0] * c[2, 1] * c[0, 2])
assert not np.isclose(d[0, 1] * d[1, 2] * d[2, 0], d[1, 0] * d[2, 1] * d[0, 2])

figure, axes = plt.subplots(1, 3, figsize=(12, 4))
for ax, (name, (optimal, rescaled)) in zip(axes, maps.items()):
    ax.contourf(xx, yy, optimal.reshape(xx.shape), levels=[-0.5, 0.5, 1.5, 2.5], alpha=0.3, cmap="tab10")
    ax.contour(xx, yy, rescaled.reshape(xx.shape), levels=[0.5, 1.5], colors="k", linestyles="--")
    ax.scatter(*X.T, c=y, cmap="tab10", s=6)
    ax.set_title(f"{name}: colours = 最优, 虚线 = 再缩放", fontsize=9)
apply_cjk_font(figure)
plt.show()
