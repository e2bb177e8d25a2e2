"""The SMO solver's working set (Fan, Chen & Lin, JMLR 2005; 周志华 §6.2;
李航 §7.4.2): i of the maximal violation m(alpha) over I_up, j by the
second-order rule WSS3, and the extremes m(alpha), M(alpha) of the stopping
rule (Keerthi et al. 2001); for the nu duals (Chang & Lin 2001; LIBSVM's
``Solver_NU``) the same within each label. One equality constraint (C-SVC,
epsilon-SVR, one-class) or two (nu-SVC, nu-SVR): the rule is chosen when
numba types ``halves`` (None: one constraint; any integer: LIBSVM's
``Solver_NU``), so that a solve compiles only its own rule."""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from .._numba import by_none, jit_fast_internal, jit_inline, jit_twin
from .._lowered import maxnum, minnum
from ._smo_state import IN_LOW, IN_UP, TAU

#: The first halves of the working set: the i of largest score in I_up among
#: the variables of label +1 (``i_pos``, score ``m_pos``) and of label -1
#: (``i_neg``, ``m_neg``); with one equality constraint only ``i_pos``, ``m_pos``
#: are used (over every label).
FirstHalves = namedtuple("FirstHalves", "i_pos m_pos i_neg m_neg")
#: m(alpha) and M(alpha) within each label (both labels' the same with one
#: equality constraint): the extremes of the working-set rule and the gap
LabelExtremes = namedtuple("LabelExtremes", "m_pos M_pos m_neg M_neg")


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


@jit_twin
def extremes_one(halves, score, status, y, n_active):
    """(m, M, m, M): m(alpha) and M(alpha) over every label (one constraint
    y'alpha = Delta, so both "halves" are the whole set)."""
    m, M = violation_extremes(score, status, n_active)
    return LabelExtremes(m, M, m, M)


@jit_twin
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


@jit_twin
def first_one(halves, var, n_active):
    """i of the C-SVC working set (:func:`select_i`) as :data:`FirstHalves`."""
    i, m = select_i(var, n_active)
    return FirstHalves(i, m, -1, -np.inf)


@jit_twin
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


@jit_twin
def second_one(halves, var, n_active, first, K_pos, K_neg):
    """(i, j, m - M): the C-SVC pair, j by WSS3 (:func:`select_j`) from
    i's kernel row ``K_pos``."""
    i, m = first.i_pos, first.m_pos
    if i < 0:
        return -1, -1, -np.inf
    j, M = select_j(var, n_active, i, m, K_pos)
    return i, j, m - M


@jit_twin
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
