"""Bad kernels and bad scales end in a clear error or the right answer,
never NaN, inf or a wrong model without a word."""

import warnings

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.svm import SVC as LibSVC

from hyperplane.kernels import RBF, Kernel, NotPSDWarning, Sigmoid
from hyperplane.linear import DualPerceptron
from hyperplane.svm import SVC, SVR

X, y = make_classification(n_samples=120, n_features=5, random_state=0)


class WrongShape(Kernel):
    def _gram(self, A, B):
        return (A @ B.T)[:, :-1]


class WithNaN(Kernel):
    def _gram(self, A, B):
        G = A @ B.T
        G[0, 0] = np.nan
        return G


class WithInf(Kernel):
    def _gram(self, A, B):
        return np.where(A @ B.T > 3.0, np.inf, A @ B.T)


class Asymmetric(Kernel):
    def _gram(self, A, B):
        G = A @ B.T
        return G + np.triu(np.ones_like(G), 1)


@pytest.mark.parametrize("kernel, match", [
    (WrongShape(), r"shape \(120, 119\) for 120 x 120"),
    (WithNaN(), "nan .NaN or inf. for rows 0 and 0"),
    (WithInf(), "inf .NaN or inf."),
    (Asymmetric(), "not symmetric"),
])
@pytest.mark.parametrize("estimator", [SVC(), SVR(), DualPerceptron()])
def test_bad_user_kernel_blocks_are_errors_naming_the_kernel(kernel, match, estimator):
    with pytest.raises(ValueError, match=match):
        estimator.set_params(kernel=kernel).fit(X, y)


def test_a_wrong_shape_at_predict_time_is_an_error():
    class BreaksLater(Kernel):
        broken = False

        def _gram(self, A, B):
            G = A @ B.T
            return G[:, :1] if self.broken else G

    kernel = BreaksLater()
    svc = SVC(kernel=kernel, C=1.0).fit(X, y)
    kernel.broken = True
    with pytest.raises(ValueError, match="returned a block of shape"):
        svc.predict(X[:5])


@pytest.mark.parametrize("kernel", ["sigmoid", Sigmoid(beta=1.0, theta=1.0)])
def test_a_kernel_not_psd_gives_one_warning_and_a_finite_model(kernel):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        svc = SVC(kernel=kernel, C=1.0).fit(X, y)
    assert [w.category for w in caught] == [NotPSDWarning]
    assert np.all(np.isfinite(svc.alpha_)) and np.isfinite(svc.intercept_).all()


def test_hard_margin_with_the_named_sigmoid_is_an_error_not_inf():
    """It returned alpha_ = inf, intercept_ = NaN."""
    with pytest.raises(ValueError, match="C=inf .* positive semi-definite"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", NotPSDWarning)
            SVC(C=np.inf, kernel="sigmoid").fit(X, y)


def test_psd_kernels_give_no_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error", NotPSDWarning)
        for kernel in ("rbf", "linear", "poly", "laplace", RBF(1.0) + RBF(2.0)):
            SVC(kernel=kernel).fit(X, y)


def test_rbf_with_huge_gamma_keeps_its_unit_diagonal_and_fits_like_libsvm():
    """At gamma = 1e16 the expansion |x|^2 + |y|^2 - 2 x.y left 1.9e-8 on the
    diagonal and SVC reached 0.925 training accuracy (LIBSVM 1.0)."""
    gamma = 1e16
    K = RBF(sigma=np.sqrt(1.0 / (2.0 * gamma)))(X, X.copy())
    np.testing.assert_array_equal(np.diag(K), 1.0)
    svc = SVC(kernel="rbf", gamma=gamma).fit(X, y)
    peer = LibSVC(kernel="rbf", gamma=gamma).fit(X, y)
    assert svc.score(X, y) == peer.score(X, y) == 1.0


@pytest.mark.parametrize("scale", [1e300, 1e-300, 1e20, 1e-20])
@pytest.mark.parametrize("Estimator", [SVC, SVR])
def test_extreme_scales_are_refused_with_a_message_about_the_scale(scale, Estimator):
    """Not a ZeroDivisionError (gamma='scale' on X * 1e300), nor NaN."""
    with pytest.raises(ValueError, match="X's scale is out of range .* standardise"):
        Estimator().fit(X * scale, y)


def test_moderate_scales_fit_as_the_unscaled_data_with_gamma_scale():
    base = SVC().fit(X, y)
    for scale in (1e-6, 1e6):
        scaled = SVC().fit(X * scale, y)
        np.testing.assert_array_equal(scaled.predict(X * scale), base.predict(X))


def test_a_kernel_diagonal_beyond_float32_is_an_error():
    with pytest.raises(ValueError, match="beyond float32"):
        SVC(kernel="poly", degree=5, gamma=1.0).fit(X * 1e9, y)


@pytest.mark.parametrize("scale", [1e300, 1e-300])
def test_svr_refuses_a_target_out_of_scale_naming_y(scale):
    """Not the constant model the dual gives when |y| dwarfs C (y * 1e300)."""
    target = np.linspace(1.0, 2.0, X.shape[0])
    with pytest.raises(ValueError, match="the target y reaches magnitude"):
        SVR().fit(X, target * scale)
    assert np.ptp(SVR().fit(X, target).predict(X)) > 0
