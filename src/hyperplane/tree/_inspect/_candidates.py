"""Looking inside one node: the candidate cuts of a continuous attribute and the
weights ``r̃_v`` a fitted tree gives its branches (周志华 4.4.1 and 4.4.2)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..._validation import check_is_fitted, check_sample_weight_vector
from .._encode import encode_fit
from ._export import _branch_names, split_table
from .._scan._split_kernels import _binary_score, impurity
from .._traverse_kernels import MISSING, branch_of_rows

#: criterion -> the score column the tree maximises, as in :func:`split_table`
SCORED = {"info_gain": "info_gain", "gini": "gini_gain"}


def _midpoints(sorted_distinct):
    """T_a = {(a^i + a^{i+1}) / 2} (周志华 eq. 4.7), written as the tree computes it."""
    a, b = sorted_distinct[:-1], sorted_distinct[1:]
    t = a + (b - a) / 2.0
    return np.where(t >= b, a, t)


def candidate_thresholds(X, y, attribute, *, criterion="info_gain", sample_weight=None):
    """Every candidate cut ``attribute <= t`` of a continuous attribute with its score.

    The candidates are the midpoints of adjacent distinct known values
    (周志华 4.4.1, eq. 4.7); each is scored as the tree scores its best cut,
    ρ·(I(D̃) − Σ_v r̃_v I(D̃_v)) on the rows whose value is known (I = Ent for
    ``"info_gain"``, Gini for ``"gini"``). ``chosen`` marks the cut the tree
    takes (:func:`split_table`'s ``threshold``: the first best).

    Parameters
    ----------
    X : DataFrame or array-like of shape (n_samples, n_features)
        The rows at the node (see :func:`node_weights` for a fitted tree's nodes).
    y : array-like of shape (n_samples,)
    attribute : str or int
        A continuous column of ``X`` (name, or position for an array).
    criterion : {"info_gain", "gini"}
    sample_weight : array-like, optional
        Weight of each row at the node (rows of weight 0 are not there).

    Returns
    -------
    DataFrame
        One row per candidate: ``threshold``, the score (``info_gain`` or
        ``gini_gain``), ``after`` (Σ_v r̃_v I(D̃_v)) and ``chosen``.

    Examples
    --------
    >>> from hyperplane.datasets import load_watermelon
    >>> X, y = load_watermelon("3.0")
    >>> cuts = candidate_thresholds(X, y, "密度")
    >>> len(cuts)
    16
    >>> best = cuts[cuts["chosen"]].iloc[0]
    >>> float(best["threshold"]), round(float(best["info_gain"]), 3)
    (0.3815, 0.262)
    """
    from .._classes import CRITERIA, DecisionTreeClassifier

    if criterion not in SCORED:
        raise ValueError(f"criterion must be one of {list(SCORED)}; got {criterion!r}")
    X_enc, y, spec = encode_fit(DecisionTreeClassifier(criterion=criterion), X, y)
    j = _column_index(spec.names, attribute)
    if spec.categorical[j]:
        raise ValueError(f"attribute {attribute!r} is categorical: it has no thresholds")
    classes, y_idx = np.unique(np.asarray(y), return_inverse=True)
    w = check_sample_weight_vector(sample_weight, X_enc.shape[0])
    x = X_enc[:, j]
    here = w > 0
    if not here.any():
        raise ValueError("sample_weight: every row has weight 0, so the node has no rows")
    known = here & ~np.isnan(x)
    counts = np.bincount(y_idx[known], weights=w[known], minlength=classes.size)
    w_known = counts.sum()
    rho = w_known / w[here].sum()
    code = CRITERIA[criterion][0]
    base = impurity(counts, w_known, code)
    order = np.flatnonzero(known)[np.argsort(x[known], kind="stable")]
    xs = x[order]
    one_hot = np.zeros((order.size, classes.size))
    one_hot[np.arange(order.size), y_idx[order]] = w[order]
    left_of = np.cumsum(one_hot, axis=0)  # class weights of x <= xs[i]
    last = np.flatnonzero(np.diff(xs) > 0)  # the last row of each distinct value but the largest
    rows = []
    for t, left in zip(_midpoints(xs[np.r_[last, order.size - 1]]), left_of[last]):
        w_left = left.sum()
        decrease, after, _ = _binary_score(left, counts - left, w_left, w_known - w_left,
                                           base, code)
        rows.append((t, rho * decrease, after))
    cuts = pd.DataFrame(rows, columns=["threshold", SCORED[criterion], "after"])
    # the tree's own scan of this one column picks the cut (the first best)
    chosen = split_table(x[:, None], y, criterion=criterion, sample_weight=w)["threshold"].iloc[0]
    cuts["chosen"] = cuts["threshold"] == chosen
    return cuts


def _column_index(names, attribute):
    """The position of ``attribute`` in the encoded columns ``names``, or a ValueError naming it."""
    key = str(attribute)
    if key not in names:
        raise ValueError(f"attribute {attribute!r} is not a column of X; columns: {names}")
    return names.index(key)


def node_weights(model, X):
    """Weight of each row of ``X`` at each node of a fitted tree, shape (n_nodes, n_samples).

    A row follows the branch of its value with its weight; a row missing the
    tested value enters every branch ``v`` with its weight times ``r̃_v``
    (周志华 4.4.2), the ``r̃_v`` the tree learned (:func:`branches`).

    Examples
    --------
    >>> from hyperplane.datasets import load_watermelon
    >>> from hyperplane.tree import DecisionTreeClassifier
    >>> X, y = load_watermelon("2.0alpha")
    >>> model = DecisionTreeClassifier().fit(X, y)
    >>> W = node_weights(model, X)
    >>> W.shape[1], float(W[0].sum())
    (17, 17.0)
    """
    check_is_fitted(model)
    X_enc = model._encode(X)
    tree = model.tree_
    n = X_enc.shape[0]
    weights = np.zeros((tree.n_nodes, n))
    weights[0] = 1.0
    rows = np.arange(n, dtype=np.int64)
    for t in range(tree.n_nodes):  # preorder: a parent comes before its children
        kids = tree.kids(t)
        if kids.size == 0:
            continue
        branch = branch_of_rows(X_enc[:, tree.feature[t]], rows, bool(tree.is_numeric[t]),
                                tree.threshold[t])
        for v, c in enumerate(kids):
            share = np.where(branch == MISSING, tree.branch_r[c], (branch == v).astype(float))
            weights[c] = weights[t] * share
    return weights


def branches(model, node):
    """The branches of an internal node: their test, ``r̃_v`` and weight.

    ``r_v`` is the known weight of the rows taking branch ``v`` over the known
    weight of the node (周志华 4.4.2), the share a row missing the tested value
    carries into branch ``v``.

    Examples
    --------
    >>> from hyperplane.datasets import load_watermelon
    >>> from hyperplane.tree import DecisionTreeClassifier
    >>> model = DecisionTreeClassifier().fit(*load_watermelon("2.0alpha"))
    >>> (branches(model, 0)["r_v"] * 15).round(6).tolist()
    [7.0, 5.0, 3.0]
    """
    check_is_fitted(model)
    tree = model.tree_
    kids = tree.kids(node)
    if kids.size == 0:
        raise ValueError(f"node {node} is a leaf: it has no branches")
    return pd.DataFrame({"node": kids, "r_v": tree.branch_r[kids], "weight": tree.weight[kids]},
                        index=pd.Index(_branch_names(model, node), name="branch"))
