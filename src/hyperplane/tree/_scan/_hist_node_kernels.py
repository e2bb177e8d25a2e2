"""A coded-only node's class tables, counted, subtracted and scored with the
attributes side by side.

The top of a histogram tree is a few large nodes grown one after the other
(:func:`~hyperplane.tree._grow._subtree_kernels.grow_subtree`); each of them counts or subtracts
(histogram subtraction, Ke et al. 2017, "LightGBM", NeurIPS, algorithm 1)
every row into every attribute's table and scores every attribute. The
parallel kernels here split that work by attribute: a group of columns per
thread, each table cell still summed over the node's rows in their order, so
the tables and the split table are the serial kernels' bit for bit whatever
the thread count. The per-attribute steps (:func:`score_coded_attribute`,
:func:`weight_taken_out`) are the ones the serial kernels of
:mod:`hyperplane.tree._grow._subtree_kernels` call.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ..._numba import jit_internal, jit_parallel_exact_twin, jit_twin
from ..._lowered import empty
from .._grow._expand_kernels import put_split
from ._numeric_cut_kernels import WORK_ROWS, ordered_cut
from ._split_kernels import CATEGORICAL, table_split_score
from .._state import Kept, Scratch, Span
from ._table_kernels import tally_row
from .._traverse_kernels import MISSING


@jit_twin
def new_scratch(width, sort_rows, n_classes):
    """Bin-scan buffers for attributes of up to ``width`` codes and small nodes
    of fewer than ``sort_rows`` rows."""
    size = max(width, sort_rows)
    return Scratch(empty(size, np.int64), empty((size, n_classes), np.float64),
                   empty(size, np.int64),
                   empty((WORK_ROWS, n_classes), np.float64),
                   empty(sort_rows, np.int64))


@jit_internal
def weight_taken_out(b, w, r_keep):
    """The weight a row of branch ``b`` leaves the kept child's tables with: all of
    it, or ``(1 − r_keep) · w`` for a row missing the tested value (it stays in
    the kept child with ``r_keep · w``)."""
    return w * (1.0 - r_keep) if b == MISSING else w


@jit_internal
def rows_taken_out(b):
    """The rows a row of branch ``b`` takes out of the kept child's counts: −1, or
    none for a row missing the tested value (it is counted in every child)."""
    return 0 if b == MISSING else -1


@jit_internal
def add_rows(codes_rows, codes_count, y, rows, w, span, table, counts):
    """Add ``rows`` (weights ``w`` by position) into the class tables of the coded
    columns of the :class:`~hyperplane.tree._state.Span` ``span``, in the rows' order
    (:func:`tally_row`)."""
    for pos in range(rows.shape[0]):
        i = rows[pos]
        tally_row(codes_rows[i], codes_count, y[i], w[pos], 1, span, table, counts)


@jit_internal
def take_out_rows(columns, node, branch, kept, span, table, counts):
    """Take the rows of ``node`` that leave its child ``kept`` (a
    :class:`~hyperplane.tree._state.Kept`) out of the class tables of the coded columns of the
    :class:`~hyperplane.tree._state.Span` ``span``, in the rows' order: a row of another branch
    entirely, a row missing the tested value (``branch == MISSING``) by
    :func:`weight_taken_out` and not in the counts (:func:`rows_taken_out`)."""
    for pos in range(node.rows.shape[0]):
        b = branch[pos]
        if b != kept.branch:
            i = node.rows[pos]
            tally_row(columns.codes_rows[i], columns.codes_count, columns.y[i],
                      -weight_taken_out(b, node.w[pos], kept.r), rows_taken_out(b), span,
                      table, counts)


@jit_internal
def score_coded_attribute(table, counts, columns, j, rules, lookup, scratch):
    """The split-table entry of coded attribute ``j`` from the node's tables: a
    multiway split (:func:`~._split_kernels.table_split_score`) or, binned, the
    best cut over its non-empty bins, gathered into ``scratch``
    (:func:`~._numeric_cut_kernels.ordered_cut`; ``scratch`` None: the tree has
    no binned attribute, and numba compiles no binned scan)."""
    c = columns.col[j]
    n_codes = columns.codes_count[c]
    if scratch is None or columns.kind[j] == CATEGORICAL:
        return table_split_score(table[c, :n_codes + 1], counts[c, :n_codes + 1],
                                 rules.criterion, rules.min_leaf, rules.c45)
    d = 0
    for v in range(n_codes):
        if counts[c, v] > 0:
            scratch.bins[d] = v
            for k in range(table.shape[2]):  # no slice assignment (ARCHITECTURE.md, numba)
                scratch.bin_table[d, k] = table[c, v, k]
            scratch.bin_rows[d] = counts[c, v]
            d += 1
    return ordered_cut(d, scratch, table[c, n_codes], columns.bin_range[c], rules, lookup)


@jit_parallel_exact_twin
def score_coded_parallel(table, counts, columns, avail, rules, lookup, splits):
    """:func:`~hyperplane.tree._grow._class_tables_kernels.score_coded` with the attributes side by side
    (each with its own scan buffers; the same split table), into ``splits``
    (:func:`~hyperplane.tree._grow._expand_kernels.new_splits`). The loop body writes entry
    ``j`` through :func:`~hyperplane.tree._grow._expand_kernels.put_split`, never through a
    record's field itself (numba's parallel loops lose such writes), and ``splits``
    comes in as an argument (numba's parallel loops do not take in a named tuple
    that a compiled function returned).
    """
    p = columns.kind.shape[0]
    width = table.shape[1]
    n_classes = table.shape[2]
    for j in prange(p):
        if avail[j]:
            entry = score_coded_attribute(table, counts, columns, j, rules, lookup,
                                          new_scratch(width, 0, n_classes))
            put_split(splits, j, entry)


@jit_internal
def column_group(g, n_groups, p):
    """The :class:`~hyperplane.tree._state.Span` of group ``g`` of ``n_groups`` near-equal groups of ``p``
    columns."""
    return Span(g * p // n_groups, (g + 1) * p // n_groups)


@jit_parallel_exact_twin
def accumulate_rows_parallel(codes_rows, codes_count, y, rows, w, table, counts, groups):
    """:func:`~hyperplane.tree._grow._class_tables_kernels.accumulate_rows` with the columns in ``groups``
    groups side by side (one per thread).

    Every cell adds the node's rows in their order, as the serial kernel does,
    so the tables are the same bit for bit whatever ``groups``.
    """
    p = codes_rows.shape[1]
    n_groups = max(1, min(p, groups))
    for g in prange(n_groups):
        add_rows(codes_rows, codes_count, y, rows, w, column_group(g, n_groups, p), table,
                 counts)


@jit_parallel_exact_twin
def take_out_siblings_parallel(columns, node, branch, keep, r_keep, table, counts, groups):
    """:func:`~hyperplane.tree._grow._class_tables_kernels.take_out_siblings` with the columns in ``groups``
    groups side by side (every cell in the node's row order: the same tables)."""
    p = columns.codes_rows.shape[1]
    n_groups = max(1, min(p, groups))
    kept = Kept(keep, r_keep)
    for g in prange(n_groups):
        take_out_rows(columns, node, branch, kept, column_group(g, n_groups, p), table, counts)
