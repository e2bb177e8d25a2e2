"""Adaline: the compiled Widrow–Hoff (α-LMS) epoch vs a plain Python loop."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.exceptions import ConvergenceWarning

import scipy.sparse as sp

from hyperplane._csr_rows import CSRRows
from hyperplane.linear import Adaline
from hyperplane.linear._adaline_kernels import LMSSamples, augmented_squared_norms
from hyperplane.linear._adaline_kernels import lms_epoch as compiled_epoch

from ._helpers import blobs


def lms_epoch(X, T, W, b, order, eta, s=None):
    """The compiled epoch on dense (or CSR) rows, unit weights by default."""
    s = np.ones(T.shape[0]) if s is None else s
    rows = CSRRows.of(X) if sp.issparse(X) else X
    norm2 = augmented_squared_norms(rows, T.shape[0], np.ones(X.shape[1]))
    return compiled_epoch(LMSSamples(rows, T, s, norm2), W, b, np.asarray(order, np.int64), eta)


def lms_epoch_reference(X, T, W, b, order, eta, s=None):
    """w̃ ← w̃ + η s (t − w̃·x̃) x̃ / ‖x̃‖² with x̃ = (x, 1), sample by sample."""
    s = np.ones(T.shape[0]) if s is None else s
    W, b = W.copy(), b.copy()
    sse = 0.0
    for i in order:
        x_aug = np.append(X[i], 1.0)
        for k in range(T.shape[1]):
            w_aug = np.append(W[k], b[k])
            e = T[i, k] - w_aug @ x_aug
            sse += s[i] * e * e
            w_aug = w_aug + eta * s[i] * e * x_aug / (x_aug @ x_aug)
            W[k], b[k] = w_aug[:-1], w_aug[-1]
    return W, b, sse


@given(st.integers(1, 30), st.integers(1, 4), st.integers(1, 3),
       st.floats(0.01, 1.9), st.integers(0, 2**32 - 1), st.booleans())
def test_epoch_matches_reference(n, d, outputs, eta, seed, weighted):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) * 10
    T = rng.choice([-1.0, 1.0], size=(n, outputs))
    s = rng.uniform(0, 2, size=n) if weighted else None
    W, b = rng.normal(size=(outputs, d)), rng.normal(size=outputs)
    order = rng.permutation(n).astype(np.int64)
    W_ref, b_ref, sse_ref = lms_epoch_reference(X, T, W, b, order, eta, s)
    sse = lms_epoch(X, T, W, b, order, eta, s)
    np.testing.assert_allclose(W, W_ref, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(b, b_ref, rtol=1e-10, atol=1e-10)
    assert sse == pytest.approx(sse_ref, rel=1e-10)


@given(st.integers(0, 2**32 - 1))
def test_csr_rows_give_the_dense_epoch_bit_for_bit(seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(25, 6)) * (rng.random((25, 6)) < 0.4)
    T = rng.choice([-1.0, 1.0], size=(25, 2))
    s = rng.uniform(0, 2, size=25)
    order = rng.permutation(25)
    fits = []
    for rows in (X, sp.csr_matrix(X)):
        W, b = np.zeros((2, 6)), np.zeros(2)
        sse = lms_epoch(rows, T, W, b, order, 0.4, s)
        fits.append((W.tobytes(), b.tobytes(), sse))
    assert fits[0] == fits[1]


def test_a_zero_weight_drops_the_row_and_weights_are_checked():
    X, y = blobs(40, 3, 2, seed=4)
    weight = np.ones(40)
    weight[::3] = 0.0
    kept = weight > 0
    params = dict(eta=0.3, shuffle=False, max_iter=20, tol=1e-9)
    with pytest.warns(ConvergenceWarning):
        weighted = Adaline(**params).fit(X, y, sample_weight=weight)
    with pytest.warns(ConvergenceWarning):
        dropped = Adaline(**params).fit(X[kept], y[kept])
    np.testing.assert_array_equal(weighted.coef_, dropped.coef_)
    np.testing.assert_array_equal(weighted.intercept_, dropped.intercept_)
    np.testing.assert_allclose(weighted.loss_curve_, dropped.loss_curve_, rtol=1e-12)
    with pytest.raises(ValueError, match="sample_weight must be non-negative; row 2"):
        Adaline().fit(X, y, sample_weight=np.r_[1.0, 1.0, -1.0, np.ones(37)])
    with pytest.raises(ValueError, match="zero for every sample"):
        Adaline().fit(X, y, sample_weight=np.zeros(40))


def test_update_removes_a_fraction_eta_of_the_error():
    """Widrow & Lehr: after an α-LMS step the sample's error is (1 − η) e."""
    X, T = np.array([[3.0, -1.0]]), np.array([[1.0]])
    W, b = np.array([[0.2, 0.4]]), np.array([0.1])
    e_before = 1.0 - (X[0] @ W[0] + b[0])
    lms_epoch(X, T, W, b, np.array([0]), 0.3)
    assert 1.0 - (X[0] @ W[0] + b[0]) == pytest.approx(0.7 * e_before)


