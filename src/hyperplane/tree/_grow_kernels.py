"""Compiled step of generate_tree (周志华 4.1) after a node's attributes are scored.

:func:`split_node` does in one call what growing a node needs once the
scores are known: choose the attribute (SPEC tie rule; for C4.5 the best
gain ratio among attributes of at least average gain, Quinlan 1993, 2.2),
send the node's rows down its branches (rows missing the tested value go
down every branch with weight ``r_v · w``, 周志华 4.4.2), count each child's
class weights and tell which children are leaves by generate_tree's stopping
rules. One compiled call per node instead of a dozen small NumPy calls.
"""

from __future__ import annotations

import numpy as np

from .._numba import jit
from ._prune_kernels import numpy_sum
from ._split_kernels import C45_TIE, CATEGORICAL, NUMERIC
from ._traverse_kernels import MISSING, branch_of_codes, branch_of_rows, partition_node

#: attributes whose scores agree within this count as tied
ATTRIBUTE_TIE = 1e-9
#: C4.5 release 8 (J48): an attribute of gain ≥ average − this competes on gain ratio
C45_AVERAGE_SLACK = 1e-3


@jit
def choose_attribute(score, ratio, valid, use_ratio):
    """The best attribute: the highest score, the first in column order within 1e-9.

    With ``use_ratio``: :func:`c45_choice`. −1: no valid attribute.
    """
    if use_ratio:
        return c45_choice(score, ratio, valid)
    p = valid.shape[0]
    n_valid = 0
    for j in range(p):
        if valid[j] != 0:
            n_valid += 1
    if n_valid == 0:
        return -1
    best = -np.inf
    for j in range(p):
        if valid[j] != 0 and score[j] > best:
            best = score[j]
    for j in range(p):
        if valid[j] != 0 and score[j] >= best - ATTRIBUTE_TIE:
            return j
    return -1


@jit
def c45_choice(score, ratio, valid):
    """C4.5's choice (Quinlan 1993, 2.2) with release 8's tolerances (Weka's J48).

    Candidates are the valid attributes whose gain is at least the average
    gain of the valid ones minus ``C45_AVERAGE_SLACK`` (1e-3); scanning them
    in column order, an attribute replaces the best so far when its gain
    ratio is larger by more than ``C45_TIE`` (1e-6), starting from 0: no
    split (−1) when no ratio exceeds 1e-6. The mean is taken in NumPy's
    summation order.
    """
    p = valid.shape[0]
    n_valid = 0
    for j in range(p):
        if valid[j] != 0:
            n_valid += 1
    if n_valid == 0:
        return -1
    gains = np.empty(n_valid)
    at = 0
    for j in range(p):
        if valid[j] != 0:
            gains[at] = score[j]
            at += 1
    average = numpy_sum(gains) / n_valid
    best = 0.0
    chosen = -1
    for j in range(p):
        if (valid[j] != 0 and score[j] >= average - C45_AVERAGE_SLACK
                and ratio[j] - best > C45_TIE):
            best = ratio[j]
            chosen = j
    return chosen


@jit
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
    best = -np.finfo(np.float64).max
    for i in range(x.shape[0]):
        v = x[i]
        if not np.isnan(v) and v - best > C45_TIE and v - midpoint < C45_TIE:
            best = v
    return best


@jit
def _is_leaf(counts, n_rows, depth, any_avail, use_ratio, max_depth, min_split, min_weight):
    """generate_tree's leaf conditions (周志华 4.1 lines 2-6) plus the size limits.

    ``min_weight``: a node lighter than this has no admissible split (C4.5,
    :func:`~._builder.c45_split_floor`; 0 = no such bound).
    """
    n_pure = 0
    for c in counts:
        if c > 0:
            n_pure += 1
    weight = numpy_sum(counts)
    size = weight if use_ratio else n_rows
    return (n_pure <= 1 or depth >= max_depth or size < min_split or not any_avail
            or weight < min_weight)


@jit
def split_node(j, threshold, cut_bin, num_T, codes_T, kind, col, n_codes, y, rows, w, order,
               dest, avail, n_classes, depth, use_ratio, max_depth, min_split, min_weight):
    """Send a node's rows down the branches of the chosen attribute ``j``.

    Returns ``(w_branch, r, child_rows, child_w, child_order, offsets,
    child_value, child_leaf, child_unit)``: ``w_branch[v]`` is the known weight
    of branch ``v`` and ``r_v = w_branch[v] / Σ w_branch``; child ``v`` owns
    ``offsets[v]:offsets[v + 1]`` of the row, weight and (per exact numeric
    attribute) sorted-order arrays (:func:`~._traverse_kernels.partition_node`);
    ``child_value[v]`` its class weights; ``child_leaf[v]`` whether it stops
    (pure, at ``max_depth``, lighter / smaller than ``min_split``, no
    attribute left -- a categorical attribute is not reused below itself --
    or lighter than ``min_weight``, so that no split could be admissible);
    ``child_unit[v]`` whether all its rows weigh 1.
    """
    c = col[j]
    numeric = kind[j] != CATEGORICAL
    if kind[j] == NUMERIC:
        branch = branch_of_rows(num_T[c], rows, True, threshold)
    else:
        branch = branch_of_codes(codes_T[c], rows, numeric, cut_bin)
    n_branches = 2 if numeric else n_codes[j]
    w_branch = np.zeros(n_branches)
    for pos in range(rows.shape[0]):
        if branch[pos] != MISSING:
            w_branch[branch[pos]] += w[pos]
    r = w_branch / numpy_sum(w_branch)
    child_rows, child_w, child_order, offsets = partition_node(rows, w, branch, r, order, dest)
    any_avail = False
    for a in range(avail.shape[0]):
        if avail[a] and (numeric or a != j):
            any_avail = True
    child_value = np.zeros((n_branches, n_classes))
    child_leaf = np.zeros(n_branches, dtype=np.bool_)
    child_unit = np.ones(n_branches, dtype=np.bool_)
    for v in range(n_branches):
        for pos in range(offsets[v], offsets[v + 1]):
            child_value[v, y[child_rows[pos]]] += child_w[pos]
            if child_w[pos] != 1.0:
                child_unit[v] = False
        child_leaf[v] = _is_leaf(child_value[v], offsets[v + 1] - offsets[v], depth + 1,
                                 any_avail, use_ratio, max_depth, min_split, min_weight)
    return w_branch, r, child_rows, child_w, child_order, offsets, child_value, child_leaf, \
        child_unit
