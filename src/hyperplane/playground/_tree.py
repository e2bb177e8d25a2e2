"""The decision-tree lesson (周志华 chapter 4): growing node by node, then pruning.

Growing shows each node's split table from the tree's ``trace_`` (Gain,
Gain_ratio or Gini_index per attribute, ρ, the threshold of a continuous
attribute; the chosen attribute marked), every candidate cut of each
continuous attribute with its score (§4.4.1) and, below a split, each
branch's ``r̃_v`` (§4.4.2); pruning
replays ``pruning_trace_``: each decision with the tree's validation
accuracy before and after it.
"""

from __future__ import annotations

import numpy as np

from ..tree import (DecisionTreeClassifier, branches, candidate_thresholds, export_text,
                    node_weights)
from ..tree._grow._expand_kernels import (EMPTY_BRANCH, LEAF_REASONS, MAX_DEPTH, NO_ATTRIBUTE,
                                    NO_SPLIT, ONE_CLASS, PRE_PRUNED, TOO_SMALL,
                                    UNDER_C45_FLOOR)
from ..tree._inspect._export import _leaf_label
from ._data import split_4_2
from ._fields import FieldError, choice
from ._plane import number

COLUMNS = ["k", "phase", "attribute", "score", "decision"]
CRITERIA = {"info_gain": "ID3", "gain_ratio": "C4.5", "gini": "CART"}
PRUNINGS = (None, "pre", "post")
#: split-table column -> how the page names it
SCORE = {"info_gain": "Gain", "gain_ratio": "Gain_ratio", "gini_index": "Gini_index"}
#: criterion -> how its candidate cuts are scored (C4.5 ranks cuts by Gain, Quinlan 1993 2.4)
CUT_SCORE = {"info_gain": "info_gain", "gain_ratio": "info_gain", "gini": "gini"}
#: candidate cuts listed per attribute at most: the best ones (book-sized data shows all)
MAX_CUTS = 40


#: a leaf's reason (the trace's words) -> (the page's key, the line of 周志华 图4.2
#: TreeGenerate that makes such a leaf; pre-pruning decides at line 8's choice)
LEAF_KEYS = {LEAF_REASONS[ONE_CLASS]: ("one_class", "leaf_class"),
             LEAF_REASONS[NO_ATTRIBUTE]: ("no_attribute", "leaf_majority"),
             LEAF_REASONS[NO_SPLIT]: ("no_split", "leaf_majority"),
             LEAF_REASONS[MAX_DEPTH]: ("max_depth", "leaf_majority"),
             LEAF_REASONS[TOO_SMALL]: ("too_small", "leaf_majority"),
             LEAF_REASONS[UNDER_C45_FLOOR]: ("c45_floor", "leaf_majority"),
             LEAF_REASONS[EMPTY_BRANCH]: ("empty_branch", "leaf_empty"),
             LEAF_REASONS[PRE_PRUNED]: ("pre_pruned", "choose")}


def cell(key, **numbers):
    """A table cell the page writes in its language: an i18n key and its numbers."""
    return {"t": key, **numbers}


def _percent(v):
    return f"{100 * float(v):.1f}%"


def table_payload(table, chosen):
    """A node's split table as rows of text, one per attribute, the chosen one marked;
    §4.4.1's threshold column appears when an attribute is continuous."""
    columns = [c for c in table.columns if c != "valid" and not table[c].isna().all()]
    digits = {c: 4 if c == "threshold" else 3 for c in columns}  # a cut as T_a lists it
    rows = [[str(name)] + [number(table.at[name, c], digits[c]) for c in columns]
            for name in table.index]
    return {"columns": ["attribute"] + [SCORE.get(c, c) for c in columns], "rows": rows,
            "chosen": str(chosen), "impurity": number(table.attrs.get("impurity", np.nan), 3)}


