"""Compiled steps of the SMO solver (周志华《机器学习》6.2, 李航《统计学习方法》7.4).

The solver minimises the dual quadratic programme shared by SVC and SVR
(LIBSVM's form, Chang & Lin 2011, section 4.1)::

    min_alpha  f(alpha) = 1/2 alpha' Q alpha + p' alpha
    subject to 0 <= alpha_t <= C_t,   y' alpha = Delta,

with ``Q[t, s] = y_t y_s k(x_kidx[t], x_kidx[s])`` and ``y_t = +-1``. SVC has
one variable per sample (``p = -1``); SVR two (``p = eps -+ z``). The gradient
is ``G = Q alpha + p``.

State lives in arrays grouped in named tuples, so that the Python driver
(:mod:`._smo`) can stop and resume the solver:

``samples`` -- a :data:`._kernel_rows.DenseSamples` or
            :data:`._kernel_rows.SparseSamples`: the samples in float32 and
            the kernel (``code`` from the ``*_KERNEL`` constants; ``GENERIC``
            means rows are computed by Python);
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

from .._numba import by_none, jit, jit_fast, jit_fast_internal, jit_inline, jit_internal, maxnum, minnum
from ._kernel_rows import GENERIC, compute_row


#: The dual variables (see the module docstring).
Variables = namedtuple("Variables", "alpha score H y p C QD kidx perm status")
#: The kernel-row cache: ``rows[s]`` is the row of sample ``owner[s]``
#: (``slot_of`` the inverse), ``stamp`` the LRU clock of each slot, ``full``
#: whether the row covers every sample, ``epoch`` the cache epoch of a
#: partial row, ``free_slots`` a stack of slots released by shrinking.
RowCache = namedtuple("RowCache", "rows slot_of owner stamp full epoch free_slots")
#: The first halves of the working set: the i of largest score in I_up among
#: the variables of label +1 (``i_pos``, score ``m_pos``) and of label -1
#: (``i_neg``, ``m_neg``); with one equality constraint only ``i_pos``, ``m_pos``
#: are used (over every label).
FirstHalves = namedtuple("FirstHalves", "i_pos m_pos i_neg m_neg")
#: m(alpha) and M(alpha) within each label (both labels' the same with one
#: equality constraint): the extremes of the working-set rule and the gap
LabelExtremes = namedtuple("LabelExtremes", "m_pos M_pos m_neg M_neg")




def empty_row_cache(n, n_slots):
    """A :data:`RowCache` with room for ``n_slots`` rows of ``n`` samples."""
    return RowCache(rows=np.empty((n_slots, n), dtype=np.float32),
                    slot_of=np.full(n, -1, dtype=np.int64),
                    owner=np.full(n_slots, -1, dtype=np.int64),
                    stamp=np.zeros(n_slots, dtype=np.int64),
                    full=np.zeros(n_slots, dtype=np.uint8),
                    epoch=np.full(n_slots, -1, dtype=np.int64),
                    free_slots=np.empty(n_slots, dtype=np.int64))


# what smo_iterate returns -----------------------------------------------------
CONVERGED, MAX_ITER, NEED_ROW, NEED_UNSHRINK = range(4)

# slots of the integer state vector -----------------------------------------
(N_ITER, ACTIVE_SIZE, COUNTER, UNSHRUNK, EPOCH, CLOCK, N_USED, N_ACTIVE_ROWS,
 SHRINKING, REQ_ROW, REQ_FULL, REQ_FINAL, N_FREE, LAST_I, LAST_J) = range(15)
N_STATE = 15

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
@jit_inline
def lru_slot(r, cache, ist):
    """The cache slot for sample row ``r``: its own; else a released one
    (see :func:`release_rows`), a never used one, or the least recently
    used one (evicted). Marks it as just used."""
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
            s = np.argmin(stamp)
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
    active = np.zeros(n, dtype=np.uint8)
    for k in range(ist[N_ACTIVE_ROWS]):
        active[active_rows[k]] = 1
    for s in range(ist[N_USED]):
        r = owner[s]
        if r >= 0 and active[r] == 0:
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


@jit_internal
def get_row(r, need_full, samples, cache, active_rows, ist):
    """Slot of kernel row ``r`` (valid on the active set, or on every sample
    if ``need_full``), computing it on a miss; -1 asks Python for it."""
    rows, slot_of, stamp, full, epoch = (cache.rows, cache.slot_of, cache.stamp, cache.full,
                                         cache.epoch)
    s = slot_of[r]
    if s >= 0 and (full[s] == 1 or (not need_full and epoch[s] == ist[EPOCH])):
        ist[CLOCK] += 1
        stamp[s] = ist[CLOCK]
        return s
    if samples.code == GENERIC:
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


# --------------------------------------------------------------------------
# the SMO steps
# --------------------------------------------------------------------------
@jit_inline
def bound_status(y, alpha, C):
    """IN_UP if t is in I_up(alpha) (alpha_t can move so that y_t alpha_t
    grows), plus IN_LOW if t is in I_low(alpha) (y_t alpha_t can shrink)."""
    up = (y > 0 and alpha < C) or (y < 0 and alpha > 0.0)
    low = (y > 0 and alpha > 0.0) or (y < 0 and alpha < C)
    return np.uint8((IN_UP if up else 0) | (IN_LOW if low else 0))


@jit_fast_internal
def max_in_up(score, status, n_active):
    """m(alpha) = max_{t in I_up} score_t (-inf if I_up is empty)."""
    m = -np.inf
    for t in range(n_active):
        m = maxnum(m, score[t] if status[t] & IN_UP else -np.inf)
    return m


@jit_fast_internal
def last_at_value(score, status, n_active, m):
    """The last t in I_up with score_t = m (LIBSVM's tie rule: ``>=``)."""
    i = -1
    for t in range(n_active):
        i = t if (score[t] if status[t] & IN_UP else -np.inf) == m else i
    return i


@jit_inline
def select_i(var, n_active):
    """i = argmax_{t in I_up} score_t, score_t = -y_t G_t: the first half of
    the maximal violating pair. Returns (i, m(alpha)); i = -1 if I_up is
    empty. Two loops LLVM vectorises: :func:`max_in_up`, then
    :func:`last_at_value` (LIBSVM's tie rule, the last of equal scores)."""
    score, status = var.score, var.status
    m = max_in_up(score, status, n_active)
    return (last_at_value(score, status, n_active, m) if m > -np.inf else -1), m


@jit_inline
def wss3_decrease(b, QD_i, QD_t, K_it):
    """``-b^2 / eta``, ``eta = K_ii + K_tt - 2 K_it`` floored at :data:`TAU`:
    the objective's decrease that the pair (i, t) guarantees (Fan, Chen & Lin,
    JMLR 2005, eq. 18), smallest best."""
    eta = max(QD_i + QD_t - 2.0 * K_it, TAU)
    return -(b * b) / eta


@jit_inline
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
                decrease = wss3_decrease(b, qd_i, QD[t], K_i[kidx[t]])
                if decrease <= best:
                    best = decrease
                    j = t
    return j, M


# --------------------------------------------------------------------------
# one equality constraint (C-SVC, epsilon-SVR, one-class) or two (nu-SVC,
# nu-SVR): the working-set rule is chosen when numba types ``halves`` (None:
# one constraint; any integer: LIBSVM's Solver_NU), so a solve compiles only
# its own rule
# --------------------------------------------------------------------------
@jit
def extremes_one(halves, score, status, y, n_active):
    """(m, M, m, M): m(alpha) and M(alpha) over every label (one constraint
    y'alpha = Delta, so both "halves" are the whole set)."""
    m, M = violation_extremes(score, status, n_active)
    return LabelExtremes(m, M, m, M)


@jit
def extremes_by_label(halves, score, status, y, n_active):
    """(m_+, M_+, m_-, M_-): m(alpha) and M(alpha) within each label, the
    extremes of the nu-SVM dual, which has one equality constraint per label
    (e'alpha_+ and e'alpha_- fixed; Chang & Lin 2001, section 3; LIBSVM's
    ``Solver_NU``: Gmax1 = m_+, Gmax2 = -M_+, Gmax3 = m_-, Gmax4 = -M_-)."""
    m_pos, M_pos, m_neg, M_neg = -np.inf, np.inf, -np.inf, np.inf
    for t in range(n_active):
        s = score[t]
        if y[t] > 0:
            if status[t] & IN_UP and s > m_pos:
                m_pos = s
            if status[t] & IN_LOW and s < M_pos:
                M_pos = s
        else:
            if status[t] & IN_UP and s > m_neg:
                m_neg = s
            if status[t] & IN_LOW and s < M_neg:
                M_neg = s
    return LabelExtremes(m_pos, M_pos, m_neg, M_neg)


#: ``label_extremes(halves, score, status, y, n_active)``: (m_+, M_+, m_-, M_-)
label_extremes = by_none(extremes_one, extremes_by_label)


@jit
def first_one(halves, var, n_active):
    """i of the C-SVC working set (:func:`select_i`) as :data:`FirstHalves`."""
    i, m = select_i(var, n_active)
    return FirstHalves(i, m, -1, -np.inf)


@jit
def first_by_label(halves, var, n_active):
    """The nu working set's two candidates for i (LIBSVM's ``Solver_NU::
    select_working_set``): the argmax of score over I_up within label +1 and
    within label -1 (ties: the last, LIBSVM's ``>=``)."""
    score, status, y = var.score, var.status, var.y
    i_pos, m_pos, i_neg, m_neg = -1, -np.inf, -1, -np.inf
    for t in range(n_active):
        if status[t] & IN_UP:
            s = score[t]
            if y[t] > 0:
                if s >= m_pos:
                    m_pos = s
                    i_pos = t
            elif s >= m_neg:
                m_neg = s
                i_neg = t
    return FirstHalves(i_pos, m_pos, i_neg, m_neg)


#: ``select_first(halves, var, n_active)``: the :data:`FirstHalves` of the rule
select_first = by_none(first_one, first_by_label)


@jit
def second_one(halves, var, n_active, first, K_pos, K_neg):
    """(i, j, m - M): the C-SVC pair, j by WSS3 (:func:`select_j`) from
    i's kernel row ``K_pos``."""
    i, m = first.i_pos, first.m_pos
    if i < 0:
        return -1, -1, -np.inf
    j, M = select_j(var, n_active, i, m, K_pos)
    return i, j, m - M


@jit
def second_by_label(halves, var, n_active, first, K_pos, K_neg):
    """(i, j, gap) of the nu working set (Chang & Lin 2001; LIBSVM's
    ``Solver_NU``): WSS3 restricted to y_i = y_j, j over I_low of both labels,
    each t measured against its own label's i (row ``K_pos`` or ``K_neg``):
    b_it = m_{y_t} - score_t > 0, largest b_it^2 / eta_it. i is then the
    candidate of j's label. ``gap`` is the stopping measure
    max(m_+ - M_+, m_- - M_-).

    The loop reads scalars only: choosing between the two rows inside it
    (an array variable assigned per t) cost numba a reference count update
    per variable, 4x the pass."""
    score, QD, kidx, status, y = var.score, var.QD, var.kidx, var.status, var.y
    m_pos, m_neg = first.m_pos, first.m_neg
    qd_pos = QD[first.i_pos] if first.i_pos >= 0 else 0.0
    qd_neg = QD[first.i_neg] if first.i_neg >= 0 else 0.0
    M_pos, M_neg = np.inf, np.inf
    j = -1
    best = np.inf
    for t in range(n_active):
        if status[t] & IN_LOW:
            s = score[t]
            positive = y[t] > 0
            if positive:
                M_pos = min(M_pos, s)
            else:
                M_neg = min(M_neg, s)
            b = (m_pos if positive else m_neg) - s
            if b > 0.0:
                K_it = K_pos[kidx[t]] if positive else K_neg[kidx[t]]
                decrease = wss3_decrease(b, qd_pos if positive else qd_neg, QD[t], K_it)
                if decrease <= best:
                    best = decrease
                    j = t
    gap = max(first.m_pos - M_pos, first.m_neg - M_neg)
    if j < 0:
        return -1, -1, gap
    return (first.i_pos if y[j] > 0 else first.i_neg), j, gap


#: ``select_second(halves, var, n_active, first, K_pos, K_neg)``: (i, j, gap)
select_second = by_none(second_one, second_by_label)


@jit_inline
def update_alpha_pair(var, i, j, eta):
    """Minimise f along the feasible direction alpha_i += y_i t,
    alpha_j -= y_j t (which keeps y'alpha fixed) and clip to the box.

    The unclipped step is ``t = (score_i - score_j) / eta`` with
    score = -y G (李航 式7.106 in the variable t); it is clipped to
    ``[0, min(room_i, room_j)]``, the book's ``L <= alpha_2 <= H``
    (式7.108). A variable that reaches its bound is set to it exactly.
    Returns the new (alpha_i, alpha_j); ``var`` is not changed."""
    alpha_i, alpha_j, y_i, y_j = var.alpha[i], var.alpha[j], var.y[i], var.y[j]
    score_i, score_j, C_i, C_j = var.score[i], var.score[j], var.C[i], var.C[j]
    if eta <= 0.0:
        eta = TAU
    t = (score_i - score_j) / eta
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
def update_gradient(score, kidx, n_active, K_i, K_j, a_i, a_j):
    """G_t += Q_ti d_alpha_i + Q_tj d_alpha_j on the active set, kept as
    score_t = -y_t G_t: score_t -= a_i K_ti + a_j K_tj with a_i = y_i d_alpha_i,
    a_j = y_j d_alpha_j (Q_ti = y_t y_i K_ti). Takes the arrays, not the
    :data:`Variables` (a fastmath step given the whole tuple made the
    solver 1.2x slower)."""
    for t in range(n_active):
        r = kidx[t]
        score[t] -= a_i * K_i[r] + a_j * K_j[r]


@jit_fast_internal
def update_h(H, K_r, coef):
    """H_r += coef K_ur for every sample r, with coef = +-C_u y_u when
    variable u reaches or leaves its upper bound (LIBSVM's G_bar update,
    kept per sample: contiguous, so it vectorises)."""
    for r in range(H.shape[0]):
        H[r] += coef * K_r[r]


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


@jit
def permute_variables(var, order):
    """Reorder the dual variables: position ``k`` receives variable ``order[k]``
    (``H`` is per sample and stays). One scratch vector per element type, so
    that each array is moved by the same few loops (:func:`take_in_place`)."""
    m = order.shape[0]
    values = np.empty(m)
    for arr in (var.alpha, var.score, var.y, var.p, var.C, var.QD):
        take_in_place(arr, order, values)
    positions = np.empty(m, dtype=np.int64)
    for arr in (var.kidx, var.perm):
        take_in_place(arr, order, positions)
    take_in_place(var.status, order, np.empty(m, dtype=np.uint8))


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


@jit_fast_internal
def min_in_low(score, status, n_active):
    """M(alpha) = min_{t in I_low} score_t (+inf if I_low is empty)."""
    M = np.inf
    for t in range(n_active):
        M = minnum(M, score[t] if status[t] & IN_LOW else np.inf)
    return M


@jit_inline
def violation_extremes(score, status, n_active):
    """(m(alpha), M(alpha)) on the active set (Keerthi et al. 2001): the
    KKT conditions hold within tol when m - M <= tol."""
    return max_in_up(score, status, n_active), min_in_low(score, status, n_active)


@jit
def rebuild_active_rows(kidx, n_active, n, active_rows, ist):
    """The distinct sample rows of the active variables (SVR has two
    variables per sample)."""
    seen = np.zeros(n, dtype=np.uint8)
    count = 0
    for t in range(n_active):
        r = kidx[t]
        if seen[r] == 0:
            seen[r] = 1
            active_rows[count] = r
            count += 1
    ist[N_ACTIVE_ROWS] = count


@jit
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
    stuck = np.empty(active, dtype=np.bool_)
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


@jit
def smo_iterate(samples, var, cache, active_rows, ist, tol, max_iter, halves):
    """Run SMO iterations until convergence, the iteration cap, or a request
    to Python (a kernel row of a generic kernel, or an unshrink).

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

    The steps are written in this one loop, the arrays unpacked once: a
    step called once per iteration with the named tuples costs two atomic
    reference-count updates per array they hold (about 1 us per iteration,
    1.3-1.6x on a linear-kernel fit), which LLVM removes only for the small
    steps it inlines."""
    alpha, H, y, C, QD, kidx, status = var.alpha, var.H, var.y, var.C, var.QD, var.kidx, var.status
    rows, slot_of = cache.rows, cache.slot_of
    l = alpha.shape[0]
    first = FirstHalves(-1, -np.inf, -1, -np.inf)
    have_i = False
    while ist[N_ITER] < max_iter:
        if ist[COUNTER] <= 0:
            have_i = False
            if ist[SHRINKING] == 1 and shrink(var, cache, active_rows, ist, tol, halves):
                ist[REQ_FINAL] = 0
                return NEED_UNSHRINK
            ist[COUNTER] = min(l, SHRINK_EVERY)
        n_active = ist[ACTIVE_SIZE]
        # select the working set
        if not have_i:
            first = select_first(halves, var, n_active)
        have_i = False
        s_pos = 0
        s_neg = 0
        if first.i_pos >= 0:
            s_pos = get_row(kidx[first.i_pos], False, samples, cache, active_rows, ist)
            if s_pos < 0:
                return NEED_ROW
        if first.i_neg >= 0:
            s_neg = get_row(kidx[first.i_neg], False, samples, cache, active_rows, ist)
            if s_neg < 0:
                return NEED_ROW
        i, j, gap = select_second(halves, var, n_active, first, rows[s_pos], rows[s_neg])
        if j < 0 or gap <= tol:
            if n_active < l:
                ist[REQ_FINAL] = 1
                return NEED_UNSHRINK
            return CONVERGED
        # update alpha_i, alpha_j, the status bits, H and the gradient
        if first.i_neg >= 0 and get_row(kidx[i], False, samples, cache, active_rows, ist) < 0:
            return NEED_ROW     # i's row most recently used again: j's must not evict it
        s_j = get_row(kidx[j], False, samples, cache, active_rows, ist)
        if s_j < 0:
            return NEED_ROW
        new_i, new_j = update_alpha_pair(
            var, i, j, QD[i] + QD[j] - 2.0 * rows[slot_of[kidx[i]]][kidx[j]])
        flip_i = (alpha[i] >= C[i]) != (new_i >= C[i])
        flip_j = (alpha[j] >= C[j]) != (new_j >= C[j])
        if flip_i and get_row(kidx[i], True, samples, cache, active_rows, ist) < 0:
            return NEED_ROW
        if flip_j and get_row(kidx[j], True, samples, cache, active_rows, ist) < 0:
            return NEED_ROW
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
        first = select_first(halves, var, n_active)
        have_i = True
        ist[N_ITER] += 1
        ist[COUNTER] -= 1
    return MAX_ITER


@jit
def all_bound_status(y, alpha, C, status):
    """status_t = bound_status(y_t, alpha_t, C_t) for every variable."""
    for t in range(alpha.shape[0]):
        status[t] = bound_status(y[t], alpha[t], C[t])
