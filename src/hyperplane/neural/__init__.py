"""Neural networks trained by error backpropagation (周志华《机器学习》chapter 5).

:class:`MLPClassifier` and :class:`MLPRegressor`: any number of hidden layers
of sigmoid, ReLU or tanh neurons, trained by standard (per-sample, compiled),
accumulated (per-epoch) or mini-batch backpropagation, with early stopping
and the regularised error of eq. 5.17.
"""

from ._estimators import MLPClassifier, MLPRegressor
from ._inspect import hidden_outputs

__all__ = ["MLPClassifier", "MLPRegressor", "hidden_outputs"]
