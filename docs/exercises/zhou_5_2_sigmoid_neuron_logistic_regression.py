r"""
周志华 习题5.2 / Zhou Zhihua, exercise 5.2: a sigmoid neuron and logistic regression
====================================================================================

**题目**：试述使用图 5.2(b) 激活函数的神经元与对率回归的联系。

**Question**: describe the relation between a neuron with the activation function of 图5.2(b)
(the sigmoid) and logistic regression.

**答案 / Answer**: the M-P neuron of 图5.1 with the sigmoid computes
:math:`y=\operatorname{sigmoid}(\sum_iw_ix_i-\theta)=1/(1+e^{-(w^Tx-\theta)})`, which is the
logistic regression model 式3.18 with :math:`b=-\theta`: the same function of the input. The two
differ only in how the parameters are fitted. Trained on the cross-entropy (the negative
log-likelihood 式3.27), the neuron *is* logistic regression, and gradient descent on it converges
to the same maximum-likelihood :math:`(w,b)` (the objective is convex, 习题3.2). Trained on the
squared error of 式5.4, :math:`E=\frac12(\hat y-y)^2`, it minimises another, non-convex objective
and in general ends elsewhere. Conversely, a network of such neurons is a composition of logistic
regressions: each hidden neuron is a logistic regression of the inputs, the output neuron one of
the hidden outputs (for several outputs with softmax, multinomial logistic regression).

The page trains one sigmoid neuron, :class:`hyperplane.neural.MLPClassifier` with
``hidden_layer_sizes=()`` (accumulated BP, no penalty), on 西瓜数据集3.0α with each loss and
compares it with :class:`hyperplane.linear.LogisticRegression` (Newton's method, ``C=1e12``):
with the cross-entropy the weights agree to within 1e-3 (习题3.3's
:math:`\beta=(3.1583, 12.5212; -4.4289)`), with the squared error they do not.

**答案（中文）**：图5.1 的 M-P 神经元用 Sigmoid 激活时输出 y = sigmoid(wᵀx − θ)，这正是式3.18 的对率回归模型（b = −θ）：同一个函数。两者只在参数的拟合方式上不同：用交叉熵（式3.27 的负对数似然）训练时，这个神经元就是对率回归，梯度下降收敛到同一个极大似然解（目标是凸的，习题3.2）；用式5.4 的平方误差训练时，目标非凸，得到的 (w, b) 一般不同。反过来，由这种神经元组成的网络是对率回归的复合。本页在西瓜数据集 3.0α 上分别用两种损失训练单个 Sigmoid 神经元，并与库中的对率回归比较：交叉熵时权重在 1e-3 内一致，平方误差时不一致。

**与公开解答比较 / Compared with public solutions**

公开解答（han1057578619 的习题集）说两者几乎相同，只是对率回归在 sigmoid 大于 0.5 时输出 1，而神经元直接输出 sigmoid 值。这与本页不同，本页是对的：式3.18 的对率回归本身输出的就是概率 sigmoid(wᵀx+b)，以 0.5 为阈值是两者共用的分类规则；两者的真正区别在于参数如何拟合，对率回归最大化似然（式3.27），而 BP 中的神经元最小化平方误差（式5.4），本页用实验显示了这一区别。

The public solution set of han1057578619 says the two are nearly the same except that logistic
regression outputs 1 when the sigmoid exceeds 0.5 while the neuron outputs the sigmoid itself. This
page differs and is right: logistic regression (式3.18) outputs the probability sigmoid(wᵀx+b) too,
and the threshold 0.5 is a classification rule both can use; they differ in how the parameters are
fitted, logistic regression by maximum likelihood (式3.27), the neuron of BP by the squared error
(式5.4), as this page shows by experiment.
"""

import matplotlib.pyplot as plt
import numpy as np

from hyperplane.datasets import load_watermelon
from hyperplane.linear import LogisticRegression
from hyperplane.neural import MLPClassifier
from hyperplane.plot import apply_cjk_font

X, y = load_watermelon("3.0alpha")
logistic = LogisticRegression(C=1e12, solver="newton", tol=1e-12).fit(X, y)
beta = np.r_[logistic.coef_[0], logistic.intercept_]
print("logistic regression (式3.27, Newton): w =", beta[:2].round(4), " b =", beta[2].round(4))

neurons = {}
for loss in ("log_loss", "squared_error"):
    neuron = MLPClassifier(hidden_layer_sizes=(), loss=loss, bp="accumulated", learning_rate=5.0,
                           max_iter=20000, tol=1e-12, n_iter_no_change=50, shuffle=False,
                           random_state=0).fit(X, y)
    neurons[loss] = neuron
    w, b = neuron.coefs_[0].ravel(), neuron.intercepts_[0][0]   # intercept = -theta
    print(f"sigmoid neuron, {loss}: w = {w.round(4)}, theta = {-b:.4f} (b = {b:.4f}), "
          f"{neuron.n_iter_} epochs")
np.testing.assert_allclose(np.r_[neurons["log_loss"].coefs_[0].ravel(), neurons["log_loss"].intercepts_[0]],
                           beta, atol=1e-3)
squared = np.r_[neurons["squared_error"].coefs_[0].ravel(), neurons["squared_error"].intercepts_[0]]
print("distance of the squared-error neuron from the logistic regression:", np.linalg.norm(squared - beta).round(3))
assert np.linalg.norm(squared - beta) > 0.5

figure, ax = plt.subplots(figsize=(5.5, 4))
good = (y == "是").to_numpy()
ax.scatter(X["密度"][good], X["含糖率"][good], c="C3", label="好瓜")
ax.scatter(X["密度"][~good], X["含糖率"][~good], c="C0", marker="x", label="坏瓜")
xx = np.linspace(0.2, 0.8, 10)
for (label, w, b), style in zip([("对率回归", beta[:2], beta[2])] +
                                [(f"neuron, {k}", m.coefs_[0].ravel(), m.intercepts_[0][0]) for k, m in neurons.items()],
                                ("k-", "r--", "g:")):
    ax.plot(xx, -(w[0] * xx + b) / w[1], style, label=label)
ax.set_ylim(0, 0.55)
ax.set_xlabel("密度")
ax.set_ylabel("含糖率")
ax.set_title("习题5.2: sigmoid 神经元与对率回归")
ax.legend(fontsize=8)
apply_cjk_font(figure)
plt.show()
