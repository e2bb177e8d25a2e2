"""SVC against 李航's worked example, the KKT conditions, a generic QP solver
and scikit-learn's SVC (LIBSVM)."""

import numpy as np
import pytest
from scipy.optimize import minimize
from sklearn.base import clone
from sklearn.datasets import make_blobs, make_classification
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import SVC as LibSVC
from sklearn.utils.estimator_checks import check_estimator

from hyperplane.kernels import RBF, Laplace, Linear, Polynomial, Sigmoid
from hyperplane.svm import SVC, SVR

# the only failures scikit-learn expects of its own SVC
SVC_XFAIL = {
    "check_sample_weight_equivalence_on_dense_data":
        "sample_weight is not equivalent to removing/repeating samples (as sklearn.svm.SVC)",
    "check_sample_weight_equivalence_on_sparse_data":
        "sample_weight is not equivalent to removing/repeating samples (as sklearn.svm.SVC)",
}


def dual_objective(alpha, y, K):
    """1/2 a'Qa - sum a with Q = yy' * K, in float64."""
    ay = alpha * y
    return 0.5 * ay @ K @ ay - alpha.sum()


def libsvm_alpha(model, n):
    alpha = np.zeros(n)
    alpha[model.support_] = np.abs(model.dual_coef_[0])
    return alpha


def assert_kkt(alpha, y, K, b, C, tol):
    """The KKT conditions of the soft-margin dual (周志华 式6.41) within tol."""
    margin = y * (K @ (alpha * y) + b)
    at_zero = alpha <= 0
    at_c = alpha >= C
    free = ~at_zero & ~at_c
    assert np.all(alpha >= 0) and np.all(alpha <= C)
    assert abs(alpha @ y) <= 1e-9 * max(1.0, alpha.sum())
    assert np.all(margin[at_zero] >= 1 - tol)
    assert np.all(np.abs(margin[free] - 1) <= tol)
    assert np.all(margin[at_c] <= 1 + tol)


# --------------------------------------------------------------------------
# the book
# --------------------------------------------------------------------------
def test_li_hang_example_7_1_by_hand():
    """例7.1: w = (1/2, 1/2), b = -2, support vectors x1 and x3,
    alpha1 = alpha3 = 1/4, alpha2 = 0. By hand: the dual in alpha1, alpha2
    (alpha3 = alpha1 + alpha2) is min 4a1^2 + 13/2 a2^2 + 10 a1 a2 - 2a1 - 2a2,
    whose minimum on a2 = 0 is a1 = 1/4; w = 1/4 (3,3) - 1/4 (1,1)."""
    X = np.array([[3.0, 3.0], [4.0, 3.0], [1.0, 1.0]])
    svc = SVC(kernel="linear", C=np.inf, tol=1e-10).fit(X, [1, 1, -1])
    np.testing.assert_allclose(svc.alpha_, [0.25, 0.0, 0.25], atol=1e-12)
    np.testing.assert_allclose(svc.coef_, [[0.5, 0.5]], atol=1e-12)
    np.testing.assert_allclose(svc.intercept_, [-2.0], atol=1e-12)
    assert svc.support_.tolist() == [0, 2]
    np.testing.assert_allclose(svc.support_vectors_, X[[0, 2]])
    np.testing.assert_allclose(svc.dual_coef_, [[0.25, -0.25]], atol=1e-12)
    # the support vectors lie on the margins w.x + b = +-1, x2 outside
    np.testing.assert_allclose(svc.decision_function(X), [1.0, 1.5, -1.0], atol=1e-12)
    # (2, 2) lies on the separating line x(1) + x(2) - 4 = 0
    assert svc.decision_function([[2.0, 2.0]])[0] == pytest.approx(0.0, abs=1e-12)


def test_same_example_with_a_kernel_object_and_labels_as_strings():
    X = np.array([[3.0, 3.0], [4.0, 3.0], [1.0, 1.0]])
    svc = SVC(kernel=Linear(), C=np.inf, tol=1e-10).fit(X, ["是", "是", "否"])
    assert svc.classes_.tolist() == ["否", "是"]
    np.testing.assert_allclose(svc.alpha_, [0.25, 0.0, 0.25], atol=1e-12)
    assert svc.predict(X).tolist() == ["是", "是", "否"]


