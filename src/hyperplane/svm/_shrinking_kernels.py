"""The SMO solver's shrinking (Joachims 1999; LIBSVM's ``do_shrinking``,
Chang & Lin, ACM TIST 2011, section 5.1): variables stuck at a bound leave
the active set, a prefix of the variables kept in order, and the cached rows
of the samples that left it are given back."""

from __future__ import annotations

import numpy as np

from .._numba import jit_inline, jit_internal
from ._row_cache_kernels import release_rows
from ._smo_state import ACTIVE_SIZE, N_ACTIVE_ROWS, UNSHRUNK
from ._working_set_kernels import label_extremes


@jit_inline
def be_shrunk(G, alpha_t, C_t, y_t, m, minus_M):
    """Whether bound variable t (gradient G_t, alpha_t, C_t, y_t) cannot move
    while the gap is this wide (LIBSVM's ``be_shrunk``; m = m(alpha),
    minus_M = -M(alpha)). Takes scalars: one call site, no array of the
    :data:`Variables` unpacked (and reference-counted) in it."""
    if alpha_t >= C_t:
        if y_t > 0:
            return -G > m
        return -G > minus_M
    if alpha_t <= 0.0:
        if y_t > 0:
            return G > minus_M
        return G > m
    return False


@jit_inline
def shrink(var, cache, active_rows, ist, tol, halves):
    """LIBSVM's ``do_shrinking``: move variables that are stuck at a bound
    (:func:`be_shrunk`) out of the active set (Joachims 1999) and release
    the cached rows of the samples that left it. The first time the gap
    m(alpha) - M(alpha) comes within 10 tol, shrink nothing and return True:
    Python must unshrink (reconstruct the gradient) first. With ``halves``
    (the nu dual) m and M are taken within each label
    (:func:`label_extremes`) and the gap is the larger of the two labels'
    (LIBSVM's ``Solver_NU::do_shrinking``).

    Unlike LIBSVM, which swaps a shrunk variable with the last active one,
    the partition is *stable*: the active variables keep their relative
    order, so their sample rows ``kidx`` stay increasing and the passes over
    a cached kernel row read it front to back (what the prefetcher wants)."""
    active = ist[ACTIVE_SIZE]
    m_pos, M_pos, m_neg, M_neg = label_extremes(halves, var.score, var.status, var.y, active)
    if ist[UNSHRUNK] == 0 and max(m_pos - M_pos, m_neg - M_neg) <= 10.0 * tol:
        return True
    stuck = np.zeros(active)       # float64 flags: see rebuild_active_rows
    alpha, score, y, C = var.alpha, var.score, var.y, var.C
    kept = active
    for t in range(active):
        positive = y[t] > 0
        stuck[t] = be_shrunk(-y[t] * score[t], alpha[t], C[t], y[t],
                             m_pos if positive else m_neg, -M_pos if positive else -M_neg)
        if stuck[t]:
            kept -= 1
    if kept < active:
        permute_variables(var, stable_partition(stuck, kept))
    ist[ACTIVE_SIZE] = kept
    n = cache.slot_of.shape[0]
    rebuild_active_rows(var.kidx, kept, n, active_rows, ist)
    release_rows(cache, active_rows, ist, n)
    return False


@jit_inline
def stable_partition(stuck, kept):
    """The positions t with ``stuck[t]`` False (``kept`` of them), then those
    with it True, each in increasing order: one loop, not numba's
    ``count_nonzero``, ``flatnonzero`` and ``concatenate`` (each one more
    compiled function linked into the solver)."""
    order = np.empty(stuck.shape[0], dtype=np.int64)
    front, back = 0, kept
    for t in range(stuck.shape[0]):
        if stuck[t]:
            order[back] = t
            back += 1
        else:
            order[front] = t
            front += 1
    return order


@jit_inline
def permute_variables(var, order):
    """Reorder the first ``order.shape[0]`` dual variables in place:
    position ``k`` receives variable ``order[k]`` (``H`` is per sample and
    stays). The permutation is followed cycle by cycle (Knuth, TAOCP vol. 1,
    section 1.3.3), every array's entry moved in the same step, so that one
    loop moves them all, with no scratch vector; ``order`` is used up
    (``order[k] = k`` once position k holds its variable). Inlined into
    :func:`shrink`, its one compiled caller (Python reorders with NumPy:
    :func:`permuted_in_python`)."""
    alpha, score, y, p, C, QD = var.alpha, var.score, var.y, var.p, var.C, var.QD
    kidx, perm, status = var.kidx, var.perm, var.status
    for start in range(order.shape[0]):
        if order[start] == start:
            continue
        alpha_s = alpha[start]
        score_s = score[start]
        y_s = y[start]
        p_s = p[start]
        C_s = C[start]
        QD_s = QD[start]
        kidx_s = kidx[start]
        perm_s = perm[start]
        status_s = status[start]
        k = start
        while order[k] != start:
            src = order[k]
            alpha[k] = alpha[src]
            score[k] = score[src]
            y[k] = y[src]
            p[k] = p[src]
            C[k] = C[src]
            QD[k] = QD[src]
            kidx[k] = kidx[src]
            perm[k] = perm[src]
            status[k] = status[src]
            order[k] = k
            k = src
        alpha[k] = alpha_s
        score[k] = score_s
        y[k] = y_s
        p[k] = p_s
        C[k] = C_s
        QD[k] = QD_s
        kidx[k] = kidx_s
        perm[k] = perm_s
        status[k] = status_s
        order[k] = k


def permuted_in_python(var, order):
    """:func:`permute_variables` in NumPy, for the solver's Python side (the
    order restored after an unshrink): the same moves, no compiled function
    with wrappers for a call made once per fit or so."""
    for arr in var:
        if arr is not var.H:
            arr[:order.shape[0]] = arr[order]


@jit_internal
def rebuild_active_rows(kidx, n_active, n, active_rows, ist):
    """The distinct sample rows of the active variables (SVR has two
    variables per sample): after shrinking, and in a solve's set-up
    (:func:`._smo_kernels.smo_iterate`'s SET_UP)."""
    # flags as float64 0/1: the solver's np.zeros(n) of float64 serves them, no
    # np.zeros, np.empty and zero fill compiled for uint8 (~0.15 CPU s a first fit)
    seen = np.zeros(n)
    count = 0
    for t in range(n_active):
        r = kidx[t]
        if seen[r] == 0.0:
            seen[r] = 1.0
            active_rows[count] = r
            count += 1
    ist[N_ACTIVE_ROWS] = count
