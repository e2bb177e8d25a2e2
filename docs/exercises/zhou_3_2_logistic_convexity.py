r"""
周志华 习题3.2 / Zhou Zhihua, exercise 3.2: 式3.18 is not convex, the log-likelihood 式3.27 is
==============================================================================================

**题目**：试证明，对于参数 :math:`w`，对率回归的目标函数 (3.18) 是非凸的，但其对数似然函数 (3.27) 是凸的。

**Question**: prove that, in the parameter :math:`w`, the logistic regression function 式3.18,
:math:`y=1/(1+e^{-(w^Tx+b)})`, is not convex, whereas the (negative) log-likelihood 式3.27,
:math:`\ell(\beta)=\sum_i\big(-y_i\beta^T\hat x_i+\ln(1+e^{\beta^T\hat x_i})\big)`, is convex.

**答案 / Answer**. With :math:`z=w^Tx+b` and :math:`y=\sigma(z)`, :math:`\sigma'=y(1-y)` and

.. math::

   \frac{\partial y}{\partial w}=y(1-y)\,x,\qquad
   \frac{\partial^2y}{\partial w\,\partial w^T}=y(1-y)(1-2y)\,xx^T .

:math:`xx^T\succeq0` and :math:`y(1-y)>0`, so the Hessian is positive semidefinite where
:math:`y<\frac12` and negative semidefinite (and nonzero for :math:`x\ne0`) where
:math:`y>\frac12`: 式3.18 is convex on one side of :math:`z=0` and concave on the other, hence not
convex. For 式3.27, with :math:`p_1=\sigma(\beta^T\hat x_i)`, the Hessian is 式3.31,

.. math::

   \frac{\partial^2\ell}{\partial\beta\,\partial\beta^T}=\sum_i\hat x_i\hat x_i^T\,p_1(\hat x_i;\beta)\big(1-p_1(\hat x_i;\beta)\big),

a sum of positive semidefinite matrices with non-negative weights, hence
:math:`v^THv=\sum_ip_1(1-p_1)(v^T\hat x_i)^2\ge0` for every :math:`v`: :math:`\ell` is convex (and
strictly so when the :math:`\hat x_i` span the space), so Newton's method (式3.29) and the
library's solvers reach its global minimum.

The page checks on 西瓜数据集3.0α: the Hessian of 式3.31 against central finite differences of
:math:`\ell`, its smallest eigenvalue at 500 random :math:`\beta` (never negative), the
midpoint-convexity of :math:`\ell` along random segments, a violated midpoint inequality for
式3.18, and that no random :math:`\beta` beats the minimiser returned by
:class:`hyperplane.linear.LogisticRegression` (``C=1e12``, i.e. no penalty).

**答案（中文）**：记 z = wᵀx + b、y = σ(z)，则式3.18 对 w 的 Hessian 为 y(1 − y)(1 − 2y) x xᵀ：在 y < 1/2 处半正定，在 y > 1/2 处半负定，所以式3.18 关于 w 非凸。式3.27 的 Hessian 是式3.31，即 Σ x̂_i x̂_iᵀ p₁(1 − p₁)，为非负权重的半正定矩阵之和：对任意 v 有 vᵀHv = Σ p₁(1 − p₁)(vᵀx̂_i)² ≥ 0，所以式3.27 是凸的，牛顿法（式3.29）与库中的求解器都能到达其全局最小。

**与公开解答比较 / Compared with public solutions**

公开解答（han1057578619 的习题集）的证明与本页相同：式3.18 对 w 的 Hessian 为秩一矩阵 x xᵀ 乘以 y(1-y)(1-2y)，其符号随 y 是否大于 1/2 改变，故非凸；式3.27 的 Hessian 为 X P Xᵀ（P 为对角元 p₁(1-p₁) 的对角阵），半正定，故凸。两者一致。

The public solution set of han1057578619 proves it the same way: the Hessian of 式3.18 in w is the
rank-one matrix x xᵀ times y(1-y)(1-2y), whose sign changes at y = 1/2, so 式3.18 is not convex; the
Hessian of 式3.27 is X P Xᵀ with P diagonal, entries p₁(1-p₁) ≥ 0, hence positive semidefinite. The
two answers agree.
"""

