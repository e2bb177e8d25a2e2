"""Each compiled step of the SMO solver against a slow, obvious NumPy version."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from hyperplane.svm import _pair_step_kernels as ps
from hyperplane.svm import _row_cache_kernels as rc
from hyperplane.svm import _shrinking_kernels as sh
from hyperplane.svm import _smo_state as state
from hyperplane.svm import _working_set_kernels as ws

def brute_force_pair(alpha_i, alpha_j, y_i, y_j, score_i, score_j, C_i, C_j, eta):
    """Minimise the one-variable quadratic over a fine grid of feasible t."""
    room_i = C_i - alpha_i if y_i > 0 else alpha_i
    room_j = alpha_j if y_j > 0 else C_j - alpha_j
    t = np.linspace(0.0, min(room_i, room_j), 200001)
    # f(t) - f(0) = -(score_i - score_j) t + eta t^2 / 2
    f = -(score_i - score_j) * t + 0.5 * eta * t ** 2
    best = t[np.argmin(f)]
    return alpha_i + y_i * best, alpha_j - y_j * best


def pair_var(alpha_i, alpha_j, y_i, y_j, score_i, score_j, C_i, C_j):
    """The Variables of a two-variable problem."""
    status = np.zeros(2, dtype=np.uint8)
    return state.Variables(alpha=np.array([alpha_i, alpha_j]), score=np.array([score_i, score_j]),
                        H=np.zeros(2), y=np.array([y_i, y_j]), p=-np.ones(2),
                        C=np.array([C_i, C_j]), QD=np.ones(2),
                        kidx=np.arange(2, dtype=np.int64), perm=np.arange(2, dtype=np.int64),
                        status=status)


@given(a=st.floats(0, 1), b=st.floats(0, 1), yi=st.sampled_from([-1.0, 1.0]),
       yj=st.sampled_from([-1.0, 1.0]), gap=st.floats(0.001, 5.0),
       eta=st.floats(0.05, 4.0), Ci=st.floats(0.1, 2.0), Cj=st.floats(0.1, 2.0))
def test_update_alpha_pair_is_the_clipped_minimum(a, b, yi, yj, gap, eta, Ci, Cj):
    alpha_i, alpha_j = a * Ci, b * Cj
    new_i, new_j = ps.update_alpha_pair(pair_var(alpha_i, alpha_j, yi, yj, gap, 0.0, Ci, Cj),
                                        0, 1, eta)
    assert 0.0 <= new_i <= Ci and 0.0 <= new_j <= Cj
    assert yi * new_i + yj * new_j == pytest.approx(yi * alpha_i + yj * alpha_j, abs=1e-12)
    ref_i, ref_j = brute_force_pair(alpha_i, alpha_j, yi, yj, gap, 0.0, Ci, Cj, eta)
    span = max(Ci, Cj)
    assert new_i == pytest.approx(ref_i, abs=2e-5 * span)
    assert new_j == pytest.approx(ref_j, abs=2e-5 * span)


def test_update_alpha_pair_hard_margin_never_clips_above():
    var = pair_var(0.0, 0.0, 1.0, -1.0, 1.0, -1.0, np.inf, np.inf)
    new_i, new_j = ps.update_alpha_pair(var, 0, 1, 0.5)
    assert (new_i, new_j) == (4.0, 4.0)


def make_var(rng, n):
    alpha = rng.choice([0.0, 0.5, 1.0], size=n)
    y = rng.choice([-1.0, 1.0], size=n)
    C = np.ones(n)
    score = rng.normal(size=n)
    status = np.empty(n, dtype=np.uint8)
    ps.all_bound_status(y, alpha, C, status)
    QD = rng.uniform(0.5, 2.0, size=n)
    kidx = rng.permutation(n).astype(np.int64)
    return state.Variables(alpha, score, np.zeros(n), y, -np.ones(n), C, QD, kidx,
                        np.arange(n, dtype=np.int64), status)


@given(seed=st.integers(0, 2 ** 31), n=st.integers(2, 30))
def test_working_set_selection_matches_definition(seed, n):
    rng = np.random.default_rng(seed)
    var = make_var(rng, n)
    alpha, score, _, y, _, C, QD, kidx, _, status = var
    up = ((y > 0) & (alpha < C)) | ((y < 0) & (alpha > 0))
    low = ((y > 0) & (alpha > 0)) | ((y < 0) & (alpha < C))
    i, m = ws.select_i(var, n)
    if not up.any():
        assert i == -1
        return
    assert m == score[up].max() and up[i] and score[i] == m
    K_i = rng.normal(size=n).astype(np.float32)
    j, M = ws.select_j(var, n, i, m, K_i)
    assert M == (score[low].min() if low.any() else np.inf)
    b = m - score
    eta = np.maximum(QD[i] + QD - 2.0 * K_i[kidx].astype(np.float64), state.TAU)
    decrease = np.where(low & (b > 0), -(b ** 2) / eta, np.inf)
    if np.isinf(decrease.min()):
        assert j == -1
    else:
        assert decrease[j] == decrease.min()


@given(seed=st.integers(0, 2 ** 31), n=st.integers(2, 30))
def test_nu_working_set_selection_matches_definition(seed, n):
    """Solver_NU's rule (Chang & Lin 2001): i and j of one label, WSS3 within
    each label, gap = max over labels of m_y - M_y."""
    rng = np.random.default_rng(seed)
    var = make_var(rng, n)
    alpha, score, _, y, _, C, QD, kidx, _, status = var
    up = ((y > 0) & (alpha < C)) | ((y < 0) & (alpha > 0))
    low = ((y > 0) & (alpha > 0)) | ((y < 0) & (alpha < C))
    first = ws.first_by_label(1, var, n)
    for label, i, m in ((1.0, first.i_pos, first.m_pos), (-1.0, first.i_neg, first.m_neg)):
        half = up & (y == label)
        if not half.any():
            assert i == -1 and m == -np.inf
            continue
        assert m == score[half].max() and i == np.flatnonzero(half & (score == m))[-1]
    K_pos = rng.normal(size=n).astype(np.float32)
    K_neg = rng.normal(size=n).astype(np.float32)
    i, j, gap = ws.second_by_label(1, var, n, first, K_pos, K_neg)
    m_of = np.where(y > 0, first.m_pos, first.m_neg)
    i_of = np.where(y > 0, first.i_pos, first.i_neg)
    K_of = np.where(y > 0, K_pos[kidx], K_neg[kidx]).astype(np.float64)
    b = m_of - score
    eta = np.maximum(QD[np.maximum(i_of, 0)] + QD - 2.0 * K_of, state.TAU)
    decrease = np.where(low & (b > 0), -(b ** 2) / eta, np.inf)
    M = [score[low & (y == label)].min() if (low & (y == label)).any() else np.inf
         for label in (1.0, -1.0)]
    assert gap == max(first.m_pos - M[0], first.m_neg - M[1])
    if np.isinf(decrease.min()):
        assert j == -1
    else:
        assert decrease[j] == decrease.min() and i == i_of[j] and y[i] == y[j]
    m_pos, M_pos, m_neg, M_neg = ws.extremes_by_label(1, score, status, y, n)
    assert (m_pos, M_pos, m_neg, M_neg) == (first.m_pos, M[0], first.m_neg, M[1])


def test_one_constraint_rule_is_select_i_and_select_j():
    """The rule of halves = None is the C-SVC one (select_i, select_j)."""
    rng = np.random.default_rng(3)
    var = make_var(rng, 25)
    first = ws.first_one(None, var, 25)
    assert (first.i_pos, first.m_pos) == ws.select_i(var, 25) and first.i_neg == -1
    K = rng.normal(size=25).astype(np.float32)
    i, j, gap = ws.second_one(None, var, 25, first, K, K)
    j_ref, M = ws.select_j(var, 25, first.i_pos, first.m_pos, K)
    assert (i, j, gap) == (first.i_pos, j_ref, first.m_pos - M)
    m, M = ws.violation_extremes(var.score, var.status, 25)
    assert ws.extremes_one(None, var.score, var.status, var.y, 25) == (m, M, m, M)


@given(seed=st.integers(0, 2 ** 31), n=st.integers(1, 30))
def test_update_gradient_and_next_i(seed, n):
    rng = np.random.default_rng(seed)
    var = make_var(rng, n)
    score = var.score.copy()
    K_i = rng.normal(size=n).astype(np.float32)
    K_j = rng.normal(size=n).astype(np.float32)
    ps.update_gradient(var.score, var.kidx, n, K_i, K_j, 0.3, -0.7)
    kidx = var.kidx
    expected = score - (0.3 * K_i[kidx].astype(float) - 0.7 * K_j[kidx].astype(float))
    np.testing.assert_allclose(var.score, expected, rtol=1e-12, atol=1e-12)


def empty_cache(n, slots):
    """The solver's cache for n samples with room for ``slots`` rows."""
    return state.empty_row_cache(n, slots)


