r"""
周志华 习题5.9* / Zhou Zhihua, exercise 5.9*: the BP algorithm of an Elman network
==================================================================================

**题目**：试推导用于 Elman 网络的 BP 算法。

**Question**: derive the BP algorithm for the Elman network (图5.14: the hidden outputs of step
:math:`t-1` are fed back, with the input of step :math:`t`, into the hidden layer).

**答案 / Answer**. Notation as 图5.7, plus the recurrent weights :math:`u_{h'h}` from hidden
neuron :math:`h'` at :math:`t-1` to :math:`h` at :math:`t` (sigmoid :math:`f`,
:math:`b^{(0)}=0`):

.. math::

   b_h^{(t)}=f\Big(\sum_iv_{ih}x_i^{(t)}+\sum_{h'}u_{h'h}b_{h'}^{(t-1)}-\gamma_h\Big),\qquad
   \hat y_j^{(t)}=f\Big(\sum_hw_{hj}b_h^{(t)}-\theta_j\Big),\qquad
   E=\sum_t\frac12\sum_j\big(\hat y_j^{(t)}-y_j^{(t)}\big)^2 .

*Back-propagation through time.* The output terms are those of 式5.10 at each step,
:math:`g_j^{(t)}=\hat y_j^{(t)}(1-\hat y_j^{(t)})(y_j^{(t)}-\hat y_j^{(t)})`. A hidden output
:math:`b_h^{(t)}` affects :math:`E` through the outputs of step :math:`t` *and* through every hidden
neuron of step :math:`t+1`, so 式5.15 gains a recurrent term, computed backwards from
:math:`t=T` (with :math:`e^{(T+1)}=0`):

.. math::

   e_h^{(t)}=b_h^{(t)}\big(1-b_h^{(t)}\big)\Big(\sum_jw_{hj}g_j^{(t)}+\sum_{h''}u_{hh''}e_{h''}^{(t+1)}\Big).

Each weight is shared by all steps, so its update sums the per-step terms of 式5.11–5.14:

.. math::

   \Delta w_{hj}=\eta\sum_tg_j^{(t)}b_h^{(t)},\quad \Delta\theta_j=-\eta\sum_tg_j^{(t)},\quad
   \Delta v_{ih}=\eta\sum_te_h^{(t)}x_i^{(t)},\quad \Delta u_{h'h}=\eta\sum_te_h^{(t)}b_{h'}^{(t-1)},\quad
   \Delta\gamma_h=-\eta\sum_te_h^{(t)} .

*Elman's original simplification* (Elman 1990) copies the context :math:`b^{(t-1)}` as if it were
an extra input and drops the recurrent term of :math:`e_h^{(t)}`: then each step is exactly
standard BP of 图5.8 with inputs :math:`(x^{(t)}, b^{(t-1)})`. This truncated gradient is cheaper
but only approximates :math:`\nabla E`.

hyperplane has no recurrent network; the page writes the forward pass and BPTT in NumPy for a
network with 2 inputs, 3 hidden neurons and 1 output on a random sequence of length 6, checks
every component of :math:`-\Delta/\eta` against central finite differences of :math:`E`, and shows
that the truncated (Elman) gradient of :math:`u` differs from it.

**答案（中文）**：记号同图5.7，另加从 t − 1 时刻隐层神经元 h′ 到 t 时刻 h 的循环权重 u_h′h：b_h⁽ᵗ⁾ = f(Σ_i v_ih x_i⁽ᵗ⁾ + Σ_h′ u_h′h b_h′⁽ᵗ⁻¹⁾ − γ_h)，ŷ_j⁽ᵗ⁾ = f(Σ_h w_hj b_h⁽ᵗ⁾ − θ_j)，E = Σ_t ½ Σ_j (ŷ_j⁽ᵗ⁾ − y_j⁽ᵗ⁾)²。随时间反向传播（BPTT）：每一时刻的输出项与式5.10 相同；隐层项除了来自本时刻的输出，还要加上经循环权重从 t + 1 时刻传回的项；各权重的更新是所有时刻贡献之和。hyperplane 没有循环网络，本页用 NumPy 写出前向与 BPTT，并用有限差分逐分量核对梯度。

**与公开解答比较 / Compared with public solutions**

公开解答（han1057578619 的习题集）没有推导，只给出循环神经网络 BP 的参考链接。本页给出了随时间反向传播（BPTT）的完整推导，并用数值梯度验证。

The public solution set of han1057578619 gives no derivation, only links about back-propagation in
recurrent networks. This page derives back-propagation through time in full and checks it against
numerical gradients.
"""

