"""Compiled passes over a block of rows for the class moments of least
squares and Fisher.

They run on one block at a time (a few MB, cache-resident), serially: the
parallel work of a fit is the BLAS Gram product of each block, and row blocks
keep the memory of a fit to one block instead of a centred copy of ``X``.
"""

from __future__ import annotations

import numpy as np

from .._lowered import zeros
from .._numba import jit_fast


@jit_fast
def class_counts_and_sums(X, y_index, n_classes, weight):
    """N_k = Σ_{n∈C_k} s_n and s_k = Σ_{n∈C_k} s_n x_n for every class k
    (float64 sums; ``weight`` the sample weights s_n, ones for the book's
    counts N_k = |C_k|).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y_index : ndarray of int64, values in ``range(n_classes)``
    n_classes : int
    weight : ndarray of shape (n_samples,)

    Returns
    -------
    counts : ndarray of shape (n_classes,)
    sums : ndarray of shape (n_classes, n_features)
    """
    n, d = X.shape
    counts = zeros(n_classes, np.float64)
    sums = zeros((n_classes, d), np.float64)
    for i in range(n):
        k = y_index[i]
        counts[k] += weight[i]
        for j in range(d):
            sums[k, j] += weight[i] * X[i, j]
    return counts, sums


@jit_fast
def center_by_class(X, y_index, means, out):
    """``out[n] = x_n − m_{k(n)}``: every row minus the mean of its class."""
    n, d = X.shape
    for i in range(n):
        k = y_index[i]
        for j in range(d):
            out[i, j] = X[i, j] - means[k, j]
    return out
