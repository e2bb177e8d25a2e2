"""The SMO step trace (record_trace=True) against 李航 例7.1 worked by hand,
the clipping rule of 李航 7.4.1 and the untraced solver."""

import numpy as np
import pytest
from sklearn.datasets import load_iris, make_classification

from hyperplane.kernels import RBF, Polynomial
from hyperplane.svm import SVC, SVR

X_71 = np.array([[3.0, 3.0], [4.0, 3.0], [1.0, 1.0]])
y_71 = np.array([1, 1, -1])


def test_li_hang_example_7_1_trace_first_step_by_hand_and_end():
    """At alpha = 0 every G_t = -1, so -y_t G_t = y_t: I_up = {x1, x2} with
    m = 1 (LIBSVM takes the last of equal scores: x2), I_low = {x3} with
    M = -1. eta = K22 + K33 - 2 K23 = 25 + 2 - 14 = 13 and the unclipped
    alpha_3 = 0 + (m - M) / eta = 2/13 (no clipping: C = inf). The run ends
    at 例7.1's solution alpha = (1/4, 0, 1/4), b = -2."""
    svc = SVC(kernel="linear", C=np.inf, tol=1e-10, record_trace=True).fit(X_71, y_71)
    trace = svc.trace_
    first = trace.iloc[0]
    assert (first["i"], first["j"]) == (1, 2)
    assert first["m"] == 1.0 and first["M"] == -1.0 and first["violation"] == 2.0
    assert first["G_i"] == -1.0 and first["G_j"] == -1.0
    assert first["eta"] == 13.0
    assert first["alpha_j_unclipped"] == pytest.approx(2 / 13, rel=1e-12)
    assert first["alpha_i"] == pytest.approx(2 / 13) and first["alpha_j"] == pytest.approx(2 / 13)
    # objective after step 1: 1/2 (2/13)^2 |x2 - x3|^2 - 4/13 = 26/169 - 52/169
    assert first["objective"] == pytest.approx(-2 / 13, rel=1e-12)
    alpha = np.zeros(3)
    for _, row in trace.iterrows():
        alpha[int(row["i"])] = row["alpha_i"]
        alpha[int(row["j"])] = row["alpha_j"]
    np.testing.assert_allclose(alpha, [0.25, 0.0, 0.25], atol=1e-12)
    assert trace["b"].iloc[-1] == pytest.approx(-2.0, abs=1e-12)
    assert trace["objective"].iloc[-1] == pytest.approx(-0.25, abs=1e-12)
    np.testing.assert_allclose(svc.alpha_, [0.25, 0.0, 0.25], atol=1e-12)
    assert svc.intercept_[0] == pytest.approx(-2.0, abs=1e-12)
    assert len(trace) == svc.n_iter_


def replay(trace, n):
    """alpha rebuilt from the trace's (i, alpha_i), (j, alpha_j) columns."""
    alpha = np.zeros(n)
    for i, j, a_i, a_j in trace[["i", "j", "alpha_i", "alpha_j"]].itertuples(index=False):
        alpha[i], alpha[j] = a_i, a_j
    return alpha


@pytest.mark.parametrize("kernel", ["linear", "rbf", RBF(1.0) + Polynomial(2)])
def test_trace_rows_follow_the_clipping_rule_and_replay_to_the_solution(kernel):
    X, y = make_classification(n_samples=120, n_features=5, flip_y=0.1, random_state=0)
    C = 0.8
    svc = SVC(kernel=kernel, C=C, record_trace=True).fit(X, y)
    trace = svc.trace_
    assert len(trace) == svc.n_iter_ > 10
    clipped = np.clip(trace["alpha_j_unclipped"], trace["L"], trace["H"])
    np.testing.assert_allclose(trace["alpha_j"], clipped, rtol=1e-9, atol=1e-12)
    assert np.all((trace["L"] >= 0) & (trace["H"] <= C) & (trace["L"] <= trace["H"]))
    assert np.all(trace["violation"] > svc.tol)
    assert np.all(trace["violation"] == trace["m"] - trace["M"])
    assert np.all(np.diff(trace["objective"]) <= 1e-12)     # SMO never increases f
    np.testing.assert_array_equal(replay(trace, len(y)), svc.alpha_)
    assert trace["b"].iloc[-1] == svc.intercept_[0]
    assert trace["objective"].iloc[-1] == pytest.approx(svc.objective_, rel=1e-12)


def test_traced_solution_equals_the_untraced_one():
    X, y = make_classification(n_samples=300, n_features=6, random_state=2)
    traced = SVC(record_trace=True, shrinking=False).fit(X, y)
    plain = SVC(shrinking=False).fit(X, y)
    np.testing.assert_array_equal(traced.alpha_, plain.alpha_)
    assert not hasattr(plain, "trace_")
    assert not hasattr(traced.set_params(record_trace=False).fit(X, y), "trace_")


def test_multiclass_trace_has_one_block_per_pair():
    X, y = load_iris(return_X_y=True)
    svc = SVC(record_trace=True).fit(X, y)
    assert list(svc.trace_.columns[:2]) == ["pair", "iteration"]
    np.testing.assert_array_equal(svc.trace_.groupby("pair").size(), svc.n_iter_)
    for k, (a, b) in enumerate(svc.pairs_):
        rows = svc.trace_[svc.trace_["pair"] == k]
        assert set(y[rows["i"]]) | set(y[rows["j"]]) <= {a, b}
        np.testing.assert_array_equal(replay(rows, len(y)), svc.alpha_[k])


def test_svr_trace_names_the_multiplier_and_replays():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    z = X @ [1.0, -2.0, 0.5] + 0.1 * rng.normal(size=60)
    svr = SVR(kernel="linear", C=1.0, epsilon=0.2, record_trace=True).fit(X, z)
    trace = svr.trace_
    assert len(trace) == svr.n_iter_
    assert set(trace["var_i"]) | set(trace["var_j"]) <= {"alpha_hat", "alpha"}
    alpha = np.zeros((60, 2))
    for row in trace.itertuples(index=False):
        for r, var, value in ((row.i, row.var_i, row.alpha_i), (row.j, row.var_j, row.alpha_j)):
            alpha[r, 1 if var == "alpha_hat" else 0] = value
    np.testing.assert_array_equal(alpha, svr.alpha_)


def test_record_trace_must_be_boolean():
    with pytest.raises(TypeError, match="record_trace"):
        SVC(record_trace="yes").fit(X_71, y_71)


@pytest.mark.parametrize("seed", range(4))
def test_the_traces_m_and_M_are_the_solvers(seed):
    """The trace's m(alpha), M(alpha) (the working-set rule run by Python)
    are the compiled selection's, bit for bit, with NaN scores and empty
    I_up or I_low."""
    from hyperplane.svm import _working_set_kernels as ws
    from hyperplane.svm._trace import violation_pair

    rng = np.random.default_rng(seed)
    score = rng.normal(size=30)
    score[rng.random(30) < 0.2] = np.nan
    status = rng.integers(0, 4, size=30).astype(np.uint8) & (seed + 1 if seed < 3 else 3)
    m, M = ws.violation_extremes(score, status, score.shape[0])
    assert violation_pair(score, status) == (float(m), float(M))