def test_unshuffled_fit_is_the_reference_epochs_in_order():
    X, y = blobs(30, 2, 2, seed=3)
    clf = Adaline(eta=0.2, shuffle=False, max_iter=5, tol=0.0)
    with pytest.warns(ConvergenceWarning):
        clf.fit(X, y)
    T = np.where(y == 1, 1.0, -1.0)[:, None]
    W, b = np.zeros((1, 2)), np.zeros(1)
    for _ in range(5):
        W, b, _ = lms_epoch_reference(X, T, W, b, range(30), 0.2)
    np.testing.assert_allclose(clf.coef_, W, rtol=1e-10)
    np.testing.assert_allclose(clf.intercept_, b, rtol=1e-10)
    assert clf.n_iter_ == 5 and len(clf.loss_curve_) == 5 and not clf.converged_


def test_small_eta_reaches_the_weighted_least_squares_solution():
    """α-LMS's fixed point in the mean: Σ_n e_n x̃_n / ‖x̃_n‖² = 0, the least
    squares solution with weights 1/‖x̃_n‖²."""
    X, y = blobs(60, 2, 2, seed=1, spread=1.0)
    X_aug = np.column_stack([X, np.ones(60)])
    t = np.where(y == 1, 1.0, -1.0)
    s = 1.0 / np.linalg.norm(X_aug, axis=1)
    w_ref = np.linalg.lstsq(X_aug * s[:, None], t * s, rcond=None)[0]
    clf = Adaline(eta=0.002, max_iter=5000, tol=1e-10, random_state=0).fit(X, y)
    w = np.append(clf.coef_[0], clf.intercept_)
    np.testing.assert_allclose(w, w_ref, atol=0.02)


def test_random_state_reproducible_and_shuffle_used():
    X, y = blobs(40, 3, 2, seed=2)
    a = Adaline(random_state=7).fit(X, y)
    b = Adaline(random_state=7).fit(X, y)
    c = Adaline(random_state=8, max_iter=3, tol=0.0)
    with pytest.warns(ConvergenceWarning):
        c.fit(X, y)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    d = Adaline(shuffle=False, max_iter=3, tol=0.0)
    with pytest.warns(ConvergenceWarning):
        d.fit(X, y)
    assert not np.allclose(c.coef_, d.coef_)


def test_separable_and_multiclass():
    X, y = blobs(90, 2, 3, seed=5, spread=6.0)      # one-vs-rest separable
    clf = Adaline(eta=0.1, random_state=0).fit(X, y)
    assert clf.coef_.shape == (3, 2) and clf.intercept_.shape == (3,)
    assert clf.score(X, y) == 1.0
    Xb, yb = blobs(60, 2, 2, seed=5, spread=6.0)
    assert Adaline(eta=0.1, random_state=0).fit(Xb, yb).score(Xb, yb) == 1.0


def test_large_feature_scale_does_not_diverge():
    """The normalised rule is stable for 0 < eta < 2 at any scale of X."""
    X, y = blobs(50, 2, 2, seed=6, offset=1e4)
    clf = Adaline(eta=1.5, max_iter=20, random_state=0)
    with pytest.warns(ConvergenceWarning):
        clf.fit(X, y)
    assert np.all(np.isfinite(clf.coef_)) and np.all(np.isfinite(clf.loss_curve_))


@pytest.mark.parametrize("params,error", [({"eta": 0.0}, ValueError), ({"eta": 2.0}, ValueError),
                                          ({"eta": "big"}, TypeError),
                                          ({"max_iter": 0}, ValueError),
                                          ({"tol": -1.0}, ValueError)])
def test_bad_hyper_parameters(params, error):
    X, y = blobs(20, 2, 2)
    with pytest.raises(error, match=next(iter(params))):
        Adaline(**params).fit(X, y)
