"""Compiled steps of a least-squares regression tree (李航《统计学习方法》§5.5.1, 算法5.5).

* :func:`best_squared_cut` -- for one exact numeric attribute ``j``, the cut
  point ``s`` (a midpoint between adjacent distinct values, ``x <= s`` first)
  whose two regions have the least squared error (式5.21), scanning the node's
  rows in the attribute's sorted order and updating the left side's
  :class:`~._moments_kernels.Moments` one row at a time;
* :func:`squared_error_scores` -- every available attribute of a node scanned,
  as the split table (:class:`~._state.Splits`) the growers share with the
  classifier;
* :func:`expand_regression_node` -- the node split on the best attribute by the
  classifier's own step (:func:`~._expand_kernels.split_node`: the choice, the
  routing, 周志华 4.4.2's missing values, the partition) and its children's moments.

Missing values are handled as in the classifier (周志华 4.4.2): a cut is
scored on the rows whose value is known, times ρ their share of the node's
weight, and a row missing the tested value goes down both branches with weight
``r̃_v · w``.
"""

from __future__ import annotations

import numpy as np

from .._numba import jit
from ._expand_kernels import (CONSTANT_TARGET, known_branches, limits_reason, new_splits,
                              put_split, split_node)
from ._moments_kernels import (add_row, as_moments, cut_quality, less, mean_squared_error,
                               no_moments, put_moments, squared_error_decrease)
from ._numeric_cut_kernels import cut_threshold, no_split
from ._split_kernels import NUMERIC, ROUND_OFF
from ._state import Split

#: a node whose mean squared error is at most this is a leaf (scikit-learn's ``EPSILON``),
#: and a split must decrease the weighted impurity by ``min_impurity_decrease`` less this
EPSILON = float(np.finfo(np.float64).eps)


@jit
def best_squared_cut(xs, order, y, wbuf, min_leaf):
    """Best cut ``x <= s`` of one exact numeric attribute by least squares (李航 式5.21).

    ``order``: the node's rows sorted by the attribute (NaN last), ``xs``
    their values in that order, ``y`` the targets and ``wbuf[i]`` the weight
    of row ``i`` in this node. The candidates are the midpoints between
    adjacent distinct known values with at least ``min_leaf`` rows on each
    side; the left side's moments grow one row at a time and the right side's
    are the known rows' less the left's, and the cut of the largest
    :func:`~._moments_kernels.cut_quality` (least squared error) wins, the
    smaller ``s`` between cuts equal up to round-off.
    Returns the attribute's :class:`~._state.Split` with
    ``score = ρ · (MSE(D̃) − Σ_v r̃_v MSE(D̃_v))``, ``after`` the children's
    part, and ``ratio`` equal to ``score`` (no gain ratio for regression); the
    threshold is the classifier's (:func:`~._numeric_cut_kernels.cut_threshold`).
    """
    m = order.shape[0]
    total = no_moments()
    for pos in range(m):
        i = order[pos]
        total = add_row(total, y[i], wbuf[i])
    n_known = m
    while n_known > 0 and np.isnan(xs[n_known - 1]):
        n_known -= 1
    if n_known < 2:
        return no_split()
    known = total
    if n_known < m:
        known = no_moments()
        for pos in range(n_known):
            i = order[pos]
            known = add_row(known, y[i], wbuf[i])
    if known.w <= 0.0:
        return no_split()
    floor = ROUND_OFF * known.w
    left = no_moments()
    best_left = left
    best = -np.inf
    best_pos = -1
    for pos in range(n_known - 1):
        i = order[pos]
        left = add_row(left, y[i], wbuf[i])
        if xs[pos + 1] <= xs[pos]:
            continue
        if pos + 1 < min_leaf or n_known - pos - 1 < min_leaf:
            continue
        right = less(known, left)
        if left.w <= 0.0 or right.w <= floor:
            continue
        quality = cut_quality(left, right)
        if best_pos < 0 or quality > best + ROUND_OFF * abs(best):
            best, best_pos, best_left = quality, pos, left
    if best_pos < 0:
        return no_split()
    decrease, after = squared_error_decrease(known, best_left)
    score = known.w / total.w * decrease
    return Split(score, score, after, known.w / total.w,
                 cut_threshold(xs[best_pos], xs[best_pos + 1]), -1, True)


