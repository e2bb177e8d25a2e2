"""One step of generate_tree (周志华 4.1): expanding a node whose attributes are scored.

Every grower (the node-by-node loop of :func:`~._builder.grow`, the compiled
subtree growth of :func:`~._subtree_kernels.grow_subtree` and the Dask level
grower of :mod:`hyperplane.tree._dask._levels`) scores a node's attributes into a split table
(:class:`Splits`) in its own way, then calls :func:`expand_node`, which takes
every decision of the book from there. Each rule is one function:

* :func:`choose_attribute` -- the attribute with the best score; ties within
  ``SCORE_TIE`` go to the first column; with C4.5's rules the best gain ratio
  among the attributes whose gain is at least average (:func:`c45_choice`,
  Quinlan 1993, 2.2; 周志华 4.2.2, with release 8's tolerances).
* :func:`training_value_cut` -- C4.5 release 8 moves a numeric threshold to
  the largest training value at or below the midpoint (``cut_point``), before
  the rows are routed (:data:`routed`).
* :func:`route_rows` -- the branch of each row: ``x <= t`` first for a numeric
  cut (:func:`numeric_cut`, 周志华 4.4.1), the value for a categorical test.
* :func:`branch_weights` -- ``w̃_v`` and ``r̃_v = w̃_v / Σ_v w̃_v`` (周志华 4.4.2).
* :func:`~hyperplane.tree._traverse_kernels.partition_node` -- a row missing the tested value
  goes down every branch ``v`` with weight ``r̃_v · w``.
* :func:`leaf_reason` -- generate_tree's leaf conditions (4.1 lines 2-6) plus
  the size limits; :func:`empty_branch_leaf` -- a branch without known rows
  is a leaf labelled by its parent's class weights (4.1 line 12);
  :func:`attributes_left` -- a categorical attribute is not reused below itself.
"""

from __future__ import annotations

import numpy as np

from ..._in_python import in_python
from ..._numba import by_none, jit, jit_inline, jit_internal, jit_twin
from ..._lowered import empty
from .._scan._split_kernels import BINNED, C45_TIE, CATEGORICAL, NUMERIC
from .._state import Children, Orders, Splits
from .._scan._numeric_cut_kernels import no_split
from .._scan._numpy_sum_kernels import numpy_sum
from .._scan._loops_kernels import any_set, filled
from .._traverse_kernels import MISSING, numeric_cut, partition_node

#: scores within this of each other are tied: the first attribute in column order wins
SCORE_TIE = 1e-9
#: the largest float64, C4.5's start of the largest training value below a cut (a
#: constant: ``np.finfo`` in a kernel compiles two functions of numba's own)
FLOAT64_MAX = float(np.finfo(np.float64).max)
#: C4.5 release 8 (J48): an attribute of gain ≥ average − this competes on gain ratio
C45_AVERAGE_SLACK = 1e-3

#: why a node is (or is not) a leaf, as :func:`leaf_reason` returns it
GROW = 0
ONE_CLASS = 1
MAX_DEPTH = 2
TOO_SMALL = 3
NO_ATTRIBUTE = 4
UNDER_C45_FLOOR = 5
NO_SPLIT = 6
EMPTY_BRANCH = 7
PRE_PRUNED = 8
CONSTANT_TARGET = 9

#: leaf reason -> words (the per-node trace shows them)
LEAF_REASONS = {
    ONE_CLASS: "all rows of one class",
    MAX_DEPTH: "at max_depth",
    TOO_SMALL: "fewer than min_samples_split",
    NO_ATTRIBUTE: "no attribute left",
    UNDER_C45_FLOOR: "too light for any C4.5 split",
    NO_SPLIT: "no admissible split",
    EMPTY_BRANCH: "empty branch: parent's class weights",
    PRE_PRUNED: "pre-pruning: no better on validation data",
    CONSTANT_TARGET: "all targets equal",
}


@jit_twin
def new_splits(p):
    """An empty split table of ``p`` attributes: every entry
    :func:`~hyperplane.tree._scan._numeric_cut_kernels.no_split` (none valid), put by one loop."""
    splits = Splits(empty(p, np.float64), empty(p, np.float64),
                    empty(p, np.float64), empty(p, np.float64),
                    empty(p, np.float64), empty(p, np.int64),
                    empty(p, np.bool_))
    for j in range(p):
        put_split(splits, j, no_split())
    return splits


@jit_twin
def put_split(splits, j, entry):
    """Entry ``j`` of a split table from the :class:`~hyperplane.tree._state.Split` a split search returns."""
    splits.score[j], splits.ratio[j] = entry.score, entry.ratio
    splits.after[j], splits.rho[j] = entry.after, entry.rho
    splits.threshold[j], splits.cut_bin[j], splits.valid[j] = (entry.threshold, entry.cut_bin,
                                                               entry.valid)


