"""Logistic regression: compiled loss/gradient vs NumPy, finite differences,
and scikit-learn's LogisticRegression at the same C."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.special import expit, logsumexp
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression as SkLogisticRegression

from hyperplane.linear import LogisticRegression
from hyperplane.linear._logistic import logistic_loss_grad, penalised_objective
from hyperplane.linear._logistic._gradient_kernels import binary_blocks, multinomial_blocks
from hyperplane.linear._state import Targets

from ._helpers import blobs


def loss_reference(X, y, coef, intercept):
    """Σ log-loss: binary −y log σ(z) − (1−y) log(1−σ(z)) = log(1+eᶻ) − yz."""
    Z = X @ coef.T + intercept
    if coef.shape[0] == 1:
        return np.sum(np.logaddexp(0.0, Z[:, 0]) - (y == 1) * Z[:, 0])
    return np.sum(logsumexp(Z, axis=1) - Z[np.arange(len(y)), y])


@st.composite
def logistic_problems(draw):
    k = draw(st.integers(2, 4))
    n = draw(st.integers(1, 50))
    d = draw(st.integers(1, 5))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    X = rng.normal(size=(n, d))
    y = rng.integers(0, k, n)
    rows = 1 if k == 2 else k
    coef = rng.normal(size=(rows, d)) * draw(st.sampled_from([0.1, 1.0, 5.0]))
    intercept = rng.normal(size=rows)
    return X, y, coef, intercept


@given(logistic_problems(), st.integers(1, 7))
def test_compiled_loss_and_gradient_match_numpy(problem, n_blocks):
    X, y, coef, intercept = problem
    loss_ref = loss_reference(X, y, coef, intercept)
    Z = X @ coef.T + intercept
    if coef.shape[0] == 1:
        R = (expit(Z[:, 0]) - (y == 1))[:, None]
        loss, g, diag = binary_blocks(X, Targets((y == 1).astype(float), None),
                                      np.append(coef[0], intercept[0]), None, n_blocks)
        g = g[None, :]
    else:
        R = np.exp(Z - logsumexp(Z, axis=1, keepdims=True)) - np.eye(coef.shape[0])[y]
        loss, g, diag = multinomial_blocks(X, Targets(y, None),
                                           np.column_stack([coef, intercept]), None, n_blocks)
    assert diag is None                       # L-BFGS's pass: no curvature kept
    assert loss == pytest.approx(loss_ref, rel=1e-9, abs=1e-9)
    np.testing.assert_allclose(g[:, :-1], R.T @ X, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(g[:, -1], R.sum(axis=0), rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("k", [2, 3])
def test_penalised_gradient_matches_finite_differences(k):
    X, y = blobs(60, 3, k, seed=k, spread=1.0)
    rows = 1 if k == 2 else k
    f = penalised_objective(lambda c, b: logistic_loss_grad(X, y, c, b), 0.5, 60, (rows, 3))
    theta = np.random.default_rng(0).normal(size=rows * 4)
    _, grad = f(theta)
    h = 1e-6
    numeric = np.array([(f(theta + h * e)[0] - f(theta - h * e)[0]) / (2 * h)
                        for e in np.eye(theta.size)])
    np.testing.assert_allclose(grad, numeric, rtol=1e-6, atol=1e-8)


def test_loss_is_additive_over_chunks():
    X, y = blobs(50, 3, 3, seed=1)
    coef, b = np.ones((3, 3)), np.zeros(3)
    whole = logistic_loss_grad(X, y, coef, b)
    parts = [logistic_loss_grad(X[s], y[s], coef, b) for s in (slice(0, 17), slice(17, 50))]
    for i in range(3):
        np.testing.assert_allclose(whole[i], parts[0][i] + parts[1][i], rtol=1e-12)


def test_extreme_scores_do_not_overflow():
    X = np.array([[1000.0], [-1000.0]])
    loss, _, _ = logistic_loss_grad(X, np.array([0, 1]), np.ones((1, 1)), np.zeros(1))
    assert loss == pytest.approx(2000.0)
    loss, _, _ = logistic_loss_grad(X, np.array([0, 1]), np.ones((3, 1)) * [[1], [0], [-1]],
                                    np.zeros(3))
    assert np.isfinite(loss)


@pytest.mark.parametrize("k", [2, 3, 4])
@pytest.mark.parametrize("C", [0.01, 1.0, 100.0])
def test_coefficients_agree_with_sklearn(k, C):
    X, y = blobs(200, 4, k, seed=10 * k, spread=1.5)
    ours = LogisticRegression(C=C, tol=1e-10, max_iter=1000).fit(X, y)
    ref = SkLogisticRegression(C=C, tol=1e-10, max_iter=1000).fit(X, y)
    ref_intercept = ref.intercept_ - (ref.intercept_.mean() if k > 2 else 0.0)
    scale = np.abs(ref.coef_).max()
    np.testing.assert_allclose(ours.coef_, ref.coef_, rtol=1e-4, atol=1e-4 * scale)
    np.testing.assert_allclose(ours.intercept_, ref_intercept, rtol=1e-4, atol=1e-4 * scale)
    np.testing.assert_allclose(ours.predict_proba(X), ref.predict_proba(X), atol=1e-5)
    assert ours.converged_


def test_predict_proba_and_decision_function():
    X, y = blobs(90, 2, 3, seed=2)
    clf = LogisticRegression().fit(X, y)
    P = clf.predict_proba(X)
    np.testing.assert_allclose(P.sum(axis=1), 1.0)
    np.testing.assert_array_equal(clf.predict(X), clf.classes_[np.argmax(P, axis=1)])
    np.testing.assert_allclose(np.log(P), clf.predict_log_proba(X))
    assert clf.intercept_.sum() == pytest.approx(0.0, abs=1e-12)
    Xb, yb = blobs(90, 2, 2, seed=2)
    binary = LogisticRegression().fit(Xb, ["neg" if v == 0 else "pos" for v in yb])
    scores = binary.decision_function(Xb)
    np.testing.assert_allclose(binary.predict_proba(Xb)[:, 1], expit(scores))
    assert list(binary.predict(Xb)) == ["pos" if s >= 0 else "neg" for s in scores]


def test_max_iter_reached_warns_and_marks_not_converged():
    X, y = blobs(100, 4, 3, seed=4, spread=1.0)
    with pytest.warns(ConvergenceWarning, match="max_iter"):
        clf = LogisticRegression(max_iter=2, tol=1e-12).fit(X, y)
    assert clf.converged_ is False and clf.n_iter_ == 2


def test_separable_data_stay_finite():
    """With L2 the optimum exists even for separable data."""
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    clf = LogisticRegression(C=1e4, max_iter=1000).fit(X, [0, 0, 1, 1])
    assert np.all(np.isfinite(clf.coef_)) and clf.score(X, [0, 0, 1, 1]) == 1.0


@pytest.mark.parametrize("params,match", [({"C": 0.0}, "C"), ({"C": -1.0}, "C"),
                                          ({"max_iter": 0}, "max_iter"),
                                          ({"tol": -1.0}, "tol")])
def test_bad_hyper_parameters(params, match):
    X, y = blobs(20, 2, 2)
    with pytest.raises(ValueError, match=match):
        LogisticRegression(**params).fit(X, y)


@pytest.mark.parametrize("solver", ["auto", "lbfgs"])
@pytest.mark.parametrize("data", ["breast_cancer", "iris"])
@pytest.mark.parametrize("sparse", [False, True])
def test_without_intercept_as_sklearn(solver, data, sparse):
    """fit_intercept=False fixes b = 0 (scikit-learn's meaning): the same W as
    scikit-learn's LogisticRegression(fit_intercept=False)."""
    import scipy.sparse as sp
    from sklearn.datasets import load_breast_cancer, load_iris
    from sklearn.linear_model import LogisticRegression as SkLogisticRegression
    from sklearn.preprocessing import StandardScaler

    X, y = {"breast_cancer": load_breast_cancer, "iris": load_iris}[data](return_X_y=True)
    X = StandardScaler().fit_transform(X)
    if sparse:
        X = sp.csr_matrix(np.where(np.abs(X) > 0.5, X, 0.0))
    ours = LogisticRegression(fit_intercept=False, solver=solver, tol=1e-10,
                              max_iter=10_000).fit(X, y)
    peer = SkLogisticRegression(fit_intercept=False, tol=1e-12, max_iter=10_000).fit(X, y)
    assert ours.converged_
    assert not np.any(ours.intercept_)
    np.testing.assert_allclose(ours.coef_, peer.coef_, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(ours.predict_proba(X), peer.predict_proba(X), atol=1e-7)


@pytest.mark.parametrize("solver", ["tron", "newton"])
def test_without_intercept_names_the_solver(solver):
    X = np.array([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [0.0, 0.0]])
    with pytest.raises(ValueError, match=f"solver='{solver}' fits the intercept"):
        LogisticRegression(fit_intercept=False, solver=solver).fit(X, [0, 1, 1, 0])
