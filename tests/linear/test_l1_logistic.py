"""newGLMNET for L1-regularised logistic regression: each compiled pass against
a NumPy statement of it, and the solver against LIBLINEAR's own ``-s 6``
(scikit-learn's ``liblinear`` solver) on the same objective."""

import warnings

import numpy as np
import pytest
import scipy.optimize
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import load_breast_cancer, make_classification
from sklearn.linear_model import LogisticRegression as SklearnLogisticRegression
from sklearn.preprocessing import StandardScaler

from hyperplane.linear._logistic._l1 import GLMNETOptions, columns_of, newglmnet
from hyperplane.svm._linear_svr_kernels import soft_newton_step
from hyperplane.linear._logistic._l1_kernels import (
    QuadraticModel,
    Direction,
    gradient_and_diagonal,
    hessian_weights,
    quadratic_sweep,
)

finite = st.floats(-50, 50, allow_nan=False)


@settings(max_examples=200, deadline=None)
@given(g=finite, h=st.floats(1e-3, 50), v=finite)
def test_coordinate_step_minimises_the_one_variable_model(g, h, v):
    def model(z):
        return g * z + 0.5 * h * z * z + abs(v + z)

    z = soft_newton_step(g, h, v, 1.0)
    reference = scipy.optimize.minimize_scalar(model, bounds=(-200, 200), method="bounded",
                                               options={"xatol": 1e-10})
    assert model(z) <= reference.fun + 1e-9 * (1 + abs(reference.fun))


def _problem(seed, sparse):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(40, 6)) * (rng.random((40, 6)) < 0.6)
    y = np.where(rng.random(40) < 0.5, 1.0, -1.0)
    return (sp.csr_matrix(X) if sparse else X), X, y, rng


