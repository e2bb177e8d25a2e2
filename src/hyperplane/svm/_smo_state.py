"""The named state of the SMO solver, shared by its Python driver and its
compiled steps.

Arrays travel in named tuples (compiled code reads ``var.score``, at no cost
over a plain tuple); the scalars the compiled loop updates live in one record
of a structured array (``st.n_iter += 1`` in compiled code, by reference).

``KernelSpec``  a named kernel in scikit-learn's parametrisation
                (``code`` from :mod:`._kernel_rows`);
``Samples``     the samples in float32, row-major ``X32`` and feature-major
                ``XT32``, the kernel, and scratch space for one row
                (``buf``, ``ebuf``, ``acc``);
``Variables``   one entry per dual variable, in the solver's order (the
                active set is the prefix ``[0, active_size)``; ``perm`` maps
                back to the caller's order): ``alpha``, the gradient kept as
                ``score = -y G``, ``H`` per *sample* (H_r = sum over u at its
                upper bound of C_u y_u k(x_u, x_r), so that LIBSVM's G_bar_t
                is y_t H[kidx[t]]), ``y``, ``p``, ``C``, ``QD`` = Q_tt,
                ``kidx`` (the sample of each variable), ``perm`` and
                ``status`` (the IN_UP / IN_LOW bits);
``RowCache``    an LRU cache of float32 kernel rows k(x_r, .) indexed by
                sample row r, with a stack of slots released by shrinking,
                and ``active_rows``, the distinct samples of the active set;
``COUNTERS``    the dtype of the solver's scalar state (see the field notes).

A cached row is *full* (all samples) or *partial*: computed only for the
samples of the active set at the time, valid until the next unshrink, which
starts a new ``epoch``.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

KernelSpec = namedtuple("KernelSpec", "code gamma coef0 degree")
Samples = namedtuple("Samples", "X32 XT32 kernel buf ebuf acc")
Variables = namedtuple("Variables", "alpha score H y p C QD kidx perm status")
RowCache = namedtuple("RowCache", "rows slot_of owner stamp full epoch free_slots active_rows")

COUNTERS = np.dtype([
    ("n_iter", np.int64),         # SMO iterations done
    ("max_iter", np.int64),       # this call of the loop stops (MAX_ITER) at n_iter = max_iter
    ("tol", np.float64),          # stop when m(alpha) - M(alpha) <= tol
    ("active_size", np.int64),    # variables [0, active_size) are active
    ("counter", np.int64),        # iterations left before the next shrinking
    ("shrinking", np.int64),      # 1: shrink the active set
    ("unshrunk", np.int64),       # 1: the gap came within 10 tol and all were unshrunk
    ("epoch", np.int64),          # partial cached rows of an older epoch are stale
    ("clock", np.int64),          # LRU time
    ("n_used", np.int64),         # cache slots ever used
    ("n_free", np.int64),         # released slots on the free stack
    ("n_active_rows", np.int64),  # length of cache.active_rows
    ("req_row", np.int64),        # NEED_ROW: the sample whose row Python computes
    ("req_full", np.int64),       # NEED_ROW: 1 if on every sample
    ("req_final", np.int64),      # NEED_UNSHRINK: 1 if asked at the stopping rule
    ("last_i", np.int64),         # the pair of the last update
    ("last_j", np.int64),
])


def new_counters(l, tol, max_iter, shrinking, first_shrink):
    """The scalar state of a fresh solve on ``l`` variables: all active,
    first shrinking after ``first_shrink`` iterations."""
    state = np.zeros(1, dtype=COUNTERS)
    st = state[0]
    st["tol"] = tol
    st["max_iter"] = max_iter
    st["active_size"] = l
    st["counter"] = first_shrink
    st["shrinking"] = 1 if shrinking else 0
    return state


def new_row_cache(n, n_slots):
    """An empty cache of ``n_slots`` kernel rows over ``n`` samples."""
    return RowCache(rows=np.empty((n_slots, n), dtype=np.float32),
                    slot_of=np.full(n, -1, dtype=np.int64),
                    owner=np.full(n_slots, -1, dtype=np.int64),
                    stamp=np.zeros(n_slots, dtype=np.int64),
                    full=np.zeros(n_slots, dtype=np.uint8),
                    epoch=np.full(n_slots, -1, dtype=np.int64),
                    free_slots=np.empty(n_slots, dtype=np.int64),
                    active_rows=np.empty(n, dtype=np.int64))


def new_samples(X, kernel):
    """The float32 samples in both layouts, the kernel and row scratch."""
    X32 = np.ascontiguousarray(X, dtype=np.float32)
    n = X32.shape[0]
    return Samples(X32=X32, XT32=np.ascontiguousarray(X32.T), kernel=kernel,
                   buf=np.empty(n), ebuf=np.empty(n, dtype=np.int64),
                   acc=np.empty(n, dtype=np.float32))
