"""Tour section "tree": ID3 on 西瓜数据集2.0 and pruning on the 表4.2 split (周志华 ch. 4)."""

from __future__ import annotations

from rich.table import Table

from ..datasets import load_watermelon
from ..tree import DecisionTreeClassifier, export_text, split_table

#: 表4.2: training and validation 编号
TRAIN_42 = [1, 2, 3, 6, 7, 10, 14, 15, 16, 17]
VALID_42 = [4, 5, 8, 9, 11, 12, 13]


def tree_section(console):
    """Print the root split table, the ID3 tree (figure 4.4) and pre/post pruning (4.6, 4.7)."""
    X, y = load_watermelon("2.0")
    table = split_table(X, y)
    rich_table = Table(title="西瓜数据集2.0, root",
                       caption=f"Ent(D) = {table.attrs['impurity']:.3f}")
    rich_table.add_column("attribute")
    rich_table.add_column("Gain(D, a)", justify="right")
    for name, gain in table["info_gain"].items():
        rich_table.add_row(name, f"{gain:.3f}")
    console.print(rich_table)
    tree = DecisionTreeClassifier(criterion="info_gain").fit(X, y)
    console.print("[bold]ID3 tree (figure 4.4)[/bold]")
    console.print(export_text(tree), markup=False)
    # 色泽 and 脐部 tie at the root of the 表4.2 training set; the book takes 脐部,
    # and the tie rule takes the first column, so 脐部 goes first.
    columns = ["脐部", "色泽", "根蒂", "敲声", "纹理", "触感"]
    X_tr, y_tr = X.loc[TRAIN_42, columns], y.loc[TRAIN_42]
    X_va, y_va = X.loc[VALID_42, columns], y.loc[VALID_42]
    for pruning, figure in ((None, "4.5"), ("pre", "4.6"), ("post", "4.7")):
        model = DecisionTreeClassifier(pruning=pruning)
        fit_kw = {} if pruning is None else {"validation_data": (X_va, y_va)}
        model.fit(X_tr, y_tr, **fit_kw)
        console.print(f"[bold]表4.2 split, pruning={pruning!r} (figure {figure}): "
                      f"validation accuracy {model.score(X_va, y_va):.1%}[/bold]")
        console.print(export_text(model), markup=False)
