"""LinearSVC against scikit-learn's LinearSVC (LIBLINEAR): same primal
objective; sparse input gives the dense model; the coordinate rule by hand;
one compiled epoch (dense and CSR) against a NumPy reference; the compiled
shuffle."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import load_iris, make_classification
from sklearn.svm import LinearSVC as LibLinearSVC

from hyperplane.svm import LinearSVC
from hyperplane.svm._dual_cd import (LAYOUTS, LOSSES, WorkingSet, dual_variables, dcd_samples,
                                     solve_dual)
from hyperplane.svm._linear_svc_kernels import coordinate_step, dcd_epoch, shuffle_prefix


def primal(coef, intercept, X, signed, C, loss, scaling=1.0):
    """1/2 (|w|^2 + (b / scaling)^2) + C sum loss(y f(x)), straight from the formula."""
    f = np.asarray(X @ coef).ravel() + intercept
    margin = np.maximum(0.0, 1.0 - signed * f)
    return 0.5 * (coef @ coef + (intercept / scaling) ** 2) + C * np.sum(
        margin ** 2 if loss == "squared_hinge" else margin)


def sparse_copy(X):
    return sp.csr_matrix(np.where(np.abs(X) > 0.8, X, 0.0))


@pytest.mark.parametrize("loss", ["squared_hinge", "hinge"])
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("C, scaling", [(1.0, 1.0), (0.1, 3.0)])
def test_same_objective_as_liblinear(loss, sparse, C, scaling):
    X, y = make_classification(n_samples=300, n_features=8, flip_y=0.05, random_state=3)
    if sparse:
        X = sparse_copy(X)
    signed = np.where(y == 1, 1.0, -1.0)
    ours = LinearSVC(C=C, loss=loss, tol=1e-9, max_iter=200_000,
                     intercept_scaling=scaling).fit(X, y)
    peer = LibLinearSVC(C=C, loss=loss, tol=1e-9, max_iter=200_000, dual=True,
                        intercept_scaling=scaling, random_state=0).fit(X, y)
    f_ours = primal(ours.coef_[0], ours.intercept_[0], X, signed, C, loss, scaling)
    f_peer = primal(peer.coef_[0], peer.intercept_[0], X, signed, C, loss, scaling)
    assert ours.converged_
    assert f_ours == pytest.approx(f_peer, rel=1e-6)
    assert ours.objective(X, y) == pytest.approx(f_ours, rel=1e-12)
    np.testing.assert_allclose(ours.coef_, peer.coef_, rtol=1e-3, atol=1e-3)


@pytest.mark.parametrize("loss", ["squared_hinge", "hinge"])
def test_sparse_equals_dense(loss):
    X, y = make_classification(n_samples=200, n_features=6, random_state=1)
    X = sparse_copy(X).toarray()
    dense = LinearSVC(loss=loss, tol=1e-8, max_iter=100_000, random_state=2).fit(X, y)
    sparse = LinearSVC(loss=loss, tol=1e-8, max_iter=100_000,
                       random_state=2).fit(sp.csr_matrix(X), y)
    np.testing.assert_allclose(sparse.coef_, dense.coef_, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(sparse.intercept_, dense.intercept_, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(sparse.decision_function(sp.csr_matrix(X)),
                               dense.decision_function(X), rtol=1e-10, atol=1e-12)


def test_without_intercept_the_bias_is_zero_and_liblinear_agrees():
    X, y = make_classification(n_samples=200, n_features=5, random_state=4)
    ours = LinearSVC(fit_intercept=False, tol=1e-9, max_iter=100_000).fit(X, y)
    peer = LibLinearSVC(fit_intercept=False, tol=1e-9, max_iter=100_000, dual=True).fit(X, y)
    assert ours.intercept_.tolist() == [0.0]
    np.testing.assert_allclose(ours.coef_, peer.coef_, rtol=1e-5, atol=1e-6)


def test_multiclass_is_one_vs_rest_like_liblinear():
    X, y = load_iris(return_X_y=True)
    ours = LinearSVC(C=0.5, tol=1e-9, max_iter=100_000).fit(X, y)
    peer = LibLinearSVC(C=0.5, tol=1e-9, max_iter=100_000, dual=True).fit(X, y)
    assert ours.coef_.shape == (3, 4) and ours.intercept_.shape == (3,)
    for k in range(3):
        signed = np.where(y == k, 1.0, -1.0)
        assert primal(ours.coef_[k], ours.intercept_[k], X, signed, 0.5, "squared_hinge") == \
            pytest.approx(primal(peer.coef_[k], peer.intercept_[k], X, signed, 0.5,
                                 "squared_hinge"), rel=1e-6)
    np.testing.assert_array_equal(ours.predict(X), peer.predict(X))


@pytest.mark.parametrize("class_weight", [{0: 3.0, 2: 0.5}, "balanced", None])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("loss", ["squared_hinge", "hinge"])
def test_class_weight_as_liblinear_one_vs_rest(class_weight, fit_intercept, loss):
    """LIBLINEAR's -wi: the problem of class k weighs its own samples by w_k."""
    X, y = load_iris(return_X_y=True)
    params = dict(C=0.5, tol=1e-10, max_iter=200_000, loss=loss, class_weight=class_weight,
                  fit_intercept=fit_intercept)
    ours = LinearSVC(**params).fit(X, y)
    peer = LibLinearSVC(dual=True, **params).fit(X, y)
    np.testing.assert_allclose(ours.coef_, peer.coef_, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ours.intercept_, peer.intercept_, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("class_weight", [{0: 3.0}, "balanced", {1: 0.2}])
@pytest.mark.parametrize("sparse", [False, True])
def test_class_weight_as_liblinear_binary(class_weight, sparse):
    X, y = make_classification(n_samples=300, n_features=8, weights=[0.8], random_state=0)
    if sparse:
        X = sparse_copy(X)
    weight = np.random.default_rng(1).uniform(0.5, 2.0, size=len(y))
    params = dict(C=0.5, tol=1e-10, max_iter=200_000, class_weight=class_weight)
    ours = LinearSVC(**params).fit(X, y, sample_weight=weight)
    peer = LibLinearSVC(dual=True, **params).fit(X, y, sample_weight=weight)
    np.testing.assert_allclose(ours.coef_, peer.coef_, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ours.intercept_, peer.intercept_, rtol=1e-5, atol=1e-6)


def test_class_weight_names_an_unknown_class():
    X, y = make_classification(n_samples=40, n_features=4, random_state=0)
    with pytest.raises(ValueError, match="class_weight names the class 7"):
        LinearSVC(class_weight={7: 2.0}).fit(X, y)
    with pytest.raises(ValueError, match="class_weight"):
        LinearSVC(class_weight="even").fit(X, y)


def test_coordinate_step_by_hand():
    """alpha = 0.5 inside [0, 1]: PG = G and the step is alpha - G / QD, clipped;
    at alpha = 0 a positive gradient beyond M_bar shrinks the variable."""
    assert coordinate_step(0.4, 0.5, 1.0, 2.0, np.inf, -np.inf) == (False, 0.4, 0.3)
    assert coordinate_step(-3.0, 0.5, 1.0, 2.0, np.inf, -np.inf) == (False, -3.0, 1.0)
    assert coordinate_step(0.7, 0.0, 1.0, 2.0, 0.5, -0.5) == (True, 0.0, 0.0)
    assert coordinate_step(0.2, 0.0, 1.0, 2.0, 0.5, -0.5) == (False, 0.0, 0.0)
    assert coordinate_step(-0.2, 1.0, 1.0, 2.0, 0.5, -0.5)[0] is False


@pytest.mark.parametrize("params, error, match", [
    ({"C": 0.0}, ValueError, "C"),
    ({"loss": "log"}, ValueError, "loss"),
    ({"tol": -1.0}, ValueError, "tol"),
    ({"max_iter": 0}, ValueError, "max_iter"),
    ({"fit_intercept": "yes"}, TypeError, "fit_intercept"),
    ({"intercept_scaling": 0.0}, ValueError, "intercept_scaling"),
])
def test_bad_parameters_are_named(params, error, match):
    X, y = make_classification(n_samples=20, n_features=4, n_informative=2, random_state=0)
    with pytest.raises(error, match=match):
        LinearSVC(**params).fit(X, y)


def test_not_converged_warns():
    from sklearn.exceptions import ConvergenceWarning

    X, y = make_classification(n_samples=300, n_features=5, flip_y=0.2, random_state=0)
    with pytest.warns(ConvergenceWarning, match="max_iter"):
        model = LinearSVC(max_iter=2, tol=1e-12).fit(X, y)
    assert not model.converged_


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("params", [dict(loss="squared_hinge"), dict(loss="hinge"),
                                    dict(penalty="l1"), dict(multi_class="crammer_singer")])
def test_zero_weight_rows_take_no_part(sparse, params):
    """A sample of weight 0 is left out before the solver runs, as LIBLINEAR's
    ``train`` drops it (``remove_zero_weight``): the model is that of the
    other samples bit for bit, and no 0.5 / C_i is taken (no RuntimeWarning)."""
    X, y = make_classification(n_samples=120, n_features=5, random_state=7)
    X = sparse_copy(X) if sparse else X
    weight = np.random.default_rng(0).uniform(0.5, 2.0, size=120)
    weight[::7] = 0.0
    kept = weight > 0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ours = LinearSVC(C=0.5, tol=1e-6, max_iter=10_000, **params).fit(X, y,
                                                                      sample_weight=weight)
    alone = LinearSVC(C=0.5, tol=1e-6, max_iter=10_000, **params).fit(
        X[np.flatnonzero(kept)], y[kept], sample_weight=weight[kept])
    np.testing.assert_array_equal(ours.coef_, alone.coef_)
    np.testing.assert_array_equal(ours.intercept_, alone.intercept_)


def test_check_estimator():
    from sklearn.utils.estimator_checks import check_estimator

    check_estimator(LinearSVC(), expected_failed_checks={
        "check_sample_weight_equivalence_on_dense_data":
            "coordinate descent visits samples in a random order (as sklearn.svm.LinearSVC)",
        "check_sample_weight_equivalence_on_sparse_data":
            "coordinate descent visits samples in a random order (as sklearn.svm.LinearSVC)",
    })


def reference_epoch(X, y, D, U, B, alpha, order, n_active, M_bar, m_bar):
    """Hsieh et al. (2008), Algorithm 1 with shrinking, written out with NumPy:
    w recomputed from alpha at every step; a shrunk variable trades places with
    the last active one, which is visited next (LIBLINEAR's order)."""
    Xb = np.hstack([X, np.full((X.shape[0], 1), B)])
    alpha, active, k, pgs = alpha.copy(), list(order), 0, []
    while k < n_active:
        t = active[k]
        G = y[t] * (Xb.T @ (alpha * y) @ Xb[t]) - 1.0 + D[t] * alpha[t]
        if alpha[t] == 0 and G > M_bar or alpha[t] == U[t] and G < m_bar:
            n_active -= 1
            active[k], active[n_active] = active[n_active], active[k]
            continue
        PG = min(G, 0.0) if alpha[t] == 0 else max(G, 0.0) if alpha[t] == U[t] else G
        pgs.append(PG)
        if abs(PG) > 1e-12:
            alpha[t] = np.clip(alpha[t] - G / (Xb[t] @ Xb[t] + D[t]), 0.0, U[t])
        k += 1
    M, m = (max(pgs), min(pgs)) if pgs else (-np.inf, np.inf)
    return alpha, Xb.T @ (alpha * y), active, n_active, M, m


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(1, 60), d=st.integers(1, 6),
       loss=st.sampled_from(["hinge", "squared_hinge"]), warm=st.booleans(),
       sparse=st.booleans())
