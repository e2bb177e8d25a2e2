"""LinearSVC(penalty="l1") (LIBLINEAR -s 5, CDN) against scikit-learn's
LinearSVC(penalty="l1", dual=False): the same objective and zero pattern;
sparse input gives the dense model bit for bit; the line search and one epoch
against NumPy references."""

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import load_iris, make_classification
from sklearn.svm import LinearSVC as LibLinearSVC

from hyperplane.svm import LinearSVC
from hyperplane.svm._linear_svc import primal_tolerance, signed_columns
from hyperplane.svm._l1_svc_kernels import (L1Problem, L1State, cdn_epoch, cdn_line_search,
                                            column_curvatures)

from ._real_data import real_classification


def l1_objective(coef, intercept, X, signed, C, scaling=1.0):
    """|w|_1 + |b / scaling| + C sum max(0, 1 - y f(x))^2, from the formula."""
    margin = np.maximum(0.0, 1.0 - signed * (np.asarray(X @ coef).ravel() + intercept))
    return np.abs(coef).sum() + abs(intercept / scaling) + np.sum(C * margin ** 2)


def sparse_copy(X):
    return sp.csr_matrix(np.where(np.abs(X) > 0.8, X, 0.0))


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("C, scaling", [(0.05, 1.0), (1.0, 1.0), (0.3, 3.0)])
def test_same_objective_as_liblinear(sparse, C, scaling):
    X, y = make_classification(n_samples=300, n_features=20, n_informative=5, flip_y=0.05,
                               random_state=3)
    if sparse:
        X = sparse_copy(X)
    signed = np.where(y == 1, 1.0, -1.0)
    params = dict(penalty="l1", C=C, tol=1e-10, max_iter=100_000, intercept_scaling=scaling)
    ours = LinearSVC(**params).fit(X, y)
    peer = LibLinearSVC(dual=False, random_state=0, **params).fit(X, y)
    f_ours = l1_objective(ours.coef_[0], ours.intercept_[0], X, signed, C, scaling)
    f_peer = l1_objective(peer.coef_[0], peer.intercept_[0], X, signed, C, scaling)
    assert ours.converged_
    assert f_ours == pytest.approx(f_peer, rel=1e-6)
    assert ours.objective(X, y) == pytest.approx(f_ours, rel=1e-12)
    # a sparse solution: the same weights are exactly zero
    np.testing.assert_array_equal(ours.coef_ == 0, peer.coef_ == 0)
    assert np.sum(ours.coef_ == 0) > 0


@pytest.mark.parametrize("data", ["breast_cancer", "heart_scale"])
def test_real_data_as_liblinear(data):
    """Breast cancer (standardised, dense) and heart_scale (CSR, LIBSVM's
    copy): LIBLINEAR's objective, zero pattern and predictions."""
    X, y = real_classification(data)
    signed = np.where(y == np.unique(y)[1], 1.0, -1.0)
    params = dict(penalty="l1", C=0.1, tol=1e-10, max_iter=100_000)
    ours = LinearSVC(**params).fit(X, y)
    peer = LibLinearSVC(dual=False, random_state=0, **params).fit(X, y)
    f_ours = l1_objective(ours.coef_[0], ours.intercept_[0], X, signed, 0.1)
    f_peer = l1_objective(peer.coef_[0], peer.intercept_[0], X, signed, 0.1)
    assert ours.converged_
    assert f_ours == pytest.approx(f_peer, rel=1e-6)
    np.testing.assert_array_equal(ours.coef_ == 0, peer.coef_ == 0)
    np.testing.assert_array_equal(ours.predict(X), peer.predict(X))


def test_multiclass_and_class_weight_as_liblinear():
    X, y = load_iris(return_X_y=True)
    params = dict(penalty="l1", C=0.5, tol=1e-10, max_iter=100_000,
                  class_weight={0: 2.0, 2: 0.5})
    ours = LinearSVC(**params).fit(X, y)
    peer = LibLinearSVC(dual=False, random_state=0, **params).fit(X, y)
    weights = np.array([2.0, 1.0, 0.5])
    for k in range(3):
        signed = np.where(y == k, 1.0, -1.0)
        C = 0.5 * np.where(y == k, weights[k], 1.0)
        assert l1_objective(ours.coef_[k], ours.intercept_[k], X, signed, C) == pytest.approx(
            l1_objective(peer.coef_[k], peer.intercept_[k], X, signed, C), rel=1e-6)
    np.testing.assert_array_equal(ours.predict(X), peer.predict(X))


