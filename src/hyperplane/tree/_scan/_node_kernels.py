"""Compiled scoring of one node: its split table (:class:`~hyperplane.tree._state.Splits`),
every available attribute scored serially or in parallel with the split search
of :mod:`._split_kernels`."""

from __future__ import annotations

import numpy as np
from numba import prange

from ..._numba import jit, jit_parallel_exact
from .._grow._expand_kernels import new_splits, put_split
from ._numeric_cut_kernels import best_numeric_cut, score_table
from ._split_kernels import CATEGORICAL, NUMERIC
from .._state import Columns, GrowRules, Orders, Scan, Splits, new_node
from ._table_kernels import node_class_tables

#: nodes with at least this many rows score their attributes in parallel
PARALLEL_ROWS = 20000


@jit
def _score_attribute(j, columns, node, rules, scan, tables, n_rows, splits):
    """Score attribute ``j`` into entry ``j`` of ``splits`` (if it is available)."""
    if not node.avail[j]:
        return
    c = columns.col[j]
    if columns.kind[j] == NUMERIC:
        put_split(splits, j, best_numeric_cut(node.sorted_x[c], node.order[c], columns.y,
                                              node.value, scan, rules, scan_scratch(node, c)))
    else:
        width = columns.codes_count[c] + 1
        lookup = scan.clogc if scan.unit else scan.clogc[:0]
        put_split(splits, j, score_table(tables[c, :width], n_rows[c, :width],
                                         columns.kind[j] == CATEGORICAL, columns.bin_range[c],
                                         rules, lookup))


@jit
def scan_scratch(node, c):
    """Scratch of the scan of exact numeric attribute ``c``: its part of the
    node's spare region (free until the node's children are written into it;
    empty when the node has none)."""
    m = node.order.shape[1]
    return node.spare_order[c * m:(c + 1) * m], node.spare_x[c * m:(c + 1) * m]


@jit
def _node_tables(columns, node, scan):
    """An empty split table; the node's weights spread over ``scan.wbuf`` by row
    and the class tables of its available coded attributes."""
    for pos in range(node.rows.shape[0]):
        scan.wbuf[node.rows[pos]] = node.w[pos]
    avail_coded = np.zeros(columns.codes_rows.shape[1], dtype=np.bool_)
    for j in range(columns.kind.shape[0]):
        if node.avail[j] and columns.kind[j] != NUMERIC:
            avail_coded[columns.col[j]] = True
    tables, n_rows = node_class_tables(columns.codes_rows, columns.codes_count, columns.y,
                                       node.rows, scan.wbuf, avail_coded, node.value.shape[0])
    return new_splits(columns.kind.shape[0]), tables, n_rows


@jit
def node_scores(columns, node, rules, scan):
    """The split table of ``node``: every available attribute scored.

    An exact numeric attribute ``j`` is scanned in ``node.order[col[j]]``
    (its values ``node.sorted_x[col[j]]``) by
    :func:`best_numeric_cut`; a categorical or binned one is scored from the
    node's class table (:func:`score_table`). ``rules.c45``: the C4.5 rules
    of both (``criterion="gain_ratio"``).
    """
    splits, tables, n_rows = _node_tables(columns, node, scan)
    for j in range(columns.kind.shape[0]):
        _score_attribute(j, columns, node, rules, scan, tables, n_rows, splits)
    return splits


@jit_parallel_exact
def node_scores_parallel(columns, node, rules, scan):
    """:func:`node_scores` with the attributes scored in parallel (large nodes).

    numba's parallel loops cannot capture named tuples of arrays, so the
    loop body receives their fields and rebuilds them.
    """
    splits, tables, n_rows = _node_tables(columns, node, scan)
    c_num, c_codes, c_rows, c_count, c_kind, c_col, c_range, c_y = columns
    n_r, n_w, n_order, n_x, n_count, n_value, n_depth, n_avail, n_spare, n_spare_x = node
    criterion, c45, max_depth, min_split, min_leaf, min_weight, at_value = rules
    wbuf, unit, clogc = scan
    score, ratio, after, rho, threshold, cut_bin, valid = splits
    for j in prange(c_kind.shape[0]):
        _score_attribute(j, Columns(c_num, c_codes, c_rows, c_count, c_kind, c_col, c_range, c_y),
                         new_node(n_r, n_w, Orders(n_order, n_x), n_count, n_value, n_depth,
                                  n_avail, Orders(n_spare, n_spare_x)),
                         GrowRules(criterion, c45, max_depth, min_split, min_leaf, min_weight,
                                   at_value),
                         Scan(wbuf, unit, clogc), tables, n_rows,
                         Splits(score, ratio, after, rho, threshold, cut_bin, valid))
    return splits


@jit
def score_attributes(columns, node, rules, scan, parallel_rows):
    """The split table of ``node``: :func:`node_scores`, or
    :func:`node_scores_parallel` for a node of at least ``parallel_rows`` rows
    (``None``: never, and the parallel kernel is not compiled)."""
    if parallel_rows is not None and node.rows.shape[0] >= parallel_rows:
        return node_scores_parallel(columns, node, rules, scan)
    return node_scores(columns, node, rules, scan)
