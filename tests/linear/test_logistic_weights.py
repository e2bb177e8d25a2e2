"""Row weights of LogisticRegression: the weighted row rules against NumPy,
the fits against scikit-learn's weighted objective (dense and CSR, every
solver), integer weights as repeated rows and zero weights as dropped rows."""

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import expit, logsumexp, softmax
from sklearn.linear_model import LogisticRegression as SkLogisticRegression

from hyperplane.linear import LogisticRegression
from hyperplane.linear._logistic import logistic_loss_grad
from hyperplane.linear._logistic._tron_problem import LogisticProblem

from ._helpers import blobs


def weighted_reference(X, y, W, s):
    """Σ s_n ℓ_n, its gradient, the Hessian's diagonal and H v by dense NumPy."""
    Xt = np.column_stack([X, np.ones(X.shape[0])])
    Z = Xt @ W.T
    if W.shape[0] == 1:
        z, t = Z[:, 0], (y == 1).astype(float)
        p = expit(z)
        loss = np.sum(s * (np.logaddexp(0.0, z) - t * z))
        R, D = (s * (p - t))[:, None], s * p * (1 - p)
        H = Xt.T @ (Xt * D[:, None])
    else:
        loss = np.sum(s * (logsumexp(Z, axis=1) - Z[np.arange(len(y)), y]))
        P = softmax(Z, axis=1)
        R = s[:, None] * (P - np.eye(W.shape[0])[y])
        K, q = P.shape[1], Xt.shape[1]
        H = np.zeros((K, q, K, q))
        for k in range(K):
            for j in range(K):
                H[k, :, j, :] = Xt.T @ (Xt * (s * P[:, k] * ((k == j) - P[:, j]))[:, None])
        H = H.reshape(K * q, K * q)
    return loss, R.T @ Xt, H


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("k", [2, 3])
def test_weighted_passes_match_numpy(k, sparse):
    X, y = blobs(70, 4, k, seed=k, spread=1.0)
    rng = np.random.default_rng(k)
    s = rng.uniform(0.0, 3.0, X.shape[0])
    rows = 1 if k == 2 else k
    W = rng.normal(size=(rows, X.shape[1] + 1)) * 0.3
    loss_ref, grad_ref, H = weighted_reference(X, y, W, s)
    A = sp.csr_matrix(X) if sparse else X
    loss, g, g0 = logistic_loss_grad(A, y, W[:, :-1], W[:, -1], s)
    assert loss == pytest.approx(loss_ref, rel=1e-12)
    np.testing.assert_allclose(np.column_stack([g, g0]), grad_ref, rtol=1e-10, atol=1e-10)
    problem = LogisticProblem(A, y, k, 1.0, s)
    point = problem.evaluate(W.ravel())
    penalised = problem.penalised
    np.testing.assert_allclose(point.grad, W.ravel() * penalised + grad_ref.ravel(),
                               rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(point.diag, penalised + np.diag(H), rtol=1e-10, atol=1e-10)
    v = rng.normal(size=W.size)
    np.testing.assert_allclose(problem.hessian_vector(point, v), v * penalised + H @ v,
                               rtol=1e-9, atol=1e-9)


def sklearn_fit(X, y, C, sample_weight=None, class_weight=None):
    ref = SkLogisticRegression(C=C, tol=1e-12, max_iter=5000, class_weight=class_weight)
    ref.fit(X, y, sample_weight=sample_weight)
    k = ref.classes_.shape[0]
    return ref.coef_, ref.intercept_ - (ref.intercept_.mean() if k > 2 else 0.0)


@pytest.mark.parametrize("solver", ["newton", "tron", "lbfgs"])
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("k", [2, 3])
def test_weighted_fit_agrees_with_sklearn(k, sparse, solver):
    if sparse and solver == "newton":
        pytest.skip("newton needs dense X")
    X, y = blobs(150, 4, k, seed=10 + k, spread=1.5)
    s = np.random.default_rng(k).uniform(0.0, 4.0, X.shape[0])
    cw = {0: 3.0} if k == 2 else "balanced"
    y = np.where(np.arange(X.shape[0]) % 5 == 0, 0, y)          # imbalanced classes
    A = sp.csr_matrix(X) if sparse else X
    ours = LogisticRegression(C=2.0, tol=1e-10, max_iter=1000, solver=solver,
                              class_weight=cw).fit(A, y, sample_weight=s)
    coef, intercept = sklearn_fit(X, y, 2.0, s, cw)
    scale = np.abs(coef).max()
    np.testing.assert_allclose(ours.coef_, coef, rtol=1e-5, atol=1e-5 * scale)
    np.testing.assert_allclose(ours.intercept_, intercept, rtol=1e-5, atol=1e-5 * scale)
    assert ours.converged_


def test_class_weight_vector_is_kept():
    X, y = blobs(60, 2, 2, seed=1)
    clf = LogisticRegression(class_weight={1: 4.0}).fit(X, y)
    np.testing.assert_array_equal(clf.class_weight_, [1.0, 4.0])
    assert LogisticRegression().fit(X, y).class_weight_.tolist() == [1.0, 1.0]


def test_weighted_fit_without_intercept_agrees_with_sklearn():
    X, y = blobs(120, 3, 3, seed=4, spread=1.5)
    s = np.random.default_rng(4).uniform(0.0, 3.0, X.shape[0])
    ours = LogisticRegression(fit_intercept=False, tol=1e-10, max_iter=1000,
                              class_weight="balanced").fit(X, y, sample_weight=s)
    ref = SkLogisticRegression(fit_intercept=False, tol=1e-12, max_iter=5000,
                               class_weight="balanced").fit(X, y, sample_weight=s)
    np.testing.assert_allclose(ours.coef_, ref.coef_, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(ours.intercept_, 0.0)


@pytest.mark.parametrize("sparse", [False, True])
def test_weighted_l1_fit_agrees_with_liblinear(sparse):
    """LIBLINEAR's -s 6 weighs row n's loss by C s_n (scikit-learn passes
    sample_weight and class_weight as per-instance C)."""
    X, y = blobs(150, 4, 2, seed=7, spread=1.0)
    s = np.random.default_rng(7).uniform(0.0, 3.0, X.shape[0])
    A = sp.csr_matrix(X) if sparse else X
    ours = LogisticRegression(penalty="l1", C=0.5, tol=1e-8, max_iter=1000,
                              class_weight={0: 2.0}).fit(A, y, sample_weight=s)
    ref = SkLogisticRegression(penalty="l1", solver="liblinear", C=0.5, tol=1e-10,
                               max_iter=10_000, intercept_scaling=1e4,
                               class_weight={0: 2.0}).fit(X, y, sample_weight=s)
    np.testing.assert_allclose(ours.coef_, ref.coef_, atol=2e-3)
    np.testing.assert_array_equal(ours.coef_ == 0, ref.coef_ == 0)


def test_bad_weights_are_refused():
    X, y = blobs(20, 2, 2, seed=1)
    with pytest.raises(ValueError, match="sample_weight"):
        LogisticRegression().fit(X, y, sample_weight=-np.ones(20))
    with pytest.raises(ValueError, match="sample_weight"):
        LogisticRegression().fit(X, y, sample_weight=np.ones(3))
    with pytest.raises(ValueError, match="sample_weight"):
        LogisticRegression().fit(X, y, sample_weight=np.full(20, np.nan))
    with pytest.raises(ValueError, match="class_weight"):
        LogisticRegression(class_weight={0: -1.0}).fit(X, y)
    with pytest.raises(ValueError, match="zero for every row"):
        LogisticRegression().fit(X, y, sample_weight=np.zeros(20))


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), k=st.sampled_from([2, 3]),
       solver=st.sampled_from(["newton", "tron", "lbfgs"]), sparse=st.booleans())
def test_integer_weights_repeat_rows_and_zero_weights_drop_them(seed, k, solver, sparse):
    if sparse and solver == "newton":
        solver = "tron"
    X, y = blobs(30 + 3 * k, 3, k, seed=seed, spread=1.0)
    counts = np.random.default_rng(seed).integers(0, 4, X.shape[0])
    counts[:k] = 1                                   # every class keeps a row
    repeated = np.repeat(np.arange(X.shape[0]), counts)

    def fit(A, b, weight=None):
        A = sp.csr_matrix(A) if sparse else A
        return LogisticRegression(C=1.0, tol=1e-10, max_iter=1000, solver=solver).fit(
            A, b, sample_weight=weight)

    weighted, expanded = fit(X, y, counts.astype(float)), fit(X[repeated], y[repeated])
    scale = max(1.0, np.abs(expanded.coef_).max())
    np.testing.assert_allclose(weighted.coef_, expanded.coef_, atol=1e-6 * scale)
    np.testing.assert_allclose(weighted.intercept_, expanded.intercept_, atol=1e-6 * scale)
