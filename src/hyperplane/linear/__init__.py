"""Linear classifiers: perceptron, least squares, Fisher, logistic regression, Adaline."""

from ._least_squares import LeastSquaresClassifier
from ._fisher import FisherDiscriminant
from ._logistic import LogisticRegression
from ._adaline import Adaline
