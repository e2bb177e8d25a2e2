r"""
周志华 习题3.6 / Zhou Zhihua, exercise 3.6: LDA for data that are not linearly separable
========================================================================================

**题目**：线性判别分析仅在线性可分数据上能获得理想结果，试设计一个改进方法，使其能较好地用于非线性可分数据。

**Question**: linear discriminant analysis gives ideal results only on linearly separable data;
design an improvement that works well on data that are not linearly separable.

**答案 / Answer**: map the samples into a feature space where the classes become separable and
run LDA there; with the kernel trick the map need never be computed. This is kernelized LDA
(KLDA, §6.6): by the representer theorem :math:`w=\sum_i\alpha_i\phi(x_i)`, and maximising the
generalised Rayleigh quotient in feature space becomes (式6.64–6.66)

.. math::

   \max_\alpha J(\alpha)=\frac{\alpha^T M\alpha}{\alpha^T N\alpha},\qquad
   M=(\hat\mu_1-\hat\mu_0)(\hat\mu_1-\hat\mu_0)^T,\quad
   N=KK^T-\sum_{i\in\{0,1\}}m_i\hat\mu_i\hat\mu_i^T,

with :math:`K` the kernel matrix and :math:`\hat\mu_i=\frac1{m_i}K\mathbf 1_i`; its solution is
:math:`\alpha\propto(N+\lambda I)^{-1}(\hat\mu_1-\hat\mu_0)` (:math:`\lambda` keeps :math:`N`
invertible; the library scales it per column of :math:`K` by the column's spread,
:math:`\lambda\operatorname{diag}(s_j^2)`, so that it does not depend on the kernel's units). Other routes: add nonlinear features by hand (polynomial terms), or fit a mixture of
LDA models locally (one projection per region).

:class:`hyperplane.linear.FisherDiscriminant` implements both: ``kernel=None`` is 式3.39 and
``kernel="rbf"`` is KLDA. On two concentric rings (linearly inseparable) plain LDA is at chance
and KLDA separates the rings; the page recomputes KLDA's :math:`\alpha` from 式6.65–6.66 in NumPy
and compares directions, and compares linear LDA with scikit-learn's
``LinearDiscriminantAnalysis``. Polynomial features :math:`(x_1^2, x_2^2, x_1x_2)` with plain LDA
work here too.

**答案（中文）**：把样本映射到类别可分的特征空间，在那里做 LDA；用核技巧则不必显式计算映射，这就是核线性判别分析（KLDA，§6.6）。由表示定理 w = Σ α_i φ(x_i)，问题化为 max_α αᵀMα / αᵀNα（式6.64–6.66，M、N 由核矩阵构成），其解为 α ∝ (N + λI)⁻¹(μ̂₁ − μ̂₀)，λ 使 N 可逆。

**与公开解答比较 / Compared with public solutions**

公开解答（han1057578619 的习题集）同样指向核线性判别分析（书中 §6.6 的 KLDA），只给出方向，没有推导或实验；与本页一致。

The public solution set of han1057578619 also points to kernelized LDA (KLDA, §6.6), without
derivation or experiment; it agrees with this page.
"""

import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import make_circles
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis

from hyperplane.kernels import RBF
from hyperplane.linear import FisherDiscriminant
from hyperplane.plot import apply_cjk_font

X, y = make_circles(200, noise=0.08, factor=0.4, random_state=0)
gamma, lam = 2.0, 1e-3

lda = FisherDiscriminant().fit(X, y)
peer = LinearDiscriminantAnalysis(solver="eigen").fit(X, y)
klda = FisherDiscriminant(kernel="rbf", gamma=gamma, reg=lam).fit(X, y)
print(f"LDA  training accuracy {lda.score(X, y):.3f} (scikit-learn LDA {peer.score(X, y):.3f})")
print(f"KLDA training accuracy {klda.score(X, y):.3f}")
assert lda.score(X, y) < 0.7 and klda.score(X, y) > 0.97

# %%
# 式6.65–6.66 by hand
# -------------------
K = np.exp(-gamma * ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1))
mu = [K[:, y == c].mean(axis=1) for c in (0, 1)]
N = K @ K.T - sum((y == c).sum() * np.outer(mu[c], mu[c]) for c in (0, 1))
spread = ((K - K.mean(axis=0)) ** 2).sum(axis=0)  # the library scales lambda by each column's spread
alpha = np.linalg.solve(N + lam * np.diag(spread), mu[1] - mu[0])
ours = np.ravel(klda.alpha_)
cosine = abs(alpha @ ours) / np.linalg.norm(alpha) / np.linalg.norm(ours)
print(f"|cos| between the library's alpha and 式6.66's: {cosine:.6f}")
assert cosine > 0.999

# %%
# Hand-made features instead of a kernel
# --------------------------------------
features = np.column_stack([X, X[:, 0] ** 2, X[:, 1] ** 2, X[:, 0] * X[:, 1]])
poly = FisherDiscriminant().fit(features, y)
print(f"LDA on (x1, x2, x1^2, x2^2, x1 x2): accuracy {poly.score(features, y):.3f}")

figure, axes = plt.subplots(1, 2, figsize=(9, 4))
xx, yy = np.meshgrid(np.linspace(-1.4, 1.4, 120), np.linspace(-1.4, 1.4, 120))
grid = np.column_stack([xx.ravel(), yy.ravel()])
for ax, model, title in ((axes[0], lda, "LDA (式3.39)"), (axes[1], klda, "KLDA (§6.6, RBF)")):
    ax.contourf(xx, yy, model.predict(grid).reshape(xx.shape), alpha=0.2, cmap="coolwarm")
    ax.scatter(*X.T, c=y, cmap="coolwarm", s=12)
    ax.set_title(f"{title}: {model.score(X, y):.0%}")
apply_cjk_font(figure)
plt.show()