@jit_twin
def c45_candidates(score, valid):
    """C4.5's filter (Quinlan 1993, 2.2): the valid attributes whose gain is at
    least the average gain of the valid ones, less release 8's
    ``C45_AVERAGE_SLACK`` (1e-3; Weka's J48). Mean in NumPy's summation order."""
    p = valid.shape[0]
    candidate = valid.copy()
    n_valid = 0
    for j in range(p):
        if valid[j]:
            n_valid += 1
    if n_valid == 0:
        return candidate
    gains = empty(n_valid, np.float64)
    at = 0
    for j in range(p):
        if valid[j]:
            gains[at] = score[j]
            at += 1
    average = numpy_sum(gains) / n_valid
    for j in range(p):
        candidate[j] = valid[j] and score[j] >= average - C45_AVERAGE_SLACK
    return candidate


@jit_internal
def c45_choice(splits):
    """C4.5's attribute (release 8, Weka's J48): scanning :func:`c45_candidates` in
    column order, one replaces the best so far when its gain ratio is larger by
    more than ``C45_TIE`` (1e-6), starting from 0; −1 (no split) when no
    ratio exceeds 1e-6."""
    candidate = c45_candidates(splits.score, splits.valid)
    best = 0.0
    chosen = -1
    for j in range(candidate.shape[0]):
        if candidate[j] and splits.ratio[j] - best > C45_TIE:
            best = splits.ratio[j]
            chosen = j
    return chosen


@jit_internal
def best_score_choice(splits):
    """The valid attribute with the best score, the first in column order within ``SCORE_TIE``."""
    best = -np.inf
    for j in range(splits.score.shape[0]):
        if splits.valid[j] and splits.score[j] > best:
            best = splits.score[j]
    for j in range(splits.score.shape[0]):
        if splits.valid[j] and splits.score[j] >= best - SCORE_TIE:
            return j
    return -1


#: ``attribute_choice(c45, splits)``: numba chooses when it types ``c45`` (the
#: :class:`~hyperplane.tree._state.GrowRules` field, True or None): None, not
#: C4.5's rules, compiles :func:`best_score_choice` only, so a fit of another
#: criterion compiles no :func:`c45_choice` / :func:`c45_candidates`
attribute_choice = by_none(best_score_choice, c45_choice, pass_first=(False, False))


@jit_inline
def choose_attribute(splits, rules):
    """The attribute with the best score, the first in column order within ``SCORE_TIE``.

    With C4.5's rules (``rules.c45`` True; None: not, see
    :data:`attribute_choice`): :func:`c45_choice`. −1: no valid attribute.
    """
    if not any_set(splits.valid):
        return -1
    return attribute_choice(rules.c45, splits)


@jit_twin
def training_value_cut(x, midpoint):
    """C4.5 release 8's threshold: the largest training value at or below the midpoint.

    ``x``: the attribute's column over the whole training set, in row order
    (NaN missing). With Weka's tolerance 1e-6 as J48 applies it
    (``C45Split.setSplitPoint``): scanning the rows in order, a value within
    1e-6 above the midpoint still counts, and a value replaces the largest so
    far only when larger by more than 1e-6. The node's rows route as with the
    midpoint; rows of other nodes (subtree raising) and new rows route as in
    C4.5 (Quinlan 1996, section 2).
    """
    best = -FLOAT64_MAX
    for i in range(x.shape[0]):
        v = x[i]
        if not np.isnan(v) and v - best > C45_TIE and v - midpoint < C45_TIE:
            best = v
    return best


@jit_internal
def leaf_reason(value, n_rows, depth, any_attribute, rules):
    """Why a node stays a leaf (``GROW``: it does not).

    generate_tree (周志华 4.1 lines 2-6): its rows are of one class, or
    :func:`limits_reason`.
    """
    n_classes = 0
    for c in value:
        if c > 0:
            n_classes += 1
    if n_classes <= 1:
        return ONE_CLASS
    return limits_reason(numpy_sum(value), n_rows, depth, any_attribute, rules)


