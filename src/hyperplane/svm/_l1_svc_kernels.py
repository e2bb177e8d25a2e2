"""Compiled epochs of coordinate descent for the L1-regularised L2-loss
linear SVM (Yuan, Chang, Hsieh & Lin, "A comparison of optimization methods
and software for large-scale L1-regularized linear classification", JMLR 11,
2010, §4.1.2 "CDN"; LIBLINEAR's ``solve_l1r_l2_svc``, ``-s 5``)::

    min_w |w|_1 + sum_i C_i max(0, 1 - y_i w . x_i)^2,

the bias an extra feature of constant value ``B`` (regularised like the
others, as LIBLINEAR). The variables are the weights, one column of
``(y_i x_i)`` each; the solver keeps the margins ``b_i = 1 - y_i w . x_i``, so
that the loss's derivative in ``w_j`` and its generalised second derivative
cost one pass over the nonzeros of column ``j``::

    G = -2 sum_{b_i > 0} C_i y_i x_ij b_i,   H = 2 sum_{b_i > 0} C_i x_ij^2.

The direction is the soft-thresholded Newton step of the SVR dual's
coordinates (:func:`~._linear_svr_kernels.soft_newton_step`, ``p = 1``),
with the same shrinking test (:func:`~._linear_svr_kernels.violation_test`),
followed by CDN's backtracking line search (:func:`cdn_line_search`).

The columns are dense rows of ``(y x)^T`` or CSR rows of it (the CSC arrays of
``X``); every pass reads them through :func:`column_terms` and
:func:`column_shift`, written once on the row layer's entries of a row
(:mod:`hyperplane._row_kernels`: ``row_span``, ``row_entry``), which skip
zero entries (of a dense column, or stored in a CSR one), so both layouts
give the same model bit for bit.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from .._lowered import empty
from .._numba import jit, jit_internal, jit_twin
from .._row_kernels import by_layout, row_entry, row_span
from ._linear_svc_kernels import GO_ON, PG_ZERO, WITHIN_TOL, csr_prefetch_ahead
from ._linear_svr_kernels import (record_outcome, soft_newton_step, start_pass, tally_visit,
                                  violation_test)

#: sufficient decrease of CDN's line search (Yuan et al. 2010, eq. 30)
SIGMA = 0.01
#: halvings of the step at most before the margins are recomputed
MAX_LINE_SEARCH = 20

#: What an epoch reads: the columns ``Xc`` of ``(y_i [x_i, B])`` (dense (d+1, n)
#: or CSR rows), ``C`` (per sample) and ``xj_sq``: sum_i C_i x_ij^2 per column.
L1Problem = namedtuple("L1Problem", "Xc C xj_sq")
#: What an epoch updates: ``w`` (d + 1), the margins ``b = 1 - y w . x``,
#: ``active`` (the columns; the active set is a prefix) and ``rng`` (the
#: shuffle's generator state).
L1State = namedtuple("L1State", "w b active rng")
#: How long one call of :func:`cdn_epochs` may run (as the SVR's).
L1Limits = namedtuple("L1Limits", "tol max_epochs")


@jit_internal
def column_terms(Xc, j, b, C):
    """``(sum_{b_i > 0} C_i v_i b_i, sum_{b_i > 0} C_i v_i^2)`` over the
    nonzeros ``v_i`` of column ``j``, a dense row or a CSR row of ``Xc`` (the
    row layer's ``row_span`` / ``row_entry``; a stored zero adds nothing)."""
    g = 0.0
    h = 0.0
    start, stop = row_span(Xc, j)
    for p in range(start, stop):
        i, v = row_entry(Xc, j, p)
        if v != 0.0 and b[i] > 0.0:
            t = C[i] * v
            g += t * b[i]
            h += t * v
    return g, h


@jit_twin
def column_shift(Xc, j, b, C, delta):
    """``b_i += delta v_i`` over the nonzeros ``v_i`` of column ``j`` (dense
    or CSR, as :func:`column_terms`; a stored zero takes no part); returns
    the loss ``sum C_i max(0, b_i)^2`` of those rows before and after."""
    before = 0.0
    after = 0.0
    start, stop = row_span(Xc, j)
    for p in range(start, stop):
        i, v = row_entry(Xc, j, p)
        if v != 0.0:
            if b[i] > 0.0:
                before += C[i] * b[i] * b[i]
            b[i] += delta * v
            if b[i] > 0.0:
                after += C[i] * b[i] * b[i]
    return before, after


@jit
def dense_no_prefetch(X, order, k, n, target, stride):
    """Nothing: a dense column is long and read in order, which the hardware
    prefetches by itself."""


#: the prefetches ahead of a step: a CSR column and the margins it reads
prefetch_columns = by_layout(dense_no_prefetch, csr_prefetch_ahead)


@jit
def column_curvatures(Xc, C, n_columns):
    """``sum_i C_i x_ij^2`` of every column (:data:`column_terms` with all
    margins positive)."""
    out = empty(n_columns, np.float64)
    ones = empty(C.shape[0], np.float64)
    ones[:] = 1.0
    for j in range(n_columns):
        out[j] = column_terms(Xc, j, ones, C)[1]
    return out


@jit_internal
def recompute_margins(Xc, w, b, C):
    """``b = 1 - y w . x`` from the weights (after a line search that ran out
    of halvings, as LIBLINEAR)."""
    b[:] = 1.0
    for j in range(w.shape[0]):
        if w[j] != 0.0:
            column_shift(Xc, j, b, C, -w[j])


@jit_twin
def cdn_line_search(Xc, j, b, C, w_j, d, G_loss, xj_sq_j):
    """CDN's backtracking line search on ``w_j + lambda d``, lambda = 1, 1/2,
    ... (Yuan et al. 2010, §4.1.2 and eq. 30, with their cheap sufficient
    test ``xj_sq d^2 + G_loss d + ...`` tried first), shifting the margins
    ``b`` along. Returns ``(accepted step, searched to the end)``; the
    margins are those of the returned step unless the search ran out."""
    delta = abs(w_j + d) - abs(w_j) + G_loss * d
    d_old = 0.0
    loss_old = 0.0
    for step in range(MAX_LINE_SEARCH):
        cond = abs(w_j + d) - abs(w_j) - SIGMA * delta
        if xj_sq_j * d * d + G_loss * d + cond <= 0.0:
            column_shift(Xc, j, b, C, d_old - d)
            return d, False
        before, loss_new = column_shift(Xc, j, b, C, d_old - d)
        if step == 0:
            loss_old = before
        if cond + loss_new - loss_old <= 0.0:
            return d, False
        d_old = d
        d *= 0.5
        delta *= 0.5
    return d, True


@jit
def cdn_epoch(problem, state, n_active, Gmax_old):
    """One pass of CDN over ``state.active[:n_active]``, first shuffled;
    returns its :data:`~._linear_svr_kernels.EpochOutcome` as the SVR's epoch (the shrinking
    threshold is ``Gmax_old / n``, as LIBLINEAR)."""
    Xc, C, xj_sq = problem.Xc, problem.C, problem.xj_sq
    w, b, active, rng = state.w, state.b, state.active, state.rng
    threshold = Gmax_old / b.shape[0]
    outcome = start_pass(active, n_active, rng)
    k = 0
    while k < outcome.n_active:
        prefetch_columns(Xc, active, k, outcome.n_active, b, 1)
        j = active[k]
        g, h = column_terms(Xc, j, b, C)
        G_loss = -2.0 * g
        H = max(2.0 * h, PG_ZERO)
        shrink, violation = violation_test(G_loss, w[j], np.inf, 1.0, threshold)
        outcome = tally_visit(active, k, outcome, shrink, violation)
        if shrink:
            continue
        d = soft_newton_step(G_loss, H, w[j], 1.0)
        if abs(d) >= PG_ZERO:
            d, exhausted = cdn_line_search(Xc, j, b, C, w[j], d, G_loss, xj_sq[j])
            w[j] += d
            if exhausted:
                recompute_margins(Xc, w, b, C)
        k += 1
    return outcome


@jit
def cdn_epochs(problem, state, bounds, limits):
    """Up to ``limits.max_epochs`` epochs of :func:`cdn_epoch`, with
    ``bounds`` and the return value as :func:`~._linear_svr_kernels.svr_epochs`."""
    for epoch in range(1, limits.max_epochs + 1):
        if record_outcome(cdn_epoch(problem, state, int(bounds[0]), bounds[1]), bounds, limits.tol):
            return epoch, WITHIN_TOL
    return limits.max_epochs, GO_ON
