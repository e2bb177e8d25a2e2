"""LinearSVC against scikit-learn's LinearSVC (LIBLINEAR): same primal
objective; sparse input gives the dense model; the coordinate rule by hand."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import load_iris, make_classification
from sklearn.svm import LinearSVC as LibLinearSVC

from hyperplane.svm import LinearSVC
from hyperplane.svm._linear_svc_kernels import coordinate_step


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


def test_check_estimator():
    from sklearn.utils.estimator_checks import check_estimator

    check_estimator(LinearSVC(), expected_failed_checks={
        "check_sample_weight_equivalence_on_dense_data":
            "coordinate descent visits samples in a random order (as sklearn.svm.LinearSVC)",
        "check_sample_weight_equivalence_on_sparse_data":
            "coordinate descent visits samples in a random order (as sklearn.svm.LinearSVC)",
    })
