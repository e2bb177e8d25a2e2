"""Looking inside a fitted network: the outputs of its hidden neurons."""

from __future__ import annotations

from .._validation import check_is_fitted, check_X
from . import _backprop_kernels as K
from ._mlp import _kernel_array


def hidden_outputs(model, X):
    """The outputs ``b_h = f(α_h − γ_h)`` of every hidden layer for the rows of ``X``.

    ``α_h = Σ_i v_ih x_i`` is the input of hidden neuron ``h`` and ``γ_h`` its
    threshold (周志华 5.3, figure 5.7; here the threshold enters as the
    intercept ``-γ_h``), ``f`` the network's hidden activation; these are the
    values backpropagation sends on to the next layer.

    Parameters
    ----------
    model : MLPClassifier or MLPRegressor
        A fitted network.
    X : array-like of shape (n_samples, n_features)

    Returns
    -------
    list of ndarray
        One array of shape ``(n_samples, n_neurons)`` per hidden layer, first
        layer first.

    Examples
    --------
    >>> import numpy as np
    >>> from hyperplane.neural import MLPClassifier, hidden_outputs
    >>> X = np.array([[0., 0.], [0., 1.], [1., 0.], [1., 1.]])
    >>> net = MLPClassifier(hidden_layer_sizes=(3,), max_iter=5, random_state=0)
    >>> net = net.partial_fit(X, [0, 1, 1, 0], classes=[0, 1])
    >>> [b.shape for b in hidden_outputs(net, X)]
    [(4, 3)]
    """
    check_is_fitted(model)
    X = _kernel_array(check_X(model, X, reset=False))
    outputs = K.forward_from(model._network(X.dtype), X, 0)
    return [outputs[layer].copy() for layer in range(1, len(outputs) - 1)]
