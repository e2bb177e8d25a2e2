"""Linear classifiers: perceptron (primal, dual, kernel), least squares,
Fisher discriminant, logistic regression, Adaline."""

import hyperplane._numba  # noqa: F401  (its OpenMP wait policy, set before numba's pool starts)
from hyperplane._lazy import lazy_exports

__all__ = [
    "Perceptron",
    "DualPerceptron",
    "LeastSquaresClassifier",
    "FisherDiscriminant",
    "LogisticRegression",
    "Adaline",
    "novikoff_bound",
]

#: where each public name is defined: imported on first use (a perceptron's
#: fit does not import logistic regression's solvers)
__getattr__, __dir__ = lazy_exports(__name__, {
    "._adaline": ("Adaline",),
    "._dual_perceptron": ("DualPerceptron",),
    "._fisher": ("FisherDiscriminant",),
    "._least_squares": ("LeastSquaresClassifier",),
    "._logistic": ("LogisticRegression",),
    "._novikoff": ("novikoff_bound",),
    "._perceptron": ("Perceptron",),
})