@jit_internal
def limits_reason(weight, n_rows, depth, any_attribute, rules):
    """Why a node of ``weight`` and ``n_rows`` rows that is not pure stays a leaf
    (``GROW``: it does not).

    No attribute is left (周志华 4.1 line 5), or the size limits: it is at
    ``max_depth``, or holds fewer than ``min_split`` rows -- C4.5 compares its
    weight instead, so fractional copies of rows missing a value stop
    splitting (as J48 does) -- or it is lighter than ``min_weight``
    (:func:`~._builder.c45_split_floor`).
    """
    size = weight if rules.c45 is not None else n_rows
    if depth >= rules.max_depth:
        return MAX_DEPTH
    if size < rules.min_split:
        return TOO_SMALL
    if not any_attribute:
        return NO_ATTRIBUTE
    if weight < rules.min_weight:
        return UNDER_C45_FLOOR
    return GROW


def root_leaf_reason(value, n_rows, rules):
    """:func:`leaf_reason` of a tree's root (depth 0, every attribute left),
    run by Python: the kernel's own code with its callees' (their ``py_func``),
    so that a fit compiles no entry point for this one call (~0.2 s and ~460
    instructions of a first fit; :func:`~._builder.class_statistic` likewise)."""
    return _LEAF_REASON_IN_PYTHON(value, n_rows, 0, True, rules)


_LEAF_REASON_IN_PYTHON = in_python(leaf_reason, numpy_sum=numpy_sum.py_func,
                                   limits_reason=limits_reason.py_func)


@jit_internal
def route_rows(columns, j, splits, rows):
    """Branch of each row for the test on attribute ``j`` (``MISSING``: value unknown)."""
    c = columns.col[j]
    kind = columns.kind[j]
    out = empty(rows.shape[0], np.int64)
    for pos in range(rows.shape[0]):
        i = rows[pos]
        if kind == NUMERIC:
            x = columns.num_T[c, i]
            out[pos] = MISSING if np.isnan(x) else numeric_cut(x, splits.threshold[j])
        else:
            code = np.int64(columns.codes_T[c, i])
            if code < 0:
                out[pos] = MISSING
            elif kind == CATEGORICAL:
                out[pos] = code
            else:
                out[pos] = numeric_cut(code, splits.cut_bin[j])
    return out


@jit_internal
def route_at_training_value(columns, j, splits, rows):
    """:func:`route_rows` after moving ``splits.threshold[j]`` by
    :func:`training_value_cut` when attribute ``j`` is numeric: over its
    training column, or over its bins' training values (binned)."""
    if columns.kind[j] == NUMERIC:
        splits.threshold[j] = training_value_cut(columns.num_T[columns.col[j]],
                                                 splits.threshold[j])
    elif columns.kind[j] == BINNED:
        splits.threshold[j] = training_value_cut(columns.bin_range[columns.col[j]].ravel(),
                                                 splits.threshold[j])
    return route_rows(columns, j, splits, rows)


#: ``routed(cut_at_training_value, columns, j, splits, rows)``: the branch of each
#: row, chosen when numba types the flag (:func:`~hyperplane._numba.by_none`):
#: None (the midpoint threshold stays) calls :func:`route_rows` itself, so such a
#: fit compiles no :func:`training_value_cut` and no function that keeps the
#: midpoint; True :func:`route_at_training_value`
routed = by_none(route_rows, route_at_training_value, pass_first=(False, False))


@jit_internal
def branch_weights(branch, w, n_branches):
    """Known weight ``w̃_v`` of each branch and ``r̃_v = w̃_v / Σ_v w̃_v`` (周志华 4.4.2)."""
    w_branch = filled(empty(n_branches, np.float64), 0.0)
    for pos in range(branch.shape[0]):
        if branch[pos] != MISSING:
            w_branch[branch[pos]] += w[pos]
    known = numpy_sum(w_branch)
    r = empty(n_branches, np.float64)
    for v in range(n_branches):  # a loop, not numba's array expression (a unit to type and lower)
        r[v] = w_branch[v] / known
    return w_branch, r


@jit_twin
def attributes_left(avail, j, numeric):
    """Attributes usable below a test on ``j``: a categorical one is not reused."""
    if numeric:
        return avail
    left = avail.copy()
    left[j] = False
    return left


@jit_inline
def empty_branch_leaf(value, weight, v, parent_value):
    """A branch no known row reaches is a leaf with its parent's class weights
    and weight 0 (周志华 4.1 line 12): ``value[v]``, ``weight[v]`` of the
    children's class weights (growth) or of a tree's nodes (pruning's refit)."""
    for k in range(parent_value.shape[0]):  # no slice assignment (ARCHITECTURE.md, numba)
        value[v, k] = parent_value[k]
    weight[v] = 0.0


