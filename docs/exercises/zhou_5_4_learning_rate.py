r"""
周志华 习题5.4 / Zhou Zhihua, exercise 5.4: the learning rate of 式5.6
======================================================================

**题目**：试述式 (5.6) 中学习率的取值对神经网络训练的影响。

**Question**: describe how the value of the learning rate :math:`\eta` in 式5.6,
:math:`\Delta w_{hj}=-\eta\,\partial E_k/\partial w_{hj}`, affects the training of a neural network.

**答案 / Answer**: :math:`\eta\in(0,1)` in the book (often 0.1) sets the step along the negative
gradient.

* *Too small*: every step is short, so training needs many epochs and may stop (by ``tol`` or
  ``max_iter``) long before a minimum; it also settles into the nearest local minimum or plateau.
* *Too large*: steps overshoot the minimum along steep directions, so the error oscillates or
  grows (divergence), and sigmoid units are pushed into saturation where :math:`f'\approx0` and
  learning stops (paralysis, 式5.15's :math:`e_h\to0`).
* *In between*, a larger :math:`\eta` is faster, up to the largest stable step, which depends on
  the curvature of :math:`E` (for a quadratic, :math:`\eta<2/\lambda_{\max}` of the Hessian). Hence
  the usual remedies: a decreasing schedule, a separate :math:`\eta` per layer (the book mentions
  that 式5.11–5.12 and 5.13–5.14 may use different rates), momentum, or rates adapted during
  training (习题5.6).

The page trains the same network, :class:`hyperplane.neural.MLPClassifier` (5 sigmoid hidden
neurons, accumulated BP on 式5.16's :math:`E`, ``loss="squared_error"``) on 西瓜数据集3.0α with
:math:`\eta` from 0.01 to 200 from the same initial weights, and prints the final error and
training accuracy; the loss curves are in the figure.

**答案（中文）**：η 决定沿负梯度方向走多远。太小：每步很短，需要很多轮，可能在到达极小点前就因 tol 或 max_iter 停止，也容易停在最近的局部极小或平台。太大：沿陡峭方向越过极小点，误差振荡甚至增大（发散），还会把 Sigmoid 单元推入饱和区，f′ ≈ 0，学习停滞（式5.15 的 e_h 趋于 0）。对二次函数，收敛要求 η < 2/λ_max（Hessian 的最大特征值）。常用办法：逐渐减小的学习率、各层不同的学习率、动量，或训练中自适应调整（习题5.6）。本页在西瓜数据集 3.0α 上从同一初始权重以 η 从 0.01 到 200 训练同一个网络，比较最终误差与训练精度。

**与公开解答比较 / Compared with public solutions**

公开解答（han1057578619 的习题集）的结论与本页一致：学习率太大时误差来回振荡、不收敛，太小时收敛太慢。本页还指出大学习率会使 Sigmoid 单元饱和，并用实验画出了不同学习率下的误差曲线。

The public solution set of han1057578619 reaches the same conclusion: too large a rate makes the
error oscillate and not converge, too small a rate converges slowly. This page also notes that a
large rate saturates the sigmoid units, and draws the error curves of several rates.
"""

import warnings

import matplotlib.pyplot as plt
import numpy as np
from sklearn.exceptions import ConvergenceWarning

from hyperplane.datasets import load_watermelon
from hyperplane.neural import MLPClassifier
from hyperplane.plot import apply_cjk_font

X, y = load_watermelon("3.0alpha")
curves = {}
for eta in (0.01, 0.1, 1.0, 10.0, 50.0, 200.0):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        net = MLPClassifier(hidden_layer_sizes=(5,), loss="squared_error", bp="accumulated",
                            learning_rate=eta, max_iter=2000, tol=0.0, random_state=1).fit(X, y)
    curves[eta] = np.array(net.loss_curve_)
    tail = curves[eta][-200:]
    print(f"eta = {eta:6}: final E = {curves[eta][-1]:.4f}, training accuracy {net.score(X, y):.3f}, "
          f"E over the last 200 epochs rises {np.sum(np.diff(tail) > 1e-12)} times")
assert curves[0.01][-1] > curves[1.0][-1] > curves[10.0][-1]   # small steps: slow
assert curves[0.01][-1] > 0.9 * curves[0.01][0]                 # eta = 0.01 has barely moved
big = curves[200.0]
assert np.sum(np.diff(big) > 0) > 10 or big[-1] > curves[10.0][-1]  # too large: oscillates or stalls

figure, ax = plt.subplots(figsize=(6, 4))
for eta, curve in curves.items():
    ax.plot(curve, label=f"η = {eta}")
ax.set_xscale("log")
ax.set_xlabel("epoch")
ax.set_ylabel("E (式5.16)")
ax.set_title("习题5.4: 学习率的影响 (西瓜数据集3.0α)")
ax.legend(fontsize=8)
apply_cjk_font(figure)
plt.show()
