"""The SMO solver's cache of kernel rows (LIBSVM's ``Cache``; Chang & Lin,
ACM TIST 2011, section 5.1): an LRU cache of float32 rows indexed by sample,
whose slots shrinking gives back first. A cached row is full (every sample)
or partial: computed for the active set of its cache epoch (see
:mod:`._smo_state`)."""

from __future__ import annotations

import numpy as np

from .._numba import jit, jit_inline, jit_twin
from ._kernel_rows import compute_row, is_generic
from ._smo_state import (CLOCK, EPOCH, FULL_ROW_SHARE, N_ACTIVE_ROWS, N_FREE, N_USED, REQ_FULL,
                         REQ_ROW)


@jit_twin
def lru_slot(r, cache, ist):
    """The cache slot for sample row ``r``: its own; else a released one
    (see :func:`release_rows`), a never used one, or the least recently
    used one (evicted; the first of equal stamps, as ``np.argmin``, whose
    two compiled functions a loop spares every first fit). Marks it as just
    used. A compiled function of its own, called on a miss by :func:`get_row`,
    the gradient at a start alpha0 != 0 and :func:`store_row` (a twin: the
    tests call it from Python): one copy of the rule, not one inlined into
    each of them."""
    slot_of, owner, stamp = cache.slot_of, cache.owner, cache.stamp
    full, epoch, free_slots = cache.full, cache.epoch, cache.free_slots
    s = slot_of[r]
    if s < 0:
        if ist[N_FREE] > 0:
            ist[N_FREE] -= 1
            s = free_slots[ist[N_FREE]]
        elif ist[N_USED] < owner.shape[0]:
            s = ist[N_USED]
            ist[N_USED] += 1
        else:
            s = 0
            for k in range(1, stamp.shape[0]):
                if stamp[k] < stamp[s]:
                    s = k
            slot_of[owner[s]] = -1
        owner[s] = r
        slot_of[r] = s
        full[s] = 0
        epoch[s] = -1
    ist[CLOCK] += 1
    stamp[s] = ist[CLOCK]
    return s


@jit_inline
def release_rows(cache, active_rows, ist, n):
    """Give back the slots of samples that left the active set: the next
    rows go there before any never-used slot. A slot's memory is then
    touched once for several rows (fresh pages cost more than reused ones,
    above all in a virtual machine) and shrunk rows go first, not the least
    recently used active ones."""
    slot_of, owner, stamp, free_slots = cache.slot_of, cache.owner, cache.stamp, cache.free_slots
    active = np.zeros(n)     # float64 flags (see _shrinking_kernels.rebuild_active_rows)
    for k in range(ist[N_ACTIVE_ROWS]):
        active[active_rows[k]] = 1.0
    for s in range(ist[N_USED]):
        r = owner[s]
        if r >= 0 and active[r] == 0.0:
            slot_of[r] = -1
            owner[s] = -1
            stamp[s] = 0
            free_slots[ist[N_FREE]] = s
            ist[N_FREE] += 1


@jit
def store_row(r, cols, values, is_full, cache, ist):
    """Put a row computed outside (a generic kernel object) into the cache."""
    s = lru_slot(r, cache, ist)
    row = cache.rows[s]
    for k in range(cols.shape[0]):
        row[cols[k]] = values[k]
    cache.full[s] = is_full
    cache.epoch[s] = ist[EPOCH]


@jit_inline
def get_row(r, need_full, samples, cache, active_rows, ist):
    """Slot of kernel row ``r`` (valid on the active set, or on every sample
    if ``need_full``), computing it on a miss in the slot :func:`lru_slot`
    gives; -1 asks Python for it. Inlined: the SMO loop calls it at one
    place."""
    rows, slot_of, stamp, full, epoch = (cache.rows, cache.slot_of, cache.stamp, cache.full,
                                         cache.epoch)
    s = slot_of[r]
    if s >= 0 and (full[s] == 1 or (not need_full and epoch[s] == ist[EPOCH])):
        ist[CLOCK] += 1
        stamp[s] = ist[CLOCK]
        return s
    if is_generic(samples):
        ist[REQ_ROW] = r
        ist[REQ_FULL] = 1 if need_full else 0
        return -1
    s = lru_slot(r, cache, ist)
    n = samples.all_rows.shape[0]
    n_act = ist[N_ACTIVE_ROWS]
    # compute_row directly, not through kernel_row / kernel_row_full: each
    # compiled function in between links and optimises the whole row chain again
    if need_full or n_act >= FULL_ROW_SHARE * n:
        compute_row(samples, r, samples.all_rows, n, True, samples.parallel_work, rows[s])
        full[s] = 1
    else:
        compute_row(samples, r, active_rows, n_act, False, samples.parallel_work, rows[s])
        full[s] = 0
    epoch[s] = ist[EPOCH]
    return s
