r"""
周志华 习题5.1 / Zhou Zhihua, exercise 5.1: a linear activation function
========================================================================

**题目**：试述将线性函数 :math:`f(x)=w^Tx` 用作神经元激活函数的缺陷。

**Question**: describe the drawbacks of using a linear function :math:`f(x)=w^Tx` as the
activation function of the neurons.

**答案 / Answer**.

1. *Depth buys nothing.* A layer of linear neurons computes :math:`b=Vx-\gamma`, the next
   :math:`y=Wb-\theta=(WV)x-(W\gamma+\theta)`: a composition of affine maps is affine, so a
   multi-layer network of linear neurons is exactly a single-layer linear model (linear
   regression, §3.2). It cannot represent XOR or any nonlinear boundary, however many hidden
   layers and neurons it has; the point of §5.2's hidden layers, together with the universal
   approximation property (Hornik et al. 1989), depends on a nonlinear :math:`f`.
2. *No bounded output.* The output is unbounded, so it cannot be read as a probability or a 0/1
   decision (the role of 图5.2's step and sigmoid functions), and the squared error of 式5.4
   then grows without limit on outliers.
3. *The gradient does not depend on the state of the neuron.* :math:`f'` is constant, so BP's
   gradients carry no information about how far a neuron is into its decision; nothing is gained
   over fitting the equivalent single linear model directly (and the problem becomes one of
   ill-conditioned products of weight matrices).

The page checks 1 numerically: a two-layer linear network with random weights equals one affine map;
the best affine function of XOR (least squares, NumPy) predicts 0.5 everywhere; and
:class:`hyperplane.neural.MLPClassifier` with a sigmoid hidden layer learns XOR while the same
network without a hidden layer (``hidden_layer_sizes=()``, a single sigmoid neuron: a linear
boundary) cannot.

**答案（中文）**：(1) 加深没有用：一层线性神经元算出 b = Vx − γ，下一层 y = Wb − θ = (WV)x − (Wγ + θ)，仿射映射的复合仍是仿射映射，多层线性网络就是单层线性模型（§3.2 的线性回归），无论多少隐层都不能表示异或等非线性边界；§5.2 隐层的作用与万有逼近性（Hornik 等 1989）都依赖非线性的激活函数。(2) 输出无界：没有图5.2 阶跃函数或 Sigmoid 那样把输出压到 (0, 1) 的作用，式5.4 的平方误差会被离群点无限放大。(3) 梯度与神经元的状态无关：f′ 是常数，BP 的梯度不带有神经元离决策有多远的信息，比直接拟合等价的单个线性模型没有任何好处。本页用数值验证了第 1 点。

**与公开解答比较 / Compared with public solutions**

公开解答（han1057578619 的习题集）指出：用线性激活函数时，无论多少层，输出前的值仍是输入的线性组合，网络等价于对率回归（输出层用 Sigmoid）或线性回归（输出层也线性）。与本页第 1 点一致。

The public solution set of han1057578619 notes that with linear activations the value before the
output is a linear combination of the inputs however many layers there are, so the network is
logistic regression (sigmoid output) or linear regression (linear output). It agrees with point 1 of
this page.
"""

import matplotlib.pyplot as plt
import numpy as np

from hyperplane.neural import MLPClassifier
from hyperplane.plot import apply_cjk_font

rng = np.random.default_rng(0)
X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
y = np.array([0, 1, 1, 0])

# %%
# Linear layers collapse into one
# -------------------------------
V, gamma = rng.normal(size=(2, 5)), rng.normal(size=5)
W, theta = rng.normal(size=(5, 1)), rng.normal(size=1)
points = rng.normal(size=(100, 2))
deep = (points @ V - gamma) @ W - theta
single = points @ (V @ W) - (gamma @ W + theta)
np.testing.assert_allclose(deep, single, atol=1e-12)
print("two linear layers = one affine map (max difference "
      f"{np.abs(deep - single).max():.1e})")
coef, *_ = np.linalg.lstsq(np.column_stack([X, np.ones(4)]), y, rcond=None)
print("best affine fit of XOR:", coef.round(12), "-> predicts", np.column_stack([X, np.ones(4)]) @ coef)
np.testing.assert_allclose(coef, [0.0, 0.0, 0.5], atol=1e-12)

# %%
# A nonlinear hidden layer learns XOR
# -----------------------------------
hidden = MLPClassifier(hidden_layer_sizes=(4,), bp="accumulated", learning_rate=1.0, max_iter=5000,
                       tol=1e-6, random_state=0).fit(X, y)
single_neuron = MLPClassifier(hidden_layer_sizes=(), bp="accumulated", learning_rate=1.0, max_iter=5000,
                              tol=1e-6, random_state=0).fit(X, y)
print(f"epochs: {hidden.n_iter_} with the hidden layer, {single_neuron.n_iter_} without")
print("sigmoid hidden layer:", hidden.predict(X), " no hidden layer:", single_neuron.predict(X), " XOR:", y)
assert (hidden.predict(X) == y).all() and (single_neuron.predict(X) != y).any()

figure, axes = plt.subplots(1, 2, figsize=(8, 3.5))
xx, yy = np.meshgrid(np.linspace(-0.5, 1.5, 100), np.linspace(-0.5, 1.5, 100))
grid = np.column_stack([xx.ravel(), yy.ravel()])
for ax, model, title in ((axes[0], single_neuron, "无隐层 (线性边界)"), (axes[1], hidden, "sigmoid 隐层 (4)")):
    ax.contourf(xx, yy, model.predict_proba(grid)[:, 1].reshape(xx.shape), levels=20, cmap="coolwarm", alpha=0.5)
    ax.scatter(*X.T, c=y, cmap="coolwarm", edgecolors="k", s=80)
    ax.set_title(title)
apply_cjk_font(figure)
plt.show()
