"""The decision-tree lesson (周志华 chapter 4): growing node by node, then pruning.

Growing shows each node's split table (``split_table`` at the root, the
tree's ``trace_`` rows below it when the estimator records them); pruning
replays ``pruning_trace_``: each decision with the tree's validation
accuracy before and after it.
"""

from __future__ import annotations

import numpy as np

from ..tree import DecisionTreeClassifier, export_text, split_table
from ._data import split_4_2
from ._plane import number

COLUMNS = ["k", "phase", "attribute", "score", "decision"]
CRITERIA = {"info_gain": "ID3", "gain_ratio": "C4.5", "gini": "CART"}
PRUNINGS = (None, "pre", "post")
#: split-table column -> how the page names it
SCORE = {"info_gain": "Gain", "gain_ratio": "Gain_ratio", "gini_index": "Gini_index"}


def _percent(v):
    return f"{100 * float(v):.1f}%"


def table_payload(table, chosen=None):
    """A split table as rows of text: one row per attribute, the chosen one marked."""
    columns = [c for c in table.columns if not table[c].isna().all()]
    rows = [[str(name)] + [number(table.at[name, c], 3) for c in columns]
            for name in table.index]
    if chosen is None:
        score = table.columns[0]
        ranked = table[score]
        chosen = ranked.idxmin() if score == "gini_index" else ranked.idxmax()
    return {"columns": ["attribute"] + [SCORE.get(c, c) for c in columns], "rows": rows,
            "chosen": str(chosen), "impurity": number(table.attrs.get("impurity", np.nan), 3)}


def _growth_rows(model, X, y, criterion):
    """Node by node from the estimator's own trace; the root alone without one."""
    trace = getattr(model, "trace_", None)
    if trace is None:
        table = split_table(X, y, criterion=criterion)
        split = table_payload(table)
        score = table.columns[0]
        yield {"row": ["grow", split["chosen"], number(table.at[split["chosen"], score], 3),
                       "split"],
               "split_table": split, "status": f"root: {split['chosen']}"}
        return
    for _, row in trace.iterrows():
        split = table_payload(row["split_table"], row.get("attribute"))
        yield {"row": ["grow", str(row.get("attribute", "")), "", str(row.get("node", ""))],
               "split_table": split}


def _pruning_rows(model, validation):
    for _, row in model.pruning_trace_.iterrows():
        yield {"row": [row["kind"], row["attribute"],
                       f"{_percent(row['accuracy_before'])} → {_percent(row['accuracy_after'])}",
                       row["decision"]],
               "status": f"validation accuracy {_percent(row['accuracy_after'] if row['decision'] in ('split', 'prune') else row['accuracy_before'])}"}


def tree_steps(model, X, y, criterion, validation):
    yield from _growth_rows(model, X, y, criterion)
    if model.pruning in ("pre", "post"):
        yield from _pruning_rows(model, validation)
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
    model = DecisionTreeClassifier(criterion=criterion, pruning=pruning, random_state=0)
    extra = {"record_trace": True} if "record_trace" in model.get_params() else {}
    model.set_params(**extra)
    if pruning is not None and validation is not None:
        model.fit(X, y, validation_data=validation)
    else:
        model.fit(X, y)
        validation = None
    info = {"columns": COLUMNS, "algorithm": CRITERIA[criterion],
            "rows": int(len(X)), "attributes": list(map(str, X.columns))}
    return info, tree_steps(model, X, y, criterion, validation)