# --------------------------------------------------------------------------
# against LIBSVM
# --------------------------------------------------------------------------
LIBSVM_CASES = [
    ("linear", {}, 1.0),
    ("rbf", {"gamma": 0.1}, 1.0),
    ("rbf", {"gamma": "scale"}, 10.0),
    ("poly", {"gamma": 0.2, "degree": 3, "coef0": 1.0}, 0.5),
    ("sigmoid", {"gamma": 0.01, "coef0": -0.5}, 1.0),
]
SHAPES = [(150, 2), (300, 8), (200, 30)]


@pytest.mark.parametrize("kernel, params, C", LIBSVM_CASES)
@pytest.mark.parametrize("shape", SHAPES)
def test_agrees_with_libsvm(kernel, params, C, shape):
    n, d = shape
    X, y = make_classification(n_samples=2 * n, n_features=d, n_informative=min(d, 5),
                               n_redundant=0, flip_y=0.1, random_state=n + d)
    X, X_test, y, y_test = X[:n], X[n:], y[:n], y[n:]
    ours = SVC(kernel=kernel, C=C, tol=1e-3, **params).fit(X, y)
    peer = LibSVC(kernel=kernel, C=C, tol=1e-3, **params).fit(X, y)
    K = ours.kernel_(X)
    ys = np.where(y == 1, 1.0, -1.0)
    f_ours = dual_objective(ours.alpha_, ys, K)
    f_peer = dual_objective(libsvm_alpha(peer, n), ys, K)
    assert abs(f_ours - f_peer) <= 1e-3 * abs(f_peer)
    # same support vectors, up to points on the margin within the tolerance
    differ = np.setxor1d(ours.support_, peer.support_)
    margin = ys * peer.decision_function(X)
    assert np.all(np.abs(margin[differ] - 1) <= 0.05), margin[differ]
    agree = np.mean(ours.predict(X_test) == peer.predict(X_test))
    assert agree >= 0.995
    assert abs(np.mean(ours.predict(X_test) == y_test)
               - np.mean(peer.predict(X_test) == y_test)) <= 0.005


def test_multiclass_one_vs_one_agrees_with_libsvm():
    X, y = make_blobs(n_samples=400, centers=4, cluster_std=2.5, random_state=3)
    X_train, X_test, y_train = X[:300], X[300:], y[:300]
    ours = SVC(kernel="rbf", gamma=0.1, C=2.0).fit(X_train, y_train)
    peer = LibSVC(kernel="rbf", gamma=0.1, C=2.0).fit(X_train, y_train)
    assert len(ours.pairs_) == 6 and ours.alpha_.shape == (6, 300)
    assert ours.dual_coef_.shape == (6, ours.support_.size)
    assert np.mean(ours.predict(X_test) == peer.predict(X_test)) >= 0.99
    assert set(ours.support_) == set(peer.support_) or \
        len(np.setxor1d(ours.support_, peer.support_)) <= 0.02 * peer.support_.size
    dec = ours.decision_function(X_test)
    assert dec.shape == (100, 4)
    np.testing.assert_array_equal(ours.classes_[dec.argmax(axis=1)], ours.predict(X_test))


def test_combined_kernel_matches_libsvm_on_its_gram_matrix():
    """A kernel object without compiled rows goes through the generic path
    (rows by calling the kernel); LIBSVM gets the same Gram precomputed."""
    X, y = make_classification(n_samples=150, n_features=5, random_state=7)
    kernel = 0.5 * RBF(sigma=2.0) + Polynomial(degree=2, gamma=0.1, coef0=1.0) * Linear()
    ours = SVC(kernel=kernel, C=1.0, cache_size=0.002).fit(X, y)   # 3 rows: evictions
    peer = LibSVC(kernel="precomputed", C=1.0).fit(kernel(X), y)
    ys = np.where(y == 1, 1.0, -1.0)
    K = kernel(X)
    f_ours = dual_objective(ours.alpha_, ys, K)
    f_peer = dual_objective(libsvm_alpha(peer, 150), ys, K)
    assert abs(f_ours - f_peer) <= 1e-3 * abs(f_peer)
    np.testing.assert_array_equal(ours.predict(X), peer.predict(kernel(X)))


