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
def be_shrunk(t, var, m, minus_M):
    """Whether bound variable t cannot move while the gap is this wide
    (LIBSVM's ``be_shrunk`` with G = -y score; m = m(alpha),
    minus_M = -M(alpha))."""
    alpha, score, y, C = var.alpha, var.score, var.y, var.C
    G = -y[t] * score[t]
    if alpha[t] >= C[t]:
        if y[t] > 0:
            return -G > m
        return -G > minus_M
    if alpha[t] <= 0.0:
        if y[t] > 0:
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
    stuck = np.empty(active, dtype=np.uint8)       # uint8, as the status: one np.empty less
    y = var.y
    kept = active
    for t in range(active):
        stuck[t] = (be_shrunk(t, var, m_pos, -M_pos) if y[t] > 0
                    else be_shrunk(t, var, m_neg, -M_neg))
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
    """Reorder the first ``order.shape[0]`` dual variables: position ``k``
    receives variable ``order[k]`` (``H`` is per sample and stays). One
    scratch vector per element type, so that each array is moved by the same
    few loops (:func:`take_in_place`). Inlined into :func:`shrink`, its one
    compiled caller (Python reorders with NumPy: :func:`permuted_in_python`)."""
    m = order.shape[0]
    values = np.empty(m)
    for arr in (var.alpha, var.score, var.y, var.p, var.C, var.QD):
        take_in_place(arr, order, values)
    positions = np.empty(m, dtype=np.int64)
    for arr in (var.kidx, var.perm):
        take_in_place(arr, order, positions)
    take_in_place(var.status, order, np.empty(m, dtype=np.uint8))


def permuted_in_python(var, order):
    """:func:`permute_variables` in NumPy, for the solver's Python side (the
    order restored after an unshrink): the same moves, no compiled function
    with wrappers for a call made once per fit or so."""
    for arr in var:
        if arr is not var.H:
            arr[:order.shape[0]] = arr[order]


@jit_inline
def take_in_place(arr, order, scratch):
    """``arr[:m] = arr[order]`` (``m = order.shape[0]``) through ``scratch``
    (length m), element by element: numba compiles a gather ``arr[order]``
    and a slice assignment from an array with a bounds test and a formatted
    shape-mismatch message each, whose code was most of a small kernel's
    compilation."""
    for k in range(order.shape[0]):
        scratch[k] = arr[order[k]]
    for k in range(order.shape[0]):
        arr[k] = scratch[k]


@jit_internal
def rebuild_active_rows(kidx, n_active, n, active_rows, ist):
    """The distinct sample rows of the active variables (SVR has two
    variables per sample): after shrinking, and in a solve's set-up
    (:func:`._smo_kernels.smo_iterate`'s SET_UP)."""
    seen = np.zeros(n, dtype=np.uint8)
    count = 0
    for t in range(n_active):
        r = kidx[t]
        if seen[r] == 0:
            seen[r] = 1
            active_rows[count] = r
            count += 1
    ist[N_ACTIVE_ROWS] = count
