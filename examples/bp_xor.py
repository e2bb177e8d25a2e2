"""周志华 §5.2-5.3: one hidden layer learns XOR (the perceptron cannot); standard vs accumulated BP."""
# requires: hyperplane.neural:MLPClassifier
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from hyperplane.neural import MLPClassifier  # noqa: E402
from hyperplane.plot import plot_decision_regions, plot_loss_curves  # noqa: E402

OUT = Path(__file__).parent / "out"
OUT.mkdir(exist_ok=True)

X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
y = np.array([0, 1, 1, 0])
# a fixed number of epochs (no early stop): standard BP's per-sample loss is noisy
models = {bp: MLPClassifier(hidden_layer_sizes=(4,), bp=bp, learning_rate=0.5, max_iter=3000,
                            tol=0.0, n_iter_no_change=3000, random_state=0).fit(X, y)
          for bp in ["standard", "accumulated"]}
for bp, model in models.items():
    print(f"{bp}: predictions {model.predict(X).tolist()}, {model.n_iter_} epochs")

figure, axes = plt.subplots(1, 2, figsize=(10, 4))
plot_decision_regions(models["standard"], X, y, ax=axes[0], title="XOR, standard BP")
plot_loss_curves(*models.values(), labels=list(models), ax=axes[1], log=True)
figure.tight_layout()
figure.savefig(OUT / "bp_xor.png", dpi=110)
