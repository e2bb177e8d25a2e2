"""The three backpropagation rules of section 5.3, as one-epoch functions.

Each rule takes the network (a :class:`~._state.Network`, its parameters
updated in place), the :class:`~._state.Learning` settings (passed on to the
compiled epoch as the scalars ``eta, lam, loss``), the training data
with targets ``Y`` (one row per sample, one column per output neuron), the
sample weights ``s_k`` (ones for the book's rules), the order in which to
visit the samples and the batch size, and returns ``sum_k s_k E_k``
measured while passing over the data.

* ``"standard"`` -- the book's algorithm (figure 5.8): update after every
  sample, compiled per sample in :func:`~._backprop_kernels.sample_step`;
* ``"accumulated"`` -- one update per epoch on the accumulated error
  ``E = (1/m) sum_k E_k`` (eq. 5.16), on BLAS matrix products;
* ``"minibatch"`` -- one update on the mean error of every ``batch_size``
  consecutive samples of the order.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse

from . import _backprop_kernels as K
from ._state import CSRRows


def standard_rule(net, learning, X, Y, weights, order, batch_size):
    """Standard BP: ``len(order)`` updates per epoch."""
    return K.standard_bp_epoch(net, X, Y, weights, order, *learning)


def accumulated_rule(net, learning, X, Y, weights, order, batch_size):
    """Accumulated BP: one update per epoch (the order does not matter), a
    single step on the weighted mean of all ``E_k`` (周志华 式5.16); returns
    ``sum_k s_k E_k`` before the step."""
    return K.batch_step(net, learning, X, Y, weights, np.empty_like(net.packed))


def minibatch_rule(net, learning, X, Y, weights, order, batch_size):
    """Mini-batch BP: ``ceil(len(order) / batch_size)`` updates per epoch."""
    return K.minibatch_bp_epoch(net, X, Y, weights, order, min(batch_size, len(order)),
                                learning)


# --------------------------------------------------------------------------
# the same rules on CSR rows: the first layer reads only the nonzeros
# --------------------------------------------------------------------------
def first_layer(vector, net):
    """Views of the first layer's weights ``W_0`` (d × q_1) and biases ``b_0``
    in ``vector`` (``net.packed`` or a gradient of the same layout)."""
    n_in, n_out = net.sizes[0], net.sizes[1]
    w, b = net.w_off[0], net.b_off[0]
    return vector[w:w + n_in * n_out].reshape(n_in, n_out), vector[b:b + n_out]


def first_layer_input(net, X):
    """``Z1 = X W_0 + b_0`` from sparse rows (a dense array)."""
    W0, b0 = first_layer(net.packed, net)
    return np.asarray(X @ W0) + b0


def sparse_batch_step(net, learning, X, Y, weights, grad):
    """:func:`~._backprop_kernels.batch_step` on CSR rows: the first layer's
    products ``X W_0`` and ``Xᵀ δ`` are sparse, the layers above compiled."""
    Z1 = first_layer_input(net, X)
    total, delta = K.above_first_layer(net, learning.loss, Z1, Y, weights, grad)
    gW0, gb0 = first_layer(grad, net)
    gW0[:, :] = np.asarray(X.T @ delta)
    gb0[:] = delta.sum(axis=0)
    K.gradient_step(net.packed, grad, learning.eta, learning.lam, K.total_weight(weights))
    return total


def sparse_standard_rule(net, learning, X, Y, weights, order, batch_size):
    """Standard BP on CSR rows (the dense rule's updates)."""
    return K.sparse_standard_bp_epoch(net, CSRRows(X.data, X.indices, X.indptr), Y, weights,
                                      order, *learning)


def sparse_accumulated_rule(net, learning, X, Y, weights, order, batch_size):
    """Accumulated BP on CSR rows: one step on all of them."""
    return sparse_batch_step(net, learning, X, Y, weights, np.empty_like(net.packed))


def sparse_minibatch_rule(net, learning, X, Y, weights, order, batch_size):
    """Mini-batch BP on CSR rows, the batches of ``order`` as in the dense rule."""
    grad = np.empty_like(net.packed)
    batch = min(batch_size, len(order))
    total = 0.0
    for start in range(0, len(order), batch):
        rows = order[start:start + batch]
        total += sparse_batch_step(net, learning, X[rows], Y[rows], weights[rows], grad)
    return total


def hidden_layer_outputs(net, X):
    """The outputs ``b_h`` of every hidden layer for the rows of ``X``,
    dense or CSR (a list, first hidden layer first)."""
    if scipy.sparse.issparse(X):
        A1 = first_layer_input(net, X)
        K.activate_rows(A1, net.act)
        return K.forward_from(net, A1, 1)[:-1]
    return K.forward_from(net, X, 0)[1:-1]


def predict_outputs(net, X):
    """Output layer for the rows of ``X``, dense or CSR."""
    if scipy.sparse.issparse(X):
        return K.outputs_above_first_layer(net, first_layer_input(net, X))
    return K.forward_from(net, X, 0)[-1]


#: bp name -> the CSR form of its rule
SPARSE_RULES = {"standard": sparse_standard_rule, "accumulated": sparse_accumulated_rule,
                "minibatch": sparse_minibatch_rule}


def epoch_rule(bp, X):
    """The one-epoch rule of ``bp`` for the rows of ``X`` (dense or CSR)."""
    return SPARSE_RULES[bp] if scipy.sparse.issparse(X) else BP_RULES[bp][0]


#: bp name -> (one-epoch rule, updates per epoch for m samples and a batch size)
BP_RULES = {
    "standard": (standard_rule, lambda m, batch: m),
    "accumulated": (accumulated_rule, lambda m, batch: 1),
    "minibatch": (minibatch_rule, lambda m, batch: -(-m // min(batch, m))),
}
