"""Kernel parameters and ``gamma="scale"`` at the edges of float64 (issue #30,
finding 15): a clear ValueError naming the parameter or the scale of X, never
an internal ZeroDivisionError/OverflowError, and no silent constant kernel;
a kernel that is not PSD warns in the DualPerceptron as in the SVM."""

import warnings

import numpy as np
import pytest
from sklearn.datasets import make_classification

from hyperplane.kernels import RBF, Kernel, Laplace, NotPSDWarning, Sigmoid, resolve_kernel
from hyperplane.kernels._resolve import scale_gamma
from hyperplane.linear import DualPerceptron, FisherDiscriminant
from hyperplane.svm import SVC, SVR

X, Y = make_classification(60, 4, random_state=0)
ESTIMATORS = {"SVC": SVC, "SVR": SVR,
              "DualPerceptron": lambda **kw: DualPerceptron(max_iter=5, **kw),
              "FisherDiscriminant": FisherDiscriminant}


@pytest.mark.parametrize("kernel, sigma", [(RBF, 1e-200), (RBF, 1e200), (RBF, 1e-155),
                                           (Laplace, 1e-310)])
def test_sigma_whose_gamma_float64_cannot_hold_is_refused(kernel, sigma):
    with pytest.raises(ValueError, match=r"sigma=.* out of float64's range"):
        kernel(sigma=sigma)


@pytest.mark.parametrize("kernel, sigma", [(RBF, 1e-150), (RBF, 1e150), (Laplace, 1e-150),
                                           (Laplace, 1e150)])
def test_sigma_near_the_edges_gives_the_gram_of_the_units(kernel, sigma):
    K = kernel(sigma=sigma)(X * sigma)            # data in the units of sigma
    np.testing.assert_allclose(K, kernel(sigma=1.0)(X), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("sigma", [1e-300, 1e300])
def test_laplace_sigma_near_the_edges_gives_a_finite_gram(sigma):
    K = Laplace(sigma=sigma)(X)
    assert np.all(np.isfinite(K)) and np.all(np.diag(K) == 1.0)


@pytest.mark.parametrize("name", ESTIMATORS)
@pytest.mark.parametrize("kernel", ["rbf", "laplace", "poly", "sigmoid"])
@pytest.mark.parametrize("scale", [1e300, 1e-300, 1e160])
def test_gamma_scale_off_float64_blames_the_scale_of_X(name, kernel, scale):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError, match="scale"):
            ESTIMATORS[name](kernel=kernel).fit(X * scale, Y)


@pytest.mark.parametrize("name", ["DualPerceptron", "FisherDiscriminant"])
@pytest.mark.parametrize("scale", [1e100, 1e-100])
def test_gamma_scale_is_scale_invariant_where_float64_holds_it(name, scale):
    """rbf with gamma='scale' depends on X only up to its units."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = ESTIMATORS[name](kernel="rbf").fit(X, Y)
        b = ESTIMATORS[name](kernel="rbf").fit(X * scale, Y)
    np.testing.assert_array_equal(a.predict(X), b.predict(X * scale))


def test_scale_gamma_matches_scikit_learn_rule_on_ordinary_data():
    Z = np.random.default_rng(0).normal(size=(30, 3)) * 7.0
    assert scale_gamma(Z) == 1.0 / (3 * Z.var())
    assert scale_gamma(np.full((4, 2), 1e300)) == 1.0       # constant X: 1, as scikit-learn


@pytest.mark.parametrize("gamma", [1e-320, 1e308])
@pytest.mark.parametrize("kernel", ["rbf", "laplace"])
def test_gamma_off_float64_names_gamma(gamma, kernel):
    with pytest.raises(ValueError, match="gamma=.*out of float64's range"):
        resolve_kernel(kernel, gamma=gamma)


class NegativeDistance(Kernel):
    """``-‖x - y‖``: symmetric, not positive semi-definite."""

    def _gram(self, X, Y):
        return -np.sqrt(((X[:, None, :] - Y[None, :, :]) ** 2).sum(axis=2))


@pytest.mark.parametrize("kernel", [NegativeDistance(), Sigmoid(beta=1.0, theta=1.0)])
def test_dual_perceptron_warns_on_a_kernel_not_psd(kernel):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        warnings.simplefilter("always", NotPSDWarning)
        with pytest.warns(NotPSDWarning, match="not positive semi-definite"):
            DualPerceptron(kernel=kernel, max_iter=3).fit(X, Y)


@pytest.mark.parametrize("kernel", ["linear", "rbf", RBF(sigma=2.0) + Laplace()])
def test_dual_perceptron_psd_kernels_do_not_warn(kernel):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        warnings.simplefilter("error", NotPSDWarning)
        DualPerceptron(kernel=kernel, max_iter=3).fit(X, Y)
