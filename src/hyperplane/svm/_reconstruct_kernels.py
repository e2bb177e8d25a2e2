"""The gradient from kernel rows, compiled: at a start alpha0 != 0 (LIBSVM's
``Solver::Solve`` initialisation) and after shrinking (LIBSVM's
``reconstruct_gradient``); the state is that of :mod:`._smo_state`.

Both are one function, :func:`gradient_from_rows`. A solve from a start
alpha0 != 0 (the nu and one-class duals) asks for it through the SMO's one
compiled entry :func:`._smo_kernels.smo_iterate` (``ist[TASK]``): the
kernel-row code it calls is then linked and optimised once per fit, in that
entry. A solve from alpha = 0 needs it only to reconstruct after shrinking,
which many fits never do: it calls :func:`reconstruct_gradient`, an entry of
its own, compiled only when a fit needs it, so that its loop holds no
gradient code."""

from __future__ import annotations

import numpy as np

from .._numba import jit, jit_internal
from ._kernel_rows import compute_row
from ._pair_step_kernels import update_h
from ._row_cache_kernels import lru_slot
from ._smo_state import ACTIVE_SIZE, EPOCH, FULL_ROW_SHARE


@jit_internal
def gradient_from_rows(samples, var, cache, ist, start):
    """The gradient G = Q alpha + p, stored as score_t = -y_t G_t, from the
    kernel rows of the samples whose variables contribute.

    ``start`` (LIBSVM's ``Solver::Solve`` at alpha0 != 0): every variable's
    G from the rows of the samples with alpha > 0, and per sample r
    H_r = sum_{alpha_u = C_u} C_u y_u k(x_u, x_r) (LIBSVM's G_bar_t is
    y_t H[kidx[t]]); each row is computed on every sample into a cache slot
    (:func:`lru_slot`), where it stays for the iterations. Variables of one
    sample (the SVR's two) add their coefficients first.

    Else (LIBSVM's ``reconstruct_gradient``, after shrinking) the G of the
    shrunk variables t >= active_size: G_t = G_bar_t + p_t + sum_{free s}
    alpha_s Q_ts, per free sample c as coef_c k(x_c, x_r) over the shrunk
    samples r, from c's cached row: a full one as it is; a partial one is
    completed on the shrunk samples, or recomputed on all samples when they
    are at least FULL_ROW_SHARE of them (either way it becomes full). A
    sample without a cached row gets its row in ``cache.spare``."""
    alpha, score, H, y, p, C = var.alpha, var.score, var.H, var.y, var.p, var.C
    kidx = var.kidx
    rows, slot_of, full, epoch = cache.rows, cache.slot_of, cache.full, cache.epoch
    n = samples.all_rows.shape[0]
    l = alpha.shape[0]
    a = 0 if start else ist[ACTIVE_SIZE]
    coef = np.zeros(n)
    coef_h = np.zeros(n)
    for s in range(l if start else a):
        if start and alpha[s] > 0.0:
            coef[kidx[s]] += alpha[s] * y[s]
            if alpha[s] >= C[s]:
                coef_h[kidx[s]] += C[s] * y[s]
        elif not start and 0.0 < alpha[s] < C[s]:
            coef[kidx[s]] += alpha[s] * y[s]
    # the samples whose G is computed: the first n_out of out_rows
    shrunk = np.zeros(n)     # float64 flags (see _shrinking_kernels.rebuild_active_rows)
    for t in range(a, l):
        shrunk[kidx[t]] = 1.0
    out_rows = np.empty(n, dtype=np.int64)
    n_out = 0
    for r in range(n):
        if shrunk[r]:
            out_rows[n_out] = r
            n_out += 1
    whole = start or n_out >= FULL_ROW_SHARE * n
    value = np.zeros(n)
    for c in range(n):
        if coef[c] == 0.0 and coef_h[c] == 0.0:
            continue
        slot = lru_slot(c, cache, ist) if start else slot_of[c]
        cached = start or (slot >= 0 and (full[slot] == 1 or epoch[slot] == ist[EPOCH]))
        row = rows[slot] if cached else cache.spare
        if not cached or full[slot] == 0:
            compute_row(samples, c, samples.all_rows if whole else out_rows, n if whole else n_out,
                        whole, samples.parallel_work, row)
            if cached:
                full[slot] = 1
            if start:
                epoch[slot] = ist[EPOCH]
        if whole:
            update_h(value, row, coef[c])
        else:
            for k in range(n_out):
                r = out_rows[k]
                value[r] += coef[c] * row[r]
        if coef_h[c] != 0.0:
            update_h(H, row, coef_h[c])
    if start:
        for t in range(l):
            score[t] = -y[t] * (p[t] + y[t] * value[kidx[t]])
    else:
        for t in range(a, l):
            score[t] = -y[t] * (p[t] + y[t] * (H[kidx[t]] + value[kidx[t]]))


@jit
def reconstruct_gradient(samples, var, cache, ist):
    """:func:`gradient_from_rows` after shrinking, for a solve from alpha = 0
    (whose compiled loop holds no gradient code)."""
    gradient_from_rows(samples, var, cache, ist, False)
