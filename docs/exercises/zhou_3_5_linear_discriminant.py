"""
周志华 习题3.5 / Zhou Zhihua, exercise 3.5: linear discriminant analysis on 西瓜数据集3.0α
==========================================================================================

**题目**：编程实现线性判别分析，并给出西瓜数据集 3.0α 上的结果。

**Question**: implement linear discriminant analysis (LDA) and give its result on watermelon data
set 3.0α.

:class:`hyperplane.linear.FisherDiscriminant` maximises the generalised Rayleigh quotient
:math:`J=\\frac{w^TS_bw}{w^TS_ww}` (式3.35); for two classes the solution is
:math:`w=S_w^{-1}(\\mu_0-\\mu_1)` (式3.39). ``reg=0`` gives the book's formula exactly. The widely
published answer for this exercise is :math:`w=(-0.1465, -0.7387)` (up to sign, which depends on
which class is :math:`\\mu_0`); ``tests/linear/test_fisher.py`` checks it.

**答案 / Answer**: on 西瓜数据集3.0α, w = S_w⁻¹(μ₀ − μ₁) = (0.1465, 0.7387) with μ₀ the mean of the
good melons (the opposite sign with the other order); projecting on w and assigning each melon to
the nearer projected class mean gets 12 of the 17 melons right (70.6%), the same predictions as
logistic regression (习题3.3).

**答案（中文）**：线性判别分析最大化广义瑞利商 J = wᵀS_b w / wᵀS_w w（式3.35），两类时的解为 w = S_w⁻¹(μ₀ − μ₁)（式3.39）。在西瓜数据集 3.0α 上，以好瓜的均值为 μ₀ 时 w = (0.1465, 0.7387)（另一种顺序符号相反，常见的公开答案 (−0.1465, −0.7387) 即是如此）；按投影后离哪一类均值更近判别，17 个瓜判对 12 个（70.6%）；本页用库中的 FisherDiscriminant 求得，并用 NumPy 按公式复算。

**与公开解答比较 / Compared with public solutions**

公开解答（han1057578619 的习题集）用的是同一个公式 w = S_w⁻¹(μ₀-μ₁)（式3.39），按投影后离哪一类中心近来分类，并说其预测与对率回归相同。本页最后一节用库中的两个模型检验：在西瓜数据集 3.0α 上两者对 17 个瓜的预测完全相同（都对 12 个）。这一点成立，但只是这份数据上的结果，并非一般结论：两者的方向与阈值由不同的准则决定。

The public solution set of han1057578619 uses the same formula w = S_w⁻¹(μ₀-μ₁) (式3.39), classifies
by the nearer projected class mean, and states that its predictions equal logistic regression's. The
last section of this page checks it with the library's two models: on 西瓜数据集3.0α they predict the
same class for all 17 melons (12 right each). The statement holds here, but for this data only: the
two directions and thresholds come from different criteria.
"""

import matplotlib.pyplot as plt
import numpy as np

from hyperplane.datasets import load_watermelon
from hyperplane.linear import FisherDiscriminant, LogisticRegression
from hyperplane.plot import apply_cjk_font, cjk_rc, plot_decision_regions

X, y = load_watermelon("3.0alpha")
lda = FisherDiscriminant(reg=0.0).fit(X, y)
w = lda.coef_[0]
print("w =", w, " |w| components:", np.round(np.abs(w), 4))
print("training accuracy:", lda.score(X, y))

# %%
# 与公式 3.39 比较 / Against formula 3.39
# ---------------------------------------
# Computed here by hand with NumPy from the class means and the within-class scatter.
good, bad = X[y == "是"].to_numpy(), X[y == "否"].to_numpy()
mu_good, mu_bad = good.mean(axis=0), bad.mean(axis=0)
S_w = (good - mu_good).T @ (good - mu_good) + (bad - mu_bad).T @ (bad - mu_bad)
by_hand = np.linalg.solve(S_w, mu_good - mu_bad)
print("S_w^-1 (mu_是 - mu_否) =", by_hand)
np.testing.assert_allclose(np.abs(w / np.linalg.norm(w)), np.abs(by_hand / np.linalg.norm(by_hand)))
np.testing.assert_allclose(np.abs(w), [0.14650982, 0.73871557], atol=1e-6)

# %%
# The projections :math:`w^Tx` of the two classes (the book's 图3.3 idea) and the regions.
with cjk_rc():
    figure, axes = plt.subplots(1, 2, figsize=(10, 4))
    z = lda.transform(X)[:, 0]
    for label, marker in (("是", "o"), ("否", "x")):
        axes[0].scatter(z[y == label], np.zeros((y == label).sum()), marker=marker, label=label)
    axes[0].set_yticks([])
    axes[0].legend(title="好瓜")
    axes[0].set_title("投影 w^T x")
    plot_decision_regions(lda, X, y, ax=axes[1], title="习题3.5: LDA")
apply_cjk_font(figure)
plt.show()

# %%
# 与公开解答比较 / A public solution's claim: LDA predicts as logistic regression
# -------------------------------------------------------------------------------
# The nearer projected class mean (a public solution's rule), the library's LDA, and the
# unpenalised logistic regression of 习题3.3, melon by melon.
projected = X.to_numpy() @ by_hand
nearer = np.where(np.abs(projected - mu_good @ by_hand) < np.abs(projected - mu_bad @ by_hand),
                  "是", "否")
logistic = LogisticRegression(C=1e12, solver="newton", tol=1e-12).fit(X, y).predict(X)
print("nearer mean = LDA:", int((nearer == lda.predict(X)).sum()), "of 17;",
      "LDA = logistic regression:", int((lda.predict(X) == logistic).sum()), "of 17;",
      "right:", int((nearer == y).sum()))
assert (nearer == lda.predict(X)).all() and (lda.predict(X) == logistic).all()
