"""
周志华 习题3.3 / Zhou Zhihua, exercise 3.3: logistic regression on 西瓜数据集3.0α
=================================================================================

**题目**：编程实现对率回归，并给出西瓜数据集 3.0α 上的结果。

**Question**: implement logistic regression and give its result on watermelon data set 3.0α
(密度 density and 含糖率 sugar content of 17 melons, 好瓜 good or not).

**答案 / Answer**: the maximum-likelihood model of §3.3 is
:math:`\\beta = (w; b) = (3.1583,\\ 12.5212;\\ -4.4289)`, i.e.
:math:`p(\\text{好瓜} \\mid x) = 1/(1+e^{-(3.1583\\,\\text{密度} + 12.5212\\,\\text{含糖率} - 4.4289)})`,
12 of the 17 melons right (70.6%). Public solution notebooks that use the same Newton iteration
(e.g. github.com/YongShen-98/Machine_Learining, 习题3.3) take the same steps; solutions by gradient
descent with a fixed step report β only as close as their stopping rule allows.

The page first writes the book's own method, Newton's iteration 式3.29 on the negative
log-likelihood 式3.27 with the gradient 式3.30 and Hessian 式3.31, in a few lines of NumPy. The
book's model has no penalty; :class:`hyperplane.linear.LogisticRegression` (like scikit-learn's)
minimises 式3.27 plus :math:`\\frac{1}{2C}\\|w\\|^2`, so ``C = 1e12`` leaves a penalty of the
order of 1e-10 and gives the book's model to every printed digit (``C = 1e4`` would not: its w is
(3.145, 12.460)). scikit-learn with ``C=np.inf`` is the third, independent, check.

**答案（中文）**：§3.3 的极大似然模型为 β = (w; b) = (3.1583, 12.5212; −4.4289)，即 p(好瓜 | x) = 1/(1 + e^(−(3.1583 密度 + 12.5212 含糖率 − 4.4289)))，17 个瓜中判对 12 个（70.6%）。本页先用 NumPy 写出书中的牛顿法（式3.29–3.31），再用库中的 LogisticRegression（C = 1e12，罚项可以忽略）与 scikit-learn（C = ∞）得到同一个模型。

**与公开解答比较 / Compared with public solutions**

公开解答（han1057578619 的习题集）用随机初值的梯度下降（步长 0.3，1000 步）并与 scikit-learn 的 LogisticRegression(C=1000) 对比，只画图，没有给出 β。两者都不严格是书中无正则项的极大似然解：C=1000 带有罚项；固定步长的梯度下降 1000 步后已很接近但未收敛。本页最后一节用同样的梯度下降（初值取 1）算出 β ≈ (3.152, 12.499; -4.421)，负对数似然比牛顿法的最小值大约 5.5e-6：前两位有效数字一致，第三位起不同，牛顿法的 β 才是式3.27 的最小点。

The public solution set of han1057578619 runs gradient descent from a random start (step 0.3, 1000
steps) and plots it against scikit-learn's LogisticRegression(C=1000); it prints no β. Neither is
exactly the book's unpenalised maximum-likelihood model: C=1000 keeps a penalty, and fixed-step
gradient descent is close but not converged after 1000 steps. The last section of this page runs
that gradient descent from β = 1: β ≈ (3.152, 12.499; -4.421), with a negative log-likelihood about
5.5e-6 above Newton's minimum; the first two significant digits agree, and Newton's β is the
minimiser of 式3.27.
"""

import matplotlib.pyplot as plt
import numpy as np
from sklearn.linear_model import LogisticRegression as SklearnLogisticRegression

from hyperplane.datasets import load_watermelon
from hyperplane.linear import LogisticRegression
from hyperplane.plot import apply_cjk_font, plot_decision_regions

X, y = load_watermelon("3.0alpha")
print(X.head())

# %%
# 式3.27–3.31: Newton's method, written out
# -----------------------------------------
# :math:`\\hat x = (x; 1)`, :math:`p_1 = 1/(1+e^{-\\beta^T\\hat x})`; gradient
# :math:`-\\sum_i \\hat x_i (y_i - p_1)`, Hessian :math:`\\sum_i \\hat x_i\\hat x_i^T p_1(1-p_1)`,
# update :math:`\\beta \\leftarrow \\beta - H^{-1}g` from :math:`\\beta = 0`.
X_hat = np.column_stack([X.to_numpy(), np.ones(len(X))])
t = (y == "是").to_numpy(dtype=float)
beta = np.zeros(3)
for step in range(1, 21):
    p1 = 1.0 / (1.0 + np.exp(-X_hat @ beta))
    gradient = -X_hat.T @ (t - p1)                       # 式3.30
    hessian = (X_hat * (p1 * (1.0 - p1))[:, None]).T @ X_hat   # 式3.31
    beta -= np.linalg.solve(hessian, gradient)           # 式3.29
    if np.abs(gradient).max() < 1e-12:
        break
print(f"Newton, {step} steps: w = {beta[:2].round(4)}, b = {beta[2]:.4f}")
np.testing.assert_allclose(beta, [3.1583, 12.5212, -4.4289], atol=1e-4)

# %%
# The library: the same model
# ---------------------------
model = LogisticRegression(C=1e12, solver="newton", tol=1e-12).fit(X, y)
print("hyperplane: w =", model.coef_[0].round(4), " b =", round(model.intercept_[0], 4))
print("training accuracy:", round(model.score(X, y), 4), "(12 of 17)")
print("p(好瓜=是 | x) of the first five melons:", np.round(model.predict_proba(X)[:5, 1], 3))
np.testing.assert_allclose(np.r_[model.coef_[0], model.intercept_], beta, atol=1e-4)

# %%
# 与 scikit-learn 比较 / Against scikit-learn
# -------------------------------------------
# scikit-learn with ``C=np.inf`` (no penalty) minimises 式3.27 itself.
peer = SklearnLogisticRegression(C=np.inf, tol=1e-10, max_iter=10000).fit(X, y)
print("scikit-learn: w =", peer.coef_[0].round(4), " b =", round(peer.intercept_[0], 4))
np.testing.assert_allclose(np.r_[peer.coef_[0], peer.intercept_], beta, atol=1e-3)

# %%
# 3.0α is not linearly separable: a linear model gets about 70% of the training melons right.
ax = plot_decision_regions(model, X, y, title="习题3.3: 对率回归, 西瓜数据集3.0α")
apply_cjk_font(ax.figure)
plt.show()

# %%
# 与公开解答比较 / Against a public solution's gradient descent
# -------------------------------------------------------------
# Fixed-step gradient descent on 式3.27 (step 0.3, 1000 steps, here from beta = 1) comes close to
# Newton's minimiser but has not reached it.
descent = np.ones(3)
for _ in range(1000):
    p1 = 1.0 / (1.0 + np.exp(-X_hat @ descent))
    descent -= 0.3 * (-X_hat.T @ (t - p1))


def negative_log_likelihood(b):
    """式3.27."""
    z = X_hat @ b
    return float(np.sum(-t * z + np.logaddexp(0.0, z)))


gap = negative_log_likelihood(descent) - negative_log_likelihood(beta)
print(f"gradient descent, 1000 steps: beta = {descent.round(4)}, 式3.27 above Newton's by {gap:.2e}")
assert 0 < gap < 1e-4 and np.abs(descent - beta).max() > 1e-3