def test_lru_cache_evicts_least_recently_used():
    n, slots = 5, 2
    cache = empty_cache(n, slots)
    ist = np.zeros(state.N_STATE, dtype=np.int64)
    s0 = rc.lru_slot(0, cache, ist)
    s1 = rc.lru_slot(1, cache, ist)
    assert rc.lru_slot(0, cache, ist) == s0       # hit refreshes row 0
    s2 = rc.lru_slot(2, cache, ist)               # evicts row 1
    assert s2 == s1 and cache.slot_of[1] == -1 and cache.slot_of[0] == s0 and cache.slot_of[2] == s2


def test_rows_of_shrunk_samples_are_released_and_reused_first():
    n, slots = 6, 4
    cache = empty_cache(n, slots)
    ist = np.zeros(state.N_STATE, dtype=np.int64)
    s = {r: rc.lru_slot(r, cache, ist) for r in (0, 1, 2)}
    active_rows = np.array([0, 2, 4, 5, 0, 0], dtype=np.int64)
    ist[state.N_ACTIVE_ROWS] = 4                       # samples 0, 2, 4, 5 stay active
    rc.release_rows(cache, active_rows, ist, n)
    assert cache.slot_of[1] == -1 and ist[state.N_FREE] == 1  # only sample 1's row went
    assert cache.slot_of[0] == s[0] and cache.slot_of[2] == s[2]
    assert rc.lru_slot(4, cache, ist) == s[1]       # reused before the unused slot 3
    assert rc.lru_slot(5, cache, ist) == 3 and ist[state.N_FREE] == 0


