"""``hidden_outputs``: the hidden neurons' outputs b_h of a fitted network (周志华 5.3)."""

import numpy as np
import pytest
from sklearn.exceptions import NotFittedError

from hyperplane.neural import MLPClassifier, MLPRegressor, hidden_outputs

ACTIVATIONS = {
    "sigmoid": lambda z: 1.0 / (1.0 + np.exp(-z)),
    "tanh": np.tanh,
    "relu": lambda z: np.maximum(z, 0.0),
}


def _reference(model, X):
    """The obvious NumPy forward pass through the hidden layers."""
    f = ACTIVATIONS[model.activation]
    out, a = [], X
    for W, b in zip(model.coefs_[:-1], model.intercepts_[:-1]):
        a = f(a @ W + b)
        out.append(a)
    return out


@pytest.mark.parametrize("activation", list(ACTIVATIONS))
@pytest.mark.parametrize("hidden", [(3,), (4, 2)])
def test_matches_numpy_forward_pass(activation, hidden):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(20, 3))
    y = (X[:, 0] > 0).astype(int)
    net = MLPClassifier(hidden_layer_sizes=hidden, activation=activation, max_iter=3,
                        random_state=0).partial_fit(X, y, classes=[0, 1])
    got = hidden_outputs(net, X)
    want = _reference(net, X)
    assert [g.shape for g in got] == [(20, h) for h in hidden]
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-12)


def test_regressor_and_unfitted():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(10, 2))
    net = MLPRegressor(hidden_layer_sizes=(5,), random_state=0).partial_fit(X, X[:, 0])
    np.testing.assert_allclose(hidden_outputs(net, X)[0], _reference(net, X)[0], rtol=1e-10)
    with pytest.raises(NotFittedError):
        hidden_outputs(MLPClassifier(), X)
    with pytest.raises(ValueError, match="feature"):
        hidden_outputs(net, rng.normal(size=(3, 4)))