# --------------------------------------------------------------------------
# against a generic QP solver, and the KKT conditions
# --------------------------------------------------------------------------
def generic_qp(K, y, C):
    """The dual by SLSQP: no SMO, no decomposition."""
    n = len(y)
    Q = (y[:, None] * y[None, :]) * K
    result = minimize(lambda a: 0.5 * a @ Q @ a - a.sum(), np.zeros(n),
                      jac=lambda a: Q @ a - 1.0, method="SLSQP",
                      bounds=[(0.0, C)] * n,
                      constraints=[{"type": "eq", "fun": lambda a: a @ y,
                                    "jac": lambda a: y}],
                      options={"ftol": 1e-12, "maxiter": 500})
    assert result.success
    return result.x


@pytest.mark.parametrize("C", [0.5, 5.0])
def test_laplace_kernel_matches_a_generic_qp(C):
    rng = np.random.default_rng(11)
    X = rng.normal(size=(40, 3))
    y = np.where(X[:, 0] + 0.5 * rng.normal(size=40) > 0, 1, -1)
    kernel = Laplace(sigma=1.5)
    ours = SVC(kernel=kernel, C=C, tol=1e-6).fit(X, y)
    K = kernel(X)
    ys = y.astype(float)
    alpha = generic_qp(K, ys, C)
    assert dual_objective(ours.alpha_, ys, K) == pytest.approx(
        dual_objective(alpha, ys, K), rel=1e-5)
    np.testing.assert_allclose(ours.alpha_, alpha, atol=1e-3 * C)


@pytest.mark.parametrize("kernel", ["linear", "rbf", "laplace", "poly"])
@pytest.mark.parametrize("shrinking", [True, False])
def test_kkt_conditions_hold_on_returned_alpha(kernel, shrinking):
    X, y = make_classification(n_samples=250, n_features=6, flip_y=0.1, random_state=5)
    tol = 1e-4
    svc = SVC(kernel=kernel, C=2.0, tol=tol, shrinking=shrinking, cache_size=0.5).fit(X, y)
    assert svc.converged_
    assert_kkt(svc.alpha_, np.where(y == 1, 1.0, -1.0), svc.kernel_(X),
               svc.intercept_[0], 2.0, 2 * tol + 1e-5)


def test_sample_weight_scales_C_per_sample():
    X, y = make_classification(n_samples=120, n_features=4, flip_y=0.2, random_state=2)
    w = np.random.default_rng(0).uniform(0.2, 3.0, size=120)
    ours = SVC(kernel="rbf", gamma=0.3, C=1.0, tol=1e-5).fit(X, y, sample_weight=w)
    assert np.all(ours.alpha_ <= w + 1e-12)
    assert_kkt(ours.alpha_, np.where(y == 1, 1.0, -1.0), ours.kernel_(X),
               ours.intercept_[0], w, 2e-5 + 1e-5)


def test_solver_result_independent_of_cache_size_and_shrinking():
    X, y = make_classification(n_samples=300, n_features=5, flip_y=0.1, random_state=9)
    base = SVC(kernel="rbf", gamma=0.2, tol=1e-6).fit(X, y)
    for params in ({"cache_size": 0.002}, {"shrinking": False}):
        other = clone(base).set_params(**params).fit(X, y)
        np.testing.assert_allclose(other.alpha_, base.alpha_, atol=1e-4)
        assert other.intercept_[0] == pytest.approx(base.intercept_[0], abs=1e-4)