def test_epoch_matches_the_reference(seed, n, d, loss, warm, sparse):
    """One compiled epoch (its own shuffle, prefetching, shrinking) against the
    NumPy reference run in the order the compiled shuffle draws."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) * (rng.random((n, d)) < 0.6)
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    C = rng.uniform(0.1, 2.0, size=n)
    U, D = LOSSES[loss](C)
    alpha = np.zeros(n)
    if warm:
        alpha = rng.uniform(0, 1, n) * np.minimum(C, 1.0)
        alpha[rng.random(n) < 0.3] = 0.0
        if loss == "hinge":
            alpha = np.where(rng.random(n) < 0.3, U, alpha)          # at the upper bound
    B = 1.0
    n_active = n if not warm else int(rng.integers(1, n + 1))
    M_bar, m_bar = (0.5, -0.5) if warm else (np.inf, -np.inf)
    order = rng.permutation(n).astype(np.int64)
    state = np.array([rng.integers(1, 2 ** 62)], dtype=np.uint64)
    drawn = order.copy()
    shuffle_prefix(drawn, n_active, state.copy())
    want = reference_epoch(X, y, D, U, B, alpha, drawn, n_active, M_bar, m_bar)
    layout = LAYOUTS[sparse]
    samples = sp.csr_matrix(X) if sparse else X
    var = dual_variables(y, D, U, np.einsum("ij,ij->i", X, X) + B * B + D,
                         layout.row_bounds(samples))
    var["alpha"] = alpha
    w = np.hstack([X, np.full((n, 1), B)]).T @ (alpha * y)
    active, bounds = order.copy(), np.array([n_active, M_bar, m_bar])
    M, m = dcd_epoch(layout.prepare(samples), var, B, w, active, bounds, state)
    np.testing.assert_allclose(var["alpha"], want[0], rtol=0, atol=1e-10)
    np.testing.assert_allclose(w, want[1], rtol=0, atol=1e-9)
    assert active.tolist() == want[2] and bounds[0] == want[3]
    assert M == pytest.approx(want[4], abs=1e-9) and m == pytest.approx(want[5], abs=1e-9)


def test_compiled_shuffle_permutes_the_prefix_uniformly():
    state = np.array([12345], dtype=np.uint64)
    counts = np.zeros((4, 4))
    for _ in range(4000):
        a = np.arange(6, dtype=np.int64)
        shuffle_prefix(a, 4, state)
        assert sorted(a[:4].tolist()) == [0, 1, 2, 3] and a[4:].tolist() == [4, 5]
        counts[np.arange(4), a[:4]] += 1
    # every value lands at every position a quarter of the time (4 sigma: 0.027)
    np.testing.assert_allclose(counts / 4000, 0.25, atol=0.03)


def test_random_state_sets_the_order_not_the_optimum():
    X, y = make_classification(n_samples=300, n_features=8, flip_y=0.05, random_state=3)
    fit = lambda seed: LinearSVC(tol=1e-10, max_iter=100_000, random_state=seed).fit(X, y)  # noqa
    a, b, c = fit(0), fit(0), fit(7)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    assert not np.array_equal(a.coef_, c.coef_)
    assert c.objective(X, y) == pytest.approx(a.objective(X, y), rel=1e-9)


@pytest.mark.parametrize("sparse", [False, True])
def test_all_zero_row_without_intercept_hinge_matches_liblinear(sparse):
    """Q_bar_tt = 0 (an all-zero row, no bias feature, hinge loss): the step is
    to the bound, as LIBLINEAR's infinite step clipped, not a ZeroDivisionError."""
    X = np.array([[1.0, 2.0], [0.0, 0.0], [-1.0, -1.5], [2.0, 1.0], [-2.0, -1.0]])
    X = sp.csr_matrix(X) if sparse else X
    y = [1, 1, 0, 1, 0]
    ours = LinearSVC(loss="hinge", fit_intercept=False, tol=1e-10, max_iter=10_000).fit(X, y)
    peer = LibLinearSVC(loss="hinge", fit_intercept=False, tol=1e-10, max_iter=10_000,
                        dual=True).fit(X, y)
    np.testing.assert_allclose(ours.coef_, peer.coef_, rtol=1e-8)
    assert np.all(np.isfinite(ours.coef_))


