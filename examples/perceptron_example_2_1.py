"""李航《统计学习方法》例2.1: the perceptron's updates, step by step.

Samples x1=(3,3), x2=(4,3) positive, x3=(1,1) negative; eta=1, w=0, b=0.
The book's update sequence is x1, x3, x3, x3, x1, x3, x3 and ends at
w=(1,1), b=-3, i.e. f(x) = sign(x(1) + x(2) - 3).
"""
# requires: hyperplane.linear:Perceptron
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

from hyperplane.datasets import load_perceptron_example  # noqa: E402
from hyperplane.linear import Perceptron  # noqa: E402
from hyperplane.plot import plot_perceptron_updates  # noqa: E402

OUT = Path(__file__).parent / "out"
OUT.mkdir(exist_ok=True)

X, y = load_perceptron_example()
model = Perceptron(eta=1.0, record_trace=True).fit(X, y)
print(model.trace_[["step", "sample", "w", "b"]].to_string(index=False))
print("w =", model.coef_, "b =", model.intercept_)

figure = plot_perceptron_updates(model, X, y)
figure.savefig(OUT / "perceptron_example_2_1.png", dpi=110)
