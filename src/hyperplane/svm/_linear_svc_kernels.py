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

Samples are rows of a dense array or of a CSR matrix (``data``, ``indices``,
``indptr``); the coordinate rule, :func:`coordinate_step`, is shared. The
dual variables travel as :data:`DualProblem` (``y``, ``D``, ``U``, ``QD``,
``alpha``, ``B``); ``bounds`` = [n_active, M_bar, m_bar] is the shrinking
state an epoch reads and leaves for the next.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from .._numba import jit, jit_fast

DualProblem = namedtuple("DualProblem", "y D U QD alpha B")

#: a projected gradient smaller than this is zero (LIBLINEAR: 1e-12)
PG_ZERO = 1e-12


@jit
def coordinate_step(G, alpha_t, U_t, QD_t, M_bar, m_bar):
    """The projected-gradient test and update of one dual variable.

    Returns ``(shrink, PG, new_alpha)``: ``shrink`` when alpha_t sits at a
    bound and its gradient points out of the box by more than the previous
    epoch's extremes (``M_bar``, ``m_bar``), Hsieh et al. 2008 eq. 13; else
    the projected gradient PG and ``alpha_t - G / QD_t`` clipped to
    ``[0, U_t]`` (alpha_t itself when |PG| is zero).
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
        return False, PG, min(max(alpha_t - G / QD_t, 0.0), U_t)
    return False, PG, alpha_t


@jit
def dcd_epoch_dense(X, dual, w, active, bounds):
    """One pass over ``active[:bounds[0]]`` (in the given order) on dense
    samples ``X``; shrunk variables are swapped behind the active prefix.
    Returns the largest and smallest projected gradient of the pass, and
    updates ``bounds[0]``."""
    y, D, U, QD, alpha, B = dual
    d = X.shape[1]
    n_active = int(bounds[0])
    M = -np.inf
    m = np.inf
    k = 0
    while k < n_active:
        t = active[k]
        x = X[t]
        G = y[t] * (w[d] * B + dense_dot(w, x)) - 1.0 + D[t] * alpha[t]
        shrink, PG, new = coordinate_step(G, alpha[t], U[t], QD[t], bounds[1], bounds[2])
        if shrink:
            n_active -= 1
            active[k], active[n_active] = active[n_active], active[k]
            continue
        M = max(M, PG)
        m = min(m, PG)
        if new != alpha[t]:
            delta = (new - alpha[t]) * y[t]
            alpha[t] = new
            for f in range(d):
                w[f] += delta * x[f]
            w[d] += delta * B
        k += 1
    bounds[0] = n_active
    return M, m


@jit_fast
def sparse_dot(w, indices, data, start, stop):
    """sum_p w[indices[p]] data[p] over one CSR row (order free: vectorised).
    Positions are read as unsigned integers, which spares numba's
    negative-index test on every gathered weight."""
    acc = 0.0
    for p in range(start, stop):
        acc += w[np.uint64(indices[p])] * data[p]
    return acc


@jit_fast
def dense_dot(w, x):
    """sum_f w[f] x[f] (order free: vectorised)."""
    acc = 0.0
    for f in range(x.shape[0]):
        acc += w[f] * x[f]
    return acc


@jit
def dcd_epoch_csr(X, dual, w, active, bounds):
    """:func:`dcd_epoch_dense` on CSR samples ``X`` (a :class:`~hyperplane._csr_rows.CSRRows`)."""
    data, indices, indptr = X
    y, D, U, QD, alpha, B = dual
    d = w.shape[0] - 1
    n_active = int(bounds[0])
    M = -np.inf
    m = np.inf
    k = 0
    while k < n_active:
        t = active[k]
        start, stop = indptr[t], indptr[t + 1]
        G = y[t] * (w[d] * B + sparse_dot(w, indices, data, start, stop)) - 1.0 + D[t] * alpha[t]
        shrink, PG, new = coordinate_step(G, alpha[t], U[t], QD[t], bounds[1], bounds[2])
        if shrink:
            n_active -= 1
            active[k], active[n_active] = active[n_active], active[k]
            continue
        M = max(M, PG)
        m = min(m, PG)
        if new != alpha[t]:
            delta = (new - alpha[t]) * y[t]
            alpha[t] = new
            for p in range(start, stop):
                w[np.uint64(indices[p])] += delta * data[p]
            w[d] += delta * B
        k += 1
    bounds[0] = n_active
    return M, m
