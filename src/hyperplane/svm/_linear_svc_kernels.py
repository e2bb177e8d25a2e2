"""Compiled epochs of dual coordinate descent for the linear SVM (Hsieh, Chang,
Lin, Keerthi & Sundararajan, ICML 2008, Algorithm 1 with the shrinking of
section 3.2).

The dual of ``min_w 1/2 |w|^2 + sum_t C_t loss(y_t w.x_t)`` is::

    min_alpha 1/2 alpha' Q_bar alpha - e' alpha,  0 <= alpha_t <= U_t,
    Q_bar = Q + D,  Q[t, s] = y_t y_s x_t.x_s,

with U_t = C_t, D_tt = 0 for the hinge loss (L1-SVM) and U_t = inf,
D_tt = 1 / (2 C_t) for the squared hinge loss (L2-SVM). Keeping
``w = sum_t y_t alpha_t x_t`` makes one coordinate step O(nonzeros of x_t):
``G = y_t w.x_t - 1 + D_tt alpha_t``, ``alpha_t <- min(max(alpha_t - G / Q_bar_tt,
0), U_t)``. The bias is an extra feature of constant value ``B`` stored in
``w[d]`` (LIBLINEAR's ``-B``), so it is regularised.

Samples are rows of a flat dense array or of a CSR matrix (``data``,
``indices``, ``indptr``); the coordinate rule, :func:`coordinate_step`, is
shared. Each dual variable is one :data:`VARIABLE` record (``alpha``,
``QD``, ``y``, ``D``, ``U`` and the positions ``start:stop`` of its row in
the samples); ``bounds`` = [n_active, M_bar, m_bar] is the shrinking state
an epoch reads and leaves for the next. The solver's Python loop calls
:func:`dcd_epochs`, which runs a bounded number of epochs (on either
layout, :func:`by_layout`) with LIBLINEAR's rules between them, each one function
(:func:`within_tol`, the stopping test; :func:`next_shrink_bounds`, the
shrinking thresholds; :func:`settled`, when to compact the working set), and
return to it when it must act: a call from Python costs microseconds, as
much as a whole epoch on a small problem.

An epoch visits the active variables in a random order, so each step starts
with memory that is not in cache: the row and the variable's entries.
Waiting for them, not the arithmetic, dominates a step on short sparse rows.
The records are therefore 64 bytes, one cache line when the array is
line-aligned, so that a step waits for one line of the variable instead of
one per entry (the array-of-structures layout; Drepper, *What Every
Programmer Should Know About Memory*, 2007, section 6.2), and the epochs
prefetch: the record of the variable
``2 * AHEAD`` steps ahead and the row of the one ``AHEAD`` steps ahead
(software prefetching, Mowry, Lam & Gupta, ASPLOS 1992); a shrink, which
swaps in the last active variable, prefetches likewise from the end of the
active set. The order itself is
drawn in the compiled epoch by Fisher-Yates shuffling (Knuth, TAOCP vol. 2,
3.4.2, Algorithm P) with the xorshift64* generator (Vigna, ACM TOMS 2016), as
LIBLINEAR draws it with ``rand()``; the generator's state is one uint64 in a
caller-seeded array, so fits stay reproducible.

One epoch, :func:`dcd_epoch`, serves dense and CSR samples: it reads a row
only through :data:`prefetch_row`, :data:`margin` and :data:`dual_update`
(:func:`by_layout`), each given the row's positions ``start:stop`` that its
variable's record holds (no ``indptr[t]`` to wait for), the CSR ones
through the row layer's ``span_dot`` / ``span_axpy``, which take the
arrays. The step loop holds no reference count: numba's pass that removes
the increments and decrements it places around each use of an array (and
of each array of a :class:`~hyperplane._csr_rows.CSRRows`) removes a pair
only when the decrement follows on every path, and a path that can raise
breaks that: an integer division (its zero divisor), a ``range`` with a
variable step, or a call of another compiled function (its error status).
A step helper that reads the record's fields therefore has none of them
(:func:`prefetch_span` shifts instead of dividing), and is inlined, so
the loop pays no atomic increment and decrement per step (an earlier
epoch on the row layer paid them in its CSR prefetch, 1.14-1.37x the time
of two epochs). Positions are unsigned integers where the sign is unknown:
a signed position costs numba's negative-index fix-up on every read.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from .._numba import jit, jit_inline, jit_internal, jit_twin
from .._lowered import prefetch
from .._row_kernels import by_layout, row_dot_fast, span_axpy, span_dot

#: one dual variable: alpha_t, Q_bar_tt, y_t, D_tt, U_t and its row's
#: positions ``start:stop`` in the samples, padded to 64 bytes
VARIABLE = np.dtype([("alpha", np.float64), ("QD", np.float64), ("y", np.float64),
                     ("D", np.float64), ("U", np.float64), ("start", np.int64),
                     ("stop", np.int64), ("pad", np.float64)])

#: a projected gradient smaller than this is zero (LIBLINEAR: 1e-12)
PG_ZERO = 1e-12
#: steps ahead whose row is prefetched (the variable's entries: twice as far)
AHEAD = 8
#: bytes of a cache line
LINE = 64
#: the working set is compacted only after an epoch that shrank fewer than this
#: fraction of the variables it visited (a set that stays is visited for many
#: epochs, which repay the copy)
SETTLED = 0.1
#: what follows an epoch (:func:`after_epoch`): the next epoch; the caller
#: unshrinks, or stops, as the projected-gradient spread is within tol; the
#: caller compacts the settled working set
GO_ON, WITHIN_TOL, SET_SETTLED = 0, 1, 2


@jit_internal
def random_below(state, m):
    """A pseudo-random integer in [0, m), m < 2**32: one xorshift64* step on
    ``state[0]`` (Vigna 2016), its top 32 bits scaled to [0, m) by a multiply
    and a shift (Lemire, ACM TOMS 2019), without the rejection step (the
    bias, at most m / 2**32, is immaterial to an order of coordinates)."""
    x = state[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    state[0] = x
    top = (x * np.uint64(0x2545F4914F6CDD1D)) >> np.uint64(32)
    return np.int64((top * np.uint64(m)) >> np.uint64(32))


@jit_twin
def shuffle_prefix(active, n_active, state):
    """Permute ``active[:n_active]`` uniformly in place (Fisher-Yates)."""
    for k in range(n_active - 1):
        j = k + random_below(state, n_active - k)
        active[k], active[j] = active[j], active[k]


@jit_inline
def prefetch_span(array, start, stop):
    """Prefetch every cache line of the flat positions ``start:stop`` of a
    C-ordered ``array`` (of one dimension or more). The step, ``LINE /
    itemsize`` elements (sizes are powers of two), is found by shifts: a
    division, and ``range`` with a step, each carry a path that raises
    (divisor or step zero), on which numba's reference counts of the
    caller's arrays cannot be pruned, so a per-step caller would pay them."""
    step = LINE
    size = array.itemsize
    while size > 1 and step > 1:
        step >>= 1
        size >>= 1
    p = start
    while p < stop:
        prefetch(array, p)
        p += step


