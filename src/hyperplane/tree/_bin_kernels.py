"""Compiled quantile binning: every row's bin codes for ``splitter="hist"``.

:func:`bin_rows` gives the code :func:`bin_column` gives (``x <=
edges[b]`` ⇔ code ``<= b``, i.e. ``numpy.searchsorted(edges, x, "left")``;
−1 for NaN) for all binned columns at once; above ``TRANSPOSE_ROWS`` rows by
:func:`bin_rows_parallel`, reading ``X`` row by row and writing the row-major
codes the tree kernels read, in parallel over rows (a smaller fit codes each
column by NumPy and compiles no parallel kernel).
Up to 256 edges the code is counted (:func:`count_below`: two runs of 16
comparisons, which vectorise); beyond, a branch-free binary search
(:func:`lower_bound`, Knuth, TAOCP vol. 3, 6.2.1, with conditional moves).
:func:`codes_by_column` and :func:`columns_by_row` lay the codes and the
exact numeric attributes out one attribute per row, in parallel row blocks
(:func:`transposed_codes`, :func:`transposed_columns`: NumPy for one block);
:func:`column_ranges` gives every column's smallest and largest known value,
:func:`bin_ranges` every bin's (where a cut between bins lies; NumPy for one
block, else :func:`bin_ranges_parallel`)."""

from __future__ import annotations

import numpy as np

from numba import prange

from .._numba import jit_internal, jit_parallel, jit_parallel_exact
from .._lowered import empty, maxnum, minnum


def bin_column(x, edges):
    """Bin index of each value (``x <= edges[b]`` ⇔ code ``<= b``); −1 for NaN."""
    codes = np.searchsorted(edges, x, side="left").astype(np.int32)
    codes[np.isnan(x)] = -1
    return codes


@jit_internal
def lower_bound(edges, n_edges, x):
    """First ``b`` with ``edges[b] >= x`` among ``edges[:n_edges]`` (``n_edges`` if none).

    The answer stays in ``[base, base + n]``; each step halves ``n`` with an
    arithmetic select instead of a branch.
    """
    if n_edges == 0:
        return 0
    base = 0
    n = n_edges
    while n > 1:
        half = n >> 1
        base += half * np.int64(edges[base + half - 1] < x)
        n -= half
    return base + np.int64(edges[base] < x)


#: edges per block of the two-level count (:func:`count_below`)
BLOCK = 16


@jit_internal
def blocked_edges(edges, n_edges, out):
    """``edges[:n_edges]`` padded with +inf to the ``BLOCK**2`` values of ``out``
    (``n_edges <= BLOCK**2``), written element by element: an array assigned
    into a row would compile numba's formatted shape-mismatch message
    (ARCHITECTURE.md, numba)."""
    for e in range(BLOCK * BLOCK):
        out[e] = edges[e] if e < n_edges else np.inf


@jit_internal
def count_below(padded, x):
    """``#{b : padded[b] < x}`` = :func:`lower_bound` for sorted ``padded`` of ``BLOCK**2`` values.

    First the blocks whose last edge is below ``x`` (all their edges are),
    then the edges below ``x`` in the next block: two runs of ``BLOCK``
    comparisons summed, which vectorise, instead of a chain of dependent steps.
    """
    block = 0
    for k in range(BLOCK):
        block += np.int64(padded[k * BLOCK + BLOCK - 1] < x)
    if block == BLOCK:
        return BLOCK * BLOCK
    count = 0
    for i in range(BLOCK):
        count += np.int64(padded[block * BLOCK + i] < x)
    return block * BLOCK + count


@jit_parallel_exact
def bin_rows_parallel(X, columns, slots, edges, n_edges, out):
    """``out[i, slots[t]] = code of X[i, columns[t]]`` under ``edges[t, :n_edges[t]]``.

    The counted codes need every column's edges padded to ``BLOCK**2``
    values; that table is built only when the rows outnumber its width (so
    it is never larger than ``X``: 3 rows x 1e6 columns would fill 2 GB for
    3 codes per column); else every code is a binary search, the same code.
    """
    n_columns = columns.shape[0]
    small = X.shape[0] >= BLOCK * BLOCK
    for t in range(n_columns):
        small = small and n_edges[t] <= BLOCK * BLOCK
    padded = empty((n_columns if small else 0, BLOCK * BLOCK), np.float64)
    if small:
        for t in range(n_columns):
            blocked_edges(edges[t], n_edges[t], padded[t])
    for i in prange(X.shape[0]):
        for t in range(n_columns):
            x = X[i, columns[t]]
            if np.isnan(x):
                out[i, slots[t]] = -1
            elif small:
                out[i, slots[t]] = count_below(padded[t], x)
            else:
                out[i, slots[t]] = lower_bound(edges[t], n_edges[t], x)


#: rows per task of :func:`codes_by_column`; at most this many rows are coded, transposed
#: and ranged by NumPy (:func:`bin_rows`, :func:`transposed_codes`, :func:`bin_ranges`)
TRANSPOSE_ROWS = 4096


def bin_rows(X, columns, slots, edges, n_edges, out):
    """:func:`bin_rows_parallel`, or, for at most ``TRANSPOSE_ROWS`` rows, the same
    codes by :func:`bin_column` (``numpy.searchsorted``) column by column:
    a small fit then compiles no parallel kernel (~1 s of its first fit)."""
    if X.shape[0] > TRANSPOSE_ROWS:
        bin_rows_parallel(X, columns, slots, edges, n_edges, out)
        return
    for t in range(columns.shape[0]):
        out[:, slots[t]] = bin_column(X[:, columns[t]], edges[t, :n_edges[t]])


