"""周志华《机器学习》图4.4: the ID3 tree (information gain) of 西瓜数据集2.0.

Root gains (book, 3 decimals): 色泽 0.108, 根蒂 0.143, 敲声 0.141, 纹理 0.381,
脐部 0.289, 触感 0.006 -> 纹理 at the root.
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

X, y = load_watermelon("2.0")
print(split_table(X, y, criterion="info_gain").round(3))
tree = DecisionTreeClassifier(criterion="info_gain").fit(X, y)
print(export_text(tree))

ax = plot_tree(tree, title="西瓜数据集2.0: ID3 (图4.4)")
ax.figure.savefig(OUT / "tree_watermelon_2_0.png", dpi=110, bbox_inches="tight")
