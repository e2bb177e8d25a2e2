r"""
李航 习题7.3 / Li Hang, exercise 7.3: the dual of the SVM with squared slacks
=============================================================================

**题目**：线性支持向量机还可以定义为以下形式：

.. math::

   \min_{w,b,\xi}\ \frac12\|w\|^2+C\sum_{i=1}^N\xi_i^2 \quad
   \text{s.t.}\ y_i(w\cdot x_i+b)\ge1-\xi_i,\ \xi_i\ge0,\ i=1,2,\cdots,N

试求其对偶形式。

**Question**: the linear SVM can also be defined by the problem above (the slacks enter squared).
Find its dual.

**答案 / Answer**. The constraint :math:`\xi_i\ge0` can be dropped: if some :math:`\xi_i<0`,
setting it to 0 keeps the margin constraint and lowers the objective. The Lagrangian with
:math:`\alpha_i\ge0` is

.. math::

   L=\frac12\|w\|^2+C\sum_i\xi_i^2-\sum_i\alpha_i\big(y_i(w\cdot x_i+b)-1+\xi_i\big),

and :math:`\nabla_wL=0,\ \partial_bL=0,\ \partial_{\xi_i}L=0` give
:math:`w=\sum_i\alpha_iy_ix_i`, :math:`\sum_i\alpha_iy_i=0`, :math:`\xi_i=\alpha_i/(2C)`.
Substituting, :math:`C\sum\xi_i^2-\sum\alpha_i\xi_i=-\sum_i\alpha_i^2/(4C)`, so the dual is

.. math::

   \min_\alpha\ \frac12\sum_{i,j}\alpha_i\alpha_jy_iy_j\Big(x_i\cdot x_j+\frac{\delta_{ij}}{2C}\Big)
   -\sum_i\alpha_i\quad\text{s.t.}\ \sum_i\alpha_iy_i=0,\ \alpha_i\ge0,

with no upper bound on :math:`\alpha_i` (unlike 式7.37's :math:`0\le\alpha_i\le C`): it is the
*hard-margin* dual (式7.22) with the Gram matrix :math:`G+\frac1{2C}I`, always feasible because
that matrix is positive definite. Then :math:`w=\sum_i\alpha_iy_ix_i` and, for any
:math:`\alpha_j>0`, :math:`b=y_j(1-\alpha_j/(2C))-w\cdot x_j`.

The page solves that dual with :class:`hyperplane.svm.SVC` (``C=np.inf``, a
:class:`hyperplane.kernels.FunctionKernel` adding :math:`\frac1{2C}` on the diagonal) and the
primal directly with scipy's SLSQP, on overlapping data: the same :math:`w, b`, and
:math:`\xi_i=\alpha_i/(2C)`. Without the bias the same objective is LIBLINEAR's L2-loss SVM, which
scikit-learn's ``LinearSVC(loss="squared_hinge", fit_intercept=False)`` solves: checked too.

**答案（中文）**：约束 ξ_i ≥ 0 可以去掉：若某个 ξ_i < 0，把它改为 0 仍满足间隔约束且使目标变小。对拉格朗日函数 L = ½‖w‖² + C Σ ξ_i² − Σ α_i (y_i(w·x_i + b) − 1 + ξ_i)（α_i ≥ 0）求导得 w = Σ α_i y_i x_i，Σ α_i y_i = 0，ξ_i = α_i/(2C)。代回得对偶问题：min_α ½ Σ_{i,j} α_i α_j y_i y_j (x_i·x_j + δ_ij/(2C)) − Σ α_i，约束 Σ α_i y_i = 0、α_i ≥ 0，α_i 没有上界（不同于式7.37 的 0 ≤ α_i ≤ C）：它就是以 G + I/(2C) 为 Gram 矩阵的硬间隔对偶（式7.22），因为这个矩阵正定，所以总有解。然后 w = Σ α_i y_i x_i，对任一 α_j > 0 有 b = y_j(1 − α_j/(2C)) − w·x_j。

**与公开解答比较 / Compared with public solutions**

datawhale 的《统计学习方法》习题解答（statistical-learning-method-solutions-manual）：它保留了 ξ_i ≥ 0 的乘子 μ_i，最终对偶中留有 (1/(4C)) Σ (α_i + μ_i)² 与约束 2Cξ_i − α_i − μ_i = 0；由于关于 ξ 的那条约束是多余的，最优处 μ_i = 0，它的对偶化为上面的形式，两者一致。

The datawhale solutions manual keeps the multipliers :math:`\mu_i` of :math:`\xi_i\ge0` and leaves
:math:`\frac1{4C}\sum_i(\alpha_i+\mu_i)^2` with the constraint :math:`2C\xi_i-\alpha_i-\mu_i=0` in
its final dual; since that constraint on :math:`\xi` is redundant, :math:`\mu_i=0` at the optimum
and its dual reduces to the one above.
"""