@jit
def squared_error_scores(columns, node, min_leaf, wbuf, min_decrease):
    """The split table of ``node``: every available exact numeric attribute
    scanned by :func:`best_squared_cut`.

    ``wbuf``: scratch indexed by row (the node's weights are spread into it).
    ``min_decrease = (min_impurity_decrease, W)``: a cut is admissible only
    when ``W_t / W · score`` (its decrease of the weighted impurity of the
    tree, ``W_t`` the node's weight and ``W`` the root's) is at least
    ``min_impurity_decrease`` less ``EPSILON``, as scikit-learn's.
    """
    for pos in range(node.rows.shape[0]):
        wbuf[node.rows[pos]] = node.w[pos]
    p = columns.kind.shape[0]
    splits = new_splits(p)
    least, root_weight = min_decrease
    share = as_moments(node.value).w / root_weight
    for j in range(p):
        if not node.avail[j] or columns.kind[j] != NUMERIC:
            continue
        c = columns.col[j]
        cut = best_squared_cut(node.sorted_x[c], node.order[c], columns.y, wbuf, min_leaf)
        put_split(splits, j, cut)
        if cut.valid and share * cut.score + EPSILON < least:
            splits.valid[j] = False
    return splits


@jit
def expand_regression_node(node, splits, columns, rules, dest, parallel_rows):
    """Expand ``node`` on the best attribute of ``splits`` (the classifier's
    :func:`~._expand_kernels.split_node`), with each child's moments
    ``[Σw, Σwy, Σwy²]`` as its ``value`` and why it is a leaf: its targets are
    all equal (mean squared error at most ``EPSILON``), or a size limit of
    :func:`~._expand_kernels.limits_reason`; a branch no known row reaches is
    a leaf with its parent's moments (its mean is the parent's)."""
    children, w_branch, any_attribute = split_node(node, splits, columns, rules, dest,
                                                   parallel_rows, 3)
    if children.attribute < 0:
        return children
    for v in known_branches(children, w_branch, node.value):
        m = no_moments()
        low = np.inf
        high = -np.inf
        for pos in range(children.offsets[v], children.offsets[v + 1]):
            y = columns.y[children.rows[pos]]
            m = add_row(m, y, children.w[pos])
            low = min(low, y)
            high = max(high, y)
            if children.w[pos] != 1.0:
                children.unit[v] = False
        put_moments(children.value[v], m)
        children.weight[v] = m.w
        children.reason[v] = regression_leaf_reason(m, low == high,
                                                    children.offsets[v + 1] - children.offsets[v],
                                                    node.depth + 1, any_attribute, rules)
    return children


@jit
def regression_leaf_reason(m, equal, n_rows, depth, any_attribute, rules):
    """Why a node of moments ``m`` stays a leaf: its targets are all equal
    (``equal``, or, as scikit-learn tests it, a mean squared error of at most
    ``EPSILON``), else the size limits of the classifier."""
    if equal or mean_squared_error(m) <= EPSILON:
        return CONSTANT_TARGET
    return limits_reason(m.w, n_rows, depth, any_attribute, rules)


@jit
def root_reason(value, equal, n_rows, rules):
    """:func:`regression_leaf_reason` of the root (moments row ``value``; ``equal``:
    its targets are all equal)."""
    return regression_leaf_reason(as_moments(value), equal, n_rows, 0, True, rules)


@jit
def moments_of(y, rows, w):
    """The moments row ``[Σw, Σwy, Σwy²]`` of ``rows`` with weights ``w`` (a root's value)."""
    m = no_moments()
    for pos in range(rows.shape[0]):
        m = add_row(m, y[rows[pos]], w[pos])
    value = np.empty(3)
    put_moments(value, m)
    return value
