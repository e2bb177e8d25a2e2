"""The SMO solver's compiled loop (周志华《机器学习》6.2, 李航《统计学习方法》7.4;
LIBSVM's ``Solver::Solve``, Chang & Lin, ACM TIST 2011): shrink, select the
working set, update the pair, until the stopping rule holds. The problem and
the state it reads are described in :mod:`._smo_state`; its stages are
:mod:`._row_cache_kernels`, :mod:`._working_set_kernels`,
:mod:`._pair_step_kernels` and :mod:`._shrinking_kernels`."""

from __future__ import annotations

from .._numba import jit
from ._pair_step_kernels import (all_bound_status, bound_status, update_alpha_pair, update_gradient,
                                 update_h)
from ._reconstruct_kernels import gradient_from_rows
from ._row_cache_kernels import get_row
from ._shrinking_kernels import rebuild_active_rows, shrink
from ._smo_state import (ACTIVE_SIZE, CONVERGED, COUNTER, ITERATE, LAST_I, LAST_J, MAX_ITER,
                         MAX_ITER_AT, N_ITER, NEED_ROW, NEED_UNSHRINK, RECONSTRUCT, RECONSTRUCTED,
                         REQ_FINAL, SET_UP, SHRINK_EVERY, SHRINKING, START_GRADIENT, TASK)
from ._working_set_kernels import select_first, select_second


