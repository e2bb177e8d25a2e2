"""李航 例2.2: the dual perceptron on the samples of 例2.1.

Gram matrix [[18,21,6],[21,25,7],[6,7,2]]; the book ends at alpha=(2,0,5),
b=-3, the same hyperplane as the primal form.
"""
# requires: hyperplane.linear:DualPerceptron
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

from hyperplane.datasets import load_perceptron_example  # noqa: E402
from hyperplane.linear import DualPerceptron  # noqa: E402
from hyperplane.plot import plot_decision_regions  # noqa: E402

OUT = Path(__file__).parent / "out"
OUT.mkdir(exist_ok=True)

X, y = load_perceptron_example()
model = DualPerceptron(eta=1.0, record_trace=True).fit(X, y)
print("Gram matrix:\n", model.gram_)
print("alpha =", model.alpha_, "b =", model.intercept_)
print(model.trace_.to_string(index=False))

ax = plot_decision_regions(model, X, y, title="例2.2 dual perceptron")
ax.figure.savefig(OUT / "dual_perceptron_example_2_2.png", dpi=110)