def test_dual_variables_fill_one_cache_line_each():
    X = sp.csr_matrix(np.array([[1.0, 0.0, 2.0], [0.0, 0.0, 0.0], [0.0, 3.0, 0.0]]))
    var = dual_variables(np.array([1.0, -1.0, 1.0]), np.zeros(3), np.full(3, 0.5),
                         np.array([6.0, 1.0, 10.0]), LAYOUTS[True].row_bounds(X))
    assert var.itemsize == 64 and var.ctypes.data % 64 == 0
    assert var["start"].tolist() == [0, 2, 2] and var["stop"].tolist() == [2, 2, 3]
    assert var["alpha"].tolist() == [0.0, 0.0, 0.0] and var["QD"].tolist() == [6.0, 1.0, 10.0]
    assert LAYOUTS[False].row_bounds(X.toarray()).tolist() == [0, 3, 6, 9]


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("loss", ["hinge", "squared_hinge"])
def test_compacted_working_set_takes_the_same_steps(sparse, loss, monkeypatch):
    """Copying the active variables into a contiguous working set moves them
    in memory only: the same epochs, alpha and w, bit for bit."""
    X, y = make_classification(n_samples=400, n_features=30, flip_y=0.05, class_sep=2.0,
                               random_state=5)
    X = sparse_copy(X) if sparse else X
    signed = np.where(y == 1, 1.0, -1.0)
    C = np.full(400, 0.1)
    copies = []
    monkeypatch.setattr(WorkingSet, "compact",
                        lambda self, n, compact=WorkingSet.compact: (copies.append(n),
                                                                     compact(self, n)))

    def solve(fraction):
        del copies[:]
        result = solve_dual(dcd_samples(X), signed, C, loss, 1.0, 1e-4, 20_000,
                            np.random.RandomState(0), compact_below=fraction)
        return result, len(copies)

    (plain, none), (compacted, some), (eager, many) = solve(0.0), solve(0.5), solve(1.0)
    assert plain[3] and none == 0 and 1 <= some < many, (plain[2:], some, many)
    for other in (compacted, eager):
        np.testing.assert_array_equal(other[0], plain[0])
        np.testing.assert_array_equal(other[1], plain[1])
        assert other[2:] == plain[2:]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(1, 40), d=st.integers(1, 8),
       sparse=st.booleans())
