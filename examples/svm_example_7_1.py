"""李航 例7.1: the maximum-margin hyperplane of x1=(3,3), x2=(4,3) (+1) and x3=(1,1) (-1).

The book: (1/2)x(1) + (1/2)x(2) - 2 = 0, support vectors x1 and x3, alpha=(1/4, 0, 1/4).
"""
# requires: hyperplane.svm:SVC
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402

from hyperplane.datasets import load_perceptron_example  # noqa: E402
from hyperplane.plot import plot_svm_margins  # noqa: E402
from hyperplane.svm import SVC  # noqa: E402

OUT = Path(__file__).parent / "out"
OUT.mkdir(exist_ok=True)

X, y = load_perceptron_example()
model = SVC(C=np.inf, kernel="linear").fit(X, y)
print("w =", model.coef_, "b =", model.intercept_)
print("support vectors:", model.support_vectors_.tolist(), "alpha =", model.alpha_)

ax = plot_svm_margins(model, X, y, title="例7.1 maximum margin")
ax.figure.savefig(OUT / "svm_example_7_1.png", dpi=110)