def bin_ranges(X, columns, codes_T, slots, width):
    """:func:`bin_ranges_parallel`, or, for at most ``TRANSPOSE_ROWS`` rows, the same
    ranges by NumPy (``numpy.fmin.at`` / ``numpy.fmax.at`` of each column's known
    values at their codes): a small fit then compiles no parallel kernel."""
    if X.shape[0] > TRANSPOSE_ROWS:
        return bin_ranges_parallel(X, columns, codes_T, slots, width)
    out = np.full((columns.shape[0], 2, width), np.nan)
    for t in range(columns.shape[0]):
        codes = codes_T[slots[t]]
        known = codes >= 0
        x = X[known, columns[t]]
        np.fmin.at(out[t, 0], codes[known], x)
        np.fmax.at(out[t, 1], codes[known], x)
    return out


@jit_parallel
def codes_by_column(codes_rows):
    """``codes_rows.T`` as a C-ordered int32 array (one row per coded attribute).

    Blocks of ``TRANSPOSE_ROWS`` rows side by side: a block's codes stay in
    cache while each column's run of it is written.
    """
    n, p = codes_rows.shape
    out = empty((p, n), np.int32)
    for b in prange((n + TRANSPOSE_ROWS - 1) // TRANSPOSE_ROWS):
        lo = b * TRANSPOSE_ROWS
        hi = min(n, lo + TRANSPOSE_ROWS)
        for c in range(p):
            for i in range(lo, hi):
                out[c, i] = codes_rows[i, c]
    return out


def transposed_codes(codes_rows):
    """:func:`codes_by_column`, or NumPy's transpose (the same array) when the
    rows are one block: a small fit then compiles no parallel kernel."""
    if codes_rows.shape[0] <= TRANSPOSE_ROWS:
        return np.ascontiguousarray(codes_rows.T, dtype=np.int32)
    return codes_by_column(codes_rows)


def transposed_columns(X, columns):
    """:func:`columns_by_row`, or NumPy's transpose (the same array) when the
    rows are one block or no column is listed."""
    if X.shape[0] <= TRANSPOSE_ROWS or columns.size == 0:
        return np.ascontiguousarray(X[:, columns].T, dtype=np.float64)
    return columns_by_row(X, columns)


@jit_parallel
def columns_by_row(X, columns):
    """``X[:, columns].T`` as a C-ordered float64 array (one row per listed column).

    Blocks of ``TRANSPOSE_ROWS`` rows side by side, each row of ``X`` read once:
    the exact tree's numeric attributes, laid out for its root sort and scans
    without a copy of the selected columns first.
    """
    n = X.shape[0]
    p = columns.shape[0]
    out = empty((p, n), np.float64)
    for b in prange((n + TRANSPOSE_ROWS - 1) // TRANSPOSE_ROWS):
        lo = b * TRANSPOSE_ROWS
        hi = min(n, lo + TRANSPOSE_ROWS)
        for i in range(lo, hi):  # each row of X read once, in sequence
            for c in range(p):
                out[c, i] = X[i, columns[c]]
    return out


@jit_parallel_exact
def column_ranges(X):
    """``(numpy.fmin.reduce(X, axis=0), numpy.fmax.reduce(X, axis=0))``: each column's
    smallest and largest value, NaN (missing) skipped, NaN for a column without one.

    Row blocks of ``TRANSPOSE_ROWS`` side by side, then the blocks' ranges
    combined: min and max are exact, so the order does not matter.
    """
    n, p = X.shape
    n_blocks = (n + TRANSPOSE_ROWS - 1) // TRANSPOSE_ROWS
    lows = np.full((n_blocks, p), np.nan)
    highs = np.full((n_blocks, p), np.nan)
    for b in prange(n_blocks):
        for i in range(b * TRANSPOSE_ROWS, min(n, (b + 1) * TRANSPOSE_ROWS)):
            for j in range(p):
                lows[b, j] = minnum(lows[b, j], X[i, j])
                highs[b, j] = maxnum(highs[b, j], X[i, j])
    low = np.full(p, np.nan)
    high = np.full(p, np.nan)
    for b in range(n_blocks):
        for j in range(p):
            low[j] = minnum(low[j], lows[b, j])
            high[j] = maxnum(high[j], highs[b, j])
    return low, high


@jit_parallel_exact
def bin_ranges_parallel(X, columns, codes_T, slots, width):
    """``out[t, 0, b]`` / ``out[t, 1, b]``: the smallest / largest value of
    ``X[:, columns[t]]`` whose code ``codes_T[slots[t]]`` is ``b`` (NaN: no
    such value), for ``b < width``; where a cut between two bins lies.

    One column per task; min and max are exact, so the order does not matter
    and a Dask fit merges its chunks' ranges with ``numpy.fmin``/``fmax``.
    """
    n_columns = columns.shape[0]
    out = np.full((n_columns, 2, width), np.nan)
    for t in prange(n_columns):
        j = columns[t]
        codes = codes_T[slots[t]]
        for i in range(X.shape[0]):
            b = codes[i]
            if b >= 0:
                x = X[i, j]
                out[t, 0, b] = minnum(out[t, 0, b], x)
                out[t, 1, b] = maxnum(out[t, 1, b], x)
    return out
