"""Compiled epoch of dual coordinate descent for the linear SVM (Hsieh, Chang,
Lin, Keerthi & Sundararajan, ICML 2008, Algorithm 3 with shrinking).

It solves the dual of the soft-margin SVM whose bias is an extra feature of
constant value ``B`` (so the bias is regularised and the equality y'alpha = 0
disappears)::

    min_alpha 1/2 alpha' Q alpha - e' alpha,  0 <= alpha_t <= C_t,
    Q[t, s] = y_t y_s (x_t . x_s + B^2),

keeping ``w = sum_t alpha_t y_t [x_t, B]`` so that one coordinate step costs
O(d): G_t = y_t w . [x_t, B] - 1, alpha_t <- clip(alpha_t - G_t / Q_tt).
:mod:`._seed` uses the result to start SMO near the solution.

The samples are dense rows (:func:`dcd_epoch`) or CSR rows
(:func:`dcd_epoch_csr`, a :class:`~hyperplane._csr_rows.CSRRows`, LIBLINEAR's
sparse layout), read by the row products of the linear SVM's own epochs.
Every sum runs in feature order, so the zeros a CSR row leaves out add
nothing and both layouts give the same seed bit for bit.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from .._numba import jit
from ._linear_svc_kernels import csr_axpy, csr_dot

#: What an epoch reads: the samples ``X`` (n, d; or CSR rows), labels ``y`` (+-1), upper
#: bounds ``C``, the bias feature's value ``B`` and the diagonal
#: ``QD_t = |x_t|^2 + B^2`` of Q.
DCDProblem = namedtuple("DCDProblem", "X y C B QD")
#: What an epoch updates: ``alpha``, ``w = sum_t alpha_t y_t [x_t, B]`` and
#: ``active``, the coordinates in the order of the pass (the active set is
#: a prefix of it).
DCDState = namedtuple("DCDState", "alpha w active")


@jit
def dcd_gradient(X, y, B, w, t):
    """G_t = y_t (w[:d] . x_t + w[d] B) - 1."""
    d = X.shape[1]
    acc = w[d] * B
    for f in range(d):
        acc += w[f] * X[t, f]
    return y[t] * acc - 1.0


@jit
def dcd_step(X, y, B, w, alpha, t, new):
    """alpha_t <- new and w += (new - alpha_t) y_t [x_t, B]."""
    d = X.shape[1]
    delta = (new - alpha[t]) * y[t]
    for f in range(d):
        w[f] += delta * X[t, f]
    w[d] += delta * B
    alpha[t] = new


@jit
def squared_norms(X):
    """|x_t|^2 of every dense row, summed in feature order."""
    out = np.zeros(X.shape[0])
    for t in range(X.shape[0]):
        for f in range(X.shape[1]):
            out[t] += X[t, f] * X[t, f]
    return out


@jit
def csr_squared_norms(X):
    """|x_t|^2 of every CSR row, summed in feature order (as :func:`squared_norms`)."""
    data, _, indptr = X
    out = np.zeros(indptr.shape[0] - 1)
    for t in range(out.shape[0]):
        for p in range(indptr[t], indptr[t + 1]):
            out[t] += data[p] * data[p]
    return out


@jit
def projected_gradient(G, alpha_t, C_t, M_bar, m_bar):
    """``(shrink, PG)`` of one variable: ``shrink`` when it sits at a bound
    and its gradient points out of the box by more than the previous
    epoch's extremes (``M_bar``, ``m_bar``); else the projected gradient."""
    if alpha_t <= 0.0:
        return G > M_bar, min(G, 0.0)
    if alpha_t >= C_t:
        return G < m_bar, max(G, 0.0)
    return False, G


@jit
def dcd_epoch(problem, state, n_active, M_bar, m_bar):
    """One pass over ``state.active[:n_active]`` (in the given order).

    A variable at a bound whose gradient points out of the box by more
    than the previous epoch's extremes (``M_bar``, ``m_bar``) is shrunk:
    swapped behind the active prefix. Returns ``(n_active, M, m)``, the
    largest and smallest projected gradient of the pass; ``M - m`` is the
    violation of the optimality conditions on the active set. The arrays
    are unpacked once: the per-coordinate steps take arrays, not the named
    tuples, whose reference counts would be updated on every call.
    """
    X, y, C, B, QD = problem.X, problem.y, problem.C, problem.B, problem.QD
    alpha, w, active = state.alpha, state.w, state.active
    M = -np.inf
    m = np.inf
    k = 0
    while k < n_active:
        t = active[k]
        G = dcd_gradient(X, y, B, w, t)
        shrink, PG = projected_gradient(G, alpha[t], C[t], M_bar, m_bar)
        if shrink:
            n_active -= 1
            active[k], active[n_active] = active[n_active], active[k]
            continue
        M = max(M, PG)
        m = min(m, PG)
        if PG != 0.0:
            dcd_step(X, y, B, w, alpha, t, min(max(alpha[t] - G / QD[t], 0.0), C[t]))
        k += 1
    return n_active, M, m


@jit
def dcd_epoch_csr(problem, state, n_active, M_bar, m_bar):
    """:func:`dcd_epoch` on CSR samples ``problem.X``: the gradient and the
    update of ``w`` touch only the row's nonzeros."""
    (data, indices, indptr), y, C, B, QD = problem.X, problem.y, problem.C, problem.B, problem.QD
    alpha, w, active = state.alpha, state.w, state.active
    d = w.shape[0] - 1
    M = -np.inf
    m = np.inf
    k = 0
    while k < n_active:
        t = active[k]
        start, stop = indptr[t], indptr[t + 1]
        G = y[t] * csr_dot(w, indices, data, start, stop, w[d] * B) - 1.0
        shrink, PG = projected_gradient(G, alpha[t], C[t], M_bar, m_bar)
        if shrink:
            n_active -= 1
            active[k], active[n_active] = active[n_active], active[k]
            continue
        M = max(M, PG)
        m = min(m, PG)
        if PG != 0.0:
            new = min(max(alpha[t] - G / QD[t], 0.0), C[t])
            delta = (new - alpha[t]) * y[t]
            csr_axpy(w, indices, data, start, stop, delta)
            w[d] += delta * B
            alpha[t] = new
        k += 1
    return n_active, M, m
