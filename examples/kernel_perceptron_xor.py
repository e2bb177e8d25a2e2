"""The kernel perceptron (dual form + RBF kernel) separates XOR, the primal one cannot."""
# requires: hyperplane.linear:DualPerceptron
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from hyperplane.kernels import RBF  # noqa: E402
from hyperplane.linear import DualPerceptron  # noqa: E402
from hyperplane.plot import plot_decision_regions  # noqa: E402

OUT = Path(__file__).parent / "out"
OUT.mkdir(exist_ok=True)

rng = np.random.default_rng(0)
X = rng.uniform(-1, 1, size=(80, 2))
y = np.where(X[:, 0] * X[:, 1] > 0, 1, -1)

figure, axes = plt.subplots(1, 2, figsize=(9, 4))
for ax, kernel in zip(axes, ["linear", RBF(sigma=0.5)]):
    model = DualPerceptron(kernel=kernel, max_iter=50).fit(X, y)
    plot_decision_regions(model, X, y, ax=ax,
                          title=f"kernel={kernel}: accuracy {model.score(X, y):.2f}")
figure.tight_layout()
figure.savefig(OUT / "kernel_perceptron_xor.png", dpi=110)
