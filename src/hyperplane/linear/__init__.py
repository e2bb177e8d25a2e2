"""Linear classifiers: perceptron (primal, dual, kernel), least squares,
Fisher discriminant, logistic regression, Adaline."""

from ._adaline import Adaline
from ._dual_perceptron import DualPerceptron
from ._fisher import FisherDiscriminant
from ._least_squares import LeastSquaresClassifier
from ._logistic import LogisticRegression
from ._perceptron import Perceptron

__all__ = [
    "Perceptron",
    "DualPerceptron",
    "LeastSquaresClassifier",
    "FisherDiscriminant",
    "LogisticRegression",
    "Adaline",
]
