"""The decision-tree lesson (周志华 chapter 4): growing node by node, then pruning.

Growing shows each node's split table from the tree's ``trace_`` (Gain,
Gain_ratio or Gini_index per attribute, ρ, the threshold of a continuous
attribute; the chosen attribute marked); pruning
replays ``pruning_trace_``: each decision with the tree's validation
accuracy before and after it.
"""

from __future__ import annotations

import numpy as np

from ..tree import DecisionTreeClassifier, export_text
from ._data import split_4_2
from ._plane import number

COLUMNS = ["k", "phase", "attribute", "score", "decision"]
CRITERIA = {"info_gain": "ID3", "gain_ratio": "C4.5", "gini": "CART"}
PRUNINGS = (None, "pre", "post")
#: split-table column -> how the page names it
SCORE = {"info_gain": "Gain", "gain_ratio": "Gain_ratio", "gini_index": "Gini_index"}


def _percent(v):
    return f"{100 * float(v):.1f}%"


def table_payload(table, chosen):
    """A node's split table as rows of text, one per attribute, the chosen one marked;
    §4.4.1's threshold column appears when an attribute is continuous."""
    columns = [c for c in table.columns if c != "valid" and not table[c].isna().all()]
    rows = [[str(name)] + [number(table.at[name, c], 3) for c in columns]
            for name in table.index]
    return {"columns": ["attribute"] + [SCORE.get(c, c) for c in columns], "rows": rows,
            "chosen": str(chosen), "impurity": number(table.attrs.get("impurity", np.nan), 3)}


def _growth_rows(model):
    """Node by node, in preorder, from the estimator's ``trace_``."""
    for node in model.trace_:
        where = f"node {node.node}, depth {node.depth}, {node.n_rows} rows, " \
                f"weight {number(node.weight, 3)}"
        step = {"status": where}
        if node.attribute is None:
            step["row"] = ["grow", "—", "", f"leaf: {node.leaf_reason}"]
        else:
            score = node.split_table.columns[0]
            test = node.attribute if np.isnan(node.threshold) else \
                f"{node.attribute} ≤ {number(node.threshold, 4)}"
            step["row"] = ["grow", test, number(node.split_table.at[node.attribute, score], 3),
                           "split"]
        if node.split_table is not None:
            step["split_table"] = table_payload(node.split_table, node.attribute)
        yield step


def _pruning_rows(model):
    """One step per decision of ``pruning_trace_``, with the tree's accuracy after it."""
    for _, row in model.pruning_trace_.iterrows():
        adopted = row["decision"] in ("split", "prune")
        now = row["accuracy_after"] if adopted else row["accuracy_before"]
        yield {"row": [row["kind"], row["attribute"],
                       f"{_percent(row['accuracy_before'])} → {_percent(row['accuracy_after'])}",
                       row["decision"]],
               "status": f"validation accuracy {_percent(now)}"}


def tree_steps(model, X, y, criterion, validation):
    yield from _growth_rows(model)
    if model.pruning in ("pre", "post"):
        yield from _pruning_rows(model)
    final = {"row": ["tree", f"{model.n_leaves_} leaves", f"depth {model.depth_}", ""],
             "tree_text": export_text(model), "epoch_end": True, "final": True}
    if validation is not None:
        final["status"] = f"validation accuracy {_percent(model.score(*validation))}"
    else:
        final["status"] = f"training accuracy {_percent(model.score(X, y))}"
    yield final


def start(X, y, params):
    """``(info, steps)`` of the tree lesson."""
    criterion = params.get("criterion", "info_gain")
    if criterion not in CRITERIA:
        raise ValueError(f"criterion must be one of {list(CRITERIA)}; got {criterion!r}")
    pruning = params.get("pruning")
    pruning = None if pruning in (None, "", "none") else pruning
    if pruning not in PRUNINGS:
        raise ValueError(f"pruning must be one of {list(PRUNINGS)[1:]} or none; got {pruning!r}")
    validation = None
    if params.get("dataset") == "split-4.2":
        (X, y), validation = split_4_2(X, y)
    model = DecisionTreeClassifier(criterion=criterion, pruning=pruning, random_state=0,
                                   record_trace=True)
    if pruning is not None and validation is not None:
        model.fit(X, y, validation_data=validation)
    else:  # without 表4.2's validation set, pruning holds out a third of the rows
        model.fit(X, y)
    info = {"columns": COLUMNS, "algorithm": CRITERIA[criterion],
            "rows": int(len(X)), "attributes": list(map(str, X.columns))}
    return info, tree_steps(model, X, y, criterion, validation)
