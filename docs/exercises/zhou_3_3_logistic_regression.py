"""
周志华 习题3.3 / Zhou Zhihua, exercise 3.3: logistic regression on 西瓜数据集3.0α
=================================================================================

**题目**：编程实现对率回归，并给出西瓜数据集 3.0α 上的结果。

**Question**: implement logistic regression and give its result on watermelon data set 3.0α
(密度 density and 含糖率 sugar content of 17 melons, 好瓜 good or not).

:class:`hyperplane.linear.LogisticRegression` minimises the negative log-likelihood of §3.3
(式3.27, :math:`\\ell(\\beta)=\\sum_i(-y_i\\beta^T\\hat x_i+\\ln(1+e^{\\beta^T\\hat x_i}))`) plus
the penalty :math:`\\frac{1}{2C}\\|w\\|^2`; a large ``C`` gives the book's unpenalised model.
The book gives no figures for this exercise; we compare with scikit-learn's solver of the same
objective.
"""

import matplotlib.pyplot as plt
import numpy as np
from sklearn.linear_model import LogisticRegression as SklearnLogisticRegression

from hyperplane.datasets import load_watermelon
from hyperplane.linear import LogisticRegression
from hyperplane.plot import apply_cjk_font, plot_decision_regions

X, y = load_watermelon("3.0alpha")
print(X.head())

model = LogisticRegression(C=1e4, max_iter=1000).fit(X, y)
print("w =", model.coef_[0], " b =", model.intercept_[0])
print("training accuracy:", model.score(X, y))
print("p(好瓜=是 | x) of the first five melons:", np.round(model.predict_proba(X)[:5, 1], 3))

# %%
# 与 scikit-learn 比较 / Against scikit-learn
# -------------------------------------------
# Same objective (scikit-learn's ``C`` has the same meaning), so the same coefficients.
peer = SklearnLogisticRegression(C=1e4, tol=1e-10, max_iter=10000).fit(X, y)
print("scikit-learn: w =", peer.coef_[0], " b =", peer.intercept_[0])
np.testing.assert_allclose(model.coef_, peer.coef_, rtol=1e-3, atol=1e-3)

# %%
# 3.0α is not linearly separable: a linear model gets about 70% of the training melons right.
ax = plot_decision_regions(model, X, y, title="习题3.3: 对率回归, 西瓜数据集3.0α")
apply_cjk_font(ax.figure)
plt.show()
