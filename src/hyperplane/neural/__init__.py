"""Neural networks trained by error backpropagation (周志华《机器学习》chapter 5).

:class:`MLPClassifier` and :class:`MLPRegressor`: any number of hidden layers
of sigmoid, ReLU or tanh neurons, trained by standard (per-sample, compiled),
accumulated (per-epoch) or mini-batch backpropagation, with early stopping
and the regularised error of eq. 5.17.
"""

import hyperplane._numba  # noqa: F401  (its OpenMP wait policy, set before numba's pool starts)
from hyperplane._lazy import lazy_exports

__all__ = ["MLPClassifier", "MLPRegressor", "hidden_outputs"]

#: where each public name is defined: imported on first use
__getattr__, __dir__ = lazy_exports(__name__, {
    "._estimators": ("MLPClassifier", "MLPRegressor"),
    "._inspect": ("hidden_outputs",),
})