@jit
def smo_iterate(samples, var, cache, active_rows, ist, tol, halves, started):
    """Run SMO iterations until convergence, the iteration cap
    ``ist[MAX_ITER_AT]``, or a request to Python (a kernel row of a generic
    kernel, or an unshrink).

    Each iteration is LIBSVM's: every ``SHRINK_EVERY`` iterations
    :func:`shrink`; select the working set (i by :func:`select_i`, j by
    WSS3, :func:`select_j`, which reads i's kernel row); update the pair
    with clipping (:func:`update_alpha_pair`), the gradient on the active
    set (:func:`update_gradient`) and H, LIBSVM's G_bar, when a variable
    reaches or leaves its upper bound (:func:`update_h`). Stops when
    m(alpha) - M(alpha) <= tol, the maximal violation of the KKT
    conditions. With ``halves`` (an integer: the nu dual, Chang & Lin 2001)
    the working set is LIBSVM's ``Solver_NU``'s: i and j of one label
    (:func:`select_first`, :func:`select_second`, which numba compiles for
    the type of ``halves`` only), and the gap is the larger of the two labels'.
    Returns one of CONVERGED, MAX_ITER, NEED_ROW,
    NEED_UNSHRINK. A request leaves the state as it was at the start of the
    iteration, so calling again resumes exactly.

    ``ist[TASK]`` asks for a step first (then reset to ITERATE): SET_UP,
    every variable's status (:func:`all_bound_status`) and the active rows
    (:func:`rebuild_active_rows`), before the iterations. ``started`` (not
    None: a solve from a start alpha0 != 0, the nu and one-class duals)
    compiles the gradient's steps into this loop: START_GRADIENT, SET_UP and
    the gradient at the start, before the iterations; RECONSTRUCT, the
    gradient of the shrunk variables, and return RECONSTRUCTED without
    iterating (both :func:`gradient_from_rows`). A solve from alpha = 0
    (``started`` None: no gradient code here, numba drops the branch)
    reconstructs through :func:`~._reconstruct_kernels.reconstruct_gradient`,
    compiled only when a fit shrinks before it stops. Both are here, not entries of
    their own, so that the kernel-row code they share with the loop is
    linked and optimised once (each compiled entry Python calls links its
    callees' whole call tree and optimises it again).

    The kernel rows are asked for at one place, where :func:`get_row` is
    inlined (a copy of it per call site was most of the loop's compilation);
    the cache's LRU rule, :func:`~._row_cache_kernels.lru_slot`, which it
    calls on a miss only (a row is then computed), is a compiled function
    of its own that the gradient's start calls too: inlined in both, it cost
    numba more than the unit. The steps are written in this one loop, the
    arrays unpacked once: a step called once per iteration with the named
    tuples costs two atomic reference-count updates per array they hold
    (about 1 us per iteration, 1.3-1.6x on a linear-kernel fit), which LLVM
    removes only for the small steps it inlines."""
    alpha, H, y, C, QD, kidx, status = var.alpha, var.H, var.y, var.C, var.QD, var.kidx, var.status
    rows, slot_of = cache.rows, cache.slot_of
    l = alpha.shape[0]
    task = ist[TASK]
    ist[TASK] = ITERATE
    if task == SET_UP or task == START_GRADIENT:
        all_bound_status(var.y, var.alpha, var.C, var.status)
        rebuild_active_rows(var.kidx, ist[ACTIVE_SIZE], cache.slot_of.shape[0], active_rows, ist)
    if started is not None and (task == START_GRADIENT or task == RECONSTRUCT):
        gradient_from_rows(samples, var, cache, ist, task == START_GRADIENT)
        if task == RECONSTRUCT:
            return RECONSTRUCTED
    max_iter = ist[MAX_ITER_AT]
    while ist[N_ITER] < max_iter:
        if ist[COUNTER] <= 0:
            if ist[SHRINKING] == 1 and shrink(var, cache, active_rows, ist, tol, halves):
                ist[REQ_FINAL] = 0
                return NEED_UNSHRINK
            ist[COUNTER] = min(l, SHRINK_EVERY)
        n_active = ist[ACTIVE_SIZE]
        first = select_first(halves, var, n_active)
        i, j = -1, -1
        new_i, new_j = 0.0, 0.0
        flip_i, flip_j = False, False
        # Three stages, each first fetching the kernel rows it reads (up to
        # two variables' rows, -1: none) through the one call of get_row:
        # 0, i's rows (one per label in the nu dual), to select j; 1, i's row
        # again in the nu dual (most recently used, so that j's cannot evict
        # it) and j's, for the pair's step; 2, the full rows of a variable
        # that reaches or leaves its upper bound, for H.
        want_a, want_b, need_full = first.i_pos, first.i_neg, False
        for stage in range(3):
            slot_a, slot_b = 0, 0
            for k in range(2):
                t = want_a if k == 0 else want_b
                if t >= 0:
                    s = get_row(kidx[t], need_full, samples, cache, active_rows, ist)
                    if s < 0:
                        return NEED_ROW
                    if k == 0:
                        slot_a = s
                    else:
                        slot_b = s
            if stage == 0:
                i, j, gap = select_second(halves, var, n_active, first, rows[slot_a], rows[slot_b])
                if j < 0 or gap <= tol:
                    if n_active < l:
                        ist[REQ_FINAL] = 1
                        return NEED_UNSHRINK
                    return CONVERGED
                want_a, want_b = (i if first.i_neg >= 0 else -1), j
            elif stage == 1:
                new_i, new_j = update_alpha_pair(
                    var, i, j, QD[i] + QD[j] - 2.0 * rows[slot_of[kidx[i]]][kidx[j]])
                flip_i = (alpha[i] >= C[i]) != (new_i >= C[i])
                flip_j = (alpha[j] >= C[j]) != (new_j >= C[j])
                want_a, want_b, need_full = (i if flip_i else -1), (j if flip_j else -1), True
        # update alpha_i, alpha_j, the status bits, H and the gradient
        ist[LAST_I] = i
        ist[LAST_J] = j
        K_i = rows[slot_of[kidx[i]]]
        K_j = rows[slot_of[kidx[j]]]
        d_i = new_i - alpha[i]
        d_j = new_j - alpha[j]
        alpha[i] = new_i
        alpha[j] = new_j
        status[i] = bound_status(y[i], new_i, C[i])
        status[j] = bound_status(y[j], new_j, C[j])
        if flip_i:
            update_h(H, K_i, (C[i] if new_i >= C[i] else -C[i]) * y[i])
        if flip_j:
            update_h(H, K_j, (C[j] if new_j >= C[j] else -C[j]) * y[j])
        update_gradient(var.score, kidx, n_active, K_i, K_j, y[i] * d_i, y[j] * d_j)
        ist[N_ITER] += 1
        ist[COUNTER] -= 1
    return MAX_ITER
