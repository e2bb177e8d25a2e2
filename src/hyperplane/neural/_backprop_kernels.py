"""Compiled kernels of error backpropagation (周志华《机器学习》section 5.3).

Every network lives in one flat parameter vector ``packed``: for each layer
``l`` its connection weights ``W_l`` (``sizes[l] x sizes[l+1]``, row-major,
starting at ``w_off[l]``) and then its biases ``b_l`` (``sizes[l+1]`` values
starting at ``b_off[l]``). A bias is the book's threshold with the opposite
sign, ``b_j = -theta_j``, so that a neuron computes ``y = f(sum_i w_i x_i - theta)``
(eq. 5.1) as ``f(x @ W + b)``.

Per-sample outputs of all layers live in one vector ``out``; layer ``l``
occupies ``out[u_off[l]:u_off[l+1]]`` (layer 0 is the input ``x``).

Conventions of the book (eqs. 5.10, 5.15) for one sample ``k``:

* output neuron gradient ``g_j = -dE_k/d beta_j`` -- with squared error and a
  sigmoid output, ``g_j = y_hat_j (1 - y_hat_j) (y_j - y_hat_j)``;
* hidden neuron gradient ``e_h = f'(alpha_h - gamma_h) sum_j w_hj g_j``;
* updates ``Delta w_hj = eta g_j b_h``, ``Delta theta_j = -eta g_j``,
  ``Delta v_ih = eta e_h x_i``, ``Delta gamma_h = -eta e_h``.

With the regularised objective of eq. 5.17,
``E~ = lambda (1/m) sum_k E_k + (1 - lambda) sum_w w^2`` (every weight and
threshold), each step multiplies the parameters by ``1 - 2 eta (1 - lambda)``
and adds ``lambda`` times the book's step.

Sample weights ``s_k`` (``sample_weight``; all ones in the book) weight each
sample's error: a batch step descends its weighted mean
``E = sum_k s_k E_k / sum_k s_k`` (scikit-learn's MLP since 1.7: the same
normalisation by the batch's summed weight), and a step of standard BP
descends ``s_k E_k``, so ``g_j`` (eq. 5.10), every ``e_h`` and the step scale
by ``s_k`` (:func:`output_gradient`, the one place the weight enters).

Kernels take the named state of :mod:`._state` -- ``net`` (a
:class:`~._state.Network`: ``packed``, the layout, the activation codes) and
``learning`` (a :class:`~._state.Learning`: ``eta``, ``lam``, the loss code)
-- plus arrays and scalars, and return arrays and scalars; the estimators in
:mod:`hyperplane.neural._mlp` own validation and epochs. The epoch kernels,
which Python calls once per epoch, take ``eta, lam, loss`` as scalars and
build ``learning`` themselves: numba types each named-tuple argument of a
call from Python on a slow path (about 6 µs a tuple), which on a small data
set (the book's 17 melons) is a fifth of an epoch. Mini-batch BP, whose
batches dwarf that cost, takes ``learning`` to stay within eight parameters.

What a first fit compiles: numba compiles every kernel as a library of its
own and links, optimises and generates code for a callee's library again in
each caller, so a rule that only compiled code uses is inlined where it is
called (``jit_fast_inline``: the layer views, the activations, the losses,
the standard pass's forward / backward / update, the batch gradient and
step), and a first fit compiles its epoch kernel (:func:`standard_bp_epoch`,
:func:`batch_step` or :func:`minibatch_bp_epoch`), :func:`forward_from` for
prediction and a few leaves. :func:`sample_step` and :func:`derivative` stay
calls (without Python wrappers): inlined, fastmath rounded their results in
other last bits. No kernel assigns an array into a slice or adds arrays
with NumPy's broadcasting (``Z += b``): both compile numba's shape checks
and their messages; they are element loops.
"""

from __future__ import annotations

import numpy as np

from .._lowered import empty, zeros
from .._math_kernels import sigmoid
from .._numba import jit_fast, jit_fast_inline, jit_fast_internal
from ._state import Learning

# activation codes; the registries in _activations.py map names to them
IDENTITY = 0
SIGMOID = 1
TANH = 2
RELU = 3
SOFTMAX = 4

# loss codes
SQUARED_ERROR = 0
LOG_LOSS = 1