def test_hard_margin_separates_and_refuses_inseparable_data():
    X, y = make_blobs(n_samples=60, centers=[[-3, -3], [3, 3]], cluster_std=0.8,
                      random_state=0)
    svc = SVC(kernel="linear", C=np.inf, tol=1e-8).fit(X, y)
    margins = np.where(y == 1, 1.0, -1.0) * svc.decision_function(X)
    assert margins.min() == pytest.approx(1.0, abs=1e-6)
    X_xor = np.array([[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]])
    with pytest.raises(ValueError, match="not separable"):
        SVC(kernel="linear", C=np.inf).fit(X_xor, [0, 0, 1, 1])


def test_iteration_cap_warns_and_reports():
    X, y = make_classification(n_samples=200, n_features=5, flip_y=0.2, random_state=1)
    with pytest.warns(ConvergenceWarning, match="max_iter"):
        svc = SVC(kernel="rbf", max_iter=5).fit(X, y)
    assert svc.converged_ is False and svc.n_iter_ == 5


# --------------------------------------------------------------------------
# bad input and the scikit-learn contract
# --------------------------------------------------------------------------
@pytest.mark.parametrize("params, error, match", [
    ({"C": 0.0}, ValueError, "C must be"),
    ({"C": -1.0}, ValueError, "C must be"),
    ({"C": "big"}, TypeError, "C must be"),
    ({"tol": 0.0}, ValueError, "tol must be"),
    ({"cache_size": -5}, ValueError, "cache_size must be"),
    ({"max_iter": 0}, ValueError, "max_iter must be"),
    ({"kernel": "cubic"}, ValueError, "kernel must be"),
    ({"gamma": -1.0}, ValueError, "gamma must be"),
    ({"kernel": Sigmoid(beta=1.0, theta=1.0), "C": np.inf}, ValueError,
     "positive semi-definite"),
])
def test_bad_parameters_are_named(params, error, match):
    X, y = make_classification(n_samples=40, n_features=4, random_state=0)
    with pytest.raises(error, match=match):
        SVC(**params).fit(X, y)


def test_bad_data_is_refused():
    with pytest.raises(ValueError, match="only one class"):
        SVC().fit([[0.0], [1.0]], [1, 1])
    with pytest.raises(ValueError, match="NaN"):
        SVC().fit([[0.0], [np.nan]], [0, 1])
    svc = SVC().fit([[0.0, 1.0], [1.0, 0.0]], [0, 1])
    with pytest.raises(ValueError, match="features"):
        svc.predict([[0.0, 1.0, 2.0]])


def test_check_estimator():
    check_estimator(SVC(), expected_failed_checks=SVC_XFAIL)


def test_svc_and_kernel_perceptron_accept_the_same_combined_kernel():
    from hyperplane.linear import DualPerceptron

    X, y = make_blobs(n_samples=60, centers=[[-2, -2], [2, 2]], cluster_std=0.6,
                      random_state=4)
    kernel = RBF(sigma=1.0) + 0.5 * Polynomial(degree=2, coef0=1.0) * Linear()
    svc = SVC(kernel=kernel, C=10.0).fit(X, y)
    perceptron = DualPerceptron(kernel=kernel).fit(X, y)
    assert svc.kernel_ is kernel
    np.testing.assert_array_equal(svc.predict(X), y)
    np.testing.assert_array_equal(perceptron.predict(X), y)


@pytest.mark.parametrize("Estimator", [SVC, SVR])
def test_refit_with_another_kernel_forgets_the_linear_weights(Estimator):
    """coef_ of a linear fit must not outlive it: predictions come from the new kernel."""
    X, y = make_blobs(n_samples=120, centers=[[0, 0], [3, 3]], cluster_std=1.2, random_state=4)
    X = np.vstack([X, X[:20] * 0.2])                 # a non-linear twist for the RBF
    y = np.concatenate([y, 1 - y[:20]]).astype(float)
    refit = Estimator(kernel="linear").fit(X, y).set_params(kernel="rbf").fit(X, y)
    fresh = Estimator(kernel="rbf").fit(X, y)
    assert not hasattr(refit, "coef_")
    method = "decision_function" if Estimator is SVC else "predict"
    np.testing.assert_allclose(getattr(refit, method)(X), getattr(fresh, method)(X),
                               rtol=1e-10, atol=1e-12)
