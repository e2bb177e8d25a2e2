"""SVR against scikit-learn's SVR (LIBSVM), its KKT conditions and bad input."""

import numpy as np
import pytest
from sklearn.datasets import make_regression
from sklearn.svm import SVR as LibSVR
from sklearn.utils.estimator_checks import check_estimator

from hyperplane.kernels import RBF, Laplace, Linear
from hyperplane.svm import SVR

SVR_XFAIL = {
    "check_sample_weight_equivalence_on_dense_data":
        "sample_weight is not equivalent to removing/repeating samples (as sklearn.svm.SVR)",
    "check_sample_weight_equivalence_on_sparse_data":
        "sample_weight is not equivalent to removing/repeating samples (as sklearn.svm.SVR)",
}


def svr_objective(alpha, alpha_hat, z, K, eps):
    """The minimised dual of 周志华 式6.51:
    1/2 c'Kc + eps sum(a_hat + a) - z'c with c = a_hat - a."""
    c = alpha_hat - alpha
    return 0.5 * c @ K @ c + eps * (alpha_hat + alpha).sum() - z @ c


def make_data(n, d, seed):
    X, z = make_regression(n_samples=2 * n, n_features=d, n_informative=min(d, 4),
                           noise=5.0, random_state=seed)
    z = (z - z.mean()) / z.std()
    return X[:n], X[n:], z[:n]


@pytest.mark.parametrize("kernel, params", [
    ("linear", {}), ("rbf", {"gamma": 0.2}), ("rbf", {"gamma": "scale"}),
    ("poly", {"gamma": 0.3, "degree": 2, "coef0": 1.0}),
    ("sigmoid", {"gamma": 0.01, "coef0": -0.2}),
])
@pytest.mark.parametrize("shape", [(120, 1), (250, 6), (200, 20)])
def test_agrees_with_libsvm(kernel, params, shape):
    n, d = shape
    X, X_test, z = make_data(n, d, n + d)
    ours = SVR(kernel=kernel, C=2.0, epsilon=0.1, tol=1e-3, **params).fit(X, z)
    peer = LibSVR(kernel=kernel, C=2.0, epsilon=0.1, tol=1e-3, **params).fit(X, z)
    K = ours.kernel_(X)
    c_peer = np.zeros(n)
    c_peer[peer.support_] = peer.dual_coef_[0]
    f_ours = svr_objective(ours.alpha_[:, 0], ours.alpha_[:, 1], z, K, 0.1)
    f_peer = svr_objective(np.maximum(-c_peer, 0), np.maximum(c_peer, 0), z, K, 0.1)
    assert abs(f_ours - f_peer) <= 1e-3 * abs(f_peer)
    differ = np.setxor1d(ours.support_, peer.support_)
    residual = np.abs(z - peer.predict(X))
    assert np.all(np.abs(residual[differ] - 0.1) <= 0.05), residual[differ]
    scale = np.abs(peer.predict(X_test)).max()
    np.testing.assert_allclose(ours.predict(X_test), peer.predict(X_test), atol=0.02 * scale)


@pytest.mark.parametrize("kernel", [Linear(), RBF(sigma=1.0), Laplace(sigma=2.0)])
def test_kkt_conditions_of_the_tube(kernel):
    """a_i a_hat_i = 0; inside the tube both vanish; 0 < a < C on its edge."""
    X, _, z = make_data(150, 3, 4)
    tol, C, eps = 1e-5, 1.5, 0.2
    svr = SVR(kernel=kernel, C=C, epsilon=eps, tol=tol).fit(X, z)
    a, a_hat = svr.alpha_[:, 0], svr.alpha_[:, 1]
    assert np.all((a >= 0) & (a <= C) & (a_hat >= 0) & (a_hat <= C))
    assert np.all(a * a_hat == 0)
    assert abs((a_hat - a).sum()) <= 1e-9
    K = kernel(X)
    f = K @ (a_hat - a) + svr.intercept_[0]
    slack = 2 * tol + 1e-5
    r = z - f                                   # residual
    assert np.all(np.abs(r[(a == 0) & (a_hat == 0)]) <= eps + slack)
    free_hat = (a_hat > 0) & (a_hat < C)
    free = (a > 0) & (a < C)
    np.testing.assert_allclose(r[free_hat], eps, atol=slack)
    np.testing.assert_allclose(r[free], -eps, atol=slack)
    assert np.all(r[a_hat >= C] >= eps - slack) and np.all(r[a >= C] <= -eps + slack)
    np.testing.assert_allclose(svr.predict(X), f, atol=1e-10)


def test_linear_svr_is_the_flattest_line_in_the_tube():
    """z = 3x - 2 on x = 0..19 fits in the eps-tube of every slope w with
    |w - 3| * 19 <= 2 eps; the smallest |w| is 3 - 2 eps / 19, the line
    through (0, -2 + eps) and (19, 55 - eps) (by hand; C large, no slack)."""
    X = np.arange(20.0).reshape(-1, 1)
    eps = 0.01
    svr = SVR(kernel="linear", C=100.0, epsilon=eps, tol=1e-8).fit(X, 3 * X.ravel() - 2)
    np.testing.assert_allclose(svr.coef_, [[3.0 - 2 * eps / 19]], atol=1e-7)
    np.testing.assert_allclose(svr.intercept_, [-2.0 + eps], atol=1e-6)
    assert sorted(svr.support_.tolist()) == [0, 19]


@pytest.mark.parametrize("params, error, match", [
    ({"epsilon": -0.1}, ValueError, "epsilon must be"),
    ({"C": 0.0}, ValueError, "C must be"),
    ({"C": np.inf}, ValueError, "C must be finite"),
    ({"max_iter": 2.5}, TypeError, "max_iter must be"),
    ({"shrinking": "yes"}, TypeError, "shrinking must be"),
])
def test_bad_parameters_are_named(params, error, match):
    X, _, z = make_data(30, 2, 0)
    with pytest.raises(error, match=match):
        SVR(**params).fit(X, z)


def test_check_estimator():
    check_estimator(SVR(), expected_failed_checks=SVR_XFAIL)


def test_precomputed_kernel_as_libsvm():
    """kernel="precomputed": fit on the Gram, predict on the test x train block."""
    X, X_test, z = make_data(150, 4, 7)
    K = np.exp(-0.2 * ((X[:, None] - X[None]) ** 2).sum(-1))
    K_test = np.exp(-0.2 * ((X_test[:, None] - X[None]) ** 2).sum(-1))
    # tol=1e-6: at 1e-3 the float32 rows of the named kernels and LIBSVM's
    # float64 Gram part paths that stop 6e-4 apart
    ours = SVR(kernel="precomputed", C=2.0, epsilon=0.1, tol=1e-6).fit(K, z)
    peer = LibSVR(kernel="precomputed", C=2.0, epsilon=0.1, tol=1e-6).fit(K, z)
    np.testing.assert_array_equal(ours.support_, peer.support_)
    np.testing.assert_allclose(ours.predict(K_test), peer.predict(K_test), atol=1e-4)
    weight = np.r_[np.zeros(10), np.ones(140)]      # zero weight drops rows of the Gram
    a = SVR(kernel="precomputed").fit(K, z, sample_weight=weight)
    b = SVR(kernel="precomputed").fit(K[10:, 10:], z[10:])
    np.testing.assert_allclose(a.predict(K_test), b.predict(K_test[:, 10:]), atol=1e-8)
