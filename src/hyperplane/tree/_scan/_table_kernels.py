"""Class-weight tables of coded attributes: the statistics a node's split needs.

For a categorical or binned attribute a node needs only, per code (and one
row for a missing value), the weight of each class and the number of rows.
These tables add up over disjoint sets of rows, so the in-memory builder
computes them per node and a Dask fit sums them over chunks
(:mod:`hyperplane.tree._dask._levels`); :func:`~._numeric_cut_kernels.score_table`
turns a table into a split.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..._numba import jit, jit_inline, jit_internal


@jit
def class_weights(y, rows, w, n_classes):
    """The class weights of ``rows`` (row ``rows[i]`` of class ``y[rows[i]]``
    weighs ``w[i]``): a classifier's node statistic, the weighted class counts
    of 周志华 §4.4.2, summed in row order.

    Compiled callers (the pessimistic pruning's refit of a subtree) call it
    compiled; the root of a growth calls its ``py_func``, NumPy's
    ``bincount`` (numba's sums in the same order), so a fit compiles or loads
    nothing for its root.

    Examples
    --------
    >>> import numpy as np
    >>> y = np.array([0, 1, 1, 2])
    >>> class_weights(y, np.array([1, 2, 3]), np.array([0.5, 1.0, 2.0]), 4).tolist()
    [0.0, 1.5, 2.0, 0.0]
    """
    return np.bincount(y[rows], weights=w, minlength=n_classes)


@jit_inline
def table_slot(code, n_codes):
    """The row of an attribute's class table that a coded value counts in:
    the code itself, or the extra last row ``n_codes`` for a missing value
    (a negative code)."""
    return np.int64(n_codes) if code < 0 else np.int64(code)


@jit_internal
def tally_row(codes_row, codes_count, k, w, step, span, table, counts):
    """Add weight ``w`` of class ``k`` and ``step`` rows to the cells of one row's
    codes ``codes_row`` in the class tables of the coded columns of the
    :class:`~hyperplane.tree._state.Span` ``span`` (``table[c, code, k]``, ``counts[c, code]``;
    a missing code: the last slot, :func:`table_slot`). A negative ``w`` and
    ``step`` take a row out (histogram subtraction)."""
    for c in range(span.lo, span.hi):
        code = table_slot(codes_row[c], codes_count[c])
        table[c, code, k] += w
        counts[c, code] += step


@jit_internal
def accumulate_class_table(codes, y, w, rows, table, n_rows):
    """Add the weights of ``rows`` into ``table[code, y]`` and count them in ``n_rows[code]``.

    The missing code −1 goes to the last row. Results of two chunks add up:
    calling this twice on disjoint rows equals one call on their union.
    """
    n_missing_row = table.shape[0] - 1
    for i in rows:
        c = codes[i]
        if c < 0:
            c = n_missing_row
        table[c, y[i]] += w[i]
        n_rows[c] += 1


@jit
def category_class_table(codes, y, w, n_codes, n_classes):
    """Class-weight table and row counts of one data chunk (all rows).

    Returns ``(table, n_rows)`` of shapes ``(n_codes + 1, K)`` and ``(n_codes + 1,)``.
    """
    table = np.zeros((n_codes + 1, n_classes), dtype=np.float64)
    n_rows = np.zeros(n_codes + 1, dtype=np.int64)
    accumulate_class_table(codes, y, w, np.arange(codes.shape[0]), table, n_rows)
    return table, n_rows


@jit_internal
def node_class_tables(codes_rows, codes_count, y, rows, wbuf, avail_coded, n_classes):
    """Class-weight tables of one node for every coded attribute, in one pass over its rows.

    ``codes_rows`` is row-major (one row of codes per sample), so a node's
    rows are read contiguously whatever their number. Returns ``(tables,
    n_rows)`` shaped ``(p_coded, width + 1, K)`` and ``(p_coded, width + 1)``;
    attribute ``c`` uses slots ``0..codes_count[c]`` (the last: missing).
    """
    p = codes_rows.shape[1]
    width = 0
    for c in range(p):
        width = max(width, codes_count[c])
    tables = np.zeros((p, width + 1, n_classes), dtype=np.float64)
    n_rows = np.zeros((p, width + 1), dtype=np.int64)
    for i in rows:
        k = y[i]
        wi = wbuf[i]
        for c in range(p):
            if avail_coded[c]:
                code = table_slot(codes_rows[i, c], codes_count[c])
                tables[c, code, k] += wi
                n_rows[c, code] += 1
    return tables, n_rows


@jit
def level_class_tables(codes_T, codes_count, y, entry_row, entry_node, entry_w, n_nodes,
                       n_classes):
    """Class-weight tables of every node of one tree level and every coded attribute.

    ``entry_*`` list (row, node, weight) of one data chunk at this level (a row
    missing a value tested above appears once per node it reached, with its
    ``r_v``-scaled weight). Returns ``(tables, n_rows)`` of shapes
    ``(n_nodes, p, width + 1, K)`` and ``(n_nodes, p, width + 1)`` with
    ``width = codes_count.max()``; coded column ``c`` uses slots
    ``0..codes_count[c]`` (the last one: missing), so
    ``tables[t, c, :codes_count[c] + 1]`` is the table :func:`score_table`
    takes. Chunks' results add up (level-by-level growth on Dask sums them
    and calls :func:`score_table`).
    """
    p = codes_T.shape[0]
    width = 0
    for c in range(p):
        width = max(width, codes_count[c])
    tables = np.zeros((n_nodes, p, width + 1, n_classes), dtype=np.float64)
    n_rows = np.zeros((n_nodes, p, width + 1), dtype=np.int64)
    for e in range(entry_row.shape[0]):
        i = entry_row[e]
        t = entry_node[e]
        for c in range(p):
            code = table_slot(codes_T[c, i], codes_count[c])
            tables[t, c, code, y[i]] += entry_w[e]
            n_rows[t, c, code] += 1
    return tables, n_rows


class MomentTables(NamedTuple):
    """One level's regression statistics from a chunk: the moments per node,
    attribute and value (``tables``), their row counts (``n_rows``) and each
    node's smallest and largest target (``low``, ``high``)."""
    tables: np.ndarray
    n_rows: np.ndarray
    low: np.ndarray
    high: np.ndarray


@jit
def level_moment_tables(codes_T, codes_count, y, entry_row, entry_node, entry_w, n_nodes):
    """The regression tree's :func:`level_class_tables`: per node of one level,
    coded attribute and value (last: missing), the moments ``[Σw, Σwy, Σwy²]``
    of the entries (:func:`~._moments_kernels.add_row`'s arithmetic) and their
    row count, of shapes ``(n_nodes, p, width + 1, 3)`` and ``(n_nodes, p, width + 1)``;
    also the smallest and largest target at each node (``(n_nodes,)`` each).
    Chunks' tables add up; their extremes merge by min and max.
    """
    p = codes_T.shape[0]
    width = 0
    for c in range(p):
        width = max(width, codes_count[c])
    tables = np.zeros((n_nodes, p, width + 1, 3), dtype=np.float64)
    n_rows = np.zeros((n_nodes, p, width + 1), dtype=np.int64)
    low = np.full(n_nodes, np.inf)
    high = np.full(n_nodes, -np.inf)
    for e in range(entry_row.shape[0]):
        i = entry_row[e]
        t = entry_node[e]
        wy = entry_w[e] * y[i]
        low[t] = min(low[t], y[i])
        high[t] = max(high[t], y[i])
        for c in range(p):
            code = table_slot(codes_T[c, i], codes_count[c])
            tables[t, c, code, 0] += entry_w[e]
            tables[t, c, code, 1] += wy
            tables[t, c, code, 2] += wy * y[i]
            n_rows[t, c, code] += 1
    return MomentTables(tables, n_rows, low, high)