@jit_inline
def known_branches(children, w_branch, parent_value):
    """The branches that some row with a known value reaches (``w_branch > 0``);
    every other branch becomes a leaf with its parent's statistics
    (:func:`empty_branch_leaf`, reason ``EMPTY_BRANCH``). Returns the reached
    branches in order (``numpy.flatnonzero(w_branch > 0)``, by a loop: numba's
    ``flatnonzero`` is one more compiled function in every caller's library). Inlined
    into its caller (one per kind of tree): no unit of its own to link and call."""
    n_known = 0
    for v in range(w_branch.shape[0]):
        if w_branch[v] <= 0.0:
            empty_branch_leaf(children.value, children.weight, v, parent_value)
            children.reason[v] = EMPTY_BRANCH
        else:
            n_known += 1
    known = empty(n_known, np.int64)
    n_known = 0
    for v in range(w_branch.shape[0]):
        if w_branch[v] > 0.0:
            known[n_known] = v
            n_known += 1
    return known


@jit_inline
def no_children(node, n_classes):
    """The expansion of a node that stays a leaf (inlined into :func:`split_node`,
    its one caller: a unit of its own cost ~500 more final instructions with
    :func:`known_branches`' in every tree's first fit)."""
    empty_i = empty(0, np.int64)
    empty_f = empty(0, np.float64)
    return Children(-1, empty_i, empty_f, node.rows[:0], empty_f,
                    node.spare_order[:0], empty_f, empty_i,
                    empty((0, n_classes), np.float64), empty_f, empty_i,
                    empty(0, np.bool_),
                    node.spare_order[:0], node.spare_x[:0])


@jit_internal
def split_node(node, splits, columns, rules, dest, parallel_rows, n_stats):
    """Split ``node`` on the best attribute of its split table ``splits``, for
    every kind of tree.

    Chooses the attribute, routes and partitions the node's rows (with their
    sorted orders and values; ``dest``: scratch indexed by row, needed with
    orders, ``None`` in a tree without exact numeric attributes; from
    ``parallel_rows`` rows the attributes are split side by side, ``None``:
    never, see :func:`~hyperplane.tree._traverse_kernels.partition_node`)
    and computes ``r̃_v``. Returns the :class:`Children` with their
    statistics (``n_stats`` per branch) still zero, the known weight of each
    branch and whether any attribute is left below; ``attribute == −1``: no
    admissible split, the node is a leaf.
    """
    j = choose_attribute(splits, rules)
    if j < 0:
        return no_children(node, n_stats), empty(0, np.float64), False
    numeric = columns.kind[j] != CATEGORICAL
    n_branches = 2 if numeric else columns.codes_count[columns.col[j]]
    branch = routed(rules.cut_at_training_value, columns, j, splits, node.rows)
    w_branch, r = branch_weights(branch, node.w, n_branches)
    part = partition_node(node.rows, node.w, branch, r, Orders(node.order, node.sorted_x),
                          Orders(node.spare_order, node.spare_x), dest, parallel_rows)
    any_attribute = any_set(attributes_left(node.avail, j, numeric))
    children = Children(j, branch, r, part.rows, part.w, part.order, part.sorted_x,
                        part.offsets, empty((n_branches, n_stats), np.float64),
                        empty(n_branches, np.float64),
                        empty(n_branches, np.int64),
                        empty(n_branches, np.bool_), part.spare_order, part.spare_x)
    for v in range(n_branches):  # one loop, not four inlined fills: less to type and lower
        for k in range(n_stats):
            children.value[v, k] = 0.0
        children.weight[v] = 0.0
        children.reason[v] = GROW
        children.unit[v] = True
    return children, w_branch, any_attribute


@jit_twin
def expand_node(node, splits, columns, rules, n_classes, dest, parallel_rows):
    """Expand ``node`` on the best attribute of its split table ``splits``.

    :func:`split_node`, then the children's class weights and why each child
    is a leaf. ``attribute == −1``: no admissible split, the node is a leaf.
    """
    children, w_branch, any_attribute = split_node(node, splits, columns, rules, dest,
                                                   parallel_rows, n_classes)
    if children.attribute < 0:
        return children
    offsets, child_rows, child_w = children.offsets, children.rows, children.w
    for v in known_branches(children, w_branch, node.value):
        n_rows = offsets[v + 1] - offsets[v]
        if node.count.shape[0] > 0:
            n_rows = 0
        for pos in range(offsets[v], offsets[v + 1]):
            children.value[v, columns.y[child_rows[pos]]] += child_w[pos]
            if child_w[pos] != 1.0:
                children.unit[v] = False
            if node.count.shape[0] > 0:
                n_rows += node.count[child_rows[pos]]
        children.weight[v] = numpy_sum(children.value[v])
        children.reason[v] = leaf_reason(children.value[v], n_rows, node.depth + 1,
                                         any_attribute, rules)
    return children
