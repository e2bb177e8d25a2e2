"""Compiled quantile binning: every row's bin codes for ``splitter="hist"``.

:func:`bin_rows` gives the code :func:`~._encode.bin_column` gives (``x <=
edges[b]`` ⇔ code ``<= b``, i.e. ``numpy.searchsorted(edges, x, "left")``;
−1 for NaN) for all binned columns at once, reading ``X`` row by row and
writing the row-major codes the tree kernels read, in parallel over rows.
The search is branch-free (a uniform binary search, Knuth, TAOCP vol. 3,
6.2.1, with conditional moves), so it costs ``log2(bins)`` steps per value
without mispredicted branches.
"""

from __future__ import annotations

import numpy as np

from numba import prange

from .._numba import jit, jit_parallel


@jit
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


@jit_parallel
def bin_rows(X, columns, slots, edges, n_edges, out):
    """``out[i, slots[t]] = code of X[i, columns[t]]`` under ``edges[t, :n_edges[t]]``."""
    for i in prange(X.shape[0]):
        for t in range(columns.shape[0]):
            x = X[i, columns[t]]
            if np.isnan(x):
                out[i, slots[t]] = -1
            else:
                out[i, slots[t]] = lower_bound(edges[t], n_edges[t], x)