@jit_internal
def dense_prefetch_ahead(X, order, k, n, target, stride):
    """Ask the cache for the dense row ``order[k + AHEAD]`` (its reads of
    ``target`` run in order, which the hardware prefetches by itself)."""
    if k + AHEAD < n:
        t = order[k + AHEAD]
        prefetch_span(X, t * X.shape[1], (t + 1) * X.shape[1])


@jit_internal
def csr_prefetch_ahead(X, order, k, n, target, stride):
    """Ask the cache for the CSR row ``order[k + 2 AHEAD]``, and for the
    entries ``target[stride * c]`` that the row ``order[k + AHEAD]`` reads
    (c its columns): the two stages of software prefetching for a pass that
    visits ``order[:n]`` (Mowry, Lam & Gupta, ASPLOS 1992)."""
    data, indices, indptr = X.data, X.indices, X.indptr
    if k + 2 * AHEAD < n:
        t = order[k + 2 * AHEAD]
        prefetch_span(data, indptr[t], indptr[t + 1])
        prefetch_span(indices, indptr[t], indptr[t + 1])
    if k + AHEAD < n:
        t = order[k + AHEAD]
        for p in range(np.uint64(indptr[t]), np.uint64(indptr[t + 1])):
            prefetch(target, np.uint64(indices[p]) * np.uint64(stride))


#: the prefetches ahead of step k of a pass over rows (:func:`by_layout`)
prefetch_ahead = by_layout(dense_prefetch_ahead, csr_prefetch_ahead)


