"""The SMO solver's state: its named records and constants (周志华《机器学习》6.2,
李航《统计学习方法》7.4).

The solver minimises the dual quadratic programme shared by SVC and SVR
(LIBSVM's form, Chang & Lin 2011, section 4.1)::

    min_alpha  f(alpha) = 1/2 alpha' Q alpha + p' alpha
    subject to 0 <= alpha_t <= C_t,   y' alpha = Delta,

with ``Q[t, s] = y_t y_s k(x_kidx[t], x_kidx[s])`` and ``y_t = +-1``. SVC has
one variable per sample (``p = -1``); SVR two (``p = eps -+ z``). The gradient
is ``G = Q alpha + p``.

State lives in arrays grouped in named tuples, so that the Python driver
(:mod:`._smo`) can stop and resume the compiled loop (:mod:`._smo_kernels`),
whose stages are modules of their own: the kernel-row cache
(:mod:`._row_cache_kernels`), the working set (:mod:`._working_set_kernels`),
the two-variable step (:mod:`._pair_step_kernels`), shrinking
(:mod:`._shrinking_kernels`) and the gradient's reconstruction
(:mod:`._reconstruct_kernels`):

``samples`` -- a :data:`._kernel_rows.DenseSamples` or
            :data:`._kernel_rows.SparseSamples`: the samples in float32 and
            the kernel (its ``code``, one of the ``*_KERNEL`` constants,
            is a class attribute: a class per kernel,
            :func:`._kernel_rows.samples_class`; ``GENERIC`` means rows
            are computed by Python);
``var``   -- a :data:`Variables`, one entry per dual variable, in the
            solver's order: the active set is the prefix
            ``[0, active_size)``; ``perm`` maps back to the caller's order.
            The gradient is kept as ``score = -y G`` (what the working-set
            selection compares) and ``status`` holds the IN_UP / IN_LOW bits
            of I_up(alpha) and I_low(alpha). ``H`` is per *sample*:
            H_r = sum_{u at upper bound} C_u y_u k(x_u, x_r), so that LIBSVM's
            G_bar_t = sum_{u at upper bound} C_u Q_tu is y_t H[kidx[t]];
``cache`` -- a :data:`RowCache`: an LRU cache of float32 kernel rows
            ``k(x_r, .)`` indexed by sample row ``r``, with a stack of slots
            released by shrinking;
``ist``   -- the counters, an int64 vector addressed by the named slots
            ``N_ITER`` ... ``LAST_J`` (``LAST_I``/``LAST_J`` hold the last
            pair updated).

A cached row is *full* (all samples) or *partial*: computed only for the
samples of the active set at the time, valid until the next unshrink, which
starts a new ``epoch``.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

#: The dual variables (see the module docstring).
Variables = namedtuple("Variables", "alpha score H y p C QD kidx perm status")
#: The kernel-row cache: ``rows[s]`` is the row of sample ``owner[s]``
#: (``slot_of`` the inverse), ``stamp`` the LRU clock of each slot, ``full``
#: whether the row covers every sample, ``epoch`` the cache epoch of a
#: partial row, ``free_slots`` a stack of slots released by shrinking;
#: ``spare`` one row outside the slots, for a row used once that must not
#: evict a cached one (the gradient's reconstruction).
RowCache = namedtuple("RowCache", "rows slot_of owner stamp full epoch free_slots spare")


def empty_row_cache(n, n_slots):
    """A :data:`RowCache` with room for ``n_slots`` rows of ``n`` samples."""
    return RowCache(rows=np.empty((n_slots, n), dtype=np.float32),
                    slot_of=np.full(n, -1, dtype=np.int64),
                    owner=np.full(n_slots, -1, dtype=np.int64),
                    stamp=np.zeros(n_slots, dtype=np.int64),
                    full=np.zeros(n_slots, dtype=np.uint8),
                    epoch=np.full(n_slots, -1, dtype=np.int64),
                    free_slots=np.empty(n_slots, dtype=np.int64),
                    spare=np.empty(n, dtype=np.float32))


# what smo_iterate returns -----------------------------------------------------
CONVERGED, MAX_ITER, NEED_ROW, NEED_UNSHRINK, RECONSTRUCTED = range(5)

# slots of the integer state vector -----------------------------------------
(N_ITER, ACTIVE_SIZE, COUNTER, UNSHRUNK, EPOCH, CLOCK, N_USED, N_ACTIVE_ROWS,
 SHRINKING, REQ_ROW, REQ_FULL, REQ_FINAL, N_FREE, LAST_I, LAST_J, MAX_ITER_AT, TASK) = range(17)
N_STATE = 17

# what Python asks smo_iterate to do first (``ist[TASK]``): the one compiled
# entry a solve calls from Python also sets its state up and, from a start
# alpha0 != 0, computes the gradient, so that no other entry compiles with its
# wrappers or links the kernel-row code again ---------------------------
#: iterate only
ITERATE = 0
#: the gradient at the start alpha0 != 0 (:func:`._reconstruct_kernels.gradient_from_rows`), then
#: iterate
START_GRADIENT = 1
#: the gradient of the shrunk variables (the same function), then return RECONSTRUCTED without
#: iterating
RECONSTRUCT = 2
#: every variable's I_up / I_low status and the active rows (a new solve, or the variables
#: put back in order after an unshrink), then iterate; START_GRADIENT does it too
SET_UP = 3

#: LIBSVM's floor on the curvature eta of a non-positive-definite pair.
TAU = 1e-12
#: bits of the status byte of a variable
IN_UP, IN_LOW = 1, 2
#: iterations between two shrinking passes (LIBSVM: min(l, 1000)).
SHRINK_EVERY = 1000
#: a row wanted on at least this share of the samples is computed on all of
#: them (feature-major, vectorised over samples: cheaper than gathering the subset)
FULL_ROW_SHARE = 0.5
