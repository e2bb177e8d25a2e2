"""Compiled steps of the SMO solver (周志华《机器学习》6.2, 李航《统计学习方法》7.4).

The solver minimises the dual quadratic programme shared by SVC and SVR
(LIBSVM's form, Chang & Lin 2011, section 4.1)::

    min_alpha  f(alpha) = 1/2 alpha' Q alpha + p' alpha
    subject to 0 <= alpha_t <= C_t,   y' alpha = Delta,

with ``Q[t, s] = y_t y_s k(x_kidx[t], x_kidx[s])`` and ``y_t = +-1``. SVC has
one variable per sample (``p = -1``); SVR two (``p = eps -+ z``). The gradient
is ``G = Q alpha + p``.

The state is named (see :mod:`._smo_state`): ``samples`` (a ``Samples``),
``var`` (``Variables``), ``cache`` (``RowCache``) and ``st``, the record of
scalar counters. The steps are LIBSVM's (Chang & Lin 2011, section 4):
:func:`select_working_set`, :func:`update_alpha_pair` (with
:func:`update_gradient`), :func:`shrink`; the threshold b
(``calculate_b``) is computed by the driver once the loop stops.
"""

from __future__ import annotations

import numpy as np

from .._numba import jit, jit_fast, jit_step, maxnum
from ._kernel_rows import GENERIC, kernel_row, kernel_row_full


# what smo_iterate returns -----------------------------------------------------
CONVERGED, MAX_ITER, NEED_ROW, NEED_UNSHRINK = range(4)

#: what a step returns instead of a variable index when a kernel row must
#: come from Python (a generic kernel)
ROW_REQUEST = -2

#: LIBSVM's floor on the curvature eta of a non-positive-definite pair.
TAU = 1e-12
#: bits of the status byte of a variable
IN_UP, IN_LOW = 1, 2
#: iterations between two shrinking passes (LIBSVM: min(l, 1000)).
SHRINK_EVERY = 1000
#: a row wanted on at least this share of the samples is computed on all of
#: them (feature-major, vectorised over samples: cheaper than gathering the subset)
FULL_ROW_SHARE = 0.5


# --------------------------------------------------------------------------
# LRU cache of kernel rows
# --------------------------------------------------------------------------
@jit_step
def lru_slot(r, cache, st):
    """The cache slot for sample row ``r``: its own; else a released one
    (see :func:`release_rows`), a never used one, or the least recently
    used one (evicted). Marks it as just used."""
    slot_of, owner = cache.slot_of, cache.owner
    s = slot_of[r]
    if s < 0:
        if st.n_free > 0:
            st.n_free -= 1
            s = cache.free_slots[st.n_free]
        elif st.n_used < owner.shape[0]:
            s = st.n_used
            st.n_used += 1
        else:
            s = np.argmin(cache.stamp)
            slot_of[owner[s]] = -1
        owner[s] = r
        slot_of[r] = s
        cache.full[s] = 0
        cache.epoch[s] = -1
    st.clock += 1
    cache.stamp[s] = st.clock
    return s


@jit
def release_rows(cache, st):
    """Give back the slots of samples that left the active set: the next
    rows go there before any never-used slot. A slot's memory is then
    touched once for several rows (fresh pages cost more than reused ones,
    above all in a virtual machine) and shrunk rows go first, not the least
    recently used active ones."""
    slot_of, owner = cache.slot_of, cache.owner
    active = np.zeros(slot_of.shape[0], dtype=np.uint8)
    for k in range(st.n_active_rows):
        active[cache.active_rows[k]] = 1
    for s in range(st.n_used):
        r = owner[s]
        if r >= 0 and active[r] == 0:
            slot_of[r] = -1
            owner[s] = -1
            cache.stamp[s] = 0
            cache.free_slots[st.n_free] = s
            st.n_free += 1


@jit
def store_row(r, cols, values, is_full, cache, st):
    """Put a row computed outside (a generic kernel object) into the cache."""
    s = lru_slot(r, cache, st)
    row = cache.rows[s]
    for k in range(cols.shape[0]):
        row[cols[k]] = values[k]
    cache.full[s] = is_full
    cache.epoch[s] = st.epoch


@jit_step
def get_row(r, need_full, samples, cache, st):
    """Slot of kernel row ``r`` (valid on the active set, or on every sample
    if ``need_full``), computing it on a miss; -1 asks Python for it
    (``st.req_row``, ``st.req_full``)."""
    s = cache.slot_of[r]
    if s >= 0 and (cache.full[s] == 1 or (not need_full and cache.epoch[s] == st.epoch)):
        st.clock += 1
        cache.stamp[s] = st.clock
        return s
    if samples.kernel.code == GENERIC:
        st.req_row = r
        st.req_full = 1 if need_full else 0
        return -1
    s = lru_slot(r, cache, st)
    n = samples.X32.shape[0]
    n_act = st.n_active_rows
    if need_full or n_act >= FULL_ROW_SHARE * n:
        kernel_row_full(samples, r, cache.rows[s])
        cache.full[s] = 1
    else:
        kernel_row(samples, r, cache.active_rows, n_act, cache.rows[s])
        cache.full[s] = 0
    cache.epoch[s] = st.epoch
    return s