def candidates_payload(X, y, table, weights, criterion):
    """Each continuous attribute's candidate cuts T_a at a node (周志华 4.4.1), scored by
    :func:`~hyperplane.tree.candidate_thresholds`; the cut the tree took is marked."""
    out = []
    here = np.flatnonzero(weights > 0)  # the node's rows, the attribute's column
    for name in table.index[table["threshold"].notna()]:
        column = X[name].to_numpy(np.float64)[here, None]
        cuts = candidate_thresholds(column, np.asarray(y)[here], 0,
                                    criterion=CUT_SCORE[criterion], sample_weight=weights[here])
        score = cuts.columns[1]
        shown = cuts if len(cuts) <= MAX_CUTS else \
            cuts.nlargest(MAX_CUTS, score, keep="first").sort_values("threshold")
        out.append({"attribute": str(name), "score": SCORE.get(score, score), "n": len(cuts),
                    "rows": [[number(t, 4), number(v, 3)]
                             for t, v in zip(shown["threshold"], shown[score])],
                    "chosen": number(table.at[name, "threshold"], 4)})
    return out


def branches_payload(model, t, rho):
    """The branches of node ``t`` with ``r̃_v`` and their weight, and ρ of its attribute
    (周志华 4.4.2), from the fitted tree."""
    table = branches(model, t)
    return {"rho": number(rho, 4),
            "rows": [[str(b), number(r, 4), number(w, 3)]
                     for b, r, w in zip(table.index, table["r_v"], table["weight"])]}


def _unpruned(model, X, y):
    """``model``'s tree grown on ``X, y`` without pruning (周志华 图4.5 on 表4.2)."""
    return DecisionTreeClassifier(**{**model.get_params(), "pruning": None,
                                     "record_trace": False}).fit(X, y)


def _grown_model(model, X, y):
    """A model whose ``tree_`` is the tree ``trace_`` numbers (the one grown before
    post-pruning), with the weight of each training row at each of its nodes; None
    when the rows it was grown from are not ``X`` (a held-out pruning set)."""
    grown = _unpruned(model, X, y) if model.pruning == "post" else model
    weights = node_weights(grown, X)
    traced = {n.node: n.weight for n in model.trace_ if n.split_table is not None}
    if len(model.trace_) != grown.tree_.n_nodes or not all(
            np.isclose(weights[t].sum(), w) for t, w in traced.items()):
        return None, None
    return grown, weights


def tree_nodes(model, trace):
    """The tree as the page draws it, one entry per node of ``trace`` (preorder,
    the order 周志华 图4.2's recursion generates them, numbered from 1): its
    parent (from the depths), its test or None, and, when ``model`` is the tree
    ``trace`` describes, its branch's name and majority class."""
    known = model is not None and model.tree_.n_nodes == len(trace)
    nodes, path = [], []
    for position, node in enumerate(trace):
        del path[node.depth:]
        parent = path[-1] if path else None
        test = None
        if node.attribute is not None:
            test = node.attribute if np.isnan(node.threshold) else \
                f"{node.attribute} ≤ {number(node.threshold, 4)}"
        entry = {"id": position + 1, "parent": None if parent is None else parent + 1,
                 "depth": int(node.depth), "test": test, "branch": "", "label": ""}
        if known:
            entry["label"] = str(_leaf_label(model, position))
            if parent is not None:
                kids = model.tree_.kids(parent).tolist()
                entry["branch"] = str(branches(model, parent).index[kids.index(position)])
        nodes.append(entry)
        path.append(position)
    return nodes


