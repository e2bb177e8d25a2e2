"""Least-squares (MSE) classifier: W̃ = X̃⁺T as numpy.linalg.lstsq computes it."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from hyperplane.linear import FisherDiscriminant, LeastSquaresClassifier, LogisticRegression
from hyperplane.linear._least_squares import solve_least_squares
from hyperplane.linear._moments import class_moments

from ._helpers import blobs, cosine, scatter_reference


def lstsq_weights(X, y, k, fit_intercept=True):
    """The seed's W̃ = X̃⁺T by numpy's SVD-based lstsq (one-hot T)."""
    Xt = np.column_stack([np.ones(len(X)), X]) if fit_intercept else X
    W = np.linalg.lstsq(Xt, np.eye(k)[y], rcond=None)[0]
    return (W[1:], W[0]) if fit_intercept else (W, np.zeros(k))


@st.composite
def problems(draw):
    k = draw(st.integers(2, 4))
    n = draw(st.integers(k, 60))
    d = draw(st.integers(1, 6))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    X = rng.normal(size=(n, d)) + draw(st.sampled_from([0.0, 50.0]))
    if draw(st.booleans()) and d >= 2:      # exactly collinear column
        X[:, -1] = X[:, 0] - 2.0 * X[:, 1 % d]
    y = rng.integers(0, k, n)
    y[:k] = np.arange(k)
    return X, y, k


@given(problems(), st.booleans())
def test_solution_equals_numpy_lstsq(problem, fit_intercept):
    """Also for rank-deficient X̃: the minimum-norm solution, not an error."""
    X, y, k = problem
    W, b = solve_least_squares(class_moments(X, y, k), np.eye(k), fit_intercept=fit_intercept)
    W_ref, b_ref = lstsq_weights(X, y, k, fit_intercept)
    scale = max(1.0, np.abs(W_ref).max(), np.abs(b_ref).max())
    np.testing.assert_allclose(W, W_ref, atol=1e-6 * scale)
    np.testing.assert_allclose(b, b_ref, atol=1e-6 * scale)


@pytest.mark.parametrize("k", [2, 3, 5])
def test_classifier_predicts_argmax_of_lstsq_outputs(k):
    X, y = blobs(200, 4, k, seed=k)
    clf = LeastSquaresClassifier().fit(X, y)
    W_ref, b_ref = lstsq_weights(X, y, k)
    outputs = X @ W_ref + b_ref
    np.testing.assert_array_equal(clf.predict(X), np.argmax(outputs, axis=1))
    scores = clf.decision_function(X)
    if k == 2:
        np.testing.assert_allclose(scores, outputs[:, 1] - outputs[:, 0], atol=1e-9)
        assert clf.coef_.shape == (1, 4) and clf.intercept_.shape == (1,)
    else:
        np.testing.assert_allclose(scores, outputs, atol=1e-9)
        assert clf.coef_.shape == (k, 4)


def test_fisher_remark_targets_n_over_n1():
    """Seed 002 (Duda & Hart; PRML p.190): least squares with targets N/N₁ and
    −N/N₂ gives w parallel to S_W⁻¹(m₂ − m₁)."""
    X, y = blobs(90, 4, 2, seed=7)
    y[:10] = 0                                  # unequal class sizes
    N, N1, N2 = len(y), np.sum(y == 0), np.sum(y == 1)
    t = np.where(y == 0, N / N1, -N / N2)
    w_ls = np.linalg.lstsq(np.column_stack([np.ones(N), X]), t, rcond=None)[0][1:]
    _, means, S_W = scatter_reference(X, y, 2)
    w_fisher = np.linalg.solve(S_W, means[1] - means[0])
    assert abs(cosine(w_ls, w_fisher)) == pytest.approx(1.0, abs=1e-12)
    # the same through the package: sufficient statistics and the estimator
    W, _ = solve_least_squares(class_moments(X, y, 2), np.array([[N / N1], [-N / N2]]))
    assert abs(cosine(W, w_fisher)) == pytest.approx(1.0, abs=1e-12)
    lda = FisherDiscriminant(reg=0.0).fit(X, y)
    assert cosine(lda.scalings_, w_fisher) == pytest.approx(1.0, abs=1e-12)


def test_outliers_pull_least_squares_but_not_logistic():
    """Seed 002: MSE is very sensitive to outliers; logistic regression is not.
    Extra class-1 points far on the correct side drag the MSE boundary into
    class 1."""
    rng = np.random.default_rng(0)
    X = np.r_[rng.normal(size=(100, 2)) * 0.5 + [-1.5, 0],
              rng.normal(size=(100, 2)) * 0.5 + [1.5, 0]]
    y = np.repeat([0, 1], 100)
    far = rng.normal(size=(20, 2)) * 0.5 + [30, 0]
    X_out, y_out = np.r_[X, far], np.r_[y, np.ones(20, dtype=int)]
    mse, logit = LeastSquaresClassifier(), LogisticRegression()
    assert mse.fit(X, y).score(X, y) == 1.0
    assert logit.fit(X, y).score(X, y) == 1.0
    assert mse.fit(X_out, y_out).score(X, y) < 0.9
    assert logit.fit(X_out, y_out).score(X, y) == 1.0


def test_constant_and_duplicate_features_are_handled():
    X, y = blobs(60, 2, 3, seed=1)
    X = np.column_stack([X, np.full(60, 5.0), X[:, 0]])
    clf = LeastSquaresClassifier().fit(X, y)
    W_ref, b_ref = lstsq_weights(X, y, 3)
    np.testing.assert_allclose(clf.coef_, W_ref.T, atol=1e-8)
    np.testing.assert_allclose(clf.intercept_, b_ref, atol=1e-8)


def test_string_labels_and_sign_zero():
    X = np.array([[-1.0], [1.0]])
    clf = LeastSquaresClassifier().fit(X, ["否", "是"])
    assert clf.predict([[0.0]]).tolist() == ["是"]     # score exactly 0 -> classes_[1]
    assert clf.predict([[-2.0]]).tolist() == ["否"]


def test_float32_input():
    X, y = blobs(80, 3, 2, seed=2)
    a = LeastSquaresClassifier().fit(X.astype(np.float32), y)
    b = LeastSquaresClassifier().fit(X, y)
    np.testing.assert_allclose(a.coef_, b.coef_, rtol=1e-4, atol=1e-5)
    assert a.decision_function(X.astype(np.float32)).dtype == np.float32
