"""The gradient from kernel rows, compiled: at a start alpha0 != 0 (LIBSVM's
``Solver::Solve`` initialisation) and after shrinking (LIBSVM's
``reconstruct_gradient``); the state is that of :mod:`._smo_state`."""

from __future__ import annotations

import numpy as np

from .._numba import jit, jit_fast_internal
from ._kernel_rows import compute_row
from ._row_cache_kernels import get_row
from ._smo_state import ACTIVE_SIZE, EPOCH, FULL_ROW_SHARE


@jit
def initial_gradient(samples, var, cache, active_rows, ist):
    """G = Q alpha + p at the start ``var.alpha`` (stored as score_t = -y_t G_t)
    and, per sample r, H_r = sum_{alpha_u = C_u} C_u y_u k(x_u, x_r) (LIBSVM's
    G_bar_t is y_t H[kidx[t]]), as LIBSVM's ``Solver::Solve`` starts: from
    the cached full row of each sample with a nonzero alpha (rows computed
    here stay in the cache for the iterations). Variables of one sample (the
    SVR's two) add their coefficients first."""
    alpha, score, H, y, p, C = var.alpha, var.score, var.H, var.y, var.p, var.C
    kidx = var.kidx
    n = H.shape[0]
    coef_g = np.zeros(n)
    coef_h = np.zeros(n)
    for t in range(alpha.shape[0]):
        if alpha[t] > 0.0:
            coef_g[kidx[t]] += alpha[t] * y[t]
            if alpha[t] >= C[t]:
                coef_h[kidx[t]] += C[t] * y[t]
    value = np.zeros(n)
    for c in range(n):
        if coef_g[c] == 0.0 and coef_h[c] == 0.0:
            continue
        row = cache.rows[get_row(c, True, samples, cache, active_rows, ist)]
        add_scaled_row(value, coef_g[c], row)
        if coef_h[c] != 0.0:
            add_scaled_row(H, coef_h[c], row)
    for t in range(alpha.shape[0]):
        score[t] = -y[t] * (p[t] + y[t] * value[kidx[t]])


@jit
def reconstruct_gradient(samples, var, cache, ist, scratch):
    """G of the shrunk variables t >= active_size (LIBSVM's
    reconstruct_gradient): G_t = G_bar_t + p_t + sum_{free s} alpha_s Q_ts,
    stored as score_t = -y_t G_t.

    Computed per free sample c as coef_c k(x_c, x_r) over the shrunk samples
    r, from c's cached row: a full one as it is; a partial one is completed
    on the shrunk samples, or recomputed on all samples when they are at
    least FULL_ROW_SHARE of them (either way it becomes full). A sample
    without a cached row gets its row in ``scratch``."""
    alpha, score, H, y, p, C = var.alpha, var.score, var.H, var.y, var.p, var.C
    kidx = var.kidx
    rows, slot_of, full, epoch = cache.rows, cache.slot_of, cache.full, cache.epoch
    n = samples.all_rows.shape[0]
    l = alpha.shape[0]
    a = ist[ACTIVE_SIZE]
    coef = np.zeros(n)
    for s in range(a):
        if 0.0 < alpha[s] < C[s]:
            coef[kidx[s]] += alpha[s] * y[s]
    shrunk = np.zeros(n, dtype=np.uint8)
    for t in range(a, l):
        shrunk[kidx[t]] = 1
    shrunk_rows = np.empty(n, dtype=np.int64)     # the first n_shrunk entries
    n_shrunk = 0
    for r in range(n):
        if shrunk[r]:
            shrunk_rows[n_shrunk] = r
            n_shrunk += 1
    whole = n_shrunk >= FULL_ROW_SHARE * n
    value = np.zeros(n)
    for c in range(n):
        if coef[c] == 0.0:
            continue
        slot = slot_of[c]
        cached = slot >= 0 and (full[slot] == 1 or epoch[slot] == ist[EPOCH])
        row = rows[slot] if cached else scratch
        if not cached or full[slot] == 0:
            if whole:
                compute_row(samples, c, samples.all_rows, n, True, samples.parallel_work, row)
            else:
                compute_row(samples, c, shrunk_rows, n_shrunk, False, samples.parallel_work, row)
            if cached:
                full[slot] = 1
        if whole:
            add_scaled_row(value, coef[c], row)
        else:
            for k in range(n_shrunk):
                r = shrunk_rows[k]
                value[r] += coef[c] * row[r]
    for t in range(a, l):
        score[t] = -y[t] * (p[t] + y[t] * (H[kidx[t]] + value[kidx[t]]))


@jit_fast_internal
def add_scaled_row(value, coef, row):
    """value += coef * row on every sample (contiguous: vectorises)."""
    for r in range(value.shape[0]):
        value[r] += coef * row[r]
