"""Support vector regression (周志华 §6.5): the ε-insensitive tube around a noisy sine."""
# requires: hyperplane.svm:SVR
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from hyperplane.plot import apply_cjk_font, cjk_rc  # noqa: E402
from hyperplane.svm import SVR  # noqa: E402

OUT = Path(__file__).parent / "out"
OUT.mkdir(exist_ok=True)

rng = np.random.default_rng(0)
X = np.sort(rng.uniform(0, 2 * np.pi, 60))[:, None]
y = np.sin(X[:, 0]) + rng.normal(0, 0.15, 60)
model = SVR(kernel="rbf", C=10.0, epsilon=0.2).fit(X, y)

grid = np.linspace(0, 2 * np.pi, 300)[:, None]
f = model.predict(grid)
with cjk_rc():
    figure, ax = plt.subplots(figsize=(6, 4))
    ax.fill_between(grid[:, 0], f - 0.2, f + 0.2, alpha=0.2, label="ε-间隔带 (ε=0.2)")
    ax.plot(grid[:, 0], f, color="black", label="f(x)")
    ax.scatter(X[:, 0], y, s=15, label="samples")
    ax.scatter(model.support_vectors_[:, 0], y[model.support_], s=80, facecolors="none",
               edgecolors="red", label="support vectors")
    ax.legend()
    ax.set_title(f"SVR: {len(model.support_)} support vectors")
apply_cjk_font(figure)
figure.savefig(OUT / "svr_sine.png", dpi=110)