def _growth_rows(model, X, y, criterion):
    """Node by node, in preorder, from the estimator's ``trace_``."""
    grown, weights = _grown_model(model, X, y)
    shape = tree_nodes(grown if grown is not None else
                       (model if model.pruning != "post" else None), model.trace_)
    considered = {}   # a pre-pruned node: the attribute pre-pruning did not split on
    if model.pruning == "pre":
        considered = dict(zip(pruned_nodes(model), model.pruning_trace_["attribute"]))
    for node, drawn in zip(model.trace_, shape):
        where = f"node {node.node}, depth {node.depth}, {node.n_rows} rows, " \
                f"weight {number(node.weight, 3)}"
        step = {"status": where, "node": drawn,
                "say": {"key": "tree_node", "node": node.node + 1, "depth": int(node.depth),
                        "rows": int(node.n_rows), "weight": number(node.weight, 3)}}
        if node.attribute is None:
            key, line = LEAF_KEYS.get(node.leaf_reason, ("other", "leaf_majority"))
            step["row"] = [cell("grow"), str(considered.get(drawn["id"], "—")), "",
                           cell("leaf_" + key)]
            step["line"] = line
            step["prepruned"] = key == "pre_pruned"
        else:
            score = node.split_table.columns[0]
            step["row"] = [cell("grow"), drawn["test"],
                           number(node.split_table.at[node.attribute, score], 3), cell("split")]
            step["line"] = "choose"
        if node.split_table is not None:
            step["split_table"] = table_payload(node.split_table, node.attribute)
            if grown is not None:
                step["candidates"] = candidates_payload(X, y, node.split_table,
                                                        weights[node.node], criterion)
        if grown is not None and node.attribute is not None:
            step["branches"] = branches_payload(grown, node.node,
                                                node.split_table.at[node.attribute, "rho"])
        yield step


def pruned_nodes(model):
    """The node (numbered as :func:`tree_nodes`) each row of ``pruning_trace_``
    decides, or None where it cannot be told: post-pruning (周志华 4.3.2) visits
    the internal nodes bottom-up, in reverse preorder; pre-pruning (4.3.1) those
    it scored, in preorder."""
    rows = model.pruning_trace_
    trace = model.trace_
    if model.pruning == "post":
        order = [n for n in reversed(trace) if n.attribute is not None]
    else:
        order = [n for n in trace if n.split_table is not None
                 and (n.attribute is not None or n.leaf_reason == LEAF_REASONS[PRE_PRUNED])]
    if len(order) != len(rows) or any(
            n.attribute is not None and n.attribute != a
            for n, a in zip(order, rows["attribute"])):
        return [None] * len(rows)
    return [n.node + 1 for n in order]


def _same_nodes(model, full):
    """Each node of ``model``'s tree -> the node of ``full`` on the same path (a
    pre-pruned tree is the top of the unpruned one: same tests, same branches),
    or None when the two trees differ there."""
    match = {0: 0}
    for t in range(model.tree_.n_nodes):   # preorder: a parent is matched first
        kids, full_kids = model.tree_.kids(t), full.tree_.kids(match[t])
        if kids.size == 0:
            continue
        if kids.size != full_kids.size or model.tree_.feature[t] != full.tree_.feature[match[t]]:
            return None
        match.update(zip(kids.tolist(), full_kids.tolist()))
    return match


def tree_predictions(full, weights, opened):
    """The labels a tree predicts for validation rows: ``full`` with only the nodes
    ``opened`` split, every other node reached a leaf with its training majority
    (周志华 图4.2 line 6: the tree as it stands at one decision of §4.3). ``weights``:
    each row's weight at each node of ``full`` (:func:`~hyperplane.tree.node_weights`);
    a row missing a tested value reaches several leaves (weight r̃_v, 周志华 4.4.2) and
    takes the label of the largest weight."""
    tree = full.tree_
    votes = np.zeros((len(full.classes_), weights.shape[1]))
    reached = np.zeros(tree.n_nodes, dtype=bool)
    reached[0] = True
    for t in range(tree.n_nodes):  # preorder: a parent comes before its children
        if not reached[t]:
            continue
        kids = tree.kids(t)
        if opened[t] and kids.size:
            reached[kids] = True
        else:
            votes[full._label_of(tree.value[t])] += weights[t]
    return full.classes_[np.argmax(votes, axis=0)]


