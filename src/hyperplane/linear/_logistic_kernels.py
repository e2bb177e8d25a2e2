"""Compiled log-loss and gradient of logistic regression, one pass over X.

``binary_rows`` / ``multinomial_rows`` read rows ``start:stop`` once each:
they form the score, add the row's log-loss and add the row's gradient
contribution ``(p − y) x̃``. The ``*_loss_grad`` functions split the rows
into ``n_blocks`` blocks summed independently in parallel and added in
block order (:func:`~._newton_kernels.block_totals`). The number of blocks
is a function of the data's size only (:func:`dense_row_blocks`; one block:
the caller runs the row functions directly), so the sums are the same on
any number of threads. Sums, not means, are returned so that results for disjoint chunks
of rows simply add (a Dask fit sums them).
"""

from __future__ import annotations

import numpy as np
from numba import prange

from .._math_kernels import binary_log_loss
from .._numba import jit_fast, jit_parallel
from ._newton_kernels import block_total, block_totals

#: stored entries per row block of a dense pass, and the most blocks of one
#: pass (enough to keep 16 threads busy; each block has its own buffer)
BLOCK_ENTRIES = 1 << 17
MAX_BLOCKS = 32


def dense_row_blocks(n_entries):
    """The number of row blocks of a pass over ``n_entries`` values: one per
    :data:`BLOCK_ENTRIES`, at most :data:`MAX_BLOCKS`. A function of the
    data only, never of the number of threads (called by the estimators
    before a pass; the sparse passes add a cap of their own,
    :func:`~._logistic_sparse.row_blocks`)."""
    return max(1, min(MAX_BLOCKS, n_entries // BLOCK_ENTRIES))


@jit_fast
def binary_rows(X, y, w, b, start, stop, grad):
    """Add ``Σ_n (σ(z_n) − y_n) x̃_n`` over rows ``start:stop`` to ``grad``
    (intercept entry last) and return ``Σ_n log(1 + e^{z_n}) − y_n z_n``,
    ``z_n = w·x_n + b``; ``y_n`` is 1 for the positive class, else 0."""
    d = X.shape[1]
    loss = 0.0
    for i in range(start, stop):
        z = b
        for j in range(d):
            z += w[j] * X[i, j]
        ell, p = binary_log_loss(z, y[i])
        loss += ell
        r = p - y[i]
        for j in range(d):
            grad[j] += r * X[i, j]
        grad[d] += r
    return loss


@jit_parallel
def binary_loss_grad(X, y, w, b, n_blocks):
    """Σ_n log(1 + e^{z_n}) − y_n z_n and its gradient, in parallel row blocks
    (block ``blk`` of ``n_blocks``: rows ``blk·n // n_blocks`` to
    ``(blk + 1)·n // n_blocks``).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of float64, 1 for the positive class and 0 otherwise
    w : ndarray of shape (n_features,)
    b : float
    n_blocks : int

    Returns
    -------
    loss : float
    grad : ndarray of shape (n_features + 1,)
        ``Σ_n (σ(z_n) − y_n) x̃_n`` with the intercept's entry last.
    """
    n, d = X.shape
    n_blocks = max(1, min(n, n_blocks))
    losses = np.zeros(n_blocks)
    grads = np.zeros((n_blocks, d + 1))
    for blk in prange(n_blocks):
        losses[blk] = binary_rows(X, y, w, b, blk * n // n_blocks,
                                  (blk + 1) * n // n_blocks, grads[blk])
    return block_total(losses), block_totals(grads)


@jit_fast
def multinomial_rows(X, y_index, W, b, start, stop, grad):
    """Add ``Σ_n (p_nk − [y_n = k]) x̃_n`` over rows ``start:stop`` to
    ``grad`` (n_classes × (n_features + 1), intercepts last) and return
    ``Σ_n log Σ_k e^{z_nk} − z_{n,y_n}``, ``z_nk = w_k·x_n + b_k``."""
    d = X.shape[1]
    n_classes = W.shape[0]
    z = np.empty(n_classes)
    loss = 0.0
    for i in range(start, stop):
        z_max = -np.inf
        for k in range(n_classes):
            s = b[k]
            for j in range(d):
                s += W[k, j] * X[i, j]
            z[k] = s
            z_max = max(z_max, s)
        c = y_index[i]
        z_c = z[c]
        total = 0.0
        for k in range(n_classes):
            z[k] = np.exp(z[k] - z_max)
            total += z[k]
        loss += np.log(total) + z_max - z_c
        for k in range(n_classes):
            r = z[k] / total - (1.0 if k == c else 0.0)
            for j in range(d):
                grad[k, j] += r * X[i, j]
            grad[k, d] += r
    return loss


@jit_parallel
def multinomial_loss_grad(X, y_index, W, b, n_blocks):
    """Σ_n log Σ_k e^{z_nk} − z_{n,y_n} and its gradient, in parallel row blocks.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y_index : ndarray of int64, the class of each row
    W : ndarray of shape (n_classes, n_features)
    b : ndarray of shape (n_classes,)
    n_blocks : int

    Returns
    -------
    loss : float
    grad : ndarray of shape (n_classes, n_features + 1)
        ``Σ_n (p_nk − [y_n = k]) x̃_n`` with the intercepts in the last column.
    """
    n, d = X.shape
    n_blocks = max(1, min(n, n_blocks))
    losses = np.zeros(n_blocks)
    grads = np.zeros((n_blocks, W.shape[0], d + 1))
    for blk in prange(n_blocks):
        losses[blk] = multinomial_rows(X, y_index, W, b, blk * n // n_blocks,
                                       (blk + 1) * n // n_blocks, grads[blk])
    return block_total(losses), block_totals(grads)
