"""周志华 图4.5-4.7: unpruned, pre-pruned and post-pruned trees on the 表4.2 split.

Training set: samples 1,2,3,6,7,10,14,15,16,17; validation set: 4,5,8,9,11,12,13
(编号 of 西瓜数据集2.0). On this training set 色泽 and 脐部 tie at the root (information
gain 0.276 each); the book draws 脐部, and hyperplane's tie rule takes the first column,
so 脐部 is put first here to draw the book's trees. Pre-pruning keeps only the 脐部 split,
post-pruning keeps more; both beat the unpruned tree on the validation set.
"""
# requires: hyperplane.tree:DecisionTreeClassifier
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

from hyperplane.datasets import load_watermelon  # noqa: E402
from hyperplane.plot import plot_tree  # noqa: E402
from hyperplane.tree import DecisionTreeClassifier  # noqa: E402

OUT = Path(__file__).parent / "out"
OUT.mkdir(exist_ok=True)

X, y = load_watermelon("2.0")
X = X[["脐部"] + [c for c in X.columns if c != "脐部"]]  # the book's choice between tied roots
train = [1, 2, 3, 6, 7, 10, 14, 15, 16, 17]
valid = [4, 5, 8, 9, 11, 12, 13]
X_train, y_train, X_valid, y_valid = X.loc[train], y.loc[train], X.loc[valid], y.loc[valid]

figure, axes = plt.subplots(1, 3, figsize=(18, 5))
for ax, pruning in zip(axes, [None, "pre", "post"]):
    tree = DecisionTreeClassifier(criterion="info_gain", pruning=pruning)
    if pruning is None:
        tree.fit(X_train, y_train)
    else:  # the book prunes on the validation set of 表4.2
        tree.fit(X_train, y_train, validation_data=(X_valid, y_valid))
    accuracy = tree.score(X_valid, y_valid)
    print(f"pruning={pruning}: {tree.n_leaves_} leaves, validation accuracy {accuracy:.3f}")
    plot_tree(tree, ax=ax, title=f"pruning={pruning}: validation accuracy {accuracy:.1%}")
figure.tight_layout()
figure.savefig(OUT / "tree_pruning_table_4_2.png", dpi=100)
