"""How one epoch of the primal perceptron is run: the update rule (online or
batch) and the variant (standard, pocket, averaged) as small registries.

A :class:`BinaryPerceptronState` holds everything one binary problem needs
between epochs, so that ``fit`` (many epochs) and ``partial_fit`` (one epoch
per call) share the same code.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse

from ._perceptron_kernels import (
    averaged_online_epoch,
    batch_epoch,
    count_mistakes,
    online_epoch,
)
from ._state import Averages, CSRRows, Trace


def kernel_rows(X):
    """The kernels' view of ``X``: the dense array, or its CSR rows (every
    epoch reads either layout through the row layer)."""
    if scipy.sparse.issparse(X):
        if X.format != "csr":
            X = X.tocsr()
        return CSRRows.of(X)
    return X


class BinaryPerceptronState:
    """Parameters of one binary perceptron (labels ±1) between epochs."""

    def __init__(self, n_features, dtype):
        self.w = np.zeros(n_features, dtype=dtype)   # current weights
        self.b = 0.0
        self.u = np.zeros(n_features, dtype=dtype)   # averaged: Σ c eta y x
        self.ub = 0.0
        self.c = 0.0                                 # averaged: visits so far
        self.sum_w = np.zeros(n_features, dtype=dtype)  # batch+averaged
        self.sum_b = 0.0
        self.n_epochs = 0
        self.pocket_w = self.w.copy()
        self.pocket_b = 0.0
        self.pocket_mistakes = np.inf
        self.n_updates = 0
        self.converged = False
        self.trace = []   # (sample(s), w after, b after) per update


def _trace_buffers(record, n, d, dtype):
    """A :class:`Trace` for an epoch over ``n`` samples (weights kept if ``record``)."""
    updated = np.empty(n, dtype=np.int64)
    if record:
        return Trace(updated, np.empty((n, d), dtype=dtype), np.empty(n, dtype=dtype))
    return Trace(updated, np.empty((0, d), dtype=dtype), np.empty(0, dtype=dtype))


def online_step(state, X, y, weight, eta, order, record, averaged):
    """Algorithm 2.1 over the samples in ``order`` (those of weight 0 left
    out), each step ``eta`` times the sample's weight; returns the update count."""
    trace = _trace_buffers(record, X.shape[0], X.shape[1], X.dtype)
    steps = (eta * weight).astype(X.dtype)
    order = order[weight[order] > 0]
    rows = kernel_rows(X)
    if averaged:
        averages = Averages(state.u, X.dtype.type(state.ub), X.dtype.type(state.c))
        state.b, state.ub, state.c, n = averaged_online_epoch(
            rows, y, state.w, X.dtype.type(state.b), averages, steps, order, trace)
    else:
        state.b, n = online_epoch(rows, y, state.w, X.dtype.type(state.b), steps, order, trace)
    if record:
        state.trace.extend((int(trace.updated[k]), trace.w[k].copy(), float(trace.b[k]))
                           for k in range(n))
    return n


def batch_perceptron_step(state, X, y, weight, eta, order, record, averaged):
    """The batch perceptron rule (Duda, Hart & Stork §5.5.1) once, each
    misclassified sample weighted by its sample weight; returns the number of
    misclassified samples."""
    updated = np.empty(X.shape[0], dtype=np.int64)
    state.b, n = batch_epoch(kernel_rows(X), y, state.w, X.dtype.type(state.b),
                             X.dtype.type(eta), weight.astype(X.dtype), updated)
    if averaged:
        state.sum_w += state.w
        state.sum_b += state.b
    if record and n:
        state.trace.append(([int(i) for i in updated[:n]], state.w.copy(),
                            float(state.b)))
    return n


#: update= -> function(state, X, y, weight, eta, order, record, averaged) -> n_updates
UPDATE_RULES = {"online": online_step, "batch": batch_perceptron_step}


def standard_weights(state, update):
    """The last weights (algorithm 2.1's output)."""
    return state.w, state.b


def pocket_weights(state, update):
    """The weights with the fewest training mistakes seen at an epoch's end
    (Gallant 1990's pocket algorithm, checked once per epoch)."""
    return state.pocket_w, state.pocket_b


def averaged_weights(state, update):
    """The average of the weights over every visit (online) or epoch (batch)."""
    if update == "batch":
        if state.n_epochs == 0:
            return state.w, state.b
        return state.sum_w / state.n_epochs, state.sum_b / state.n_epochs
    if state.c == 0:
        return state.w, state.b
    return state.w - state.u / state.c, state.b - state.ub / state.c


#: variant= -> function(state, update) -> (w, b) to predict with
VARIANTS = {"standard": standard_weights, "pocket": pocket_weights,
            "averaged": averaged_weights}


def run_epoch(state, X, y, *, weight, eta, order, update, variant, record):
    """One epoch: the update rule, then the pocket's bookkeeping (its score
    the weighted count of mistakes)."""
    n = UPDATE_RULES[update](state, X, y, weight, eta, order, record, variant == "averaged")
    state.n_epochs += 1
    state.n_updates += n
    if variant == "pocket":
        mistakes = count_mistakes(kernel_rows(X), y, state.w, X.dtype.type(state.b),
                                  weight.astype(X.dtype))
        if mistakes < state.pocket_mistakes:
            state.pocket_mistakes = mistakes
            state.pocket_w, state.pocket_b = state.w.copy(), state.b
    return n
