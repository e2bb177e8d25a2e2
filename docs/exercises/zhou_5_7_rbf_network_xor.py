r"""
周志华 习题5.7 / Zhou Zhihua, exercise 5.7: a single-layer RBF network for XOR
==============================================================================

**题目**：根据式 (5.18) 和 (5.19)，试构造一个能解决异或问题的单层 RBF 神经网络。

**Question**: following 式5.18 and 5.19, construct a single-layer RBF neural network that solves
the XOR problem.

**答案 / Answer**: an RBF network is :math:`\varphi(x)=\sum_{i=1}^qw_i\rho(x,c_i)` (式5.18) with
Gaussian radial basis functions :math:`\rho(x,c_i)=e^{-\beta_i\|x-c_i\|^2}` (式5.19). Take the four
XOR points as centres, :math:`\beta=1`, labels :math:`y=(0,1,1,0)` for
:math:`(0,0),(0,1),(1,0),(1,1)`. The matrix :math:`\Phi_{ki}=\rho(x_k,c_i)` is a Gaussian kernel
matrix of distinct points, hence positive definite and invertible, so :math:`w=\Phi^{-1}y`
interpolates the labels exactly: :math:`\varphi(x_k)=y_k`, and
:math:`\operatorname{sign}(\varphi(x)-\frac12)` classifies XOR. Two centres are enough:
:math:`c_1=(0,0)`, :math:`c_2=(1,1)` and a bias :math:`w_0` (a constant unit). By symmetry
:math:`w_1=w_2=w`, and the conditions :math:`\varphi(0,0)=w(1+e^{-2})+w_0=0`,
:math:`\varphi(0,1)=2we^{-1}+w_0=1` give :math:`w=-1/(1-e^{-1})^2\approx-2.5027`,
:math:`w_0=(1+e^{-2})/(1-e^{-1})^2\approx2.8413`, again interpolating XOR exactly. The page finds
those weights by least squares, which is how the output layer of an RBF network is trained once
the centres are fixed (e.g. by clustering, §5.5.1).

hyperplane has no RBF network, so the page builds both networks in NumPy. For comparison, a
Gaussian-kernel :class:`hyperplane.svm.SVC` is also an RBF network of this form (习题6.5): its
centres are the support vectors and its weights :math:`\alpha_iy_i`; on XOR all four points are
support vectors.

**答案（中文）**：RBF 网络为 φ(x) = Σ_i w_i ρ(x, c_i)（式5.18），ρ(x, c_i) = exp(−β_i ‖x − c_i‖²)（式5.19）。取异或的四个点为中心、β = 1、标记 y = (0, 1, 1, 0)。矩阵 Φ_ki = ρ(x_k, c_i) 是互异点的高斯核矩阵，正定可逆，故 w = Φ⁻¹y 精确插值：φ(x_k) = y_k，用 φ(x) 与 1/2 比较即可正确分类异或。也可以只用两个中心 (0, 0)、(1, 1) 再加一个常数单元 w_0：由对称性得 w ≈ −2.5027、w_0 ≈ 2.8413，同样精确插值。hyperplane 没有 RBF 网络，本页用 NumPy 构造这两个网络。

**与公开解答比较 / Compared with public solutions**

公开解答（han1057578619 的习题集）同样以四个异或点为中心，但另加了书中没有的偏置项，并用梯度下降最小化平方误差，输出约为 (1, 1, 0, 0)，是近似解。本页直接解 w = Φ⁻¹y：高斯核矩阵正定可逆，插值精确，不需要偏置和迭代。两者都解决了异或问题。

The public solution set of han1057578619 also takes the four XOR points as centres, adds a bias the
book's 式5.18 does not have, and minimises the squared error by gradient descent, reaching outputs of
about (1, 1, 0, 0), an approximation. This page solves w = Φ⁻¹y directly: the Gaussian kernel matrix
is positive definite, so the interpolation is exact, without bias or iterations. Both solve XOR.
"""

import matplotlib.pyplot as plt
import numpy as np

from hyperplane.plot import apply_cjk_font
from hyperplane.svm import SVC

X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
y = np.array([0.0, 1.0, 1.0, 0.0])
beta = 1.0


def rho(A, centres):
    """式5.19: exp(-beta ||x - c_i||^2) for every row of A and every centre."""
    return np.exp(-beta * ((A[:, None, :] - centres[None, :, :]) ** 2).sum(-1))


# %%
# Four centres: exact interpolation
# ---------------------------------
Phi = rho(X, X)
w = np.linalg.solve(Phi, y)
print("four centres: w =", w.round(4), " phi(x_k) =", (Phi @ w).round(12))
np.testing.assert_allclose(Phi @ w, y, atol=1e-12)

# %%
# Two centres and a bias: least squares
# -------------------------------------
centres = np.array([[0.0, 0.0], [1.0, 1.0]])
design = np.column_stack([rho(X, centres), np.ones(4)])
w2, *_ = np.linalg.lstsq(design, y, rcond=None)
print("two centres: w =", w2[:2].round(4), " bias =", round(w2[2], 4), " phi(x_k) =", (design @ w2).round(4))
np.testing.assert_allclose(w2, [-1 / (1 - np.exp(-1)) ** 2] * 2 + [(1 + np.exp(-2)) / (1 - np.exp(-1)) ** 2])
np.testing.assert_allclose(design @ w2, y, atol=1e-12)

svm = SVC(kernel="rbf", gamma=beta, C=np.inf).fit(X, y)
print("Gaussian SVM: support vectors", svm.support_.tolist(), " predictions", svm.predict(X))
assert (svm.predict(X) == y).all() and len(svm.support_) == 4

figure, axes = plt.subplots(1, 2, figsize=(9, 4))
xx, yy = np.meshgrid(np.linspace(-0.5, 1.5, 150), np.linspace(-0.5, 1.5, 150))
grid = np.column_stack([xx.ravel(), yy.ravel()])
outputs = (rho(grid, X) @ w, np.column_stack([rho(grid, centres), np.ones(len(grid))]) @ w2)
for ax, phi, title in zip(axes, outputs, ("4 个中心 (插值)", "2 个中心 + 偏置 (最小二乘)")):
    contour = ax.contourf(xx, yy, phi.reshape(xx.shape), levels=20, cmap="coolwarm")
    ax.contour(xx, yy, phi.reshape(xx.shape), levels=[0.5], colors="k")
    ax.scatter(*X.T, c=y, cmap="coolwarm", edgecolors="k", s=80)
    ax.set_title(f"习题5.7: RBF 网络, {title}", fontsize=9)
apply_cjk_font(figure)
plt.show()
