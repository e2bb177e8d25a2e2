r"""
周志华 习题6.7 / Zhou Zhihua, exercise 6.7: the complete KKT conditions of 式6.52
=================================================================================

**题目**：试给出式 (6.52) 的完整 KKT 条件。

**Question**: give the complete KKT conditions of 式6.52 (support vector regression).

**答案 / Answer**. The SVR primal (式6.45) is
:math:`\min\frac12\|w\|^2+C\sum_i(\xi_i+\hat\xi_i)` subject to
:math:`f(x_i)-y_i\le\epsilon+\xi_i`, :math:`y_i-f(x_i)\le\epsilon+\hat\xi_i`,
:math:`\xi_i\ge0`, :math:`\hat\xi_i\ge0`, with :math:`f(x)=w^Tx+b`. With multipliers
:math:`\alpha_i,\hat\alpha_i,\mu_i,\hat\mu_i\ge0` (Lagrangian 式6.46), the complete KKT conditions
are, for every :math:`i`:

*Stationarity* (式6.47–6.50):

.. math::

   w=\sum_i(\hat\alpha_i-\alpha_i)x_i,\quad 0=\sum_i(\hat\alpha_i-\alpha_i),\quad
   C=\alpha_i+\mu_i,\quad C=\hat\alpha_i+\hat\mu_i ;

*primal feasibility*:

.. math::

   f(x_i)-y_i-\epsilon-\xi_i\le0,\quad y_i-f(x_i)-\epsilon-\hat\xi_i\le0,\quad \xi_i\ge0,\quad\hat\xi_i\ge0 ;

*dual feasibility*: :math:`\alpha_i,\hat\alpha_i,\mu_i,\hat\mu_i\ge0`, i.e. with the stationarity
conditions :math:`0\le\alpha_i,\hat\alpha_i\le C`;

*complementary slackness*:

.. math::

   \alpha_i\big(f(x_i)-y_i-\epsilon-\xi_i\big)=0,\quad
   \hat\alpha_i\big(y_i-f(x_i)-\epsilon-\hat\xi_i\big)=0,\quad
   (C-\alpha_i)\,\xi_i=0,\quad (C-\hat\alpha_i)\,\hat\xi_i=0 .

Consequences listed in 式6.52: :math:`\alpha_i\hat\alpha_i=0` and :math:`\xi_i\hat\xi_i=0` (a sample
cannot lie above and below the tube at once, since :math:`\epsilon>0` makes the two constraints
incompatible when both are tight), and samples strictly inside the tube have
:math:`\alpha_i=\hat\alpha_i=0`. With a kernel, :math:`x_i` is replaced by :math:`\phi(x_i)`.

The page fits :class:`hyperplane.svm.SVR` (Gaussian kernel, ``tol=1e-8``) to noisy samples of
:math:`\sin x`, takes :math:`(\alpha_i,\hat\alpha_i)` from ``alpha_``, sets
:math:`\xi_i=\max(0,f(x_i)-y_i-\epsilon)`, :math:`\hat\xi_i=\max(0,y_i-f(x_i)-\epsilon)`,
:math:`\mu_i=C-\alpha_i`, :math:`\hat\mu_i=C-\hat\alpha_i`, recomputes :math:`f` from the stationarity
condition, and checks every condition above to within the solver's tolerance.

**答案（中文）**：SVR 的原问题（式6.45）为 min ½‖w‖² + C Σ_i(ξ_i + ξ̂_i)，约束 f(x_i) − y_i ≤ ε + ξ_i，y_i − f(x_i) ≤ ε + ξ̂_i，ξ_i ≥ 0，ξ̂_i ≥ 0。引入乘子 α_i、α̂_i、μ_i、μ̂_i ≥ 0（式6.46），完整的 KKT 条件为：驻点条件（式6.47–6.50）w = Σ_i(α̂_i − α_i)x_i，Σ_i(α̂_i − α_i) = 0，C = α_i + μ_i，C = α̂_i + μ̂_i；原始可行性（上面的四个约束）；对偶可行性 α_i、α̂_i、μ_i、μ̂_i ≥ 0；互补松弛 α_i(f(x_i) − y_i − ε − ξ_i) = 0，α̂_i(y_i − f(x_i) − ε − ξ̂_i) = 0，μ_i ξ_i = 0，μ̂_i ξ̂_i = 0。由此推出式6.52 中的 α_i α̂_i = 0 与 ξ_i ξ̂_i = 0。

**与公开解答比较 / Compared with public solutions**

公开解答（han1057578619 的习题集）写出了两组互补松弛条件、乘子非负与原始可行性，并指出驻点条件即式6.47–6.50；与本页一致。式6.52 中的 α_i α̂_i = 0 与 ξ_i ξ̂_i = 0 由这些条件推出，本页给出了推导。

The public solution set of han1057578619 writes out the complementary slackness, non-negativity of
the multipliers and primal feasibility, and names the stationarity conditions 式6.47–6.50; it agrees
with this page. The conditions α_i α̂_i = 0 and ξ_i ξ̂_i = 0 of 式6.52 follow from them, as this page
derives.
"""

