"""周志华 图4.9: C4.5's missing-value handling on 西瓜数据集2.0α (13 missing cells).

Gains are computed on the samples with a known value and scaled by ρ, their share
(book §4.4.2: 色泽 14/17 × 0.306 = 0.252, ..., 纹理 0.424 the largest): the root is 纹理.
"""
# requires: hyperplane.tree:DecisionTreeClassifier
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

from hyperplane.datasets import load_watermelon  # noqa: E402
from hyperplane.plot import plot_tree  # noqa: E402
from hyperplane.tree import DecisionTreeClassifier, split_table  # noqa: E402

OUT = Path(__file__).parent / "out"
OUT.mkdir(exist_ok=True)

X, y = load_watermelon("2.0alpha")
print(split_table(X, y).round(3))
tree = DecisionTreeClassifier(criterion="info_gain").fit(X, y)
ax = plot_tree(tree, title="西瓜数据集2.0α: missing values (图4.9)")
ax.figure.savefig(OUT / "tree_missing_values_2_0alpha.png", dpi=110, bbox_inches="tight")
