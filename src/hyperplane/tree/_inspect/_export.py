"""Looking at trees: the root split table, the tree as text and as Graphviz DOT."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..._validation import check_is_fitted, check_sample_weight_vector
from .._grow._builder import c45_split_floor, root_node, score_node, sorted_orders
from .._grow._layout import layout
from .._encode import encode_fit
from .._state import Scan
from .._scan._split_kernels import GINI, c_log2_c, impurity, value_split_score
from .._scan._table_kernels import category_class_table
from .._classes import CATEGORICAL_SPLITS
from ._trace import splits_frame


def split_table(X, y, *, criterion="info_gain", sample_weight=None, splitter="best",
                min_samples_leaf=1, max_bins=256, categorical_split="multiway"):
    """What the root of a tree compares: one row per attribute (or per attribute value).

    Computed by the code the tree grows with (the node scoring and
    :class:`~._trace.Tracer`'s table), under the parameters of
    ``DecisionTreeClassifier(criterion=criterion, splitter=splitter,
    min_samples_leaf=min_samples_leaf, max_bins=max_bins)``: with
    ``"gain_ratio"`` that is C4.5's rules (J48's admissible numeric cuts,
    their MDL charge, the missing weight as a branch of the split information).

    Parameters
    ----------
    X : DataFrame or array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    criterion : {"info_gain", "gain_ratio", "gini"}
    sample_weight : array-like, optional
    splitter, min_samples_leaf, max_bins
        As in :class:`DecisionTreeClassifier`.
    categorical_split : {"multiway", "binary"}, default="multiway"
        ``"multiway"``: a categorical attribute splits into one branch per
        value (周志华 §4.1–4.2, ID3 / C4.5 and 周志华's Gini index 式4.6).
        ``"binary"``: CART's tests ``A = a`` against ``A ≠ a`` (李航 §5.5.2,
        算法5.6, 式5.25), one row per (attribute, value); numeric attributes
        keep their best cut ``x <= t``, which is binary already. Criteria
        ``"gini"`` and ``"info_gain"``.

    Returns
    -------
    DataFrame
        Index: attribute names. Columns: the criterion's value (``info_gain``
        = ρ·Gain on the known part; ``gain_ratio`` with the ``info_gain`` it
        starts from and ``candidate``: at least the average gain;
        ``gini_index`` = Σ_v r_v Gini(D̃_v) on the known part with
        ``gini_gain`` = ρ·(Gini(D̃) − gini_index), which the tree maximises),
        ``threshold`` (best cut of a numeric attribute, else NaN), ``rho`` and
        ``valid`` (admissible). ``attrs["impurity"]`` is Ent(D) (or Gini(D))
        of the whole data. With ``categorical_split="binary"`` the index is
        (``attribute``, ``value``): ``gini_index`` is 李航's Gini(D, A = a)
        (``value`` NaN on a numeric attribute's row).

    Examples
    --------
    >>> from hyperplane.datasets import load_watermelon
    >>> X, y = load_watermelon("2.0")
    >>> table = split_table(X, y)
    >>> table["info_gain"].round(3).to_dict()
    {'色泽': 0.108, '根蒂': 0.143, '敲声': 0.141, '纹理': 0.381, '脐部': 0.289, '触感': 0.006}
    >>> round(table.attrs["impurity"], 3)
    0.998

    李航 例5.4, CART's binary tests on 表5.1:

    >>> from hyperplane.datasets import load_loan
    >>> cart = split_table(*load_loan(), criterion="gini", categorical_split="binary")
    >>> cart.loc["有自己的房子", "gini_index"].round(2).to_dict()
    {'否': 0.27, '是': 0.27}
    """
    from .._classes import DecisionTreeClassifier

    if categorical_split not in CATEGORICAL_SPLITS:
        raise ValueError(f"categorical_split must be one of {list(CATEGORICAL_SPLITS)}; "
                         f"got {categorical_split!r}")
    if categorical_split == "binary" and criterion == "gain_ratio":
        raise ValueError('categorical_split="binary" (CART) takes criterion "gini" or '
                         '"info_gain"; got "gain_ratio"')

    est = DecisionTreeClassifier(criterion=criterion, splitter=splitter,
                                 min_samples_leaf=min_samples_leaf, max_bins=max_bins)
    X_enc, y, spec = encode_fit(est, X, y)
    classes, y_idx = np.unique(np.asarray(y), return_inverse=True)
    w = check_sample_weight_vector(sample_weight, X_enc.shape[0])
    rules = est._check_params(np.count_nonzero(w > 0))
    data = layout(X_enc, y_idx.astype(np.int64), w, spec.categorical, spec.n_codes,
                  classes.size, splitter, int(max_bins))
    root = root_node(data, sorted_orders)
    scan = Scan(np.zeros(X_enc.shape[0]), bool(np.all(root.w == 1.0)),
                c_log2_c(root.rows.size))
    splits = score_node(data, root, rules._replace(min_weight=c45_split_floor(data.kind, rules)),
                        scan)
    table = splits_frame(splits, spec.names, criterion, root.avail)
    if categorical_split == "binary":
        table = _value_rows(table, X_enc, y_idx, w, spec, classes.size, rules)
    table.attrs["impurity"] = float(impurity(root.value, root.value.sum(), rules.criterion))
    return table


def _value_rows(table, X_enc, y_idx, w, spec, n_classes, rules):
    """``table`` with each categorical attribute's row replaced by one row per value:
    the score of CART's test ``A = a`` (:func:`~hyperplane.tree._scan._split_kernels.value_split_score`)."""
    score_column = "gini_gain" if rules.criterion == GINI else "info_gain"
    rows = []
    for name, row in table.iterrows():
        j = spec.names.index(name)
        if not spec.categorical[j]:
            rows.append({"attribute": name, "value": np.nan, **row.to_dict()})
            continue
        codes = np.nan_to_num(X_enc[:, j], nan=-1.0).astype(np.int64)
        class_table, n_rows = category_class_table(codes, y_idx.astype(np.int64), w,
                                                   int(spec.n_codes[j]), n_classes)
        for a, value in enumerate(spec.categories[j]):
            score, after, valid = value_split_score(class_table, n_rows, a, rules.criterion,
                                                    rules.min_leaf)
            scores = {score_column: score}
            if rules.criterion == GINI:
                scores = {"gini_index": after, "gini_gain": score}
            rows.append({"attribute": name, "value": value, **scores, "threshold": np.nan,
                         "rho": row["rho"], "valid": bool(valid)})
    return pd.DataFrame(rows).set_index(["attribute", "value"])


def _value_test(est, j):
    """``(A, a)`` when column ``j`` of the grown tree is CART's test ``A = a``
    (``categorical_split="binary"``), else None."""
    source = getattr(est, "_source", None)
    if source is None or not est._input_spec.categorical[source[j]]:
        return None
    attribute = source[j]
    a = j - int(np.argmax(source == attribute))     # the attribute's columns are consecutive
    return est._input_spec.names[attribute], est._input_spec.categories[attribute][a]


def _branch_names(est, t):
    tree, spec = est.tree_, est._spec
    j = tree.feature[t]
    name = spec.names[j]
    test = _value_test(est, j)
    if test is not None:                # the cut [A = a] <= 0.5 is A ≠ a (李航 算法5.6)
        return [f"{test[0]} ≠ {test[1]}", f"{test[0]} = {test[1]}"]
    if tree.is_numeric[t]:
        thr = f"{tree.threshold[t]:.6g}"
        return [f"{name} <= {thr}", f"{name} > {thr}"]
    return [f"{name} = {value}" for value in spec.categories[j]]


def _leaf_label(est, t):
    """A classifier's leaf class; a regression tree's leaf mean (李航 式5.17) or median."""
    if hasattr(est, "_leaf_value"):
        return f"{est._leaf_value[t, 0]:.6g}"
    return est.classes_[est._label_of(est.tree_.value[t])]


def _leaf_weights(est, t):
    """The training statistics of leaf ``t``: class weights, or a regression
    tree's weight and impurity (mean squared error, or mean absolute deviation)."""
    nodes = est.tree_
    if hasattr(est, "_leaf_value"):
        name = "mae" if getattr(est, "criterion", None) == "absolute_error" else "mse"
        return f"weight: {nodes.value[t, 0]:.3g}, {name}: {nodes.impurity[t]:.3g}"
    return ", ".join(f"{c}: {v:.3g}" for c, v in zip(est.classes_, nodes.value[t]))


def export_text(tree, *, show_weights=False):
    """The tree as indented text in the attribute and value names of the data.

    Examples
    --------
    >>> from hyperplane.datasets import load_watermelon
    >>> from hyperplane.tree import DecisionTreeClassifier
    >>> X, y = load_watermelon("2.0")
    >>> print(export_text(DecisionTreeClassifier().fit(X, y)).splitlines()[0])
    纹理 = 清晰
    """
    check_is_fitted(tree)
    nodes = tree.tree_

    def leaf_text(t):
        text = f"{_leaf_label(tree, t)}"
        if show_weights:
            text += f" ({_leaf_weights(tree, t)})"
        return text

    if nodes.feature[0] < 0:
        return leaf_text(0) + "\n"
    return "\n".join(_subtree_lines(tree, 0, 0, leaf_text)) + "\n"


def _subtree_lines(est, t, level, leaf_text):
    nodes = est.tree_
    out = []
    for child, label in zip(nodes.kids(t), _branch_names(est, t)):
        prefix = "|   " * level + label
        if nodes.feature[child] < 0:
            out.append(f"{prefix}: {leaf_text(child)}")
        else:
            out.append(prefix)
            out.extend(_subtree_lines(est, child, level + 1, leaf_text))
    return out


def tree_as_dict(est, t=0):
    """The tree as nested ``(attribute, {branch value: subtree or leaf label})``.

    Numeric branches are keyed ``"<= t"`` and ``"> t"`` (t rounded to 3 decimals).
    """
    nodes = est.tree_
    if nodes.feature[t] < 0:
        return _leaf_label(est, t)
    j = nodes.feature[t]
    if nodes.is_numeric[t]:
        keys = [f"<= {nodes.threshold[t]:.3f}", f"> {nodes.threshold[t]:.3f}"]
    else:
        keys = list(est._spec.categories[j])
    return (est._spec.names[j], {k: tree_as_dict(est, c) for k, c in zip(keys, nodes.kids(t))})


def export_graphviz(tree):
    """The tree in Graphviz DOT language (text; render with ``dot -Tpng``).

    Examples
    --------
    >>> from hyperplane.datasets import load_watermelon
    >>> from hyperplane.tree import DecisionTreeClassifier
    >>> X, y = load_watermelon("2.0")
    >>> export_graphviz(DecisionTreeClassifier().fit(X, y)).startswith("digraph Tree {")
    True
    """
    check_is_fitted(tree)
    nodes = tree.tree_
    spec = tree._spec

    def quote(*parts):
        escaped = (str(p).replace("\\", "\\\\").replace('"', '\\"') for p in parts)
        return '"' + "\\n".join(escaped) + '"'

    lines = ["digraph Tree {", 'node [shape=box, fontname="sans"];',
             'edge [fontname="sans"];']
    for t in range(nodes.n_nodes):
        counts = (_leaf_weights(tree, t) if hasattr(tree, "_leaf_value")
                  else ", ".join(f"{v:.3g}" for v in nodes.value[t]))
        if nodes.feature[t] < 0:
            lines.append(f"{t} [label={quote(_leaf_label(tree, t), f'[{counts}]')}, "
                         "shape=ellipse];")
            continue
        lines.append(f"{t} [label={quote(spec.names[nodes.feature[t]] + '?', f'[{counts}]')}];")
        for child, text in zip(nodes.kids(t), _edge_labels(tree, t)):
            lines.append(f"{t} -> {child} [label={quote(text)}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _edge_labels(est, t):
    nodes = est.tree_
    test = _value_test(est, nodes.feature[t])
    if test is not None:
        return [f"≠ {test[1]}", f"= {test[1]}"]
    if nodes.is_numeric[t]:
        thr = f"{nodes.threshold[t]:.6g}"
        return [f"<= {thr}", f"> {thr}"]
    return [str(v) for v in est._spec.categories[nodes.feature[t]]]