# --------------------------------------------------------------------------
# activations (scalar and in-place on a vector)
# --------------------------------------------------------------------------
@jit_fast_inline
def activate(z, code):
    """Apply activation ``code`` to the vector ``z`` in place."""
    n = z.shape[0]
    if code == SOFTMAX:
        top = z[0]
        for j in range(1, n):
            if z[j] > top:
                top = z[j]
        total = 0.0
        for j in range(n):
            z[j] = np.exp(z[j] - top)
            total += z[j]
        for j in range(n):
            z[j] = z[j] / total
    elif code == SIGMOID:
        for j in range(n):
            z[j] = sigmoid(z[j])
    elif code == TANH:
        for j in range(n):
            z[j] = np.tanh(z[j])
    elif code == RELU:
        for j in range(n):
            if z[j] < 0:  # NaN stays NaN
                z[j] = 0.0
    # IDENTITY: nothing to do


@jit_fast_internal
def derivative(a, code):
    """f'(z) written through the output a = f(z) (sigmoid: a(1-a), eq. 5.9)."""
    if code == SIGMOID:
        return a * (1.0 - a)
    if code == TANH:
        return 1.0 - a * a
    if code == RELU:
        return 1.0 if a > 0 else 0.0
    return 1.0


@jit_fast_inline
def activate_rows(Z, code):
    """Apply activation ``code`` to every row of the matrix ``Z`` in place."""
    for r in range(Z.shape[0]):
        activate(Z[r], code)


# --------------------------------------------------------------------------
# loss of one sample: E_k
# --------------------------------------------------------------------------
@jit_fast_inline
def sample_loss(y_hat, y, loss):
    """E_k: ``1/2 ||y_hat - y||^2`` (eq. 5.4) or the cross-entropy.

    Cross-entropy of one logistic output is ``-(y log p + (1-y) log(1-p))``,
    of a softmax layer ``-sum_j y_j log p_j``; probabilities are clipped to
    ``[eps, 1 - eps]`` as scikit-learn does.
    """
    n = y_hat.shape[0]
    total = 0.0
    if loss == SQUARED_ERROR:
        for j in range(n):
            diff = y_hat[j] - y[j]
            total += diff * diff
        return 0.5 * total
    eps = np.finfo(y_hat.dtype).eps
    for j in range(n):
        p = min(max(y_hat[j], eps), 1.0 - eps)
        if y[j] != 0:
            total -= y[j] * np.log(p)
        if n == 1 and y[j] != 1:
            total -= (1.0 - y[j]) * np.log(1.0 - p)
    return total


@jit_fast_inline
def batch_loss(Y_hat, Y, loss, weights):
    """``sum_k s_k E_k`` over the rows of a batch (``weights``: the sample
    weights ``s_k``; all ones give the book's ``sum_k E_k``)."""
    total = 0.0
    for r in range(Y_hat.shape[0]):
        total += weights[r] * sample_loss(Y_hat[r], Y[r], loss)
    return total


@jit_fast_inline
def total_weight(weights):
    """``sum_k s_k``: the divisor of a batch's weighted mean ``E`` (one compiled
    sum, so that dense and CSR batches divide by the same bits)."""
    total = 0.0
    for k in range(weights.shape[0]):
        total += weights[k]
    return total


# --------------------------------------------------------------------------
# the layout: views of one layer in a parameter-shaped vector
# --------------------------------------------------------------------------
@jit_fast_inline
def layer_weights(vector, net, l):
    """View of layer ``l``'s connection weights (fan_in x fan_out) in ``vector``
    (``net.packed`` or a gradient of the same layout)."""
    n_in, n_out = net.sizes[l], net.sizes[l + 1]
    return vector[net.w_off[l]:net.w_off[l] + n_in * n_out].reshape((n_in, n_out))


@jit_fast_inline
def layer_bias(vector, net, l):
    """View of layer ``l``'s biases (= -thresholds) in ``vector``."""
    return vector[net.b_off[l]:net.b_off[l] + net.sizes[l + 1]]


@jit_fast_inline
def layer_units(vector, net, l):
    """View of layer ``l``'s neurons (layer 0: the input) in a unit vector
    (the outputs ``out`` or the gradients ``grad`` of :func:`sample_step`)."""
    return vector[net.u_off[l]:net.u_off[l + 1]]


@jit_fast_inline
def layer_activation(net, l):
    """The activation code of layer ``l``'s neurons (the last layer: ``out_act``)."""
    return net.out_act if l == net.sizes.shape[0] - 2 else net.act