@pytest.mark.parametrize("sparse", [False, True])
def test_gradient_and_hessian_diagonal_equal_numpy(sparse):
    Xin, X, y, rng = _problem(0, sparse)
    w = rng.normal(size=6)
    z = y * (X @ w)
    C = rng.uniform(0.5, 2.0, size=40)
    D, coef = np.empty(40), np.empty(40)
    hessian_weights(z, y, C, D, coef)
    p = 1 / (1 + np.exp(-z))
    np.testing.assert_allclose(D, C * p * (1 - p), rtol=1e-13)
    np.testing.assert_allclose(coef, -C * y * (1 - p), rtol=1e-13)
    grad, hess = np.empty(6), np.empty(6)
    gradient_and_diagonal(columns_of(Xin, False), coef, D, grad, hess, np.arange(6), 1e-12)
    loss = lambda v: np.sum(C * np.logaddexp(0, -y * (X @ v)))  # noqa: E731
    numeric = scipy.optimize.approx_fprime(w, loss, 1e-7)
    np.testing.assert_allclose(grad, numeric, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(hess, (D[:, None] * X ** 2).sum(0) + 1e-12, rtol=1e-13)


@pytest.mark.parametrize("sparse", [False, True])
def test_one_sweep_equals_the_coordinate_loop_written_in_numpy(sparse):
    Xin, X, y, rng = _problem(1, sparse)
    D = rng.uniform(0.01, 0.25, size=40)
    grad = rng.normal(size=6) * 3
    hess = (D[:, None] * X ** 2).sum(0) + 1e-12
    penalised = np.array([True] * 5 + [False])
    w = rng.normal(size=6) * (rng.random(6) < 0.5)
    order = rng.permutation(6)
    state = Direction(np.zeros(6), np.zeros(40), w)
    sweep = quadratic_sweep(QuadraticModel(columns_of(Xin, False), D, grad, hess, penalised), state,
                            order.copy(), 6, 1e-12, np.inf)
    assert sweep.n_active == 6
    d = np.zeros(6)
    for j in order:   # minimise q over d_j with the others fixed, written directly
        g = grad[j] + X[:, j] @ (D * (X @ d)) + 1e-12 * d[j]
        others = d.copy()

        def q_j(t, j=j, g=g, others=others):
            return g * (t - others[j]) + 0.5 * hess[j] * (t - others[j]) ** 2 + \
                (abs(w[j] + t) if penalised[j] else 0.0)

        d[j] = scipy.optimize.minimize_scalar(q_j, bounds=(d[j] - 10, d[j] + 10),
                                              method="bounded", options={"xatol": 1e-12}).x
    np.testing.assert_allclose(state.d, d, atol=1e-7)
    np.testing.assert_allclose(state.Xd, X @ state.d, rtol=1e-12, atol=1e-12)


def _objective(X, y01, coef, intercept=0.0, C=1.0):
    y = np.where(y01 == 1, 1.0, -1.0)
    return np.abs(coef).sum() + C * np.logaddexp(0, -y * (X @ coef + intercept)).sum()


def _liblinear(X, y, C):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # scikit-learn 1.8 deprecates penalty= for l1_ratio=
        return SklearnLogisticRegression(penalty="l1", l1_ratio=1.0, solver="liblinear", C=C,
                                         fit_intercept=False, tol=1e-8,
                                         max_iter=1000).fit(X, y)


def _datasets():
    X, y = load_breast_cancer(return_X_y=True)
    yield "breast cancer", StandardScaler().fit_transform(X), y
    X, y = make_classification(n_samples=600, n_features=300, n_informative=20,
                               random_state=3)
    X[np.random.default_rng(3).random(X.shape) < 0.9] = 0.0
    yield "sparse 600x300", sp.csr_matrix(X), y


@pytest.mark.parametrize("C", [0.05, 1.0, 20.0])
def test_reaches_liblinears_objective_without_an_intercept(C):
    for name, X, y in _datasets():
        ys = np.where(y == 1, 1.0, -1.0)
        solution = newglmnet(columns_of(X, False), ys, np.full(len(y), C),
                             np.ones(X.shape[1], bool), GLMNETOptions(tol=1e-8, max_iter=300),
                             np.random.default_rng(0))
        peer = _liblinear(X, y, C)
        ours, theirs = _objective(X, y, solution.w, C=C), _objective(X, y, peer.coef_[0], C=C)
        assert solution.converged, name
        assert ours == pytest.approx(solution.objective, rel=1e-12)
        assert abs(ours - theirs) <= 1e-7 * theirs, (name, ours, theirs)
        assert set(np.flatnonzero(solution.w)) == set(np.flatnonzero(np.abs(peer.coef_[0]) > 1e-8))


def test_dense_and_sparse_columns_give_the_same_bits():
    X, y = load_breast_cancer(return_X_y=True)
    X = StandardScaler().fit_transform(X)
    ys = np.where(y == 1, 1.0, -1.0)
    fits = [newglmnet(columns_of(A, True), ys, np.ones(len(y)),
                      np.r_[np.ones(X.shape[1], bool), False], GLMNETOptions(tol=1e-8),
                      np.random.default_rng(1)) for A in (X, sp.csr_matrix(X))]
    assert fits[0].w.tobytes() == fits[1].w.tobytes()


def test_the_intercept_is_not_penalised():
    """With the intercept left out of ‖w‖₁ the optimum's intercept carries no
    shrinkage: its gradient is zero, and the objective is at most saga's."""
    X, y = load_breast_cancer(return_X_y=True)
    X = StandardScaler().fit_transform(X)
    ys = np.where(y == 1, 1.0, -1.0)
    solution = newglmnet(columns_of(X, True), ys, np.ones(len(y)),
                         np.r_[np.ones(X.shape[1], bool), False], GLMNETOptions(tol=1e-10, max_iter=300),
                         np.random.default_rng(0))
    coef, intercept = solution.w[:-1], solution.w[-1]
    p = 1 / (1 + np.exp(-ys * (X @ coef + intercept)))
    assert abs(np.sum(-ys * (1 - p))) < 1e-6
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        saga = SklearnLogisticRegression(penalty="l1", l1_ratio=1.0, solver="saga", tol=1e-10,
                                         max_iter=20000).fit(X, y)
    assert _objective(X, y, coef, intercept) <= \
        _objective(X, y, saga.coef_[0], saga.intercept_[0]) + 1e-9


# ----------------------------------------------------------------------
# LogisticRegression(penalty="l1")
# ----------------------------------------------------------------------
def test_estimator_fits_the_l1_objective_at_least_as_well_as_saga():
    from hyperplane.linear import LogisticRegression

    X, y = load_breast_cancer(return_X_y=True)
    X = StandardScaler().fit_transform(X)
    model = LogisticRegression(penalty="l1", C=0.5, tol=1e-8, max_iter=300).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        saga = SklearnLogisticRegression(penalty="l1", l1_ratio=1.0, solver="saga", C=0.5,
                                         tol=1e-10, max_iter=20000).fit(X, y)
    ours = _objective(X, y, model.coef_[0], model.intercept_[0], C=0.5)
    theirs = _objective(X, y, saga.coef_[0], saga.intercept_[0], C=0.5)
    assert model.converged_ and ours <= theirs + 1e-9 * theirs
    assert np.count_nonzero(model.coef_) < X.shape[1]           # a sparse model
    sparse = LogisticRegression(penalty="l1", C=0.5, tol=1e-8, max_iter=300).fit(
        sp.csr_matrix(X), y)
    assert sparse.coef_.tobytes() == model.coef_.tobytes()


def test_more_classes_are_one_vs_rest_with_normalised_probabilities():
    from sklearn.datasets import load_iris

    from hyperplane.linear import LogisticRegression

    X, y = load_iris(return_X_y=True)
    X = StandardScaler().fit_transform(X)
    model = LogisticRegression(penalty="l1", C=2.0, tol=1e-8, max_iter=300).fit(X, y)
    for k in range(3):
        binary = LogisticRegression(penalty="l1", C=2.0, tol=1e-8, max_iter=300).fit(X, y == k)
        np.testing.assert_allclose(model.coef_[k], binary.coef_[0], atol=1e-12)
        np.testing.assert_allclose(model.intercept_[k], binary.intercept_[0], atol=1e-12)
    proba = model.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    sigma = 1 / (1 + np.exp(-(X @ model.coef_.T + model.intercept_)))
    np.testing.assert_allclose(proba, sigma / sigma.sum(axis=1, keepdims=True), rtol=1e-12)
    assert (model.predict(X) == model.classes_[np.argmax(proba, axis=1)]).all()


def test_l1_refuses_an_l2_solver_and_dask_by_name():
    import dask.array as da

    from hyperplane.linear import LogisticRegression

    X, y = load_breast_cancer(return_X_y=True)
    with pytest.raises(ValueError, match="penalty='l1' is solved by newGLMNET; solver='tron'"):
        LogisticRegression(penalty="l1", solver="tron").fit(X, y)
    with pytest.raises(ValueError, match="penalty='l1' needs X in memory"):
        LogisticRegression(penalty="l1").fit(da.from_array(X, chunks=100), da.from_array(y))
    with pytest.raises(ValueError, match="penalty"):
        LogisticRegression(penalty="elasticnet").fit(X, y)
