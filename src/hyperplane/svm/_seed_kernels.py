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
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from .._numba import jit

#: What an epoch reads: the samples ``X`` (n, d), labels ``y`` (+-1), upper
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
        PG = G
        if alpha[t] <= 0.0:
            if G > M_bar:
                n_active -= 1
                active[k], active[n_active] = active[n_active], active[k]
                continue
            PG = min(G, 0.0)
        elif alpha[t] >= C[t]:
            if G < m_bar:
                n_active -= 1
                active[k], active[n_active] = active[n_active], active[k]
                continue
            PG = max(G, 0.0)
        M = max(M, PG)
        m = min(m, PG)
        if PG != 0.0:
            dcd_step(X, y, B, w, alpha, t, min(max(alpha[t] - G / QD[t], 0.0), C[t]))
        k += 1
    return n_active, M, m