@jit_twin
def coordinate_step(G, alpha_t, U_t, QD_t, M_bar, m_bar):
    """The projected-gradient test and update of one dual variable.

    Returns ``(shrink, PG, new_alpha)``: ``shrink`` when alpha_t sits at a
    bound and its gradient points out of the box by more than the previous
    epoch's extremes (``M_bar``, ``m_bar``), Hsieh et al. 2008 eq. 13; else
    the projected gradient PG and ``alpha_t - G / QD_t`` clipped to
    ``[0, U_t]`` (alpha_t itself when |PG| is zero; with ``QD_t = 0`` the
    bound G points to, as the unclipped step is then infinite).
    """
    PG = 0.0
    if alpha_t == 0.0:
        if G > M_bar:
            return True, 0.0, alpha_t
        if G < 0.0:
            PG = G
    elif alpha_t == U_t:
        if G < m_bar:
            return True, 0.0, alpha_t
        if G > 0.0:
            PG = G
    else:
        PG = G
    if abs(PG) > PG_ZERO:
        if QD_t > 0.0:
            return False, PG, min(max(alpha_t - G / QD_t, 0.0), U_t)
        # an all-zero row without bias feature, hinge loss: the dual is linear
        # along alpha_t, its minimum at the bound that G points to
        return False, PG, U_t if G < 0.0 else 0.0
    return False, PG, alpha_t


@jit
def dense_prefetch_row(X, start, stop):
    """Ask the cache for the dense row at the flat positions ``start:stop``."""
    prefetch_span(X, start, stop)


@jit
def csr_prefetch_row(X, start, stop):
    """Ask the cache for the values and columns of the CSR row at the
    positions ``start:stop``."""
    prefetch_span(X.data, start, stop)
    prefetch_span(X.indices, start, stop)


@jit
def dense_margin(X, t, start, stop, w, bias):
    """``bias + w . x_t`` of a dense row: its dot product order free (the row
    layer's fastmath ``row_dot_fast``, vectorised), then the bias added."""
    return bias + row_dot_fast(X, t, w, 0.0)


@jit
def csr_margin(X, t, start, stop, w, bias):
    """``bias + w . x_t`` of the CSR row at the positions ``start:stop``,
    summed in index order from ``bias`` (the row layer's strict
    ``span_dot``). The dense margin's fastmath sum is reassociated, so
    sparse and dense fits of the same data may differ in the last bits (and
    so in the steps that follow); strict dense products in feature order, as
    the SVM seed's, agree with this one bit for bit."""
    return span_dot(X.data, X.indices, start, stop, w, bias)


@jit
def dense_dual_update(X, t, start, stop, w, delta):
    """``w += delta x_t`` of a dense row, in feature order (the loop of the
    row layer's ``row_axpy`` in the epoch's own code: a call of the row
    layer's compiled ``row_axpy``, which LLVM left a call, cost each update
    the call and reference counts on ``X`` and ``w``, 1.2x the time of a
    dense 10000 x 50 fit)."""
    for f in range(X.shape[1]):
        w[f] += delta * X[t, f]


@jit
def csr_dual_update(X, t, start, stop, w, delta):
    """``w += delta x_t`` of the CSR row at the positions ``start:stop`` (the
    row layer's ``span_axpy``)."""
    span_axpy(X.data, X.indices, start, stop, w, delta)


#: the row at a variable's positions on either layout (:func:`by_layout`): the
#: prefetch, ``bias + w . x_t`` and ``w += delta x_t``
prefetch_row = by_layout(dense_prefetch_row, csr_prefetch_row)
margin = by_layout(dense_margin, csr_margin)
dual_update = by_layout(dense_dual_update, csr_dual_update, inline=True)


@jit
def dcd_epoch(X, var, B, w, active, bounds, state):
    """One pass over ``active[:bounds[0]]``, first shuffled with the generator
    ``state``, on dense samples or CSR rows ``X`` (a
    :class:`~hyperplane._csr_rows.CSRRows`; row t at the positions
    ``var[t].start:stop``); shrunk variables are swapped behind the active
    prefix. Each step is :func:`coordinate_step` on the gradient
    ``G = y_t (w . [x_t, B]) - 1 + D_tt alpha_t`` (:data:`margin`), then
    ``w += (alpha_t' - alpha_t) y_t [x_t, B]`` (:data:`dual_update`). Returns the
    largest and smallest projected gradient of the pass, and updates
    ``bounds[0]``."""
    d = w.shape[0] - 1
    n_active = int(bounds[0])
    shuffle_prefix(active, n_active, state)
    M = -np.inf
    m = np.inf
    k = 0
    while k < n_active:
        if k + 2 * AHEAD < n_active:
            prefetch(var, active[k + 2 * AHEAD])
        if k + AHEAD < n_active:
            ahead = var[active[k + AHEAD]]
            prefetch_row(X, ahead.start, ahead.stop)
        t = active[k]
        v = var[t]
        start, stop, alpha_t = v.start, v.stop, v.alpha
        G = v.y * margin(X, t, start, stop, w, w[d] * B) - 1.0 + v.D * alpha_t
        shrink, PG, new = coordinate_step(G, alpha_t, v.U, v.QD, bounds[1], bounds[2])
        if shrink:
            n_active -= 1
            active[k], active[n_active] = active[n_active], active[k]
            if n_active - 2 * AHEAD > k:
                prefetch(var, active[n_active - 2 * AHEAD])
            if n_active - AHEAD > k:
                ahead = var[active[n_active - AHEAD]]
                prefetch_row(X, ahead.start, ahead.stop)
            continue
        M = max(M, PG)
        m = min(m, PG)
        if new != alpha_t:
            delta = (new - alpha_t) * v.y
            v.alpha = new
            dual_update(X, t, start, stop, w, delta)
            w[d] += delta * B
        k += 1
    bounds[0] = n_active
    return M, m


