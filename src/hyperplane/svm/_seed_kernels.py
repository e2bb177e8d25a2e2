"""Compiled epoch of dual coordinate descent for the linear SVM (Hsieh, Chang,
Lin, Keerthi & Sundararajan, ICML 2008, Algorithm 3 with shrinking).

It solves the dual of the soft-margin SVM whose bias is an extra feature of
constant value ``B`` (so the bias is regularised and the equality y'alpha = 0
disappears)::

    min_alpha 1/2 alpha' Q alpha - e' alpha,  0 <= alpha_t <= C_t,
    Q[t, s] = y_t y_s (x_t . x_s + B^2),

keeping ``w = sum_t alpha_t y_t [x_t, B]`` so that one coordinate step costs
O(d): G_t = y_t w . [x_t, B] - 1, alpha_t <- clip(alpha_t - G_t / Q_tt).
This is the hinge-loss dual that LinearSVC solves, so the step, with its
projected-gradient and shrinking test, is LinearSVC's
:func:`~._linear_svc_kernels.coordinate_step` (with U_t = C_t and D_tt = 0).
:mod:`._seed` uses the result to start SMO near the solution.

The samples are dense rows or CSR rows (a :class:`~hyperplane._csr_rows.CSRRows`,
LIBLINEAR's sparse layout). :func:`ordered_dcd_epoch` reads them through
the package's row layer (:mod:`hyperplane._row_kernels`: ``row_dot`` and
``row_axpy``), which numba resolves, when it types the samples, to the
layout's function. Every sum runs in
feature order with strict arithmetic, so the zeros a CSR row leaves out add
nothing and both layouts give the same seed bit for bit.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from .._lowered import zeros
from .._numba import jit
from .._row_kernels import row_axpy, row_dot
from ._linear_svc_kernels import coordinate_step
from ._sparse_rows_kernels import csr_squared_norms  # noqa: F401  (the seed's CSR norms)

#: What an epoch reads: the samples ``X`` (n, d; or CSR rows), labels ``y`` (+-1), upper
#: bounds ``C``, the bias feature's value ``B`` and the diagonal
#: ``QD_t = |x_t|^2 + B^2`` of Q.
DCDProblem = namedtuple("DCDProblem", "X y C B QD")
#: What an epoch updates: ``alpha``, ``w = sum_t alpha_t y_t [x_t, B]`` and
#: ``active``, the coordinates in the order of the pass (the active set is
#: a prefix of it).
DCDState = namedtuple("DCDState", "alpha w active")


@jit
def squared_norms(X):
    """|x_t|^2 of every dense row, summed in feature order."""
    out = zeros(X.shape[0], np.float64)
    for t in range(X.shape[0]):
        for f in range(X.shape[1]):
            out[t] += X[t, f] * X[t, f]
    return out


@jit
def ordered_dcd_epoch(problem, state, n_active, M_bar, m_bar):
    """One pass over ``state.active[:n_active]`` (in the given order), on
    dense or CSR samples ``problem.X``.

    Each variable takes :func:`~._linear_svc_kernels.coordinate_step`: a
    variable at a bound whose gradient points out of the box by more than
    the previous epoch's extremes (``M_bar``, ``m_bar``) is shrunk, swapped
    behind the active prefix. Returns ``(n_active, M, m)``, the largest and
    smallest projected gradient of the pass; ``M - m`` is the violation of
    the optimality conditions on the active set. The arrays are unpacked
    once: the per-coordinate steps take arrays, not the named tuples, whose
    reference counts would be updated on every call.
    """
    X, y, C, B, QD = problem.X, problem.y, problem.C, problem.B, problem.QD
    alpha, w, active = state.alpha, state.w, state.active
    d = w.shape[0] - 1
    M = -np.inf
    m = np.inf
    k = 0
    while k < n_active:
        t = active[k]
        G = y[t] * row_dot(X, t, w, w[d] * B) - 1.0
        shrink, PG, new = coordinate_step(G, alpha[t], C[t], QD[t], M_bar, m_bar)
        if shrink:
            n_active -= 1
            active[k], active[n_active] = active[n_active], active[k]
            continue
        M = max(M, PG)
        m = min(m, PG)
        if new != alpha[t]:
            delta = (new - alpha[t]) * y[t]
            row_axpy(X, t, w, delta)
            w[d] += delta * B
            alpha[t] = new
        k += 1
    return n_active, M, m
