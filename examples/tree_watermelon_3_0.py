"""周志华 图4.8: the tree of 西瓜数据集3.0, with the numeric 密度 and 含糖率 split at midpoints.

The book's root: 纹理; the numeric test 密度 ≤ 0.381 appears under 纹理=清晰.
"""
# requires: hyperplane.tree:DecisionTreeClassifier
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

from hyperplane.datasets import load_watermelon  # noqa: E402
from hyperplane.plot import plot_tree  # noqa: E402
from hyperplane.tree import DecisionTreeClassifier, export_text, split_table  # noqa: E402

OUT = Path(__file__).parent / "out"
OUT.mkdir(exist_ok=True)

X, y = load_watermelon("3.0")
print(split_table(X, y).round(3))
tree = DecisionTreeClassifier(criterion="info_gain").fit(X, y)
print(export_text(tree))
ax = plot_tree(tree, title="西瓜数据集3.0 (图4.8)")
ax.figure.savefig(OUT / "tree_watermelon_3_0.png", dpi=110, bbox_inches="tight")