import matplotlib.pyplot as plt
import numpy as np

from hyperplane.plot import apply_cjk_font

rng = np.random.default_rng(0)
d, q, l, T = 2, 3, 1, 6
X, Y = rng.normal(size=(T, d)), rng.uniform(size=(T, l))
sigmoid = lambda z: 1.0 / (1.0 + np.exp(-z))
params = {"V": rng.normal(size=(d, q)), "U": rng.normal(size=(q, q)), "gamma": rng.normal(size=q),
          "W": rng.normal(size=(q, l)), "theta": rng.normal(size=l)}


def forward(p):
    b, hidden, outputs = np.zeros(q), [np.zeros(q)], []
    for t in range(T):
        b = sigmoid(X[t] @ p["V"] + b @ p["U"] - p["gamma"])
        hidden.append(b)
        outputs.append(sigmoid(b @ p["W"] - p["theta"]))
    return np.array(hidden), np.array(outputs)


def error(p):
    return 0.5 * np.sum((forward(p)[1] - Y) ** 2)


def bptt(p, truncated=False):
    """dE/d(parameter) by the formulas above (the negative of each update over eta)."""
    hidden, outputs = forward(p)
    grads = {k: np.zeros_like(v) for k, v in p.items()}
    e_next = np.zeros(q)
    for t in reversed(range(T)):
        b, b_prev = hidden[t + 1], hidden[t]
        g = outputs[t] * (1 - outputs[t]) * (Y[t] - outputs[t])
        recurrent = 0.0 if truncated else p["U"] @ e_next
        e = b * (1 - b) * (p["W"] @ g + recurrent)
        grads["W"] -= np.outer(b, g)
        grads["theta"] += g
        grads["V"] -= np.outer(X[t], e)
        grads["U"] -= np.outer(b_prev, e)
        grads["gamma"] += e
        e_next = e
    return grads


analytic, truncated = bptt(params), bptt(params, truncated=True)
worst = 0.0
for name, value in params.items():
    numeric = np.zeros_like(value)
    for index in np.ndindex(value.shape):
        step = {k: v.copy() for k, v in params.items()}
        step[name][index] += 1e-6
        up = error(step)
        step[name][index] -= 2e-6
        numeric[index] = (up - error(step)) / 2e-6
    np.testing.assert_allclose(analytic[name], numeric, rtol=1e-5, atol=1e-9)
    worst = max(worst, np.abs(analytic[name] - numeric).max())
    print(f"{name:5s}: BPTT = finite differences (largest gap {np.abs(analytic[name] - numeric).max():.1e}); "
          f"truncated differs by {np.abs(truncated[name] - analytic[name]).max():.3f}")
assert np.abs(truncated["U"] - analytic["U"]).max() > 1e-3

figure, ax = plt.subplots(figsize=(5.5, 3.5))
hidden, outputs = forward(params)
ax.plot(Y[:, 0], "o-", label="y(t)")
ax.plot(outputs[:, 0], "s--", label="ŷ(t)")
ax.plot(hidden[1:], ":", alpha=0.6)
ax.set_xlabel("t")
ax.set_title("习题5.9: Elman 网络的一段序列 (BPTT 已用有限差分验证)")
ax.legend()
apply_cjk_font(figure)
plt.show()
