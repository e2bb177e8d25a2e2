"""Networks on sparse rows equal the dense fit; scale, divergence and a rising
loss end in an error or converged_=False with a warning, never silently."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import make_classification
from sklearn.exceptions import ConvergenceWarning

from hyperplane.neural import MLPClassifier, MLPRegressor


def sparse_data(seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(60, 8))
    X[rng.random(X.shape) < 0.6] = 0.0
    return X, (X[:, 0] + X[:, 1] > 0).astype(int), X[:, 2] - X[:, 3]


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("bp", ["standard", "accumulated", "minibatch"])
@pytest.mark.parametrize("hidden", [(), (5,), (4, 3)])
@pytest.mark.parametrize("reg_lambda", [None, 0.9])
def test_sparse_fit_equals_dense_fit(bp, hidden, reg_lambda):
    X, y, t = sparse_data()
    kw = dict(bp=bp, hidden_layer_sizes=hidden, max_iter=25, random_state=0, batch_size=16,
              reg_lambda=reg_lambda)
    for make, target in ((MLPClassifier, y), (MLPRegressor, t)):
        dense = make(**kw).fit(X, target)
        sparse = make(**kw).fit(sp.csr_matrix(X), target)
        for a, b in zip(dense.coefs_ + dense.intercepts_, sparse.coefs_ + sparse.intercepts_):
            np.testing.assert_allclose(b, a, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(sparse.loss_curve_, dense.loss_curve_, rtol=1e-10, atol=1e-14)
        np.testing.assert_allclose(sparse.predict(sp.csc_matrix(X)), dense.predict(X), atol=1e-12)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_sparse_early_stopping_and_partial_fit():
    X, y, _ = sparse_data(1)
    kw = dict(hidden_layer_sizes=(4,), early_stopping=True, max_iter=15, random_state=0)
    dense = MLPClassifier(**kw).fit(X, y)
    sparse = MLPClassifier(**kw).fit(sp.csr_matrix(X), y)
    np.testing.assert_allclose(sparse.validation_loss_curve_, dense.validation_loss_curve_,
                               rtol=1e-10)
    a = MLPClassifier(random_state=0).partial_fit(X, y, classes=[0, 1])
    b = MLPClassifier(random_state=0).partial_fit(sp.csr_matrix(X), y, classes=[0, 1])
    np.testing.assert_allclose(b.coefs_[0], a.coefs_[0], rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("scale", [1e300, 1e-300])
@pytest.mark.parametrize("make", [MLPClassifier, MLPRegressor])
def test_extreme_scale_is_refused_naming_the_scale(make, scale):
    X, y, _ = sparse_data()
    with pytest.raises(ValueError, match="scale of X is the problem"):
        make(max_iter=5).fit(X * scale + scale, y)


def test_a_rising_loss_is_never_convergence():
    """10,000 hidden units at the default learning rate: the loss rises tenfold."""
    X, y = make_classification(200, 10, random_state=0)
    with pytest.warns(ConvergenceWarning, match="rose from .* learning_rate=0.1"):
        net = MLPClassifier(hidden_layer_sizes=(10_000,), random_state=0).fit(X, y)
    assert net.loss_curve_[-1] > 10 * min(net.loss_curve_)
    assert net.converged_ is False


def test_settled_loss_still_converges():
    X, y = make_classification(200, 10, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        net = MLPClassifier(hidden_layer_sizes=(8,), learning_rate=1.0, max_iter=2000,
                            random_state=0).fit(X, y)
    assert net.converged_


@pytest.mark.parametrize("bp", ["standard", "accumulated"])
def test_divergence_names_learning_rate_and_epoch(bp):
    X = np.linspace(-1, 1, 40)[:, None] * 1e3
    with pytest.raises(ValueError, match=r"in epoch \d+: .*learning_rate=1e\+20"):
        MLPRegressor(hidden_layer_sizes=(3,), activation="relu", bp=bp, learning_rate=1e20,
                     random_state=0).fit(X, X[:, 0] ** 2)


@pytest.mark.parametrize("scale", [1e300, 1e-300])
def test_a_target_out_of_scale_is_blamed_on_y(scale):
    """A regression target of magnitude 1e±300 is refused naming y and its row, not
    X or the learning rate."""
    X = np.random.default_rng(0).standard_normal((20, 3))
    y = np.arange(1.0, 21.0)
    y[3] *= scale
    for fit in (MLPRegressor().fit, MLPRegressor().partial_fit):
        with pytest.raises(ValueError, match=r"the target y reaches magnitude .* \(row 3\).*"
                                             r"scale of y is the problem"):
            fit(X, y)
