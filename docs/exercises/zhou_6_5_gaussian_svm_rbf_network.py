r"""
周志华 习题6.5 / Zhou Zhihua, exercise 6.5: the Gaussian-kernel SVM and the RBF network
=======================================================================================

**题目**：试述高斯核 SVM 与 RBF 神经网络之间的联系。

**Question**: describe the connection between the Gaussian-kernel SVM and the RBF neural network.

**答案 / Answer**. The Gaussian-kernel SVM's decision function (式6.24 with 表6.1's kernel)

.. math::

   f(x)=\sum_{i\in SV}\alpha_iy_i\,e^{-\|x-x_i\|^2/(2\sigma^2)}+b

has exactly the form of an RBF network (式5.18–5.19):
:math:`\varphi(x)=\sum_{i=1}^qw_ie^{-\beta\|x-c_i\|^2}` (plus a bias unit), with one hidden neuron
per support vector, centre :math:`c_i=x_i`, width :math:`\beta=1/(2\sigma^2)` and output weight
:math:`w_i=\alpha_iy_i`. The two differ in how that network is found: the SVM chooses the number of
hidden neurons, their centres (a subset of the samples) and the output weights all at once, as the
solution of a convex quadratic programme that maximises the margin (so no local minima); an RBF
network usually fixes the centres first (random samples, clustering) and then trains the weights
by least squares or BP on the squared error. Conversely, an RBF network whose centres are all the
samples, trained with a margin loss and a norm penalty, *is* the SVM. So a Gaussian SVM can be
read as an RBF network trained by structural risk minimisation.

The page takes a Gaussian :class:`hyperplane.svm.SVC` on 西瓜数据集3.0α, rebuilds its decision
function as an RBF network in NumPy from ``support_vectors_``, ``alpha_`` and ``intercept_``, and
checks it against ``decision_function``; then it keeps the same centres and width and trains only
the output layer by least squares (the RBF-network way) and compares the two boundaries.

**答案（中文）**：高斯核 SVM 的决策函数 f(x) = Σ_{i∈SV} α_i y_i exp(−‖x − x_i‖²/(2σ²)) + b 与 RBF 网络（式5.18–5.19）的形式完全相同：每个支持向量一个隐层神经元，中心 c_i = x_i，宽度 β = 1/(2σ²)，输出权重 w_i = α_i y_i，外加偏置。两者的区别在于如何得到这个网络：SVM 通过最大化间隔同时决定隐层神经元的个数、中心（样本的一个子集）与输出权重（凸问题，没有局部极小）；RBF 网络通常先定中心（随机样本或聚类），再用最小二乘或 BP 训练权重。反之，以全部样本为中心、用间隔损失加范数罚项训练的 RBF 网络就是 SVM。本页用库中高斯核 SVC 的支持向量、α 与截距重建出 RBF 网络并与 decision_function 核对。

**与公开解答比较 / Compared with public solutions**

公开解答（han1057578619 的习题集）与本页一致：把 RBF 网络的隐层神经元数设为训练样本数、以每个样本为中心时，其形式与高斯核 SVM 的决策函数相同；两者的训练目标与方法不同。

The public solution set of han1057578619 agrees with this page: an RBF network with one hidden
neuron per training sample, centred on it, has the form of the Gaussian-kernel SVM's decision
function; the two differ in their training objective and method.
"""

import matplotlib.pyplot as plt
import numpy as np

from hyperplane.datasets import load_watermelon
from hyperplane.plot import apply_cjk_font
from hyperplane.svm import SVC

X, labels = load_watermelon("3.0alpha")
X = X.to_numpy()
y = np.where(labels == "是", 1.0, -1.0)
gamma = 10.0
svm = SVC(kernel="rbf", gamma=gamma, C=10.0).fit(X, y)
centres = svm.support_vectors_
weights = svm.alpha_[svm.support_] * y[svm.support_]
print(f"{len(centres)} hidden neurons (support vectors), beta = gamma = {gamma}")


def rbf_layer(A):
    return np.exp(-gamma * ((A[:, None, :] - centres[None, :, :]) ** 2).sum(-1))   # 式5.19


network = rbf_layer(X) @ weights + svm.intercept_[0]          # 式5.18 plus the bias unit
np.testing.assert_allclose(network, svm.decision_function(X), atol=1e-10)
print("RBF network output = SVM decision function, largest gap",
      f"{np.abs(network - svm.decision_function(X)).max():.1e}")

design = np.column_stack([rbf_layer(X), np.ones(len(X))])
least_squares, *_ = np.linalg.lstsq(design, y, rcond=None)
print(f"SVM weights: training accuracy {np.mean(np.sign(network) == y):.3f}; "
      f"least-squares output layer on the same centres: {np.mean(np.sign(design @ least_squares) == y):.3f}")

figure, axes = plt.subplots(1, 2, figsize=(9, 4))
xx, yy = np.meshgrid(np.linspace(0.2, 0.8, 150), np.linspace(0.0, 0.5, 150))
grid = np.column_stack([xx.ravel(), yy.ravel()])
for ax, values, title in ((axes[0], rbf_layer(grid) @ weights + svm.intercept_[0], "SVM 的权重 α_i y_i"),
                          (axes[1], np.column_stack([rbf_layer(grid), np.ones(len(grid))]) @ least_squares,
                           "最小二乘训练的输出层")):
    ax.contourf(xx, yy, values.reshape(xx.shape), levels=20, cmap="coolwarm", alpha=0.6)
    ax.contour(xx, yy, values.reshape(xx.shape), levels=[0], colors="k")
    ax.scatter(*X.T, c=y, cmap="coolwarm", edgecolors="k")
    ax.scatter(*centres.T, s=150, facecolors="none", edgecolors="g")
    ax.set_title(f"习题6.5: {title}", fontsize=9)
apply_cjk_font(figure)
plt.show()
