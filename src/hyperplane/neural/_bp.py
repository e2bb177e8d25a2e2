"""The three backpropagation rules of section 5.3, as one-epoch functions.

Each rule takes the flat parameters (updated in place), the layout, the
training data with targets ``Y`` (one row per sample, one column per output
neuron) and the order in which to visit the samples, and returns
``sum_k E_k`` measured while passing over the data.

* ``"standard"`` -- the book's algorithm (figure 5.8): update after every
  sample, compiled per sample in :func:`standard_bp_epoch`;
* ``"accumulated"`` -- one update per epoch on the accumulated error
  ``E = (1/m) sum_k E_k`` (eq. 5.16), on BLAS matrix products;
* ``"minibatch"`` -- one update on the mean error of every ``batch_size``
  consecutive samples of the order.
"""

from __future__ import annotations

from . import _backprop_kernels as K


def standard_rule(packed, layout, X, Y, order, batch_size, eta, lam, act, out_act, loss):
    """Standard BP: ``len(order)`` updates per epoch."""
    return K.standard_bp_epoch(packed, layout.sizes, layout.w_off, layout.b_off,
                               layout.u_off, X, Y, order, eta, lam, act, out_act, loss)


def accumulated_rule(packed, layout, X, Y, order, batch_size, eta, lam, act, out_act, loss):
    """Accumulated BP: one update per epoch (the order does not matter)."""
    return K.accumulated_bp_epoch(packed, layout.sizes, layout.w_off, layout.b_off,
                                  X, Y, eta, lam, act, out_act, loss)


def minibatch_rule(packed, layout, X, Y, order, batch_size, eta, lam, act, out_act, loss):
    """Mini-batch BP: ``ceil(len(order) / batch_size)`` updates per epoch."""
    return K.minibatch_bp_epoch(packed, layout.sizes, layout.w_off, layout.b_off,
                                X, Y, order, min(batch_size, len(order)), eta, lam,
                                act, out_act, loss)


#: bp name -> (one-epoch rule, updates per epoch for m samples and a batch size)
BP_RULES = {
    "standard": (standard_rule, lambda m, batch: m),
    "accumulated": (accumulated_rule, lambda m, batch: 1),
    "minibatch": (minibatch_rule, lambda m, batch: -(-m // min(batch, m))),
}