import matplotlib.pyplot as plt
import numpy as np

from hyperplane.datasets import load_watermelon
from hyperplane.linear import LogisticRegression
from hyperplane.plot import apply_cjk_font

X, labels = load_watermelon("3.0alpha")
X_hat = np.column_stack([X.to_numpy(), np.ones(len(X))])
t = (labels == "是").to_numpy(dtype=float)
rng = np.random.default_rng(0)


def ell(beta):
    z = X_hat @ beta
    return np.sum(-t * z + np.logaddexp(0.0, z))  # 式3.27


def hessian(beta):
    p1 = 1.0 / (1.0 + np.exp(-X_hat @ beta))
    return (X_hat * (p1 * (1 - p1))[:, None]).T @ X_hat  # 式3.31


# %%
# 式3.31 against finite differences, and its eigenvalues
# ------------------------------------------------------
beta0, h = rng.normal(size=3), 1e-4
numeric = np.empty((3, 3))
for i in range(3):
    for j in range(3):
        e_i, e_j = np.eye(3)[i] * h, np.eye(3)[j] * h
        numeric[i, j] = (ell(beta0 + e_i + e_j) - ell(beta0 + e_i - e_j)
                         - ell(beta0 - e_i + e_j) + ell(beta0 - e_i - e_j)) / (4 * h * h)
np.testing.assert_allclose(hessian(beta0), numeric, rtol=1e-5, atol=1e-6)
smallest = min(np.linalg.eigvalsh(hessian(rng.normal(scale=10, size=3))).min() for _ in range(500))
print(f"式3.31 = finite differences; smallest Hessian eigenvalue at 500 random beta: {smallest:.2e}")
assert smallest >= -1e-12
for _ in range(1000):
    a, b = rng.normal(scale=10, size=(2, 3))
    assert ell((a + b) / 2) <= (ell(a) + ell(b)) / 2 + 1e-9

# %%
# 式3.18 is not convex in w
# -------------------------
# One sample x = 1 and b = 0: y(w) = sigma(w). Midpoint of w = 1 and w = 3:
sigma = lambda z: 1.0 / (1.0 + np.exp(-z))
print(f"y(2) = {sigma(2):.4f} > (y(1) + y(3)) / 2 = {(sigma(1) + sigma(3)) / 2:.4f}: not convex")
assert sigma(2) > (sigma(1) + sigma(3)) / 2
print(f"on the other side: y(-2) = {sigma(-2):.4f} < {(sigma(-1) + sigma(-3)) / 2:.4f}: convex there")

# %%
# The library's minimiser is global
# ---------------------------------
model = LogisticRegression(C=1e12, solver="newton", tol=1e-12).fit(X, labels)
beta_hat = np.r_[model.coef_[0], model.intercept_]
best_random = min(ell(beta_hat + rng.normal(scale=s, size=3)) for s in (0.1, 1, 10) for _ in range(300))
print(f"ell(beta_hat) = {ell(beta_hat):.6f} <= smallest ell of 900 perturbations = {best_random:.6f}")
assert ell(beta_hat) <= best_random

figure, axes = plt.subplots(1, 2, figsize=(9, 3.5))
w = np.linspace(-6, 6, 200)
axes[0].plot(w, sigma(w))
axes[0].set_title("式3.18: y = σ(w x), x = 1 (非凸)")
direction = rng.normal(size=3)
s = np.linspace(-3, 3, 200)
axes[1].plot(s, [ell(beta_hat + u * direction) for u in s])
axes[1].set_title("式3.27: ℓ(β̂ + s·v) (凸)")
apply_cjk_font(figure)
plt.show()