def test_without_intercept_as_liblinear():
    X, y = make_classification(n_samples=200, n_features=10, random_state=4)
    params = dict(penalty="l1", C=0.2, tol=1e-10, max_iter=100_000, fit_intercept=False)
    ours = LinearSVC(**params).fit(X, y)
    peer = LibLinearSVC(dual=False, random_state=0, **params).fit(X, y)
    signed = np.where(y == 1, 1.0, -1.0)
    assert ours.intercept_.tolist() == [0.0]
    assert l1_objective(ours.coef_[0], 0.0, X, signed, 0.2) == pytest.approx(
        l1_objective(peer.coef_[0], 0.0, X, signed, 0.2), rel=1e-6)


def test_sparse_equals_dense_bit_for_bit():
    X, y = make_classification(n_samples=200, n_features=12, random_state=1)
    X = sparse_copy(X)
    params = dict(penalty="l1", C=0.5, tol=1e-8, max_iter=50_000)
    sparse = LinearSVC(**params).fit(X, y)
    dense = LinearSVC(**params).fit(X.toarray(), y)
    np.testing.assert_array_equal(sparse.coef_, dense.coef_)
    np.testing.assert_array_equal(sparse.intercept_, dense.intercept_)
    assert sparse.n_iter_ == dense.n_iter_


def with_stored_zeros(X, rng):
    """``X`` (CSR) with an explicit zero stored in about a third of the empty
    positions of every row."""
    dense = X.toarray()
    stored = (dense != 0) | (rng.random(dense.shape) < 0.3)
    rows, cols = np.nonzero(stored)
    return sp.csr_matrix((dense[rows, cols], (rows, cols)), shape=dense.shape)


def test_stored_zeros_take_no_part_in_a_column_pass():
    """A zero stored in a CSR column is no entry of it: the shift of the
    margins along the column and the loss of its rows before and after are
    those of the dense column, bit for bit (the dense pass skips its zeros)."""
    from hyperplane.svm._l1_svc_kernels import column_shift
    from hyperplane.svm._liblinear import csr_samples
    rng = np.random.default_rng(11)
    X = sp.csr_matrix(rng.normal(size=(5, 40)) * (rng.random((5, 40)) < 0.4))
    stored = with_stored_zeros(X, rng)
    assert np.sum(stored.data == 0) > 20
    C = rng.uniform(0.1, 2.0, size=40)
    for j in range(5):
        b_dense = rng.normal(size=40)
        b_csr = b_dense.copy()
        got = column_shift(csr_samples(stored), j, b_csr, C, -0.7)
        expected = column_shift(X.toarray(), j, b_dense, C, -0.7)
        assert got == expected
        np.testing.assert_array_equal(b_csr, b_dense)


def test_stored_zeros_fit_as_without_them():
    """CSR samples with explicit zeros fit as the same samples without them
    and as the dense samples, bit for bit."""
    X, y = make_classification(n_samples=150, n_features=10, random_state=5)
    X = sparse_copy(X)
    stored = with_stored_zeros(X, np.random.default_rng(2))
    params = dict(penalty="l1", C=0.5, tol=1e-8, max_iter=50_000)
    fits = [LinearSVC(**params).fit(samples, y) for samples in (stored, X, X.toarray())]
    for other in fits[1:]:
        np.testing.assert_array_equal(fits[0].coef_, other.coef_)
        np.testing.assert_array_equal(fits[0].intercept_, other.intercept_)


def test_hinge_loss_is_refused_with_l1():
    X, y = make_classification(n_samples=40, n_features=4, random_state=0)
    with pytest.raises(ValueError, match="penalty='l1'.*squared_hinge"):
        LinearSVC(penalty="l1", loss="hinge").fit(X, y)
    with pytest.raises(ValueError, match="penalty"):
        LinearSVC(penalty="l3").fit(X, y)


def test_primal_tolerance_is_liblinears():
    """eps min(pos, neg) / l (LIBLINEAR's train for -s 5)."""
    assert primal_tolerance(0.1, np.array([1.0, -1.0, -1.0, -1.0])) == pytest.approx(0.025)