# --------------------------------------------------------------------------
# standard BP: one sample at a time (the book's algorithm, figure 5.8)
# --------------------------------------------------------------------------
@jit_fast_inline
def forward(net, x, out):
    """Forward propagation of one sample (eqs. 5.1-5.3) into ``out``."""
    a_in = layer_units(out, net, 0)
    for i in range(a_in.shape[0]):
        a_in[i] = x[i]
    for l in range(net.sizes.shape[0] - 1):
        a_in, a_out = layer_units(out, net, l), layer_units(out, net, l + 1)
        bias, W = layer_bias(net.packed, net, l), layer_weights(net.packed, net, l)
        for j in range(a_out.shape[0]):
            a_out[j] = bias[j]
        for i in range(a_in.shape[0]):
            a_i = a_in[i]
            for j in range(a_out.shape[0]):
                a_out[j] += a_i * W[i, j]
        activate(a_out, layer_activation(net, l))


@jit_fast_inline
def output_gradient(y_hat, y, loss, out_act, g, weight):
    """g_j = -d(s_k E_k)/d beta_j of the output layer (eq. 5.10) into ``g``.

    Squared error: ``s_k f'(beta_j) (y_j - y_hat_j)``. Cross-entropy with its
    matching output (logistic or softmax): ``s_k (y_j - y_hat_j)``. The sample
    weight ``weight = s_k`` (1 in the book) scales the sample's error ``E_k``,
    so it scales ``g_j`` and, through eq. 5.15, every ``e_h`` of the sample;
    ``weight = -s_k`` gives the batch kernels' ``dE/dZ = -g_j``.
    """
    for j in range(y_hat.shape[0]):
        g[j] = weight * (y[j] - y_hat[j])
        if loss == SQUARED_ERROR:
            g[j] *= derivative(y_hat[j], out_act)


@jit_fast_inline
def backward(net, out, grad):
    """Hidden neuron gradients e_h (eq. 5.15), from the output layer down.

    ``grad`` holds ``g_j`` in its output block; layer ``l``'s block receives
    ``e_h = f'(b_h) sum_j w_hj g_j`` with the not yet updated weights.
    """
    for l in range(net.sizes.shape[0] - 2, 0, -1):
        W = layer_weights(net.packed, net, l)
        g_j = layer_units(grad, net, l + 1)
        b_h = layer_units(out, net, l)
        e_h = layer_units(grad, net, l)
        for h in range(b_h.shape[0]):
            total = 0.0
            for j in range(g_j.shape[0]):
                total += W[h, j] * g_j[j]
            e_h[h] = derivative(b_h[h], net.act) * total


@jit_fast_inline
def weight_decay(eta, lam):
    """``1 - 2 eta (1 - lambda)``: the factor by which a step of rate ``eta`` on
    eq. 5.17's ``E~ = lambda E + (1 - lambda) sum_w w^2`` shrinks every weight
    and threshold (the penalty's gradient is ``2 (1 - lambda) w``); 1 without
    the penalty (``lambda = 1``). The one place the decay is written: standard
    BP (:func:`update`), batch steps (:func:`gradient_step`) and the row-space
    first layer (:class:`~._row_space.RowSpaceTraining`) all take it from here,
    the kernels inlined (the expression they wrote before, no compiled call).

    Examples
    --------
    >>> weight_decay(0.1, 1.0), weight_decay(0.25, 0.5)
    (1.0, 0.75)
    """
    return 1.0 - 2.0 * eta * (1.0 - lam)


@jit_fast_inline
def update(net, learning, out, grad):
    """Delta w_hj = eta g_j b_h, Delta theta_j = -eta g_j (eqs. 5.11-5.14).

    With the penalty of eq. 5.17 every weight and threshold first shrinks by
    ``1 - 2 eta (1 - lambda)`` and the book's step is scaled by ``lambda``.
    """
    shrink = weight_decay(learning.eta, learning.lam)
    step = learning.eta * learning.lam
    for l in range(net.sizes.shape[0] - 1):
        W = layer_weights(net.packed, net, l)
        bias = layer_bias(net.packed, net, l)
        a_in, g = layer_units(out, net, l), layer_units(grad, net, l + 1)
        for i in range(a_in.shape[0]):
            a_i = step * a_in[i]
            for j in range(g.shape[0]):
                W[i, j] = shrink * W[i, j] + a_i * g[j]
        for j in range(g.shape[0]):
            bias[j] = shrink * bias[j] + step * g[j]


