"""Network paralysis is not convergence (issue #30, finding 15):
``MLPClassifier(learning_rate=1e6)`` drove every hidden neuron into saturation,
the loss stalled and ``converged_`` was True at a training accuracy of 1/8,
without a warning."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import make_classification
from sklearn.exceptions import ConvergenceWarning

from hyperplane.neural import MLPClassifier, MLPRegressor, hidden_outputs

X8 = np.random.default_rng(0).normal(size=(8, 2))
Y8 = np.arange(8)                                  # 8 rows, 8 classes
XOR_X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
XOR_Y = np.array([0, 1, 1, 0])


def derivatives(net, X):
    """f'(z) of every hidden neuron on every row, by NumPy (周志华 式5.9)."""
    rule = {"sigmoid": lambda b: b * (1 - b), "tanh": lambda b: 1 - b * b,
            "relu": lambda b: (b > 0).astype(float)}[net.activation]
    return [rule(b) for b in hidden_outputs(net, X)]


@pytest.mark.parametrize("activation", ["sigmoid", "tanh"])
def test_saturated_network_is_not_converged_and_warns(activation):
    net = MLPClassifier(learning_rate=1e6, activation=activation, bp="standard",
                        random_state=2)
    with pytest.warns(ConvergenceWarning, match="saturated.*network paralysis"):
        net.fit(X8, Y8)
    assert net.converged_ is False
    assert net.score(X8, Y8) < 0.5
    assert all(np.all(d < 1e-6) for d in derivatives(net, X8))   # the units are saturated


@pytest.mark.parametrize("to_sparse", [False, True])
@pytest.mark.parametrize("activation", ["sigmoid", "tanh", "relu"])
@pytest.mark.parametrize("seed", range(3))
def test_converged_never_means_every_unit_saturated_at_a_positive_loss(activation, seed,
                                                                       to_sparse):
    for X, y in ((X8, Y8), (XOR_X, XOR_Y)):
        net = MLPClassifier(learning_rate=1e6, activation=activation, bp="standard",
                            random_state=seed)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                net.fit(sp.csr_matrix(X) if to_sparse else X, y)
            except ValueError:                     # divergence is reported as an error
                continue
        if net.converged_:
            assert net.loss_curve_[-1] <= net.tol or not all(
                np.all(d < 1e-6) for d in derivatives(net, X))


def test_a_saturated_network_that_fits_the_data_has_converged():
    """tanh units at ±1 computing XOR exactly: loss 0, a minimum."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        net = MLPClassifier(learning_rate=1e6, activation="tanh", random_state=1).fit(XOR_X,
                                                                                      XOR_Y)
    assert net.converged_ and net.score(XOR_X, XOR_Y) == 1.0


def test_ordinary_fits_still_converge():
    X, y = make_classification(200, 5, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        net = MLPClassifier(learning_rate=10.0, random_state=0).fit(X, y)
        reg = MLPRegressor(hidden_layer_sizes=(5,), learning_rate=0.05, max_iter=2000,
                           random_state=0).fit(X, X[:, 0] - X[:, 1])
    assert net.converged_ and net.score(X, y) > 0.9 and reg.converged_