# --------------------------------------------------------------------------
# select_working_set
# --------------------------------------------------------------------------
@jit_step
def bound_status(y, alpha, C):
    """IN_UP if t is in I_up(alpha) (alpha_t can move so that y_t alpha_t
    grows), plus IN_LOW if t is in I_low(alpha) (y_t alpha_t can shrink)."""
    up = (y > 0 and alpha < C) or (y < 0 and alpha > 0.0)
    low = (y > 0 and alpha > 0.0) or (y < 0 and alpha < C)
    return np.uint8((IN_UP if up else 0) | (IN_LOW if low else 0))


@jit_fast
def max_in_up(score, status, n_active):
    """m(alpha) = max_{t in I_up} score_t (-inf if I_up is empty)."""
    m = -np.inf
    for t in range(n_active):
        m = maxnum(m, score[t] if status[t] & IN_UP else -np.inf)
    return m


@jit_fast
def last_at_value(score, status, n_active, m):
    """The last t in I_up with score_t = m (LIBSVM's tie rule: ``>=``)."""
    i = -1
    for t in range(n_active):
        i = t if (score[t] if status[t] & IN_UP else -np.inf) == m else i
    return i


@jit_step
def select_i(var, n_active):
    """i = argmax_{t in I_up} score_t, score_t = -y_t G_t: the first half of
    the maximal violating pair. Returns (i, m(alpha)); i = -1 if I_up is
    empty. Two loops LLVM vectorises: :func:`max_in_up`, then
    :func:`last_at_value` (LIBSVM's tie rule, the last of equal scores)."""
    m = max_in_up(var.score, var.status, n_active)
    return (last_at_value(var.score, var.status, n_active, m) if m > -np.inf else -1), m


@jit_step
def select_j(var, n_active, i, m, K_i):
    """WSS3 of Fan, Chen & Lin (JMLR 2005, eq. 18): among t in I_low with
    b_it = m - score_t > 0, the one of largest guaranteed decrease
    b_it^2 / eta_it, eta_it = K_ii + K_tt - 2 K_it (floored at TAU).
    Returns (j, M(alpha)) with M = min_{t in I_low} score_t."""
    score, QD, kidx, status = var.score, var.QD, var.kidx, var.status
    M = np.inf
    j = -1
    best = np.inf
    qd_i = QD[i]
    for t in range(n_active):
        if status[t] & IN_LOW:
            s = score[t]
            if s < M:
                M = s
            b = m - s
            if b > 0.0:
                eta = max(qd_i + QD[t] - 2.0 * K_i[kidx[t]], TAU)
                decrease = -(b * b) / eta
                if decrease <= best:
                    best = decrease
                    j = t
    return j, M


@jit_step
def select_working_set(samples, var, cache, st, i, m):
    """LIBSVM's ``select_working_set``: the pair (i, j) that most violates
    the KKT conditions, i by :func:`select_i` (unless ``i >= 0``: the
    previous :func:`update_gradient` found it, with its ``m``), j by WSS3
    (:func:`select_j`, which needs i's kernel row). Returns (i, j, m, M);
    j = -1 if no pair violates, ROW_REQUEST if i's row must come from
    Python."""
    n_active = st.active_size
    if i < 0:
        i, m = select_i(var, n_active)
        if i < 0:
            return i, -1, m, np.inf
    s_i = get_row(var.kidx[i], False, samples, cache, st)
    if s_i < 0:
        return i, ROW_REQUEST, m, np.inf
    j, M = select_j(var, n_active, i, m, cache.rows[s_i])
    return i, j, m, M


