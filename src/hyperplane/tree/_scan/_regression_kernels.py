"""Compiled steps of a regression tree: CART's least squares (李航《统计学习方法》§5.5.1,
算法5.5) or least absolute deviation (Breiman et al. 1984, §8.11), by ``rules.criterion``.

* :func:`best_regression_cut` -- for one exact numeric attribute ``j``, the cut
  point ``s`` (a midpoint between adjacent distinct values, ``x <= s`` first)
  whose two regions have the least error (式5.21's squared error, or the
  absolute error from each region's weighted median), scanning the node's
  rows in the attribute's sorted order and updating the left side's
  :class:`~._moments_kernels.Moments` one row at a time; the criterion
  enters through its :class:`~._criterion_kernels.CriterionRules` only (one scan for both), which
  numba chooses when it types the criterion's code, so that a fit compiles
  its own criterion's rules and no other's;
* :func:`regression_scores` -- every available attribute of a node scanned,
  as the split table (:class:`~hyperplane.tree._state.Splits`) the growers share with the
  classifier;
* :func:`expand_regression_node` -- the node split on the best attribute by the
  classifier's own step (:func:`~hyperplane.tree._grow._expand_kernels.split_node`: the choice, the
  routing, 周志华 4.4.2's missing values, the partition) and its children's
  statistics (:func:`put_regression_value`).

Missing values are handled as in the classifier (周志华 4.4.2): a cut is
scored on the rows whose value is known, times ρ their share of the node's
weight, and a row missing the tested value goes down both branches with weight
``r̃_v · w``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..._numba import by_first_type, jit, jit_inline, jit_internal, jit_twin
from ..._lowered import empty
from .._grow._expand_kernels import (CONSTANT_TARGET, known_branches, limits_reason, new_splits,
                              put_split, split_node)
from ._criterion_kernels import (beats_best, cut_profile, put_regression_value,
                                 regression_cut_quality, regression_decrease, regression_impurity)
from ._moments_kernels import Moments, add_moments, less, no_moments, put_moments
from ._loops_kernels import filled, pick_max, pick_min
from ._numeric_cut_kernels import cut_threshold, no_split
from ._split_kernels import CATEGORICAL, NUMERIC, ROUND_OFF
from .._state import Split


class OrderedValues(NamedTuple):
    """One attribute of a node as a cut scan reads it: the node's rows in the
    attribute's order (missing values last) and, at each position, the smallest
    and largest training value its row may hold (an exact value: both the
    value; a bin of ``splitter="hist"``: the bin's range, NaN when missing);
    ``code[pos]`` the row's bin (empty for an exact attribute)."""

    order: np.ndarray
    low: np.ndarray
    high: np.ndarray
    code: np.ndarray


class RowTargets(NamedTuple):
    """What a cut scan adds up, one training row per position: the targets
    ``y`` and ``wbuf[i]``, row ``i``'s weight in the node."""

    y: np.ndarray
    wbuf: np.ndarray


class BinMoments(NamedTuple):
    """What a cut scan adds up when a position stands for all of a node's rows
    in one hist bin (the Dask fit's summed chunk tables): row ``t`` of
    ``moments`` holds their :class:`~._moments_kernels.Moments` ``[Σw, Σwy, Σwy²]``,
    ``count[t]`` how many rows they are."""

    moments: np.ndarray
    count: np.ndarray


@jit_internal
def _row_moments(targets, i):
    """Row ``i``'s moments ``(w, wy, wy·y)``: adding them is :func:`~._moments_kernels.add_row`."""
    w = targets.wbuf[i]
    wy = w * targets.y[i]
    return Moments(w, wy, wy * targets.y[i]), 1


@jit_internal
def _bin_moments(targets, t):
    """Bin ``t``'s summed moments and row count."""
    return (Moments(targets.moments[t, 0], targets.moments[t, 1], targets.moments[t, 2]),
            targets.count[t])


#: ``position_moments(targets, i)``: the moments and row count that position ``i``
#: of a scan adds (:class:`RowTargets` or :class:`BinMoments`, chosen when numba compiles)
position_moments = by_first_type(
    lambda t: _bin_moments if getattr(t, "instance_class", None) is BinMoments
    else _row_moments, "position_moments")


#: a node whose mean squared error is at most this is a leaf (scikit-learn's ``EPSILON``),
#: and a split must decrease the weighted impurity by ``min_impurity_decrease`` less this
EPSILON = float(np.finfo(np.float64).eps)


@jit_twin
def best_regression_cut(column, y, wbuf, min_leaf, criterion):
    """Best cut ``x <= s`` of one exact numeric attribute by least squares (李航 式5.21)
    or least absolute deviation (``criterion``).

    ``column``: the node's rows in the attribute's order (:class:`OrderedValues`,
    missing values last), ``y`` the targets and ``wbuf[i]`` the weight of row
    ``i`` in this node. The candidates are the midpoints between adjacent
    distinct known values (for bins: the largest value of one non-empty bin
    and the smallest of the next, so that with one value per bin the bins
    give the exact scan's cuts, and its sums in the same order) with at least
    ``min_leaf`` rows on each side; the left side's moments grow one row at a time and the right side's
    are the known rows' less the left's, and the cut of the largest
    :data:`regression_cut_quality` (least error) wins, the smaller ``s``
    unless a later cut :data:`beats_best` (the criterion's tie rule).
    Returns the attribute's :class:`~hyperplane.tree._state.Split` with
    ``score = ρ · (I(D̃) − Σ_v r̃_v I(D̃_v))`` (:data:`regression_decrease`),
    ``after`` the children's part, and ``ratio`` equal to ``score`` (no gain
    ratio for regression); the threshold is the classifier's
    (:func:`~._numeric_cut_kernels.cut_threshold`) and, for bins, ``cut_bin``
    the last bin on the left.
    """
    return ordered_regression_cut(RowTargets(y, wbuf), column, min_leaf, criterion)


@jit_twin
def ordered_regression_cut(targets, column, min_leaf, criterion):
    """:func:`best_regression_cut` of positions read through ``targets``: a
    training row each (:class:`RowTargets`) or all of a node's rows in one bin
    (:class:`BinMoments`, the Dask fit's summed tables; squared error only).
    Position ``pos`` is ``column.order[pos]`` in ``targets``; adding a row's
    moments is :func:`~._moments_kernels.add_row`, so both are one rule with
    the same sums when every bin holds one row; ``min_leaf`` counts rows.
    """
    order, low, high = column.order, column.low, column.high
    m = order.shape[0]
    total = no_moments()
    n_total = 0
    for pos in range(m):
        stat, count = position_moments(targets, order[pos])
        total = add_moments(total, stat)
        n_total += count
    n_known = m
    while n_known > 0 and np.isnan(low[n_known - 1]):
        n_known -= 1
    if n_known < 2:
        return no_split()
    known, n_rows = total, n_total
    if n_known < m:
        known, n_rows = no_moments(), 0
        for pos in range(n_known):
            stat, count = position_moments(targets, order[pos])
            known = add_moments(known, stat)
            n_rows += count
    if known.w <= 0.0:
        return no_split()
    profile = cut_profile(criterion, targets, order, n_known)
    floor = ROUND_OFF * known.w
    left = no_moments()
    n_left = 0
    best_left = left
    best = -np.inf
    best_pos = -1
    for pos in range(n_known - 1):
        stat, count = position_moments(targets, order[pos])
        left = add_moments(left, stat)
        n_left += count
        if low[pos + 1] <= high[pos]:
            continue
        if n_left < min_leaf or n_rows - n_left < min_leaf:
            continue
        right = less(known, left)
        if left.w <= 0.0 or right.w <= floor:
            continue
        quality = regression_cut_quality(criterion, left, right, profile, pos)
        if best_pos < 0 or beats_best(criterion, quality, best):
            best, best_pos, best_left = quality, pos, left
    if best_pos < 0:
        return no_split()
    decrease, after = regression_decrease(criterion, known, best_left, profile, best_pos)
    score = known.w / total.w * decrease
    cut_bin = column.code[best_pos] if column.code.shape[0] > 0 else -1
    return Split(score, score, after, known.w / total.w,
                 cut_threshold(high[best_pos], low[best_pos + 1]), cut_bin, True)


@jit_twin
def binned_values(columns, c, rows, index_type):
    """The :class:`OrderedValues` of binned column ``c`` over ``rows`` (positions
    in an array of the type of ``index_type``, the exact attributes' orders): the rows
    sorted by bin by counting (stable, so rows of one bin keep their order, as
    the exact scan's stable sort keeps rows of one value), missing ones last,
    each with its bin's smallest and largest training value."""
    codes = columns.codes_T[c]
    n_bins = columns.codes_count[c]
    start = filled(empty(n_bins + 2, np.int64), 0)
    for pos in range(rows.shape[0]):
        code = np.int64(codes[rows[pos]])
        start[(code if code >= 0 else n_bins) + 1] += 1
    for b in range(n_bins + 1):
        start[b + 1] += start[b]
    m = rows.shape[0]
    order = empty(m, index_type.dtype)
    low = empty(m, np.float64)
    high = empty(m, np.float64)
    code_at = empty(m, np.int64)
    for pos in range(m):
        i = rows[pos]
        code = np.int64(codes[i])
        b = code if code >= 0 else n_bins
        at = start[b]
        start[b] += 1
        order[at] = i
        code_at[at] = code
        if code >= 0:
            low[at] = columns.bin_range[c, 0, code]
            high[at] = columns.bin_range[c, 1, code]
        else:
            low[at] = np.nan
            high[at] = np.nan
    return OrderedValues(order, low, high, code_at)


@jit_twin
def regression_scores(min_decrease, columns, node, rules, scan, parallel_rows):
    """The split table of ``node``: every available numeric attribute, exact or
    binned (:func:`binned_values`), scanned as :func:`best_regression_cut` scans
    (:func:`ordered_regression_cut` of :class:`RowTargets`, called directly: no
    forwarding kernel compiled between) with ``rules.min_leaf`` and ``rules.criterion``.

    ``scan.wbuf`` (a :class:`~hyperplane.tree._state.Scan`): scratch indexed by row
    (the node's weights are spread into it); ``parallel_rows`` is not read (a regression
    node's attributes are scanned one after another): the arguments are the classifier's
    :func:`~._node_kernels.score_attributes`' after ``min_decrease``, so the subtree
    grower calls either directly (no forwarding kernel compiled between).
    ``min_decrease`` (a :class:`~hyperplane.tree._state.MinDecrease`): a cut is
    admissible only when ``W_t / W · score`` (its decrease of the weighted
    impurity of the tree, ``W_t`` the node's weight and ``W`` the root's,
    ``min_decrease.root_weight``) is at least ``min_decrease.min_impurity_decrease``
    less ``EPSILON``, as scikit-learn's.
    """
    wbuf = scan.wbuf
    for pos in range(node.rows.shape[0]):
        wbuf[node.rows[pos]] = node.w[pos]
    p = columns.kind.shape[0]
    splits = new_splits(p)
    share = node.value[0] / min_decrease.root_weight
    targets = RowTargets(columns.y, wbuf)
    for j in range(p):
        if not node.avail[j] or columns.kind[j] == CATEGORICAL:
            continue
        c = columns.col[j]
        if columns.kind[j] == NUMERIC:
            column = OrderedValues(node.order[c], node.sorted_x[c], node.sorted_x[c],
                                   empty(0, np.int64))
        else:
            column = binned_values(columns, c, node.rows, node.order)
        cut = ordered_regression_cut(targets, column, rules.min_leaf, rules.criterion)
        put_admissible(splits, j, cut, share, min_decrease.min_impurity_decrease)
    return splits


@jit_inline
def put_admissible(splits, j, cut, share, least):
    """Enter attribute ``j``'s best cut into ``splits``, inadmissible when
    ``share · score`` (its decrease of the tree's weighted impurity, ``share``
    the node's part of the root's weight) is below ``least``
    (``min_impurity_decrease``) less ``EPSILON``, as scikit-learn's (inlined: a
few strict operations, a unit of its own cost a whole compilation)."""
    put_split(splits, j, cut)
    if cut.valid and share * cut.score + EPSILON < least:
        splits.valid[j] = False


@jit
def table_regression_scores(tables, n_rows, node, bin_range, n_codes, rules, min_decrease):
    """:func:`regression_scores` of a node known by its summed bin tables (the
    Dask fit; every attribute binned): ``tables[j, b]`` the moments
    ``[Σw, Σwy, Σwy²]`` of the node's rows in bin ``b`` of attribute ``j``
    (slot ``n_codes[j]``: missing), ``n_rows[j, b]`` their count; ``bin_range``
    each bin's smallest and largest training value.
    Each attribute's non-empty bins, in bin order and the missing ones last, are
    the positions of :func:`ordered_regression_cut`, each with its bin's range
    of training values, so the scan is the in-memory hist tree's."""
    p = node.avail.shape[0]
    splits = new_splits(p)
    share = node.value[0] / min_decrease.root_weight
    for j in range(p):
        if not node.avail[j]:
            continue
        present = np.flatnonzero(n_rows[j, :n_codes[j] + 1] > 0)
        m = present.shape[0]
        low = empty(m, np.float64)
        high = empty(m, np.float64)
        code = empty(m, np.int64)
        moments = empty((m, 3), np.float64)
        count = empty(m, np.int64)
        for pos in range(m):
            b = present[pos]
            missing = b == n_codes[j]
            code[pos] = -1 if missing else b
            low[pos] = np.nan if missing else bin_range[j, 0, b]
            high[pos] = np.nan if missing else bin_range[j, 1, b]
            moments[pos, 0] = tables[j, b, 0]
            moments[pos, 1] = tables[j, b, 1]
            moments[pos, 2] = tables[j, b, 2]
            count[pos] = n_rows[j, b]
        column = OrderedValues(np.arange(m), low, high, code)
        cut = ordered_regression_cut(BinMoments(moments, count), column, rules.min_leaf,
                                     rules.criterion)
        put_admissible(splits, j, cut, share, min_decrease.min_impurity_decrease)
    return splits


@jit_twin
def expand_regression_node(node, splits, columns, rules, n_stats, dest, parallel_rows):
    """Expand ``node`` on the best attribute of ``splits`` (the classifier's
    :func:`~hyperplane.tree._grow._expand_kernels.split_node`), with each child's statistic
    (:func:`branch_value`) as its ``value`` and why it is a leaf: its
    targets are all equal (impurity at most ``EPSILON``), or a size limit of
    :func:`~hyperplane.tree._grow._expand_kernels.limits_reason`; a branch no known row reaches is
    a leaf with its parent's statistic (its prediction is the parent's).
    The targets are ``columns.y``: the training targets, or the :class:`BinMoments`
    of the node's bins when ``node``'s rows stand for them (the Dask fit);
    ``n_stats`` the columns of a node's statistic (``N_MOMENTS``). The arguments are the
    classifier's :func:`~hyperplane.tree._grow._expand_kernels.expand_node`', so the
    subtree grower calls either directly (no forwarding kernel compiled between)."""
    targets = columns.y
    children, w_branch, any_attribute = split_node(node, splits, columns, rules, dest,
                                                   parallel_rows, n_stats)
    if children.attribute < 0:
        return children
    for v in known_branches(children, w_branch, node.value):
        a, b = children.offsets[v], children.offsets[v + 1]
        for pos in range(a, b):
            if children.w[pos] != 1.0:
                children.unit[v] = False
        equal = branch_value(targets, children.value[v], children.rows[a:b],
                             children.w[a:b], rules.criterion)
        children.weight[v] = children.value[v][0]
        children.reason[v] = regression_leaf_reason(children.value[v], equal,
                                                    branch_rows(targets, children.rows[a:b]),
                                                    node.depth + 1, any_attribute, rules)
    return children


@jit_internal
def _rows_value(y, value, rows, w, criterion):
    """:data:`put_regression_value` of training rows; whether their targets are all equal."""
    low = np.inf
    high = -np.inf
    for pos in range(rows.shape[0]):
        low = pick_min(low, y[rows[pos]])
        high = pick_max(high, y[rows[pos]])
    put_regression_value(criterion, value, y, rows, w)
    return low == high


@jit_internal
def _bins_value(targets, value, rows, w, criterion):
    """The moments of a branch whose rows stand for bins: each bin's summed
    moments, scaled by the share of its weight the branch gets (1, or r̃_v
    for the missing values' bin). Whether the targets are equal is not known
    from sums: False (the Dask fit tests it when it reaches the node)."""
    m = no_moments()
    for pos in range(rows.shape[0]):
        stat, count = _bin_moments(targets, rows[pos])
        share = w[pos] / stat.w
        m = add_moments(m, Moments(w[pos], share * stat.wy, share * stat.wyy))
    put_moments(value, m)
    return False


#: ``branch_value(targets, value, rows, w, criterion)``: write a branch's statistic
#: into ``value`` and say whether its targets are all equal (``targets``: the
#: target array, or :class:`BinMoments`; chosen when numba compiles)
branch_value = by_first_type(
    lambda t: _bins_value if getattr(t, "instance_class", None) is BinMoments
    else _rows_value, "branch_value")


@jit_internal
def _row_count(y, rows):
    return rows.shape[0]


@jit_internal
def _bin_count(targets, rows):
    n = 0
    for pos in range(rows.shape[0]):
        n += targets.count[rows[pos]]
    return n


#: ``branch_rows(targets, rows)``: how many training rows ``rows`` stand for
branch_rows = by_first_type(
    lambda t: _bin_count if getattr(t, "instance_class", None) is BinMoments
    else _row_count, "branch_rows")


@jit_inline
def regression_leaf_reason(value, equal, n_rows, depth, any_attribute, rules):
    """Why a node of statistic ``value`` stays a leaf: its targets are all equal
    (``equal``, or, as scikit-learn tests it, an impurity of at most
    ``EPSILON``), else the size limits of the classifier (inlined into its
    callers, the children's and the root's, as :func:`put_admissible`)."""
    if equal or regression_impurity(rules.criterion, value) <= EPSILON:
        return CONSTANT_TARGET
    return limits_reason(value[0], n_rows, depth, any_attribute, rules)


@jit
def root_reason(value, equal, n_rows, rules):
    """:func:`regression_leaf_reason` of the root (statistic ``value``; ``equal``:
    its targets are all equal)."""
    return regression_leaf_reason(value, equal, n_rows, 0, True, rules)


class RootStatistic(NamedTuple):
    """A regression tree's root: its statistic row and why it is a leaf (``GROW``: it is not)."""

    value: np.ndarray
    reason: int


@jit
def root_statistic(y, rows, w, rules):
    """The root's :class:`RootStatistic` of the training ``rows`` (weights ``w``) in one
    compiled call: its statistic row (:data:`put_regression_value` of
    ``rules.criterion``: the moments ``[Σw, Σwy, Σwy²]``, or ``[Σw, m, Σw|y − m|]``
    with ``m`` the weighted median) and :func:`regression_leaf_reason` of it (its
    targets are all equal when the least and the largest are), so that an
    in-memory fit calls one regression kernel from Python before its growth."""
    value = empty(3, np.float64)
    equal = _rows_value(y, value, rows, w, rules.criterion)
    return RootStatistic(value, regression_leaf_reason(value, equal, rows.shape[0], 0, True,
                                                       rules))
