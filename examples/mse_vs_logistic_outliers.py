"""Least squares (MSE) classification is pulled by far outliers; logistic regression is not.

Two clusters, plus points of the positive class far on the correct side: the
MSE boundary moves towards them and misclassifies, logistic regression stays.
"""
# requires: hyperplane.linear:LeastSquaresClassifier hyperplane.linear:LogisticRegression
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from hyperplane.linear import LeastSquaresClassifier, LogisticRegression  # noqa: E402
from hyperplane.plot import plot_decision_regions  # noqa: E402

OUT = Path(__file__).parent / "out"
OUT.mkdir(exist_ok=True)

rng = np.random.default_rng(0)
negative = rng.normal([-1.0, 1.0], 0.6, size=(40, 2))
positive = rng.normal([1.0, -1.0], 0.6, size=(40, 2))
outliers = rng.normal([7.0, -7.0], 0.5, size=(10, 2))
X = np.vstack([negative, positive, outliers])
y = np.array([0] * 40 + [1] * 50)

figure, axes = plt.subplots(1, 2, figsize=(10, 4))
for ax, model in zip(axes, [LeastSquaresClassifier(), LogisticRegression()]):
    model.fit(X, y)
    plot_decision_regions(model, X, y, ax=ax,
                          title=f"{type(model).__name__}: accuracy {model.score(X, y):.2f}")
figure.tight_layout()
figure.savefig(OUT / "mse_vs_logistic_outliers.png", dpi=110)
