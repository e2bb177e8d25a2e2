"""
李航 习题7.2 / Li Hang, exercise 7.2: the maximum-margin hyperplane
===================================================================

**题目**：已知正例点 :math:`x_1=(1,2)^T, x_2=(2,3)^T, x_3=(3,3)^T`，负例点
:math:`x_4=(2,1)^T, x_5=(3,2)^T`，试求最大间隔分离超平面和分类决策函数，并在图上画出分离超平面、
间隔边界及支持向量。

**Question**: with positive points :math:`x_1, x_2, x_3` and negative points :math:`x_4, x_5` as
above, find the maximum-margin separating hyperplane and the decision function, and draw the
hyperplane, the margin boundaries and the support vectors.

The hard-margin SVM (李航 算法7.1, and its dual 算法7.2) is :class:`hyperplane.svm.SVC` with
``kernel="linear"`` and ``C=np.inf``. Worked by hand, the answer is
:math:`w=(-1,2)^T,\\ b=-2`, i.e. :math:`f(x)=\\mathrm{sign}(-x^{(1)}+2x^{(2)}-2)`, with support
vectors :math:`x_1, x_3, x_5` on the margins :math:`w\\cdot x+b=\\pm1`.
"""

import matplotlib.pyplot as plt
import numpy as np

from hyperplane.plot import apply_cjk_font, plot_svm_margins
from hyperplane.svm import SVC

X = np.array([[1.0, 2.0], [2.0, 3.0], [3.0, 3.0], [2.0, 1.0], [3.0, 2.0]])
y = np.array([1, 1, 1, -1, -1])
svm = SVC(kernel="linear", C=np.inf, tol=1e-10).fit(X, y)
print("w =", svm.coef_[0], " b =", svm.intercept_[0])
print("support vectors: x" + ", x".join(str(i + 1) for i in svm.support_))
print("alpha =", np.round(svm.alpha_, 6))
print("w.x + b on the samples:", np.round(svm.decision_function(X), 6))

# %%
# 与手算结果比较 / Comparison with the hand-worked answer
# -------------------------------------------------------
np.testing.assert_allclose(svm.coef_[0], [-1.0, 2.0], atol=1e-8)
np.testing.assert_allclose(svm.intercept_[0], -2.0, atol=1e-8)
assert svm.support_.tolist() == [0, 2, 4]
print("w = (-1, 2), b = -2, support vectors x1, x3, x5: as by hand")

ax = plot_svm_margins(svm, X, y, title="习题7.2: 最大间隔分离超平面")
apply_cjk_font(ax.figure)
plt.show()