def test_taken_rows_are_scipys_and_numpys_row_selection(seed, n, d, sparse):
    """A working set's rows (compiled CSR copy, or NumPy for dense rows) equal
    ``X[rows]`` as scipy and NumPy select them."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) * (rng.random((n, d)) < 0.4)
    rows = np.sort(rng.choice(n, size=int(rng.integers(0, n + 1)), replace=False))
    layout = LAYOUTS[sparse]
    samples = sp.csr_matrix(X) if sparse else X
    taken, bounds = layout.take(layout.prepare(samples), rows)
    want = samples[rows]
    if sparse:
        np.testing.assert_array_equal(taken.data, want.data)
        np.testing.assert_array_equal(taken.indices, want.indices)
        np.testing.assert_array_equal(taken.indptr, want.indptr)
        np.testing.assert_array_equal(bounds, want.indptr)
    else:
        np.testing.assert_array_equal(taken, want)
        np.testing.assert_array_equal(bounds, np.arange(len(rows) + 1) * d)


def reference_epochs(epoch, samples, var, B, w, active, bounds, state, tol, max_epochs,
                     compact_below):
    """LIBLINEAR's loop around one epoch written out in Python: stop at the
    first epoch whose spread M - m is within tol; else the next thresholds
    are M and m, or +-inf where of the wrong sign; stop when the working set
    has settled (active at most ``compact_below`` of it, under 10% shrunk)."""
    for done in range(1, max_epochs + 1):
        visited = bounds[0]
        M, m = epoch(samples, var, B, w, active, bounds, state)
        if M - m <= tol:
            return done, "within tol"
        bounds[1] = M if M > 0 else np.inf
        bounds[2] = m if m < 0 else -np.inf
        if bounds[0] <= compact_below * len(active) and bounds[0] >= 0.9 * visited:
            return done, "settled"
    return max_epochs, "go on"


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(1, 80), d=st.integers(1, 6),
       loss=st.sampled_from(["hinge", "squared_hinge"]), sparse=st.booleans(),
       max_epochs=st.integers(1, 40), tol=st.sampled_from([1e-1, 1e-3, 1e-8]),
       compact_below=st.sampled_from([0.0, 0.5, 1.0]))
def test_epochs_call_is_epochs_and_liblinears_rules(seed, n, d, loss, sparse, max_epochs, tol,
                                                   compact_below):
    """A compiled run of epochs leaves alpha, w, the order, the thresholds and
    the generator bit for bit as single compiled epochs with the rules applied
    in Python between them, and returns the same count and reason."""
    from hyperplane.svm._linear_svc_kernels import GO_ON, SET_SETTLED, WITHIN_TOL, EpochLimits
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) * (rng.random((n, d)) < 0.6)
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    U, D = LOSSES[loss](rng.uniform(0.1, 2.0, size=n))
    layout = LAYOUTS[sparse]
    samples = sp.csr_matrix(X) if sparse else X
    runs = []
    for run in ("compiled", "reference"):
        var = dual_variables(y, D, U, np.einsum("ij,ij->i", X, X) + 1.0 + D,
                             layout.row_bounds(samples))
        w, active = np.zeros(d + 1), np.arange(n, dtype=np.int64)
        bounds, state = np.array([n, np.inf, -np.inf]), np.array([seed + 1], dtype=np.uint64)
        args = (layout.prepare(samples), var, 1.0, w, active, bounds, state, tol, max_epochs,
                compact_below)
        if run == "compiled":
            done, event = layout.epochs(*args[:7], EpochLimits(tol, max_epochs, compact_below))
            event = {GO_ON: "go on", WITHIN_TOL: "within tol", SET_SETTLED: "settled"}[event]
        else:
            done, event = reference_epochs(dcd_epoch, *args)
        runs.append((done, event, var.tobytes(), w.tobytes(), active.tolist(), bounds.tolist(),
                     state.tolist()))
    assert runs[0] == runs[1]


def test_after_epoch_by_hand():
    """The rules between epochs on hand-picked extremes."""
    from hyperplane.svm._linear_svc_kernels import GO_ON, SET_SETTLED, WITHIN_TOL, after_epoch
    bounds = np.array([10.0, 7.0, -7.0])
    assert after_epoch(0.3, 0.25, 0.1, bounds, 10, 100, 0.5) == WITHIN_TOL
    assert bounds.tolist() == [10.0, 7.0, -7.0]                  # untouched at tol
    assert after_epoch(0.3, 0.1, 0.1, bounds, 10, 100, 0.5) == SET_SETTLED
    assert bounds.tolist() == [10.0, 0.3, -np.inf]               # m > 0: no lower threshold
    assert after_epoch(-0.1, -0.5, 0.1, bounds, 12, 100, 0.5) == GO_ON    # 2 of 12 shrunk
    assert bounds.tolist() == [10.0, np.inf, -0.5]
    assert after_epoch(0.4, -0.5, 0.1, bounds, 10, 19, 0.5) == GO_ON      # 10 > 19 / 2
    assert after_epoch(0.4, -0.5, 0.1, bounds, 10, 20, 0.5) == SET_SETTLED
    assert after_epoch(0.4, -0.5, 0.1, bounds, 10, 20, 0.0) == GO_ON      # 0: never compact


@pytest.mark.parametrize("loss", ["hinge", "squared_hinge"])
def test_wide_sparse_columns_take_the_same_steps(loss):
    """Columns stored in 16 bits (up to 65536 features) or in 32 bits (more):
    the same model, bit for bit, on data whose extra columns are empty."""
    from hyperplane.svm._liblinear import csr_samples
    X, y = make_classification(n_samples=300, n_features=20, random_state=6)
    narrow = sparse_copy(X)
    wide = sp.csr_matrix((narrow.data, narrow.indices, narrow.indptr), shape=(300, 70_000))
    assert csr_samples(narrow).indices.dtype == np.uint16
    assert csr_samples(wide).indices.dtype == np.int32
    a = LinearSVC(loss=loss, tol=1e-6, max_iter=10_000).fit(narrow, y)
    b = LinearSVC(loss=loss, tol=1e-6, max_iter=10_000).fit(wide, y)
    np.testing.assert_array_equal(b.coef_[0, :20], a.coef_[0])
    assert not b.coef_[0, 20:].any() and b.intercept_ == a.intercept_ and b.n_iter_ == a.n_iter_


@given(M=st.one_of(st.floats(-5, 5), st.sampled_from([0.0, -0.0, np.inf, -np.inf])),
       m=st.one_of(st.floats(-5, 5), st.sampled_from([0.0, -0.0, np.inf, -np.inf])),
       tol=st.floats(0, 1))
def test_stopping_and_shrinking_rules_match_liblinear_written_out(M, m, tol):
    """The one stopping test and the one shrinking-threshold rule (used by
    LinearSVC and by SVC's seed) against LIBLINEAR's lines written out:
    stop when PGmax - PGmin <= eps; PGmax_old = PGmax, or +inf when
    PGmax <= 0; PGmin_old = PGmin, or -inf when PGmin >= 0."""
    from hyperplane.svm._linear_svc_kernels import (next_shrink_bounds, shrink_thresholds,
                                                    within_tol)
    assert within_tol(M, m, tol) == (M - m <= tol)
    want = (np.inf if M <= 0 else M, -np.inf if m >= 0 else m)
    assert shrink_thresholds(M, m) == want
    bounds = np.array([7.0, 0.0, 0.0])
    next_shrink_bounds(bounds, M, m)
    assert bounds.tolist() == [7.0, *want]


@pytest.mark.parametrize("scale", [1e300, 1e200, 1e-300])
@pytest.mark.parametrize("to_sparse", [False, True])
def test_features_off_float64s_scale_are_refused_naming_X(scale, to_sparse):
    """Issue #30 finding 8: X * 1e300 gave coef 0, intercept 0 and no warning."""
    X, y = make_classification(200, 5, random_state=0)
    X = X * scale
    with pytest.raises(ValueError, match=r"feature \d+ of X reaches magnitude .*scale of X"):
        LinearSVC().fit(sp.csr_matrix(X) if to_sparse else X, y)


def test_features_at_1e50_still_fit():
    X, y = make_classification(200, 5, random_state=0)
    model = LinearSVC(max_iter=5000).fit(X * 1e50, y)
    assert np.all(np.isfinite(model.coef_)) and np.any(model.coef_ != 0)
    assert model.score(X * 1e50, y) > 0.8
