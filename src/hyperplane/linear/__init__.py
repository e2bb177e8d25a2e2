"""Linear classifiers: perceptron (primal, dual, kernel), least squares,
Fisher discriminant, logistic regression, Adaline."""

from ._novikoff import novikoff_bound

__all__ = [
    "novikoff_bound",
]
