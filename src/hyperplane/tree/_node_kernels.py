"""Compiled scoring of one node: every available attribute, serially or in
parallel, with the split search of :mod:`._split_kernels`."""

from __future__ import annotations

import numpy as np
from numba import prange

from .._numba import jit, jit_parallel_exact
from ._split_kernels import CATEGORICAL, NUMERIC, best_numeric_cut, score_table
from ._table_kernels import node_class_tables


@jit
def _score_attribute(j, num_T, kind, col, edges, y, order, n_classes, criterion, min_leaf, wbuf,
                     value, unit, clogc, tables, n_rows, codes_count, out_f, out_i, c45):
    """Score attribute ``j`` into ``out_f[:, j]`` (score, ratio, after, rho, threshold) and
    ``out_i[:, j]`` (cut bin, valid)."""
    c = col[j]
    if kind[j] == NUMERIC:
        s, g, a, r, t, ok = best_numeric_cut(num_T[c], y, wbuf, order[c], n_classes,
                                             criterion, min_leaf, value, unit, clogc, c45)
        b = -1
    else:
        width = codes_count[c] + 1
        lookup = clogc if unit else clogc[:0]
        s, g, a, r, t, b, ok = score_table(tables[c, :width], n_rows[c, :width],
                                           kind[j] == CATEGORICAL, edges[c], criterion, min_leaf,
                                           lookup, c45)
    out_f[0, j], out_f[1, j], out_f[2, j], out_f[3, j], out_f[4, j] = s, g, a, r, t
    out_i[0, j], out_i[1, j] = b, 1 if ok else 0


@jit
def _score_buffers(kind, col, avail, codes_rows, codes_count, y, rows, w, wbuf, n_classes):
    """Outputs of a node's scoring; spreads the node's weights over ``wbuf`` by row and
    builds the class tables of its available coded attributes."""
    p = kind.shape[0]
    out_f = np.zeros((5, p))
    out_f[4, :] = np.nan
    out_i = np.zeros((2, p), dtype=np.int64)
    for pos in range(rows.shape[0]):
        wbuf[rows[pos]] = w[pos]
    avail_coded = np.zeros(codes_rows.shape[1], dtype=np.bool_)
    for j in range(p):
        if avail[j] and kind[j] != NUMERIC:
            avail_coded[col[j]] = True
    tables, n_rows = node_class_tables(codes_rows, codes_count, y, rows, wbuf, avail_coded,
                                       n_classes)
    return out_f, out_i, tables, n_rows


@jit
def node_scores(num_T, codes_rows, codes_count, kind, col, edges, y, rows, w, order, avail,
                n_classes, criterion, min_leaf, wbuf, value, unit, clogc, c45=False):
    """Score every available attribute at one node.

    ``kind[j]``/``col[j]`` locate attribute ``j`` in ``num_T`` (exact numeric,
    one row per attribute, using ``order[col[j]]``) or in the row-major
    ``codes_rows`` (categorical or binned, ``codes_count[c]`` codes, −1
    missing). ``value`` is the node's class weights; ``unit`` says every row
    weighs 1 (then ``clogc`` = :func:`c_log2_c`); ``c45``: the C4.5 rules of
    :func:`best_numeric_cut` and :func:`table_split_score`
    (``criterion="gain_ratio"``). Returns ``(out_f, out_i)``:
    rows of ``out_f`` are score, gain ratio, after, rho, threshold; rows of
    ``out_i`` cut bin, valid.
    """
    out_f, out_i, tables, n_rows = _score_buffers(kind, col, avail, codes_rows, codes_count, y,
                                                  rows, w, wbuf, n_classes)
    for j in range(kind.shape[0]):
        if avail[j]:
            _score_attribute(j, num_T, kind, col, edges, y, order, n_classes, criterion,
                             min_leaf, wbuf, value, unit, clogc, tables, n_rows, codes_count,
                             out_f, out_i, c45)
    return out_f, out_i


@jit_parallel_exact
def node_scores_parallel(num_T, codes_rows, codes_count, kind, col, edges, y, rows, w, order,
                         avail, n_classes, criterion, min_leaf, wbuf, value, unit, clogc,
                         c45=False):
    """:func:`node_scores` with the attributes scored in parallel (large nodes)."""
    out_f, out_i, tables, n_rows = _score_buffers(kind, col, avail, codes_rows, codes_count, y,
                                                  rows, w, wbuf, n_classes)
    for j in prange(kind.shape[0]):
        if avail[j]:
            _score_attribute(j, num_T, kind, col, edges, y, order, n_classes, criterion,
                             min_leaf, wbuf, value, unit, clogc, tables, n_rows, codes_count,
                             out_f, out_i, c45)
    return out_f, out_i
