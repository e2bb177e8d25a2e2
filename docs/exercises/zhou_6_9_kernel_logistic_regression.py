r"""
周志华 习题6.9 / Zhou Zhihua, exercise 6.9: kernel logistic regression
======================================================================

**题目**：试使用核技巧推广对率回归，产生“核对率回归”。

**Question**: generalise logistic regression with the kernel trick to obtain "kernel logistic
regression".

**答案 / Answer**. Map :math:`x\mapsto\phi(x)` and fit logistic regression there with an
:math:`L_2` penalty, the regularised form 式6.57 with the logistic loss:

.. math::

   \min_{w,b}\ \sum_{i=1}^m\Big(-y_i\big(w^T\phi(x_i)+b\big)+\ln\big(1+e^{w^T\phi(x_i)+b}\big)\Big)
   +\frac\lambda2\|w\|^2 .

By the representer theorem (定理6.2) the optimal :math:`w=\sum_j\beta_j\phi(x_j)`, so
:math:`w^T\phi(x)=\sum_j\beta_j\kappa(x_j,x)` and :math:`\|w\|^2=\beta^TK\beta`. The problem becomes,
in :math:`\beta\in\mathbb R^m` and :math:`b`,

.. math::

   \min_{\beta,b}\ \sum_i\Big(-y_i(K_i\beta+b)+\ln\big(1+e^{K_i\beta+b}\big)\Big)+\frac\lambda2\beta^TK\beta,

convex (习题3.2's argument plus a PSD quadratic), with gradient
:math:`K(p-y)+\lambda K\beta` in :math:`\beta` (:math:`p_i=\sigma(K_i\beta+b)`) and
:math:`\sum_i(p_i-y_i)` in :math:`b`, solvable by Newton's method (式3.29) or quasi-Newton, and the
model is :math:`p(y=1\mid x)=\sigma\big(\sum_j\beta_j\kappa(x_j,x)+b\big)`. Unlike the SVM, every
:math:`\beta_j` is in general non-zero (no sparsity), but the model gives probabilities.

hyperplane has no kernel logistic regression estimator; two honest routes on the page:

1. minimise the objective above directly over :math:`(\beta,b)` by Newton's method, in NumPy;
2. with :math:`K=U\Lambda U^T`, the features :math:`Z=U\Lambda^{1/2}` satisfy :math:`ZZ^T=K`, and
   :math:`\theta=\Lambda^{1/2}U^T\beta` turns :math:`\beta^TK\beta` into :math:`\|\theta\|^2`, so plain
   :class:`hyperplane.linear.LogisticRegression` on :math:`Z` with :math:`C=1/\lambda` (its penalty is
   :math:`\frac1{2C}\|w\|^2`) solves the same problem.

On two interleaved half-moons (not linearly separable) both give the same decision values, and
the Gaussian-kernel model separates the moons where linear logistic regression cannot.

**答案（中文）**：把 x 映射为 φ(x)，在特征空间中做带 L2 罚项的对率回归（式6.57 取对率损失）：min_{w,b} Σ_i(−y_i(wᵀφ(x_i) + b) + ln(1 + exp(wᵀφ(x_i) + b))) + (λ/2)‖w‖²。由表示定理（定理6.2），最优 w = Σ_j β_j φ(x_j)，于是 wᵀφ(x) = Σ_j β_j κ(x_j, x)，‖w‖² = βᵀKβ，问题化为关于 β ∈ R^m 与 b 的凸问题，只用到核矩阵 K，可用牛顿法或拟牛顿法求解。

**与公开解答比较 / Compared with public solutions**

公开解答（han1057578619 的习题集）用表示定理（对 L2 正则化的线性模型，最优 w 是样本的线性组合）得出核对率回归的形式，没有写代码，并指出核对率回归的系数不稀疏、需要保存全部训练样本。与本页一致。

The public solution set of han1057578619 derives the kernel form from the representer theorem (for
an L2-regularised linear model the optimal w is a combination of the samples), without code, and
notes that kernel logistic regression is not sparse and keeps every training sample. It agrees with
this page.
"""

import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import make_moons

from hyperplane.linear import LogisticRegression
from hyperplane.plot import apply_cjk_font

X, y = make_moons(120, noise=0.15, random_state=0)
gamma, lam = 2.0, 0.1


def kernel(A, B):
    return np.exp(-gamma * ((A[:, None, :] - B[None, :, :]) ** 2).sum(-1))


K = kernel(X, X)


def objective(v):
    beta, b = v[:-1], v[-1]
    z = K @ beta + b
    p = 1 / (1 + np.exp(-z))
    value = np.sum(-y * z + np.logaddexp(0, z)) + lam / 2 * beta @ K @ beta
    gradient = np.r_[K @ (p - y) + lam * K @ beta, np.sum(p - y)]
    return value, gradient


# 1. Newton's method (式3.29) on the objective over (beta, b); K is nearly singular, so each step
#    solves the Newton system by least squares
v = np.zeros(len(y) + 1)
A = np.column_stack([K, np.ones(len(y))])
for step in range(50):
    value, gradient = objective(v)
    p = 1 / (1 + np.exp(-(A @ v)))
    hessian = (A * (p * (1 - p))[:, None]).T @ A
    hessian[:-1, :-1] += lam * K
    v -= np.linalg.lstsq(hessian, gradient, rcond=1e-12)[0]
    if np.abs(gradient).max() < 1e-9:
        break
beta, b = v[:-1], v[-1]
assert np.abs(objective(v)[1]).max() < 1e-8 and objective(v)[0] <= objective(np.zeros(len(v)))[0]
print(f"Newton: {step} steps, objective {objective(v)[0]:.6f}")

# 2. the library's logistic regression on K^(1/2)
values, vectors = np.linalg.eigh(K)
keep = values > 1e-10 * values.max()
Z = vectors[:, keep] * np.sqrt(values[keep])
klr = LogisticRegression(C=1 / lam, tol=1e-12, max_iter=1000).fit(Z, y)
decision_library = klr.decision_function(Z)
decision_direct = K @ beta + b
print(f"largest gap between the two decision values on the training set: "
      f"{np.abs(decision_library - decision_direct).max():.1e}")
np.testing.assert_allclose(decision_library, decision_direct, atol=1e-4)
linear = LogisticRegression(C=1 / lam).fit(X, y)
print(f"training accuracy: kernel logistic regression {np.mean((decision_direct > 0) == y):.3f}, "
      f"linear logistic regression {linear.score(X, y):.3f}")
print(f"non-zero beta_j: {np.sum(np.abs(beta) > 1e-6)} of {len(beta)} (no sparsity, unlike the SVM)")
assert np.mean((decision_direct > 0) == y) > linear.score(X, y) + 0.05

figure, ax = plt.subplots(figsize=(6, 4))
xx, yy = np.meshgrid(np.linspace(-1.5, 2.5, 150), np.linspace(-1, 1.5, 150))
grid = np.column_stack([xx.ravel(), yy.ravel()])
probability = 1 / (1 + np.exp(-(kernel(grid, X) @ beta + b)))
contour = ax.contourf(xx, yy, probability.reshape(xx.shape), levels=20, cmap="coolwarm", alpha=0.6)
ax.contour(xx, yy, probability.reshape(xx.shape), levels=[0.5], colors="k")
ax.scatter(*X.T, c=y, cmap="coolwarm", edgecolors="k", s=20)
figure.colorbar(contour, label="p(y=1|x)")
ax.set_title("习题6.9: 核对率回归 (高斯核)")
apply_cjk_font(figure)
plt.show()