import matplotlib.pyplot as plt
import numpy as np

from hyperplane.plot import apply_cjk_font
from hyperplane.svm import SVR

rng = np.random.default_rng(0)
X = np.sort(rng.uniform(0, 6, size=(40, 1)), axis=0)
y = np.sin(X).ravel() + rng.normal(0, 0.15, 40)
C, epsilon, gamma = 2.0, 0.1, 1.0
svr = SVR(kernel="rbf", gamma=gamma, C=C, epsilon=epsilon, tol=1e-8).fit(X, y)
a, a_hat = svr.alpha_[:, 0], svr.alpha_[:, 1]
K = np.exp(-gamma * (X - X.T) ** 2)
f = K @ (a_hat - a) + svr.intercept_[0]                # stationarity: w = sum (a_hat - a) phi(x_i)
np.testing.assert_allclose(f, svr.predict(X), atol=1e-10)
xi, xi_hat = np.maximum(0, f - y - epsilon), np.maximum(0, y - f - epsilon)
mu, mu_hat = C - a, C - a_hat
tol = 1e-5  # SMO stops when the largest KKT violation m(a) - M(a) is below its tol: 1e-8 here
checks = {
    "sum (a_hat - a) = 0": abs(np.sum(a_hat - a)),
    "0 <= a, a_hat <= C (mu, mu_hat >= 0)": max(0, -a.min(), -a_hat.min(), -mu.min(), -mu_hat.min()),
    "f - y - eps - xi <= 0": max(0, (f - y - epsilon - xi).max()),
    "y - f - eps - xi_hat <= 0": max(0, (y - f - epsilon - xi_hat).max()),
    "a (f - y - eps - xi) = 0": np.abs(a * (f - y - epsilon - xi)).max(),
    "a_hat (y - f - eps - xi_hat) = 0": np.abs(a_hat * (y - f - epsilon - xi_hat)).max(),
    "(C - a) xi = 0": np.abs(mu * xi).max(),
    "(C - a_hat) xi_hat = 0": np.abs(mu_hat * xi_hat).max(),
    "a a_hat = 0": np.abs(a * a_hat).max(),
    "xi xi_hat = 0": np.abs(xi * xi_hat).max(),
}
for name, violation in checks.items():
    print(f"{name:40s} largest violation {violation:.1e}")
    assert violation < tol, name
inside = np.abs(f - y) < epsilon - 1e-4  # strictly inside, beyond the solver's tolerance
print(f"{inside.sum()} samples strictly inside the tube, all with a = a_hat = 0: "
      f"{bool(np.all((a[inside] == 0) & (a_hat[inside] == 0)))}; {len(svr.support_)} support vectors")
assert np.all(a[inside] < tol) and np.all(a_hat[inside] < tol)

figure, ax = plt.subplots(figsize=(6, 3.5))
grid = np.linspace(0, 6, 300)[:, None]
ax.plot(grid, svr.predict(grid), "k-", label="f(x)")
ax.fill_between(grid.ravel(), svr.predict(grid) - epsilon, svr.predict(grid) + epsilon, alpha=0.2, label="ε-tube")
ax.scatter(X.ravel(), y, c=np.where(a_hat > tol, "C3", np.where(a > tol, "C0", "gray")), s=20)
ax.set_title("习题6.7: SVR 的 KKT 条件 (红: α̂>0, 蓝: α>0)")
ax.legend()
apply_cjk_font(figure)
plt.show()
