r"""
周志华 习题5.3 / Zhou Zhihua, exercise 5.3: deriving BP's update 式5.13 for v_ih
================================================================================

**题目**：对于图 5.7 中的 :math:`v_{ih}`，试推导出 BP 算法中的更新公式 (5.13)。

**Question**: for the weight :math:`v_{ih}` of 图5.7 (input :math:`i` to hidden neuron
:math:`h`), derive BP's update formula 式5.13, :math:`\Delta v_{ih}=\eta e_hx_i`.

**答案 / Answer**. In 图5.7, hidden neuron :math:`h` receives
:math:`\alpha_h=\sum_iv_{ih}x_i` and outputs :math:`b_h=f(\alpha_h-\gamma_h)`; output neuron
:math:`j` receives :math:`\beta_j=\sum_hw_{hj}b_h` and outputs
:math:`\hat y_j=f(\beta_j-\theta_j)`; the error on sample :math:`k` is
:math:`E_k=\frac12\sum_j(\hat y_j-y_j)^2` (式5.4) and BP steps against the gradient,
:math:`\Delta v_{ih}=-\eta\,\partial E_k/\partial v_{ih}`. :math:`v_{ih}` affects :math:`E_k` only
through :math:`\alpha_h`, then :math:`b_h`, then every :math:`\beta_j`:

.. math::

   \frac{\partial E_k}{\partial v_{ih}}
   =\sum_j\frac{\partial E_k}{\partial\hat y_j}\frac{\partial\hat y_j}{\partial\beta_j}
     \frac{\partial\beta_j}{\partial b_h}\frac{\partial b_h}{\partial\alpha_h}
     \frac{\partial\alpha_h}{\partial v_{ih}} .

With the sigmoid, :math:`f'(z)=f(z)(1-f(z))` (式5.9), so
:math:`\frac{\partial E_k}{\partial\hat y_j}\frac{\partial\hat y_j}{\partial\beta_j}=(\hat y_j-y_j)\hat y_j(1-\hat y_j)=-g_j`
(式5.10), :math:`\partial\beta_j/\partial b_h=w_{hj}`,
:math:`\partial b_h/\partial\alpha_h=b_h(1-b_h)` and :math:`\partial\alpha_h/\partial v_{ih}=x_i`. Hence

.. math::

   \frac{\partial E_k}{\partial v_{ih}}=-\Big(b_h(1-b_h)\sum_jw_{hj}g_j\Big)x_i=-e_hx_i,
   \qquad e_h=b_h(1-b_h)\sum_{j=1}^lw_{hj}g_j\ \ (\text{式5.15}),

and :math:`\Delta v_{ih}=-\eta\,\partial E_k/\partial v_{ih}=\eta e_hx_i`, which is 式5.13. (In the
same way :math:`\partial E_k/\partial\gamma_h=e_h`, giving 式5.14's :math:`\Delta\gamma_h=-\eta e_h`.)

The page checks the result on a network trained by :class:`hyperplane.neural.MLPClassifier`
(sigmoid units, ``loss="squared_error"``: the book's :math:`E_k`) on 西瓜数据集3.0α: with the
fitted :math:`v, \gamma, w, \theta` (``coefs_``; ``intercepts_`` are :math:`-\gamma, -\theta`), the
hidden outputs :math:`b_h` written in NumPy equal :func:`hyperplane.neural.hidden_outputs`, and
:math:`-e_hx_i` equals the central finite difference of :math:`E_k` in every :math:`v_{ih}`.

**答案（中文）**：图5.7 中隐层神经元 h 的输入为 α_h = Σ_i v_ih x_i，输出 b_h = f(α_h − γ_h)；v_ih 只经由 α_h、b_h 再经各输出神经元影响 E_k。由链式法则，∂E_k/∂v_ih = Σ_j (∂E_k/∂β_j)(∂β_j/∂b_h)(∂b_h/∂α_h)(∂α_h/∂v_ih) = −Σ_j g_j w_hj · f′(α_h − γ_h) · x_i，而 Sigmoid 的 f′ = b_h(1 − b_h)，记 e_h = b_h(1 − b_h) Σ_j w_hj g_j（式5.15），得 Δv_ih = −η ∂E_k/∂v_ih = η e_h x_i，即式5.13。本页用有限差分验证了这个梯度。

**与公开解答比较 / Compared with public solutions**

公开解答（han1057578619 的习题集）的链式求导与本页相同：v_ih 只经由 b_h 影响 E_k，得到 ∂E_k/∂v_ih = -e_h x_i，即式5.13。两者一致。

The public solution set of han1057578619 uses the same chain rule: v_ih reaches E_k only through
b_h, so ∂E_k/∂v_ih = -e_h x_i, which is 式5.13. The two agree.
"""

import matplotlib.pyplot as plt
import numpy as np

from hyperplane.datasets import load_watermelon
from hyperplane.neural import MLPClassifier, hidden_outputs
from hyperplane.plot import apply_cjk_font

X, labels = load_watermelon("3.0alpha")
X = X.to_numpy()
y = (labels == "是").to_numpy(dtype=float)
net = MLPClassifier(hidden_layer_sizes=(4,), loss="squared_error", bp="standard", learning_rate=0.5,
                    max_iter=300, random_state=0).fit(X, labels)
V, W = net.coefs_
gamma, theta = -net.intercepts_[0], -net.intercepts_[1]
sigmoid = lambda z: 1.0 / (1.0 + np.exp(-z))


def error(V, x, target):
    """E_k of 式5.4 for one sample, with every other parameter fixed."""
    b = sigmoid(x @ V - gamma)
    y_hat = sigmoid(b @ W - theta)
    return 0.5 * np.sum((y_hat - target) ** 2)


b_all = sigmoid(X @ V - gamma)
np.testing.assert_allclose(b_all, hidden_outputs(net, X)[0], atol=1e-12)
largest = 0.0
for k in range(len(X)):
    x, target = X[k], y[k:k + 1]
    b = sigmoid(x @ V - gamma)
    y_hat = sigmoid(b @ W - theta)
    g = y_hat * (1 - y_hat) * (target - y_hat)           # 式5.10
    e = b * (1 - b) * (W @ g)                            # 式5.15
    formula = -np.outer(x, e)                            # dE_k/dv_ih = -e_h x_i
    numeric = np.zeros_like(V)
    for i in range(V.shape[0]):
        for h in range(V.shape[1]):
            step = np.zeros_like(V)
            step[i, h] = 1e-6
            numeric[i, h] = (error(V + step, x, target) - error(V - step, x, target)) / 2e-6
    np.testing.assert_allclose(formula, numeric, rtol=1e-5, atol=1e-10)
    largest = max(largest, np.abs(formula - numeric).max())
print(f"17 samples x {V.size} weights v_ih: largest |(-e_h x_i) - finite difference| = {largest:.1e}")
print("e_h of the first melon:", (b_all[0] * (1 - b_all[0]) * (W @ (sigmoid(b_all[0] @ W - theta)
      * (1 - sigmoid(b_all[0] @ W - theta)) * (y[:1] - sigmoid(b_all[0] @ W - theta))))).round(5))

figure, ax = plt.subplots(figsize=(4.5, 4))
ax.scatter(numeric.ravel(), formula.ravel())
ax.plot(*[[numeric.min(), numeric.max()]] * 2, "k:")
ax.set_xlabel("finite difference of E_k")
ax.set_ylabel("-e_h x_i (式5.13, 5.15)")
ax.set_title("习题5.3: ∂E_k/∂v_ih")
apply_cjk_font(figure)
plt.show()