@given(seed=st.integers(0, 2 ** 31), n=st.integers(1, 30), n_active=st.integers(0, 30))
def test_violation_extremes_are_m_and_M_of_the_active_set(seed, n, n_active):
    """m(alpha) = max over I_up, M(alpha) = min over I_low of -y G, on the
    active prefix only (-inf / +inf when the set is empty)."""
    rng = np.random.default_rng(seed)
    var = make_var(rng, n)
    a = min(n_active, n)
    alpha, score, _, y, _, C, *_ = var
    up = (((y > 0) & (alpha < C)) | ((y < 0) & (alpha > 0)))[:a]
    low = (((y > 0) & (alpha > 0)) | ((y < 0) & (alpha < C)))[:a]
    m, M = ws.violation_extremes(var.score, var.status, a)
    assert m == (score[:a][up].max() if up.any() else -np.inf)
    assert M == (score[:a][low].min() if low.any() else np.inf)


def shrink_state(rng, n, tol, unshrunk):
    var = make_var(rng, n)
    var.kidx[:] = np.arange(n)                       # one variable per sample, in order
    cache = state.empty_row_cache(n, 4)
    active_rows = np.arange(n, dtype=np.int64)
    ist = np.zeros(state.N_STATE, dtype=np.int64)
    ist[state.ACTIVE_SIZE] = n
    ist[state.N_ACTIVE_ROWS] = n
    ist[state.UNSHRUNK] = unshrunk
    return var, cache, active_rows, ist


@given(seed=st.integers(0, 2 ** 31), n=st.integers(2, 30))
def test_shrink_keeps_exactly_the_variables_that_can_move(seed, n):
    """LIBSVM's be_shrunk, written out: a variable at its upper bound leaves
    the active set when -G_t exceeds m (y_t = +1) or -M (y_t = -1); at 0
    when G_t exceeds -M (y_t = +1) or m (y_t = -1). The kept ones stay in
    their order, the shrunk ones follow."""
    rng = np.random.default_rng(seed)
    var, cache, active_rows, ist = shrink_state(rng, n, 0.0, 1)
    alpha, score, y, C = var.alpha.copy(), var.score.copy(), var.y.copy(), var.C.copy()
    m, M = ws.violation_extremes(score, var.status, n)
    G = -y * score
    stuck = np.where(alpha >= C, np.where(y > 0, -G > m, -G > -M),
                     np.where(alpha <= 0, np.where(y > 0, G > -M, G > m), False))
    assert not sh.shrink(var, cache, active_rows, ist, 0.0, None)
    kept = np.flatnonzero(~stuck)
    assert ist[state.ACTIVE_SIZE] == kept.size
    np.testing.assert_array_equal(var.perm, np.concatenate([kept, np.flatnonzero(stuck)]))
    np.testing.assert_array_equal(var.alpha, alpha[var.perm])
    np.testing.assert_array_equal(active_rows[:ist[state.N_ACTIVE_ROWS]], kept)


def test_shrink_asks_for_an_unshrink_once_the_gap_is_within_ten_tol():
    rng = np.random.default_rng(0)
    var, cache, active_rows, ist = shrink_state(rng, 20, 0.0, 0)
    m, M = ws.violation_extremes(var.score, var.status, 20)
    before = var.perm.copy()
    assert sh.shrink(var, cache, active_rows, ist, (m - M) / 10.0, None)     # within 10 tol
    np.testing.assert_array_equal(var.perm, before)                   # nothing moved
    assert ist[state.ACTIVE_SIZE] == 20
    assert not sh.shrink(var, cache, active_rows, ist, (m - M) / 20.0, None)  # not yet within


@given(seed=st.integers(0, 2 ** 31), n=st.integers(1, 30), m=st.integers(0, 30))
def test_permute_variables_follows_cycles_as_numpy_gathers(seed, n, m):
    """The compiled cycle-by-cycle reordering of the first ``m`` variables (any
    permutation: fixed points, one long cycle, many short ones) moves every array
    as NumPy's ``arr[:m] = arr[order]`` does (``permuted_in_python``); ``H`` stays."""
    rng = np.random.default_rng(seed)
    m = min(m, n)
    var = make_var(rng, n)
    var.H[:] = rng.normal(size=n)
    order = rng.permutation(m).astype(np.int64)
    expected = state.Variables(*(a.copy() for a in var))
    sh.permuted_in_python(expected, order)
    sh.permute_variables(var, order.copy())
    for name, got, want in zip(state.Variables._fields, var, expected):
        np.testing.assert_array_equal(got, want, err_msg=name)
