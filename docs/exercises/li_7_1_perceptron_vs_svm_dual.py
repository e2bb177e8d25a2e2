r"""
李航 习题7.1 / Li Hang, exercise 7.1: the dual perceptron and the dual hard-margin SVM
======================================================================================

**题目**：比较感知机的对偶形式与线性可分支持向量机的对偶形式。

**Question**: compare the dual form of the perceptron with the dual form of the linearly separable
(hard-margin) support vector machine.

**答案 / Answer**.

* *Same form of the model.* Both write :math:`w=\sum_i\alpha_iy_ix_i` and
  :math:`f(x)=\operatorname{sign}\big(\sum_i\alpha_iy_i\,x_i\cdot x+b\big)`, and the data enter only
  through the Gram matrix :math:`G=[x_i\cdot x_j]` (so both take a kernel).
* *What α is.* In the perceptron (算法2.2) :math:`\alpha_i=n_i\eta` counts the updates made on
  :math:`x_i`; it is found by stochastic updates on misclassified points and
  :math:`b=\sum_i\alpha_iy_i`. In the SVM (算法7.2, 式7.22–7.24) :math:`\alpha` is the solution of
  a convex quadratic programme, :math:`\min\ \frac12\sum_{i,j}\alpha_i\alpha_jy_iy_j\,x_i\cdot x_j-\sum_i\alpha_i`
  subject to :math:`\sum_i\alpha_iy_i=0`, :math:`\alpha_i\ge0`, and :math:`b=y_j-\sum_i\alpha_iy_i\,x_i\cdot x_j`
  for a support vector :math:`x_j`.
* *Which hyperplane.* The perceptron stops at any separating hyperplane: it depends on the initial
  value and on the order of the points (例2.1's two answers). The SVM's hyperplane is the unique
  one of maximal margin (定理7.1).
* *Sparsity.* Perceptron :math:`\alpha_i>0` for every point ever misclassified; SVM
  :math:`\alpha_i>0` only for the support vectors, by complementary slackness.
* *Separability.* Neither dual has a solution on inseparable data (the perceptron cycles, the SVM
  dual is unbounded); the soft margin (算法7.3) adds :math:`\alpha_i\le C`.

On 例2.1's data (:math:`x_1=(3,3), x_2=(4,3)` positive, :math:`x_3=(1,1)` negative) the page
runs :class:`hyperplane.linear.DualPerceptron` in two visiting orders and
:class:`hyperplane.svm.SVC` with ``C=np.inf``: the perceptron gives :math:`\alpha=(2,0,5)`,
:math:`b=-3` (表2.2) and another hyperplane when the points are visited in another order; the SVM
gives :math:`\alpha=(\frac14,0,\frac14)`, :math:`w=(\frac12,\frac12)`, :math:`b=-2` (例7.2) in
any order, and the same SVM solution is checked against scikit-learn's LIBSVM.

**答案（中文）**：相同之处：两者都写成 w = Σ α_i y_i x_i，f(x) = sign(Σ α_i y_i x_i·x + b)，数据只通过 Gram 矩阵 G = [x_i·x_j] 出现（所以都可以用核）。α 的含义不同：感知机（算法2.2）中 α_i = n_i η 记录在 x_i 上更新的次数，由对误分类点的随机更新得到，b = Σ α_i y_i；SVM（算法7.2，式7.22–7.24）中 α 是凸二次规划的解，b 由某个支持向量求得。超平面不同：感知机停在任意一个分离超平面上，依赖初值与访问顺序（例2.1 的两个答案）；SVM 的超平面是唯一的最大间隔超平面（定理7.1）。稀疏性不同：感知机中凡被误分过的点 α_i > 0；SVM 中只有支持向量的 α_i > 0。

**与公开解答比较 / Compared with public solutions**

datawhale 的《统计学习方法》习题解答（statistical-learning-method-solutions-manual）：它给出前三点（线性组合、α 的求法、任意分离超平面与最大间隔超平面），稀疏性与对访问顺序的依赖是本页补充的。

The datawhale solutions manual makes the first three points (linear combination, α solved for, any
separating vs the maximal-margin hyperplane); sparsity and the dependence on the visiting order are
added here.
"""

import matplotlib.pyplot as plt
import numpy as np
from sklearn.svm import SVC as LibsvmSVC

from hyperplane.linear import DualPerceptron
from hyperplane.plot import apply_cjk_font
from hyperplane.svm import SVC

X = np.array([[3.0, 3.0], [4.0, 3.0], [1.0, 1.0]])
y = np.array([1, 1, -1])
print("Gram matrix G = X X^T (used by both):\n", X @ X.T)

# %%
# 感知机对偶形式 / Dual perceptron, two visiting orders
# -----------------------------------------------------
results = {}
for name, order in (("x1, x2, x3", [0, 1, 2]), ("x3, x2, x1", [2, 1, 0])):
    model = DualPerceptron(eta=1.0).fit(X[order], y[order])
    alpha = np.empty(3)
    alpha[order] = model.alpha_
    w = (alpha * y) @ X
    results[name] = (w, model.intercept_[0])
    print(f"perceptron, order {name}: alpha = {alpha}, w = {w}, b = {model.intercept_[0]}")
np.testing.assert_allclose(results["x1, x2, x3"][0], [1.0, 1.0])
assert results["x1, x2, x3"][1] == -3.0
assert not np.allclose(results["x1, x2, x3"][0], results["x3, x2, x1"][0])

# %%
# 线性可分支持向量机对偶形式 / Dual hard-margin SVM, both orders
# --------------------------------------------------------------
for order in ([0, 1, 2], [2, 1, 0]):
    svm = SVC(kernel="linear", C=np.inf, tol=1e-10).fit(X[order], y[order])
    alpha = np.zeros(3)
    alpha[order] = svm.alpha_  # one alpha per training point
    print(f"SVM, order {order}: alpha = {alpha}, w = {svm.coef_[0]}, b = {svm.intercept_[0]:.6f}")
    np.testing.assert_allclose(alpha, [0.25, 0.0, 0.25], atol=1e-8)
    np.testing.assert_allclose(svm.coef_[0], [0.5, 0.5], atol=1e-8)
    np.testing.assert_allclose(svm.intercept_, [-2.0], atol=1e-8)
peer = LibsvmSVC(kernel="linear", C=1e10, tol=1e-10).fit(X, y)
print("LIBSVM (scikit-learn):", peer.coef_[0], peer.intercept_[0])
np.testing.assert_allclose(peer.coef_[0], svm.coef_[0], atol=1e-6)

figure, ax = plt.subplots(figsize=(5, 4))
ax.scatter(*X[y == 1].T, c="#d62728", s=60, label="+1")
ax.scatter(*X[y == -1].T, c="#1f77b4", marker="x", s=60, label="-1")
xx, yy = np.meshgrid(np.linspace(0, 5, 101), np.linspace(0, 5, 101))
lines = [(f"perceptron ({name})", w, b, colour) for (name, (w, b)), colour in zip(results.items(), "gm")]
for label, w, b, colour in lines + [("SVM (maximal margin)", svm.coef_[0], svm.intercept_[0], "k")]:
    ax.contour(xx, yy, w[0] * xx + w[1] * yy + b, levels=[0], colors=colour)
    ax.plot([], [], color=colour, label=label)
ax.set_xlim(0, 5)
ax.set_ylim(0, 5)
ax.set_title("习题7.1: 感知机对偶形式 vs SVM 对偶形式")
ax.legend(fontsize=7)
apply_cjk_font(figure)
plt.show()
