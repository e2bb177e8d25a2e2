"""李航《统计学习方法》例5.4: CART's binary Gini tests A = a / A ≠ a on the loan table (表5.1).

Gini(D, A1 = 1) = 0.44, Gini(D, A1 = 2) = 0.48, Gini(D, A1 = 3) = 0.44; Gini(D, A2 = 1) = 0.32;
Gini(D, A3 = 1) = 0.27, the smallest, so 算法5.6 tests 有自己的房子 at the root; on A3 ≠ 1 the
test A2 = 1 (有工作) leaves two pure nodes.
"""
# requires: hyperplane.tree:DecisionTreeClassifier hyperplane.tree:split_table
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

from hyperplane.datasets import load_loan  # noqa: E402
from hyperplane.plot import plot_tree  # noqa: E402
from hyperplane.tree import DecisionTreeClassifier, export_text, split_table  # noqa: E402

OUT = Path(__file__).parent / "out"
OUT.mkdir(exist_ok=True)

X, y = load_loan()
# one row per (attribute, value): the Gini index of the test A = a (式5.25)
table = split_table(X, y, criterion="gini", categorical_split="binary")
print(table.round(2).to_string())
print("smallest Gini(D, A = a):", table["gini_index"].idxmin())

cart = DecisionTreeClassifier(criterion="gini", categorical_split="binary").fit(X, y)
print(export_text(cart))

ax = plot_tree(cart, title="表5.1: CART (例5.4, 算法5.6)")
ax.figure.savefig(OUT / "cart_loan_example_5_4.png", dpi=110, bbox_inches="tight")
