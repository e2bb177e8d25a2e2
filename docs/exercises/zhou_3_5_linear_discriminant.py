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
"""

import matplotlib.pyplot as plt
import numpy as np

from hyperplane.datasets import load_watermelon
from hyperplane.linear import FisherDiscriminant
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
