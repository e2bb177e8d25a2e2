"""Compiled scoring of one node: its split table (:class:`~hyperplane.tree._state.Splits`),
every available attribute scored serially or in parallel with the split search
of :mod:`._split_kernels`."""

from __future__ import annotations

import numpy as np
from numba import prange

from ..._numba import jit_internal, jit_parallel_exact_internal, jit_twin
from .._grow._expand_kernels import new_splits, put_split
from ._numeric_cut_kernels import best_numeric_cut, score_table
from ._split_kernels import CATEGORICAL, NUMERIC
from .._state import GatherBuffers, Tables
from ._table_kernels import node_class_tables

#: nodes with at least this many rows score their attributes in parallel
PARALLEL_ROWS = 20000


@jit_internal
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


@jit_internal
def scan_scratch(node, c):
    """Scratch of the scan of exact numeric attribute ``c``: its part of the
    node's spare region (free until the node's children are written into it;
    empty when the node has none), as :class:`~hyperplane.tree._state.GatherBuffers`."""
    m = node.order.shape[1]
    return GatherBuffers(node.spare_order[c * m:(c + 1) * m], node.spare_x[c * m:(c + 1) * m])


@jit_internal
def _node_tables(columns, node, scan):
    """The node's weights spread over ``scan.wbuf`` by row and the class tables
    of its available coded attributes."""
    for pos in range(node.rows.shape[0]):
        scan.wbuf[node.rows[pos]] = node.w[pos]
    avail_coded = np.zeros(columns.codes_rows.shape[1], dtype=np.bool_)
    for j in range(columns.kind.shape[0]):
        if node.avail[j] and columns.kind[j] != NUMERIC:
            avail_coded[columns.col[j]] = True
    tables, n_rows = node_class_tables(columns.codes_rows, columns.codes_count, columns.y,
                                       node.rows, scan.wbuf, avail_coded, node.value.shape[0])
    return tables, n_rows


@jit_parallel_exact_internal
def node_scores_parallel(columns, node, rules, scan, tables, splits):
    """Every attribute of ``node`` scored side by side into ``splits`` (the
    :func:`score_attributes` of a large node; ``tables`` the class tables of its
    coded attributes, :class:`~hyperplane.tree._state.Tables`).

    The loop body hands the records to :func:`_score_attribute`, which writes
    entry ``j`` of ``splits``; it never writes through a record's field itself
    (numba's parallel loops lose such writes), and ``splits`` comes in as an
    argument (numba's parallel loops do not take in a named tuple unpacked
    from a returned tuple).
    """
    for j in prange(columns.kind.shape[0]):
        _score_attribute(j, columns, node, rules, scan, tables.table, tables.counts, splits)


@jit_twin
def score_attributes(columns, node, rules, scan, parallel_rows):
    """The split table of ``node``: every available attribute scored, side by
    side (:func:`node_scores_parallel`) for a node of at least ``parallel_rows``
    rows (``None``: never, and the parallel kernel is not compiled; the same
    split table).

    An exact numeric attribute ``j`` is scanned in ``node.order[col[j]]``
    (its values ``node.sorted_x[col[j]]``) by
    :func:`best_numeric_cut`; a categorical or binned one is scored from the
    node's class table (:func:`score_table`). ``rules.c45``: the C4.5 rules
    of both (``criterion="gain_ratio"``).
    """
    tables, n_rows = _node_tables(columns, node, scan)
    splits = new_splits(columns.kind.shape[0])
    if parallel_rows is not None and node.rows.shape[0] >= parallel_rows:
        node_scores_parallel(columns, node, rules, scan, Tables(tables, n_rows), splits)
    else:
        for j in range(columns.kind.shape[0]):
            _score_attribute(j, columns, node, rules, scan, tables, n_rows, splits)
    return splits
