"""周志华 §4.5 (图4.10-4.13): axis-parallel vs oblique (multivariate) tree on 西瓜数据集3.0α."""
# requires: hyperplane.tree:ObliqueTreeClassifier
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

from hyperplane.datasets import load_watermelon  # noqa: E402
from hyperplane.plot import plot_decision_regions  # noqa: E402
from hyperplane.tree import DecisionTreeClassifier, ObliqueTreeClassifier  # noqa: E402

OUT = Path(__file__).parent / "out"
OUT.mkdir(exist_ok=True)

X, y = load_watermelon("3.0alpha")
figure, axes = plt.subplots(1, 2, figsize=(10, 4))
for ax, tree in zip(axes, [DecisionTreeClassifier(), ObliqueTreeClassifier()]):
    tree.fit(X, y)
    plot_decision_regions(tree, X, y, ax=ax,
                          title=f"{type(tree).__name__}: {tree.n_leaves_} leaves")
figure.tight_layout()
figure.savefig(OUT / "oblique_tree_3_0alpha.png", dpi=110)
