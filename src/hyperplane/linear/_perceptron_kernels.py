"""Compiled epoch bodies of the perceptron (李航《统计学习方法》ch.2).

Each function runs ONE pass over the samples and updates the parameters it is
given in place (``w``, ``alpha``, ``f`` ...); scalars (``b``) are returned.
The epoch loop, convergence test and bookkeeping stay in Python
(:mod:`hyperplane.linear._perceptron`).

A sample is misclassified when ``y_i (w.x_i + b) <= 0`` (so a point on the
hyperplane counts as a mistake, as in algorithm 2.1 step 3).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._numba import jit, jit_fast, jit_fast_inline
from .._row_kernels import row_axpy_fast, row_dot_fast


class AveragedEpoch(NamedTuple):
    """What one averaged-perceptron epoch hands back: the bias ``b``, the
    count-weighted bias sum ``ub``, the example counter ``c`` and the number
    of updates made so far."""
    b: float
    ub: float
    c: float
    n_updates: int


@jit_fast_inline
def is_mistake(X, y, i, w, b):
    """``y_i (w·x_i + b) <= 0``: sample ``i`` of ``X`` (dense or CSR rows) is
    misclassified, a point on the hyperplane included (李航 算法2.1 step 3).
    The score ``w·x_i + b`` is the row layer's ``row_dot_fast`` started
    from ``b``, so that it is carried in the dtype of ``b`` (float32 for
    float32 input: twice the SIMD width, no conversions); its order is free."""
    return y[i] * row_dot_fast(X, i, w, b) <= 0.0


@jit_fast_inline
def perceptron_update(X, i, w, b, step):
    """``w ← w + step·x_i`` in place and ``b + step`` returned: 李航 算法2.1's
    update with ``step = η y_i`` (every rule below calls it, with its own
    step and its own ``w``: the weights, the averaged perceptron's sums, the
    batch rule's sum over the mistakes). Both rules are inlined into the
    epochs: a compiled call per sample would cost more than the rule."""
    row_axpy_fast(X, i, w, step)
    return b + step


@jit_fast
def recorded(trace, n_updates, i, w, b):
    """Note update number ``n_updates`` (of sample ``i``) in ``trace``, and
    ``w`` and ``b`` after it when the trace keeps weights (copied element by
    element: a slice assignment would compile numba's shape-mismatch message
    into every epoch); returns the count of updates so far."""
    trace.updated[n_updates] = i
    if trace.w.shape[0] > 0:
        for f in range(w.shape[0]):
            trace.w[n_updates, f] = w[f]
        trace.b[n_updates] = b
    return n_updates + 1


@jit_fast
def online_epoch(X, y, w, b, eta, order, trace):
    """One pass of algorithm 2.1 (SGD on L(w,b) = -Σ_{x_i∈M} y_i(w.x_i+b)).

    For each ``i`` in ``order``: if ``y_i (w.x_i + b) <= 0`` then
    ``w <- w + eta_i y_i x_i`` and ``b <- b + eta_i y_i``; ``eta_i`` is η
    times sample i's weight (η for every sample in the book).

    ``trace.updated[k]`` receives the index of the k-th updated sample; when
    ``trace.w`` has rows, row k receives ``w`` after that update (and
    ``trace.b[k]`` the bias), see :class:`._state.Trace`. Returns
    ``(b, n_updates)``.
    """
    n_updates = 0
    for i in order:
        if is_mistake(X, y, i, w, b):
            b = perceptron_update(X, i, w, b, eta[i] * y[i])
            n_updates = recorded(trace, n_updates, i, w, b)
    return b, n_updates


@jit_fast
def averaged_online_epoch(X, y, w, b, averages, eta, order, trace):
    """One pass of the averaged perceptron (Freund & Schapire 1999; Collins 2002).

    Runs algorithm 2.1 and keeps ``u = Σ c_k eta_k y_k x_k`` over the updates
    (``averages``: an :class:`._state.Averages`, ``u`` updated in place),
    ``c_k`` being the number of samples visited before update k. After ``c``
    visits the average of the weight vectors seen at every visit is
    ``w - u / c`` (and ``b - ub / c``), computed without storing them.
    Returns ``(b, ub, c, n_updates)``; ``eta`` and ``trace`` as in
    :func:`online_epoch`.
    """
    u = averages.u
    ub = averages.ub
    c = averages.c
    n_updates = 0
    for i in order:
        if is_mistake(X, y, i, w, b):
            step = eta[i] * y[i]
            b = perceptron_update(X, i, w, b, step)
            ub = perceptron_update(X, i, u, ub, c * step)
            n_updates = recorded(trace, n_updates, i, w, b)
        c += 1.0
    return AveragedEpoch(b, ub, c, n_updates)


@jit_fast
def misclassified_sum(X, y, w, b, weight, updated):
    """``(Σ_{i∈M} s_i y_i x_i, Σ_{i∈M} s_i y_i, |M|)`` for the set M of samples
    of weight ``s_i > 0`` with ``y_i (w.x_i + b) <= 0``; ``updated`` lists M.
    This is -∇L(w, b) of 李航 eq. 2.6/2.7 summed over the misclassified
    points (each weighted by its sample weight)."""
    delta = w * 0.0
    delta_b = b * 0.0
    n_mis = 0
    for i in range(y.shape[0]):
        if weight[i] > 0.0 and is_mistake(X, y, i, w, b):
            delta_b = perceptron_update(X, i, delta, delta_b, weight[i] * y[i])
            updated[n_mis] = i
            n_mis += 1
    return delta, delta_b, n_mis


@jit_fast
def batch_epoch(X, y, w, b, eta, weight, updated):
    """One step of the batch perceptron rule (Duda, Hart & Stork §5.5.1):
    ``w <- w + eta Σ_{i∈M} s_i y_i x_i``, ``b <- b + eta Σ_{i∈M} s_i y_i``
    with M the samples misclassified by the current (w, b). Returns
    ``(b, n_misclassified)``; ``updated`` lists them.
    """
    delta, delta_b, n_mis = misclassified_sum(X, y, w, b, weight, updated)
    for j in range(w.shape[0]):
        w[j] += eta * delta[j]
    return b + eta * delta_b, n_mis


@jit_fast
def count_mistakes(X, y, w, b, weight):
    """``Σ s_i`` over the samples with ``y_i (w.x_i + b) <= 0`` (the pocket's
    score: the number of mistakes when every weight is 1), summed in sample
    order (an epoch's own cost, and the same bits on any thread count)."""
    mistakes = 0.0
    for i in range(y.shape[0]):
        if is_mistake(X, y, i, w, b):
            mistakes += weight[i]
    return mistakes


class DualSamples(NamedTuple):
    """What a dual epoch reads: the Gram matrix ``G[i, j] = K(x_i, x_j)``, the
    labels ``y`` (±1) and each sample's step ``eta_i = η s_i`` (``s_i`` its
    sample weight; η for every sample in algorithm 2.2)."""
    gram: np.ndarray
    y: np.ndarray
    eta: np.ndarray


class DualState(NamedTuple):
    """What a dual epoch updates in place: ``alpha`` and
    ``f[i] = Σ_j alpha_j y_j G[j, i]``; ``updated`` receives the samples
    updated, in order."""
    alpha: np.ndarray
    f: np.ndarray
    updated: np.ndarray


class DualEpoch(NamedTuple):
    """The bias after a dual epoch and how many updates it made."""
    b: float
    n_updates: int


@jit
def dual_epoch(samples, state, b, order):
    """One pass of algorithm 2.2 on the Gram matrix.

    ``f`` is kept current, so testing a sample costs O(1) and an update
    O(n). For each ``i`` in ``order``: if ``y_i (f_i + b) <= 0`` then
    ``alpha_i <- alpha_i + eta_i`` and ``b <- b + eta_i y_i`` (李航 算法2.2 with
    ``eta_i = η``; a sample weight scales the sample's step, as it scales the
    primal update ``w <- w + η s_i y_i x_i``). Returns a :class:`DualEpoch`.
    """
    gram, y, eta = samples.gram, samples.y, samples.eta
    alpha, f, updated = state.alpha, state.f, state.updated
    n_updates = 0
    for i in order:
        if y[i] * (f[i] + b) <= 0.0:
            step = eta[i] * y[i]
            alpha[i] += eta[i]
            b += step
            for j in range(gram.shape[0]):
                f[j] += step * gram[i, j]
            updated[n_updates] = i
            n_updates += 1
    return DualEpoch(b, n_updates)