# --------------------------------------------------------------------------
# update_alpha_pair and the gradient
# --------------------------------------------------------------------------
@jit_step
def update_alpha_pair(var, i, j, eta):
    """Minimise f along the feasible direction alpha_i += y_i t,
    alpha_j -= y_j t (which keeps y'alpha fixed) and clip to the box.

    The unclipped step is ``t = (score_i - score_j) / eta`` with
    score = -y G (李航 式7.106 in the variable t); it is clipped to
    ``[0, min(room_i, room_j)]``, the book's ``L <= alpha_2 <= H``
    (式7.108). A variable that reaches its bound is set to it exactly.
    Returns the new (alpha_i, alpha_j); ``var`` is not changed."""
    alpha_i, alpha_j, y_i, y_j = var.alpha[i], var.alpha[j], var.y[i], var.y[j]
    C_i, C_j = var.C[i], var.C[j]
    if eta <= 0.0:
        eta = TAU
    t = (var.score[i] - var.score[j]) / eta
    room_i = C_i - alpha_i if y_i > 0 else alpha_i
    room_j = alpha_j if y_j > 0 else C_j - alpha_j
    if t > room_i:
        t = room_i
    if t > room_j:
        t = room_j
    new_i = alpha_i + y_i * t
    new_j = alpha_j - y_j * t
    if t == room_i:
        new_i = C_i if y_i > 0 else 0.0
    if t == room_j:
        new_j = 0.0 if y_j > 0 else C_j
    return min(max(new_i, 0.0), C_i), min(max(new_j, 0.0), C_j)


@jit_fast
def update_gradient(var, n_active, K_i, K_j, a_i, a_j):
    """G_t += Q_ti d_alpha_i + Q_tj d_alpha_j on the active set, kept as
    score_t = -y_t G_t: score_t -= a_i K_ti + a_j K_tj with a_i = y_i d_alpha_i,
    a_j = y_j d_alpha_j (Q_ti = y_t y_i K_ti).

    Returns the next iteration's :func:`select_i` ``(i, m)``, computed after
    the update loop: LLVM vectorises a loop that stores or one that reduces,
    not one that does both."""
    score, kidx = var.score, var.kidx
    for t in range(n_active):
        r = kidx[t]
        score[t] -= a_i * K_i[r] + a_j * K_j[r]
    return select_i(var, n_active)


@jit_fast
def update_h(H, K_r, coef):
    """H_r += coef K_ur for every sample r, with coef = +-C_u y_u when
    variable u reaches or leaves its upper bound (LIBSVM's G_bar update,
    kept per sample: contiguous, so it vectorises)."""
    for r in range(H.shape[0]):
        H[r] += coef * K_r[r]


@jit_step
def take_step(samples, var, cache, st, i, j):
    """One SMO update of the pair (i, j): :func:`update_alpha_pair`, the
    status bits, H of a variable that reaches or leaves its upper bound,
    and :func:`update_gradient`. Returns the next iteration's (i, m), or
    (ROW_REQUEST, 0) with the state unchanged when a kernel row must come
    from Python."""
    alpha, y, C, kidx = var.alpha, var.y, var.C, var.kidx
    rows, slot_of = cache.rows, cache.slot_of
    if get_row(kidx[j], False, samples, cache, st) < 0:
        return ROW_REQUEST, 0.0
    st.last_i = i
    st.last_j = j
    new_i, new_j = update_alpha_pair(
        var, i, j, var.QD[i] + var.QD[j] - 2.0 * rows[slot_of[kidx[i]]][kidx[j]])
    flip_i = (alpha[i] >= C[i]) != (new_i >= C[i])
    flip_j = (alpha[j] >= C[j]) != (new_j >= C[j])
    if flip_i and get_row(kidx[i], True, samples, cache, st) < 0:
        return ROW_REQUEST, 0.0
    if flip_j and get_row(kidx[j], True, samples, cache, st) < 0:
        return ROW_REQUEST, 0.0
    K_i = rows[slot_of[kidx[i]]]
    K_j = rows[slot_of[kidx[j]]]
    d_i = new_i - alpha[i]
    d_j = new_j - alpha[j]
    alpha[i] = new_i
    alpha[j] = new_j
    var.status[i] = bound_status(y[i], new_i, C[i])
    var.status[j] = bound_status(y[j], new_j, C[j])
    if flip_i:
        update_h(var.H, K_i, (C[i] if new_i >= C[i] else -C[i]) * y[i])
    if flip_j:
        update_h(var.H, K_j, (C[j] if new_j >= C[j] else -C[j]) * y[j])
    return update_gradient(var, st.active_size, K_i, K_j, y[i] * d_i, y[j] * d_j)


# --------------------------------------------------------------------------
# shrink
# --------------------------------------------------------------------------
@jit
def be_shrunk(t, var, m, minus_M):
    """Whether bound variable t cannot move while the gap is this wide
    (LIBSVM's ``be_shrunk`` with G = -y score; m = m(alpha),
    minus_M = -M(alpha))."""
    y_t, alpha_t, C_t = var.y[t], var.alpha[t], var.C[t]
    G = -y_t * var.score[t]
    if alpha_t >= C_t:
        if y_t > 0:
            return -G > m
        return -G > minus_M
    if alpha_t <= 0.0:
        if y_t > 0:
            return G > minus_M
        return G > m
    return False


