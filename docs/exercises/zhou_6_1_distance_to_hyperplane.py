r"""
周志华 习题6.1 / Zhou Zhihua, exercise 6.1: the distance from a point to a hyperplane (式6.2)
=============================================================================================

**题目**：试证明样本空间中任意点 :math:`x` 到超平面 :math:`(w,b)` 的距离为式 (6.2)。

**Question**: prove that the distance from any point :math:`x` of the sample space to the
hyperplane :math:`(w,b)`, :math:`w^Tx+b=0`, is 式6.2, :math:`r=\frac{|w^Tx+b|}{\|w\|}`.

**答案 / Answer**. :math:`w` is normal to the hyperplane: for two points :math:`x_1,x_2` on it,
:math:`w^T(x_1-x_2)=(-b)-(-b)=0`. Let :math:`x_0` be the orthogonal projection of :math:`x` onto
the hyperplane; then :math:`x-x_0` is parallel to :math:`w`, :math:`x=x_0+r\frac{w}{\|w\|}` for a
signed :math:`r`, and the distance is :math:`|r|`. Multiply by :math:`w^T` and add :math:`b`:

.. math::

   w^Tx+b=\underbrace{w^Tx_0+b}_{=0}+r\frac{w^Tw}{\|w\|}=r\|w\|
   \quad\Rightarrow\quad |r|=\frac{|w^Tx+b|}{\|w\|}.

That :math:`x_0` is the nearest point of the hyperplane: for any :math:`z` on it,
:math:`\|x-z\|^2=\|x-x_0\|^2+\|x_0-z\|^2\ge\|x-x_0\|^2` (Pythagoras, since :math:`x_0-z\perp w`).
Equivalently, minimising :math:`\|x-z\|^2` subject to :math:`w^Tz+b=0` with a Lagrange multiplier
gives :math:`z=x-\frac{w^Tx+b}{\|w\|^2}w`.

The page checks the formula against a numerical minimisation of :math:`\|x-z\|` on the
hyperplane (scipy's SLSQP) for random :math:`w, b, x` in 5 dimensions, and on the SVM of 例7.1 /
式6.4: the support vectors of :class:`hyperplane.svm.SVC` lie at distance :math:`1/\|w\|` (the
margin is :math:`\gamma=2/\|w\|`), the other points farther.

**答案（中文）**：w 是超平面的法向量：对超平面上的两点 x₁、x₂，wᵀ(x₁ − x₂) = (−b) − (−b) = 0。设 x₀ 为 x 在超平面上的正交投影，则 x − x₀ 平行于 w，x = x₀ + r w/‖w‖（r 带符号），距离为 r 的绝对值。两边乘以 wᵀ 再加 b：wᵀx + b = (wᵀx₀ + b) + r wᵀw/‖w‖ = r‖w‖，所以 r = (wᵀx + b)/‖w‖，取绝对值即得式6.2。

**与公开解答比较 / Compared with public solutions**

公开解答（han1057578619 的习题集）用同样的正交投影论证：点到超平面的向量平行于 w，代入超平面方程得 γ = (wᵀx+b)/‖w‖。它得到的是带符号的距离，没有取绝对值；式6.2 的距离是其绝对值，本页的推导给出了这一步。

The public solution set of han1057578619 uses the same orthogonal projection: the vector from the
hyperplane to the point is parallel to w, and the hyperplane's equation gives γ = (wᵀx+b)/‖w‖. That
is the signed distance; 式6.2's distance is its absolute value, the step this page's derivation adds.
"""

import matplotlib.pyplot as plt
import numpy as np
from scipy.optimize import minimize

from hyperplane.plot import apply_cjk_font, plot_svm_margins
from hyperplane.svm import SVC

rng = np.random.default_rng(0)
worst = 0.0
for _ in range(50):
    w, b, x = rng.normal(size=5), rng.normal(), rng.normal(size=5) * 3
    formula = abs(w @ x + b) / np.linalg.norm(w)
    nearest = minimize(lambda z: np.sum((z - x) ** 2), np.zeros(5), method="SLSQP",
                       constraints=[{"type": "eq", "fun": lambda z: w @ z + b}], options={"ftol": 1e-14})
    worst = max(worst, abs(np.sqrt(nearest.fun) - formula))
    z = x - (w @ x + b) / (w @ w) * w  # the projection of the answer
    np.testing.assert_allclose(nearest.x, z, atol=1e-5)
print(f"50 random (w, b, x) in R^5: |formula - numerical minimum| <= {worst:.1e}")
assert worst < 1e-6

X = np.array([[3.0, 3.0], [4.0, 3.0], [1.0, 1.0]])
y = np.array([1, 1, -1])
svm = SVC(kernel="linear", C=np.inf, tol=1e-10).fit(X, y)
w, b = svm.coef_[0], svm.intercept_[0]
distance = np.abs(X @ w + b) / np.linalg.norm(w)
print(f"例7.1: w = {w}, b = {b:.3f}; distances {distance.round(4)}; 1/||w|| = {1 / np.linalg.norm(w):.4f}")
np.testing.assert_allclose(distance[svm.support_], 1 / np.linalg.norm(w), atol=1e-8)
assert np.all(np.delete(distance, svm.support_) > 1 / np.linalg.norm(w))

figure, ax = plt.subplots(figsize=(5, 4))
plot_svm_margins(svm, X, y, ax=ax, title="习题6.1: 支持向量到超平面的距离 = 1/||w||")
apply_cjk_font(figure)
plt.show()
