"""Linear classifiers: perceptron (primal, dual, kernel), least squares,
Fisher discriminant, logistic regression, Adaline."""

from ._dual_perceptron import DualPerceptron
from ._perceptron import Perceptron

__all__ = [
    "Perceptron",
    "DualPerceptron",
]