@jit_fast_internal
def sample_step(net, learning, x, y, weight, out, grad):
    """One step of standard BP on the sample ``(x, y)`` of weight ``s_k``:
    forward, ``g_j``, ``e_h``, update (figure 5.8) on ``s_k E_k``, so the
    book's step is scaled by ``s_k`` (as scikit-learn's SGD scales it; 0
    leaves the weights as they are, but for the penalty's shrinking).
    ``out`` and ``grad`` are unit vectors (:class:`~._state.Network`) used as
    scratch. Returns ``s_k E_k`` before the update."""
    first_out = net.u_off[net.sizes.shape[0] - 1]
    forward(net, x, out)
    y_hat = out[first_out:]
    E_k = sample_loss(y_hat, y, learning.loss)
    output_gradient(y_hat, y, learning.loss, net.out_act, grad[first_out:], weight)
    backward(net, out, grad)
    update(net, learning, out, grad)
    return weight * E_k


@jit_fast_inline
def unit_buffers(net):
    """Scratch ``out`` and ``grad`` for :func:`sample_step`: one entry per neuron."""
    n_units = net.u_off[-1]
    return empty(n_units, net.packed.dtype), zeros(n_units, net.packed.dtype)


@jit_fast
def standard_bp_epoch(net, X, Y, weights, order, eta, lam, loss):
    """One epoch of standard BP: :func:`sample_step` on every sample of ``order``.

    Returns ``sum_k s_k E_k``, each ``E_k`` measured just before that sample's update.
    """
    learning = Learning(eta, lam, loss)
    out, grad = unit_buffers(net)
    total = 0.0
    for t in range(order.shape[0]):
        k = order[t]
        total += sample_step(net, learning, X[k], Y[k], weights[k], out, grad)
    return total


@jit_fast
def sparse_standard_bp_epoch(net, rows, Y, weights, order, eta, lam, loss):
    """:func:`standard_bp_epoch` on CSR ``rows`` (a :class:`~hyperplane._csr_rows.CSRRows`):
    each visited row is scattered into a dense input vector, so the updates
    are those of the dense rows."""
    learning = Learning(eta, lam, loss)
    out, grad = unit_buffers(net)
    x = zeros(net.sizes[0], net.packed.dtype)
    data, indices, indptr = rows.data, rows.indices, rows.indptr
    total = 0.0
    for t in range(order.shape[0]):
        k = order[t]
        for q in range(indptr[k], indptr[k + 1]):
            x[indices[q]] = data[q]
        total += sample_step(net, learning, x, Y[k], weights[k], out, grad)
        for q in range(indptr[k], indptr[k + 1]):
            x[indices[q]] = 0.0
    return total


# --------------------------------------------------------------------------
# accumulated and mini-batch BP: BLAS matrix products over a batch
# --------------------------------------------------------------------------
@jit_fast
def forward_from(net, A, start):
    """Outputs of layers ``start + 1, ...`` for the outputs ``A`` of layer
    ``start`` (a list whose first entry is ``A``)."""
    n_layers = net.sizes.shape[0] - 1
    acts = [A]
    for l in range(start, n_layers):
        A = acts[l - start]
        Z = empty((A.shape[0], net.sizes[l + 1]), A.dtype)
        np.dot(A, layer_weights(net.packed, net, l), Z)
        bias = layer_bias(net.packed, net, l)
        for r in range(Z.shape[0]):
            for j in range(Z.shape[1]):
                Z[r, j] += bias[j]
        activate_rows(Z, layer_activation(net, l))
        acts.append(Z)
    return acts


@jit_fast_inline
def gradient_from(net, loss, acts, Y, weights, grad, start):
    """Gradients of ``sum_k s_k E_k`` for the weights of layers ``start, ...``
    into ``grad`` (``acts[i]`` feeds layer ``start + i``; ``weights`` the
    sample weights ``s_k`` of the rows). Returns the last delta: for
    ``start > 0`` it is ``dE/dZ`` of the pre-activations of the neurons
    feeding layer ``start`` (the negated ``e_h``), with which a caller
    finishes the layers below itself."""
    n_layers = net.sizes.shape[0] - 1
    Y_hat = acts[n_layers - start]
    delta = empty(Y_hat.shape, Y_hat.dtype)
    for r in range(delta.shape[0]):  # -g_j of every row (eq. 5.10)
        output_gradient(Y_hat[r], Y[r], loss, net.out_act, delta[r], -weights[r])
    for l in range(n_layers - 1, start - 1, -1):
        gW = layer_weights(grad, net, l)
        np.dot(acts[l - start].T, delta, gW)
        gb = layer_bias(grad, net, l)
        for j in range(gb.shape[0]):
            gb[j] = 0.0
        for r in range(delta.shape[0]):
            for j in range(gb.shape[0]):
                gb[j] += delta[r, j]
        if l > 0:
            below = empty((delta.shape[0], net.sizes[l]), delta.dtype)
            np.dot(delta, layer_weights(net.packed, net, l).T, below)
            delta = below
            A = acts[l - start]
            for r in range(delta.shape[0]):
                for h in range(delta.shape[1]):
                    delta[r, h] *= derivative(A[r, h], net.act)
    return delta