@jit_twin
def within_tol(M, m, tol):
    """LIBLINEAR's stopping test on one epoch: the spread ``M - m`` of the
    projected gradients it visited is at most ``tol`` (Hsieh et al. 2008,
    section 3.2; on a shrunk set it makes every variable active again, on the
    whole problem it stops the solver)."""
    return M - m <= tol


@jit_twin
def shrink_thresholds(M, m):
    """``(M_bar, m_bar)``, the shrinking thresholds of the next epoch (Hsieh
    et al. 2008, eq. 13, as LIBLINEAR's ``solve_l2r_l1l2_svc``): ``M`` and
    ``m`` of this epoch, or +inf / -inf where that extreme has the wrong sign
    (then no variable is shrunk on that side)."""
    return (M if M > 0.0 else np.inf), (m if m < 0.0 else -np.inf)


@jit_twin
def next_shrink_bounds(bounds, M, m):
    """Store :func:`shrink_thresholds` of ``M``, ``m`` in ``bounds[1:3]``."""
    bounds[1], bounds[2] = shrink_thresholds(M, m)


@jit_twin
def settled(n_active, visited, size, fraction):
    """Whether a working set of ``size`` variables, on which an epoch visited
    ``visited`` and left ``n_active`` active, should be compacted: the active
    ones are at most ``fraction`` of it and the epoch shrank at most
    :data:`SETTLED` of those it visited."""
    return n_active <= fraction * size and n_active >= (1.0 - SETTLED) * visited


@jit_twin
def after_epoch(M, m, tol, bounds, visited, size, compact_below):
    """What follows an epoch that visited ``visited`` variables and returned
    the extremes ``M``, ``m``: :data:`WITHIN_TOL` (``bounds`` untouched), else
    ``bounds`` set for the next epoch and :data:`SET_SETTLED` when the working
    set of ``size`` should be compacted at ``compact_below``, or
    :data:`GO_ON`."""
    if within_tol(M, m, tol):
        return WITHIN_TOL
    next_shrink_bounds(bounds, M, m)
    if settled(bounds[0], visited, size, compact_below):
        return SET_SETTLED
    return GO_ON


#: How long one call of :func:`dcd_epochs` may run: LIBLINEAR's stopping
#: tolerance ``tol``, at most ``max_epochs`` epochs, and the fraction
#: ``compact_below`` of the working set under which it is compacted.
EpochLimits = namedtuple("EpochLimits", "tol max_epochs compact_below")


@jit
def dcd_epochs(X, var, B, w, active, bounds, state, limits):
    """Up to ``limits.max_epochs`` successive epochs (:func:`dcd_epoch`, on
    either layout of ``X``), each followed by
    :func:`after_epoch`; returns ``(epochs run, event)`` after the first epoch
    whose event is :data:`WITHIN_TOL` or :data:`SET_SETTLED` (those the caller
    acts on), else ``(max_epochs, GO_ON)``. The caller's loop bounds the epochs
    of one call, and checks and reports between calls; the steps, and so the
    model, are those of one call per epoch (an :data:`EpochLimits`)."""
    for epoch in range(1, limits.max_epochs + 1):
        visited = bounds[0]
        M, m = dcd_epoch(X, var, B, w, active, bounds, state)
        event = after_epoch(M, m, limits.tol, bounds, visited, active.shape[0],
                            limits.compact_below)
        if event != GO_ON:
            return epoch, event
    return limits.max_epochs, GO_ON

