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

**答案 / Answer**: w = (−1, 2)ᵀ, b = −2; the separating hyperplane is −x⁽¹⁾ + 2x⁽²⁾ − 2 = 0, the
decision function f(x) = sign(−x⁽¹⁾ + 2x⁽²⁾ − 2), the margin boundaries −x⁽¹⁾ + 2x⁽²⁾ − 2 = ±1, and
the support vectors x₁, x₃ (positive) and x₅ (negative), with α = (1/2, 0, 2, 0, 5/2).

**答案（中文）**：硬间隔 SVM（李航 算法7.1 及其对偶算法7.2）即库中 kernel="linear"、C = ∞ 的 SVC。手算的答案为 w = (−1, 2)ᵀ、b = −2，即 f(x) = sign(−x⁽¹⁾ + 2x⁽²⁾ − 2)，支持向量为位于间隔边界 w·x + b = ±1 上的 x₁、x₃、x₅。

**与公开解答比较 / Compared with public solutions**

datawhale 的《统计学习方法》习题解答用 scikit-learn 的 SVC(kernel='linear', C=10000) 求解，得到 w = (-1, 2)ᵀ、b = -2，支持向量为 x₅、x₁、x₃，与本页的答案一致。它用很大的 C 近似硬间隔；本页用 C = ∞，即算法7.1 的硬间隔本身。本页最后一节检验：这组数据上 C = 10000 与 C = ∞ 得到同一个超平面，因为硬间隔解的 α 远小于 10000（上界不起作用）。

The datawhale solutions manual solves it with scikit-learn's SVC(kernel='linear', C=10000) and gets
w = (-1, 2)ᵀ, b = -2 with support vectors x₅, x₁, x₃, the answer of this page. It approximates the
hard margin by a large C; this page uses C = ∞, 算法7.1's hard margin itself. The last section checks
that on these points C = 10000 and C = ∞ give the same hyperplane: the hard-margin α are far below
10000, so the bound is never active.
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

# %%
# 与公开解答比较 / Against the datawhale solutions manual (C = 10000)
# -------------------------------------------------------------------
# The manual takes a large finite C. The hard-margin multipliers are far below it, so the soft
# margin with C = 10000 is the same problem's solution.
large_C = SVC(kernel="linear", C=10000.0, tol=1e-10).fit(X, y)
print("C = 10000: w =", large_C.coef_[0], " b =", large_C.intercept_[0],
      " largest alpha with C = inf:", svm.alpha_.max())
assert svm.alpha_.max() < 10000.0
np.testing.assert_allclose(large_C.coef_[0], [-1.0, 2.0], atol=1e-6)
np.testing.assert_allclose(large_C.intercept_[0], -2.0, atol=1e-6)
assert sorted(large_C.support_) == sorted(svm.support_)