def validation_flips(model, X, y, validation):
    """Per decision of ``pruning_trace_``, each validation row's prediction on the tree
    before the decision and on the tree the decision weighs (pre-pruning: the node
    split, 周志华 图4.6; post-pruning: its subtree a leaf, 图4.7), or None per decision
    where the nodes cannot be told."""
    nodes = pruned_nodes(model)
    full = _unpruned(model, X, y)
    match = _same_nodes(model, full) if model.pruning == "pre" else \
        {t: t for t in range(full.tree_.n_nodes)}
    if match is None or None in nodes:
        return [None] * len(nodes)
    X_val, y_val = validation
    weights = node_weights(full, X_val)
    truth = np.asarray(y_val)
    internal = full.tree_.feature >= 0
    opened = internal.copy() if model.pruning == "post" else np.zeros_like(internal)
    out = []
    for node, decision in zip(nodes, model.pruning_trace_["decision"]):
        t = match[node - 1]
        weighed = opened.copy()
        weighed[t] = model.pruning == "pre"
        before = tree_predictions(full, weights, opened)
        after = tree_predictions(full, weights, weighed)
        out.append([{"id": str(name), "y": str(label), "before": str(b), "after": str(a),
                     "correct_before": bool(b == label), "correct_after": bool(a == label)}
                    for name, label, b, a in zip(X_val.index, truth, before, after)])
        if decision in ("split", "prune"):
            opened = weighed
    return out


def _pruning_rows(model, flips):
    """One step per decision of ``pruning_trace_``, with the tree's accuracy after it,
    the node it decides (a post-pruned node's subtree is drawn greyed) and, given
    :func:`validation_flips`, each validation row before and after it."""
    for (_, row), node, rows in zip(model.pruning_trace_.iterrows(), pruned_nodes(model),
                                    flips):
        adopted = row["decision"] in ("split", "prune")
        now = row["accuracy_after"] if adopted else row["accuracy_before"]
        yield {"row": [cell(row["kind"]), row["attribute"],
                       f"{_percent(row['accuracy_before'])} → {_percent(row['accuracy_after'])}",
                       cell("decision_" + row["decision"])],
               "pruning": {"node": node, "decision": row["decision"], "kind": row["kind"]},
               "status": f"validation accuracy {_percent(now)}",
               "say": {"key": "valid_acc", "acc": _percent(now)},
               **({} if rows is None else {"validation": rows})}


def tree_steps(model, X, y, criterion, validation):
    yield from _growth_rows(model, X, y, criterion)
    if model.pruning in ("pre", "post"):
        flips = [None] * len(model.pruning_trace_) if validation is None else \
            validation_flips(model, X, y, validation)
        yield from _pruning_rows(model, flips)
    final = {"row": [cell("tree"), cell("n_leaves", n=int(model.n_leaves_)),
                     cell("depth_n", n=int(model.depth_)), ""],
             "tree_text": export_text(model), "epoch_end": True, "final": True, "line": "end"}
    if validation is not None:
        accuracy = _percent(model.score(*validation))
        final["status"] = f"validation accuracy {accuracy}"
        final["say"] = {"key": "valid_acc", "acc": accuracy}
    else:
        accuracy = _percent(model.score(X, y))
        final["status"] = f"training accuracy {accuracy}"
        final["say"] = {"key": "train_acc", "acc": accuracy}
    yield final


def start(X, y, params):
    """``(info, steps)`` of the tree lesson."""
    criterion = choice(params, "criterion", "info_gain", tuple(CRITERIA))
    pruning = params.get("pruning")
    pruning = None if pruning in (None, "", "none") else pruning
    if pruning not in PRUNINGS:
        raise FieldError("pruning", f"must be one of {list(PRUNINGS)[1:]} or none; "
                                    f"got {pruning!r}")
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
