"""Compiled passes over X for the class moments of least squares and Fisher.

Both functions touch every element of ``X`` once and run row blocks in
parallel; per-block partial sums are added afterwards, so the result does not
depend on the order in which threads finish.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from .._numba import jit_parallel


@jit_parallel
def class_counts_and_sums(X, y_index, n_classes, n_blocks):
    """N_k = |C_k| and s_k = Σ_{n∈C_k} x_n for every class k (float64 sums).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y_index : ndarray of int64, values in ``range(n_classes)``
    n_classes : int
    n_blocks : int
        Number of row blocks summed independently (a few per thread).

    Returns
    -------
    counts : ndarray of shape (n_classes,)
    sums : ndarray of shape (n_classes, n_features)
    """
    n, d = X.shape
    n_blocks = max(1, min(n, n_blocks))
    counts = np.zeros((n_blocks, n_classes))
    sums = np.zeros((n_blocks, n_classes, d))
    for blk in prange(n_blocks):
        start = blk * n // n_blocks
        stop = (blk + 1) * n // n_blocks
        for i in range(start, stop):
            k = y_index[i]
            counts[blk, k] += 1.0
            for j in range(d):
                sums[blk, k, j] += X[i, j]
    return counts.sum(axis=0), sums.sum(axis=0)


@jit_parallel
def center_by_class(X, y_index, means, out):
    """``out[n] = x_n − m_{k(n)}``: every row minus the mean of its class."""
    n, d = X.shape
    for i in prange(n):
        k = y_index[i]
        for j in range(d):
            out[i, j] = X[i, j] - means[k, j]
    return out