import matplotlib.pyplot as plt
import numpy as np
from scipy.optimize import minimize
from scipy.spatial.distance import cdist
from sklearn.svm import LinearSVC as LiblinearSVC

from hyperplane.kernels import FunctionKernel
from hyperplane.plot import apply_cjk_font
from hyperplane.svm import SVC

rng = np.random.default_rng(7)
X = np.vstack([rng.normal([1.0, 1.0], 1.0, size=(20, 2)), rng.normal([-1.0, -1.0], 1.0, size=(20, 2))])
y = np.r_[np.ones(20), -np.ones(20)]
C = 0.5


def squared_slack_kernel(A, B):
    """x.z + delta/(2C): the Gram matrix of the dual (delta = 1 for the same training point)."""
    return A @ B.T + (cdist(A, B) == 0) / (2 * C)


# %%
# 对偶问题 / The dual, by the library's SMO
# -----------------------------------------
dual = SVC(kernel=FunctionKernel(squared_slack_kernel), C=np.inf, tol=1e-10).fit(X, y)
alpha = dual.alpha_
w = (alpha * y) @ X
j = int(np.argmax(alpha))
b = y[j] * (1 - alpha[j] / (2 * C)) - w @ X[j]
print(f"dual: w = {w.round(5)}, b = {b:.5f}, {np.sum(alpha > 1e-8)} alpha_i > 0, max alpha = {alpha.max():.3f}")
print(f"(the library's own intercept: {dual.intercept_[0]:.5f})")

# %%
# 原始问题 / The primal, by scipy
# -------------------------------
objective = lambda v: 0.5 * v[:2] @ v[:2] + C * v[3:] @ v[3:]
margins = {"type": "ineq", "fun": lambda v: y * (X @ v[:2] + v[2]) - 1 + v[3:]}
primal = minimize(objective, np.zeros(3 + len(y)), constraints=[margins],
                  bounds=[(None, None)] * 3 + [(0, None)] * len(y), method="SLSQP",
                  options={"ftol": 1e-12, "maxiter": 500})
print(f"primal: w = {primal.x[:2].round(5)}, b = {primal.x[2]:.5f}")
np.testing.assert_allclose(w, primal.x[:2], atol=1e-4)
np.testing.assert_allclose(b, primal.x[2], atol=1e-4)
np.testing.assert_allclose(dual.intercept_[0], b, atol=1e-4)
np.testing.assert_allclose(alpha / (2 * C), primal.x[3:], atol=1e-4)  # xi_i = alpha_i / (2C)

# %%
# 不含 b 时即 LIBLINEAR 的 L2-loss SVM / Without b: LIBLINEAR's L2-loss SVM
# -------------------------------------------------------------------------
# Without b there is no equality constraint; SMO needs it, so scipy's L-BFGS-B solves the bound-
# constrained dual here, and LIBLINEAR (through scikit-learn) the primal.
Q = (y[:, None] * y[None, :]) * squared_slack_kernel(X, X)
box = minimize(lambda a: 0.5 * a @ Q @ a - a.sum(), np.zeros(len(y)), jac=lambda a: Q @ a - 1,
               bounds=[(0, None)] * len(y), method="L-BFGS-B", options={"gtol": 1e-12})
liblinear = LiblinearSVC(loss="squared_hinge", fit_intercept=False, C=C, tol=1e-10, max_iter=100000).fit(X, y)
print("no bias: dual w =", ((box.x * y) @ X).round(5), " LIBLINEAR w =", liblinear.coef_[0].round(5))
np.testing.assert_allclose((box.x * y) @ X, liblinear.coef_[0], atol=1e-4)

figure, ax = plt.subplots(figsize=(5, 4))
ax.scatter(*X[y == 1].T, c="#d62728", s=20)
ax.scatter(*X[y == -1].T, c="#1f77b4", marker="x", s=20)
support = alpha > 1e-8
ax.scatter(*X[support].T, s=90, facecolors="none", edgecolors="k", label="alpha_i > 0")
xx = np.linspace(-3.5, 3.5, 10)
for offset, style in ((0, "-"), (1, "--"), (-1, "--")):
    ax.plot(xx, (offset - b - w[0] * xx) / w[1], "k" + style)
ax.set_ylim(-3.5, 3.5)
ax.set_title("习题7.3: 平方松弛的线性 SVM (C = 0.5)")
ax.legend()
apply_cjk_font(figure)
plt.show()
