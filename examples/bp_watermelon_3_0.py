"""周志华 习题5.5: standard vs accumulated BP on 西瓜数据集3.0 (categorical one-hot, numeric as is).

Standard BP updates after every sample and needs fewer epochs; accumulated BP
updates once per epoch and needs more (§5.3).
"""
# requires: hyperplane.neural:MLPClassifier
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import pandas as pd  # noqa: E402

from hyperplane.datasets import load_watermelon  # noqa: E402
from hyperplane.neural import MLPClassifier  # noqa: E402
from hyperplane.plot import plot_loss_curves  # noqa: E402

OUT = Path(__file__).parent / "out"
OUT.mkdir(exist_ok=True)

X, y = load_watermelon("3.0")
X = pd.get_dummies(X, dtype=float)
models = [MLPClassifier(hidden_layer_sizes=(10,), bp=bp, learning_rate=0.1, max_iter=2000,
                        random_state=0).fit(X, y) for bp in ("standard", "accumulated")]
for model in models:
    print(f"bp={model.bp}: training accuracy {model.score(X, y):.3f}, {model.n_iter_} epochs")
ax = plot_loss_curves(*models, labels=["standard BP", "accumulated BP"], log=True,
                      title="西瓜数据集3.0: 标准BP vs 累积BP")
ax.figure.savefig(OUT / "bp_watermelon_3_0.png", dpi=110)