@jit
def permute_variables(var, order):
    """Reorder the dual variables: position ``k`` receives variable ``order[k]``
    (``H`` is per sample and stays)."""
    k = order.shape[0]
    for arr in (var.alpha, var.score, var.y, var.p, var.C, var.QD):
        arr[:k] = arr[order]
    for arr in (var.kidx, var.perm):
        arr[:k] = arr[order]
    var.status[:k] = var.status[order]


@jit
def violation_extremes(var, n_active):
    """(m(alpha), -M(alpha)) on the active set: the gap is their sum."""
    score, status = var.score, var.status
    m = -np.inf
    minus_M = -np.inf
    for t in range(n_active):
        s = score[t]
        m = max(m, s if status[t] & IN_UP else -np.inf)
        minus_M = max(minus_M, -s if status[t] & IN_LOW else -np.inf)
    return m, minus_M


@jit
def rebuild_active_rows(kidx, n_active, cache, st):
    """The distinct sample rows of the active variables (SVR has two
    variables per sample), into ``cache.active_rows``."""
    seen = np.zeros(cache.slot_of.shape[0], dtype=np.uint8)
    count = 0
    for t in range(n_active):
        r = kidx[t]
        if seen[r] == 0:
            seen[r] = 1
            cache.active_rows[count] = r
            count += 1
    st.n_active_rows = count


@jit
def shrink_active_set(var, cache, st):
    """Move variables that are stuck at a bound out of the active set
    (Joachims 1999; LIBSVM's ``do_shrinking``, with the same ``be_shrunk``
    rule).

    Unlike LIBSVM, which swaps a shrunk variable with the last active one,
    the partition is *stable*: the active variables keep their relative
    order, so their sample rows ``kidx`` stay increasing and the passes over
    a cached kernel row read it front to back (what the prefetcher wants)."""
    m, minus_M = violation_extremes(var, st.active_size)
    active = st.active_size
    stuck = np.empty(active, dtype=np.bool_)
    for t in range(active):
        stuck[t] = be_shrunk(t, var, m, minus_M)
    kept = active - np.count_nonzero(stuck)
    if kept < active:
        permute_variables(var, np.concatenate((np.flatnonzero(~stuck),
                                               np.flatnonzero(stuck))))
    st.active_size = kept
    rebuild_active_rows(var.kidx, kept, cache, st)


@jit
def shrink(var, cache, st):
    """LIBSVM's ``do_shrinking``: once the gap m - M is within 10 tol the
    first time, ask Python to unshrink (reconstruct the gradient) and
    return True; else shrink the active set and release the rows of the
    samples that left it."""
    m, minus_M = violation_extremes(var, st.active_size)
    if st.unshrunk == 0 and m + minus_M <= 10.0 * st.tol:
        st.req_final = 0
        return True
    shrink_active_set(var, cache, st)
    release_rows(cache, st)
    return False


# --------------------------------------------------------------------------
# the loop
# --------------------------------------------------------------------------
@jit
def smo_iterate(samples, var, cache, state):
    """Run SMO iterations until convergence, ``st.max_iter``, or a request
    to Python (a kernel row of a generic kernel, or an unshrink);
    ``state`` holds the counters record ``st``.

    Each iteration: :func:`select_working_set`, then :func:`take_step`;
    every ``SHRINK_EVERY`` iterations :func:`shrink`. Stops when
    m(alpha) - M(alpha) <= tol, the maximal violation of the KKT
    conditions. Returns one of CONVERGED, MAX_ITER, NEED_ROW,
    NEED_UNSHRINK. A request leaves the state as it was at the start of the
    iteration, so calling again resumes exactly."""
    st = state[0]
    l = var.alpha.shape[0]
    i = -1
    m = -np.inf
    while st.n_iter < st.max_iter:
        if st.counter <= 0:
            i = -1
            if st.shrinking == 1 and shrink(var, cache, st):
                return NEED_UNSHRINK
            st.counter = min(l, SHRINK_EVERY)
        i, j, m, M = select_working_set(samples, var, cache, st, i, m)
        if j == ROW_REQUEST:
            return NEED_ROW
        if j < 0 or m - M <= st.tol:
            if st.active_size < l:
                st.req_final = 1
                return NEED_UNSHRINK
            return CONVERGED
        i, m = take_step(samples, var, cache, st, i, j)
        if i == ROW_REQUEST:
            return NEED_ROW
        st.n_iter += 1
        st.counter -= 1
    return MAX_ITER


@jit
def all_bound_status(y, alpha, C, status):
    """status_t = bound_status(y_t, alpha_t, C_t) for every variable."""
    for t in range(alpha.shape[0]):
        status[t] = bound_status(y[t], alpha[t], C[t])
