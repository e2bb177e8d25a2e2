r"""
李航 习题2.1 / Li Hang, exercise 2.1: why a perceptron cannot represent XOR
===========================================================================

**题目**：Minsky 与 Papert 指出：感知机因为是线性模型，所以不能表示复杂的函数，如异或（XOR）。
验证感知机为什么不能表示异或。

**Question**: Minsky and Papert pointed out that the perceptron, being a linear model, cannot
represent complex functions such as exclusive or (XOR). Verify why a perceptron cannot represent XOR.

**答案 / Answer**: XOR's four points are not linearly separable, and a perceptron
:math:`f(x)=\operatorname{sign}(w\cdot x+b)` (式2.1) separates only linearly separable sets.
Suppose some :math:`w=(w_1,w_2)`, :math:`b` did it, with :math:`y=+1` on :math:`(1,0), (0,1)` and
:math:`y=-1` on :math:`(0,0), (1,1)`:

.. math::

   w_1 + b > 0,\quad w_2 + b > 0 \;\Rightarrow\; w_1 + w_2 + 2b > 0; \qquad
   b < 0,\quad w_1 + w_2 + b < 0 \;\Rightarrow\; w_1 + w_2 + 2b < 0,

a contradiction (with 李航's :math:`\operatorname{sign}(0)=+1` the first two become :math:`\ge 0`
and the contradiction stands). Geometrically, the segments joining the two positive and the two
negative points cross at :math:`(\tfrac12,\tfrac12)`, so their convex hulls meet (习题2.3).

The page checks this three ways: 算法2.1 (:class:`hyperplane.linear.Perceptron`) never stops
making mistakes and cycles through the same four hyperplanes; a linear program finds no
:math:`(w,b)` with margin 1 (scipy's ``linprog``, an independent computation); and the same
perceptron in the dual form with a degree-2 polynomial kernel, which adds the product
:math:`x^{(1)}x^{(2)}`, does separate XOR.

**答案（中文）**：异或的四个点线性不可分，而感知机 f(x) = sign(w·x + b)（式2.1）只能分开线性可分的集合。假设某个 w = (w₁, w₂)、b 能做到，(1, 0)、(0, 1) 为正例，(0, 0)、(1, 1) 为负例：由 w₁ + b > 0、w₂ + b > 0 得 w₁ + w₂ + 2b > 0；由 b < 0、w₁ + w₂ + b < 0 得 w₁ + w₂ + 2b < 0，矛盾（按李航 sign(0) = +1 的约定，前两个不等式变为 ≥ 0，矛盾依然成立）。几何上，连接两个正例与两个负例的线段交于 (1/2, 1/2)，两类的凸包相交（习题2.3）。

**与公开解答比较 / Compared with public solutions**

datawhale 的《统计学习方法》习题解答（statistical-learning-method-solutions-manual）：它给出同类的反证（由 b < 0 与 w₁、w₂ > −b 推出 (1, 1) 处 w₁ + w₂ + b > 0），并展示 scikit-learn 的感知机停在 w = 0；两者一致。

The datawhale solutions manual gives a contradiction of the same kind (from :math:`b<0` and
:math:`w_1,w_2>-b` it gets :math:`w_1+w_2+b>0` at :math:`(1,1)`) and shows scikit-learn's perceptron
stopping at :math:`w=0`.
"""

import warnings

import matplotlib.pyplot as plt
import numpy as np
from scipy.optimize import linprog
from sklearn.exceptions import ConvergenceWarning

from hyperplane.linear import DualPerceptron, Perceptron
from hyperplane.plot import apply_cjk_font

X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
y = np.array([-1, 1, 1, -1])  # XOR

# %%
# 算法2.1 on XOR: it never converges
# ----------------------------------
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    primal = Perceptron(eta=1.0, max_iter=50, record_trace=True).fit(X, y)
print(primal.trace_.head(8).to_string(index=False))
print(f"after {primal.n_iter_} epochs: {primal.n_updates_} updates, converged = {primal.converged_}")
print("warning:", caught[-1].message)
assert not primal.converged_ and any(issubclass(w.category, ConvergenceWarning) for w in caught)
# every epoch ends where it started: the same four updates repeat for ever
states = [(tuple(w), b) for w, b in zip(primal.trace_["w"], primal.trace_["b"])]
assert states[:4] == states[4:8]

# %%
# No (w, b) exists: a linear program
# ----------------------------------
# Separable means some :math:`(w,b)` with :math:`y_i(w\cdot x_i+b)\ge 1` for all :math:`i`
# (scale any strict separator). linprog reports the constraints infeasible.
A_ub = -y[:, None] * np.column_stack([X, np.ones(4)])
result = linprog(np.zeros(3), A_ub=A_ub, b_ub=-np.ones(4), bounds=[(None, None)] * 3)
print("linprog status:", result.status, "-", result.message)
assert result.status == 2  # infeasible

# %%
# A nonlinear feature does it
# ---------------------------
# The polynomial kernel :math:`(x\cdot z + 1)^2` contains :math:`x^{(1)}x^{(2)}`: in that feature
# space XOR is separable and the dual perceptron (算法2.2 with a kernel) stops with no mistake.
kernel = DualPerceptron(kernel="poly", degree=2, gamma=1.0, coef0=1.0, max_iter=100).fit(X, y)
print("polynomial-kernel dual perceptron predicts", kernel.predict(X), "for", y)
assert (kernel.predict(X) == y).all()

figure, axes = plt.subplots(1, 2, figsize=(9, 4))
grid = np.linspace(-0.5, 1.5, 200)
for ax, model, title in ((axes[0], primal, "算法2.1: last hyperplane (no separator exists)"),
                         (axes[1], kernel, "poly kernel (x·z+1)², dual form")):
    xx, yy = np.meshgrid(grid, grid)
    zz = model.predict(np.column_stack([xx.ravel(), yy.ravel()])).reshape(xx.shape)
    ax.contourf(xx, yy, zz, alpha=0.2, levels=[-2, 0, 2], colors=["#1f77b4", "#d62728"])
    ax.scatter(*X[y == 1].T, c="#d62728", marker="o", s=80, label="+1")
    ax.scatter(*X[y == -1].T, c="#1f77b4", marker="x", s=80, label="-1")
    ax.plot([0, 1], [1, 0], "r:", [0, 1], [0, 1], "b:")  # the hulls cross at (1/2, 1/2)
    ax.set_title(title, fontsize=9)
    ax.legend(loc="upper center")
apply_cjk_font(figure)
plt.show()