def reference_line_search(col, b, C, w_j, d, G_loss, sigma=0.01):
    """Yuan et al. (2010) §4.1.2: the first of d, d/2, ... with
    |w_j + d| - |w_j| + L(b - d col) - L(b) <= sigma (|w_j + d| - |w_j| + G_loss d)
    (L = sum C max(0, b)^2), written with the full losses."""
    loss = lambda margins: np.sum(C * np.maximum(0.0, margins) ** 2)
    delta = abs(w_j + d) - abs(w_j) + G_loss * d
    for _ in range(20):
        if abs(w_j + d) - abs(w_j) + loss(b - d * col) - loss(b) <= sigma * delta:
            return d
        d, delta = d / 2, delta / 2
    return None


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(1, 40), d=st.integers(1, 5),
       sparse=st.booleans())
def test_line_search_matches_the_reference(seed, n, d, sparse):
    """The cheap sufficient test (xj_sq d^2 + G d + ...) only accepts steps the
    exact test accepts, so a step accepted early is one the exact test accepts;
    the step the search returns satisfies the exact condition."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) * (rng.random((n, d)) < 0.7)
    signed = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    C = rng.uniform(0.1, 2.0, size=n)
    w = rng.normal(size=d + 1) * (rng.random(d + 1) < 0.5)
    Xb = np.hstack([X, np.ones((n, 1))])
    b = 1.0 - signed * (Xb @ w)
    Xc = signed_columns(sp.csr_matrix(X) if sparse else X, signed, 1.0)
    j = int(rng.integers(0, d + 1))
    col = signed * Xb[:, j]
    G_loss = -2.0 * np.sum((C * col * b)[b > 0])
    H = max(2.0 * np.sum((C * col * col)[b > 0]), 1e-12)
    step = -(G_loss + 1.0) / H if G_loss + 1.0 < H * w[j] else \
        -(G_loss - 1.0) / H if G_loss - 1.0 > H * w[j] else -w[j]
    if abs(step) < 1e-12:
        return
    margins = b.copy()
    xj_sq = np.sum(C * col * col)
    got, exhausted = cdn_line_search(Xc, j, margins, C, w[j], step, G_loss, xj_sq)
    if exhausted:
        return
    loss = lambda m: np.sum(C * np.maximum(0.0, m) ** 2)
    delta = abs(w[j] + got) - abs(w[j]) + G_loss * got
    assert abs(w[j] + got) - abs(w[j]) + loss(b - got * col) - loss(b) <= 0.01 * delta + 1e-9
    np.testing.assert_allclose(margins, b - got * col, rtol=1e-10, atol=1e-10)
    expected = reference_line_search(col, b, C, w[j], step, G_loss)
    assert expected is not None and abs(got) <= abs(expected) * (1 + 1e-12)


def test_epoch_decreases_the_objective():
    """Every CDN step satisfies the sufficient decrease, so an epoch never
    increases |w|_1 + sum C max(0, b)^2; the margins stay 1 - y w.x."""
    X, y = make_classification(n_samples=100, n_features=6, random_state=2)
    signed = np.where(y == 1, 1.0, -1.0)
    C = np.full(100, 0.5)
    Xc = signed_columns(X, signed, 1.0)
    problem = L1Problem(Xc, C, column_curvatures(Xc, C, 7))
    state = L1State(np.zeros(7), np.ones(100), np.arange(7, dtype=np.int64),
                    np.array([3], dtype=np.uint64))
    Xb = np.hstack([X, np.ones((100, 1))])
    objective = lambda w: np.abs(w).sum() + np.sum(C * np.maximum(0, 1 - signed * (Xb @ w)) ** 2)
    before = objective(state.w)
    for _ in range(5):
        cdn_epoch(problem, state, 7, np.inf)
        after = objective(state.w)
        assert after <= before + 1e-12
        before = after
        np.testing.assert_allclose(state.b, 1 - signed * (Xb @ state.w), atol=1e-10)


def test_check_estimator():
    from sklearn.utils.estimator_checks import check_estimator

    check_estimator(LinearSVC(penalty="l1"), expected_failed_checks={
        "check_sample_weight_equivalence_on_dense_data":
            "coordinate descent visits weights in a random order (as sklearn.svm.LinearSVC)",
        "check_sample_weight_equivalence_on_sparse_data":
            "coordinate descent visits weights in a random order (as sklearn.svm.LinearSVC)",
    })