@jit_fast
def above_first_layer(net, loss, Z1, Y, weights, grad):
    """Forward and backward pass over the layers above the first, from the
    first layer's pre-activations ``Z1 = X W_0 + b_0`` (computed by the
    caller, e.g. from sparse rows). Fills the gradients of layers ``1, ...``
    and returns ``(sum_k s_k E_k, dE/dZ1)``: the first layer's gradient is then
    ``Xᵀ dE/dZ1`` and the column sums of ``dE/dZ1``."""
    A1 = Z1.copy()
    activate_rows(A1, layer_activation(net, 0))
    acts = forward_from(net, A1, 1)
    total = batch_loss(acts[net.sizes.shape[0] - 2], Y, loss, weights)
    delta = gradient_from(net, loss, acts, Y, weights, grad, 1)
    return total, delta


@jit_fast
def outputs_above_first_layer(net, Z1):
    """Output layer from the first layer's pre-activations ``Z1``."""
    A1 = Z1.copy()
    activate_rows(A1, layer_activation(net, 0))
    return forward_from(net, A1, 1)[net.sizes.shape[0] - 2]


@jit_fast_inline
def gradient_step(packed, grad, eta, lam, batch_weight):
    """``packed <- packed - eta (lambda grad / batch_weight + 2 (1 - lambda) packed)``,
    the gradient of eq. 5.17 with ``E = sum_k s_k E_k / sum_k s_k`` the batch's
    weighted mean ``E_k`` (``batch_weight = sum_k s_k``; the book's mean when
    every ``s_k = 1``). A batch of weight 0 has no mean error: no step."""
    if batch_weight <= 0.0:
        return
    shrink = weight_decay(eta, lam)
    step = eta * lam / batch_weight
    for p in range(packed.shape[0]):
        packed[p] = shrink * packed[p] - step * grad[p]


@jit_fast_inline
def batch_step(net, learning, A0, Y, weights, grad):
    """One gradient step on the weighted mean loss of a batch; returns ``sum_k s_k E_k``.

    Accumulated BP (周志华 式5.16) is this step on all the samples. The
    outputs of every layer (:func:`forward_from` layer 0) and the gradient
    ``grad = d(sum_k s_k E_k)/d packed`` (:func:`gradient_from` layer 0, the
    negated g_j, e_h, inlined here) are computed by direct calls: every
    function between a kernel and its callees is one more compiled library
    that numba links, optimises and generates code for, the whole call tree
    below it again. Python calls it for accumulated BP; mini-batch BP has it
    inlined into :func:`minibatch_bp_epoch`."""
    acts = forward_from(net, A0, 0)
    total = batch_loss(acts[net.sizes.shape[0] - 1], Y, learning.loss, weights)
    gradient_from(net, learning.loss, acts, Y, weights, grad, 0)
    gradient_step(net.packed, grad, learning.eta, learning.lam, total_weight(weights))
    return total


@jit_fast
def minibatch_bp_epoch(net, X, Y, weights, order, batch_size, learning):
    """One epoch of mini-batch BP: a step every ``batch_size`` samples of ``order``.

    Returns ``sum_k s_k E_k``, each batch measured just before its step.
    (The one epoch kernel that takes ``learning`` as a named tuple: eight
    parameters at most, and its batches cost far more than the typing.)
    """
    grad = empty(net.packed.shape[0], net.packed.dtype)
    total = 0.0
    n = order.shape[0]
    for start in range(0, n, batch_size):
        rows = order[start:min(start + batch_size, n)]
        total += batch_step(net, learning, X[rows], Y[rows], weights[rows], grad)
    return total
