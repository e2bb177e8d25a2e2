"""Compiled log-loss and gradient of logistic regression, one pass over X,
for L-BFGS (Nocedal & Wright, *Numerical Optimization*, 2nd ed., §7.2).

``binary_rows`` / ``multinomial_rows`` read rows ``start:stop`` of a dense
array or of CSR rows once each (the row layer, :mod:`hyperplane._row_kernels`,
chooses the layout when numba compiles the pass): they form the score, add
the row's weighted log-loss and its gradient contribution ``s (p − y) x̃``
from the same read of the row (over CSR rows its nonzeros while they are
still in cache; Lin, Weng & Keerthi 2008, §3, the gradient ``X̃ᵀ r``), by the
rules of :mod:`._rules_kernels`. The ``*_blocks`` functions split the rows
into ``n_blocks`` blocks summed independently in parallel and added in
block order (:func:`~._tron_dense_kernels.block_totals`). The number of blocks
is a function of the data's size only (:func:`dense_row_blocks`; one block:
the caller runs the row functions directly), so the sums are the same on
any number of threads. Sums, not means, are returned so that results for disjoint chunks
of rows simply add (a Dask fit sums them).
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ..._numba import jit_fast, jit_parallel
from ..._row_kernels import by_layout, row_axpy_fast, row_dot_fast
from ._rules_kernels import (
    binary_terms,
    row_count,
    row_weight,
    softmax_loss,
    softmax_row,
    softmax_terms,
)
from ._tron_dense_kernels import block_total, block_totals

#: stored entries per row block of a dense pass, and the most blocks of one
#: pass (enough to keep 16 threads busy; each block has its own buffer)
BLOCK_ENTRIES = 1 << 17
MAX_BLOCKS = 32


def dense_row_blocks(n_entries):
    """The number of row blocks of a pass over ``n_entries`` values: one per
    :data:`BLOCK_ENTRIES`, at most :data:`MAX_BLOCKS`. A function of the
    data only, never of the number of threads (called by the estimators
    before a pass; the sparse passes add a cap of their own,
    :func:`~._layout.row_blocks`)."""
    return max(1, min(MAX_BLOCKS, n_entries // BLOCK_ENTRIES))


@jit_fast
def binary_rows(X, targets, w, start, stop, grad):
    """Add ``Σ_n r_n x̃_n`` over rows ``start:stop`` of ``X`` (dense or CSR)
    to ``grad`` (intercept entry last) and return ``Σ_n s_n ℓ_n``: the rules
    of :func:`~._rules_kernels.binary_terms` at ``z_n = w̃·x̃_n``."""
    y, weight = targets
    d = w.shape[0] - 1
    loss = 0.0
    for i in range(start, stop):
        ell, r, _ = binary_terms(row_weight(weight, i), row_dot_fast(X, i, w, w[d]), y[i])
        loss += ell
        row_axpy_fast(X, i, grad, r)
        grad[d] += r
    return loss


@jit_parallel
def binary_blocks(X, targets, w, n_blocks):
    """:func:`binary_rows` over all rows, in parallel row blocks (block
    ``blk`` of ``n_blocks``: rows ``blk·n // n_blocks`` to
    ``(blk + 1)·n // n_blocks``).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features) or CSRRows
    targets : Targets
        ``y`` float64, 1 for the positive class and 0 otherwise; the weights.
    w : ndarray of shape (n_features + 1,)
        The intercept last.
    n_blocks : int

    Returns
    -------
    loss : float
    grad : ndarray of shape (n_features + 1,)
        ``Σ_n r_n x̃_n`` with the intercept's entry last.
    """
    n = row_count(X)
    n_blocks = max(1, min(n, n_blocks))
    losses = np.zeros(n_blocks)
    grads = np.zeros((n_blocks, w.shape[0]))
    for blk in prange(n_blocks):
        losses[blk] = binary_rows(X, targets, w, blk * n // n_blocks,
                                  (blk + 1) * n // n_blocks, grads[blk])
    return block_total(losses), block_totals(grads)


@jit_fast
def dense_multinomial_rows(X, targets, W, start, stop, grad):
    """Add ``Σ_n s_n (p_nk − [y_n = k]) x̃_n`` over dense rows ``start:stop`` to
    ``grad`` (shaped like ``W̃``, class-major) and return ``Σ_n s_n (log Σ_k
    e^{z_nk} − z_{n,y_n})``, ``z_nk = W̃_k·x̃_n`` (the rules
    :func:`~._rules_kernels.softmax_loss`, ``softmax_terms``)."""
    y_index, weight = targets
    d = X.shape[1]
    n_classes = W.shape[0]
    z = np.empty(n_classes)
    loss = 0.0
    for i in range(start, stop):
        s = row_weight(weight, i)
        c = y_index[i]
        for k in range(n_classes):
            acc = W[k, d]
            for j in range(d):
                acc += W[k, j] * X[i, j]
            z[k] = acc
        z_c = z[c]
        # the softmax of softmax_row without its call and its stored division:
        # a call per row made this pass 1.13x slower at 50k x 50, 3 classes
        z_max = -np.inf
        for k in range(n_classes):
            z_max = max(z_max, z[k])
        total = 0.0
        for k in range(n_classes):
            z[k] = np.exp(z[k] - z_max)
            total += z[k]
        loss += softmax_loss(s, np.log(total) + z_max, z_c)
        for k in range(n_classes):
            r, _ = softmax_terms(s, z[k] / total, k == c)
            for j in range(d):
                grad[k, j] += r * X[i, j]
            grad[k, d] += r
    return loss


@jit_fast
def csr_multinomial_rows(X, targets, W, start, stop, grad):
    """:func:`dense_multinomial_rows` over CSR rows, ``W̃`` and ``grad``
    feature-major (n_features + 1, K): the K scores from one read of a row's
    nonzeros, ``(p_nk − [y_n = k]) x̃_n`` added to ``grad[:, k]`` from another."""
    y_index, weight = targets
    data, indices, indptr = X
    d = W.shape[0] - 1
    n_classes = W.shape[1]
    z = np.empty(n_classes)
    loss = 0.0
    for i in range(start, stop):
        s = row_weight(weight, i)
        c = y_index[i]
        first, end = np.uint64(indptr[i]), np.uint64(indptr[i + 1])
        for k in range(n_classes):
            z[k] = W[d, k]
        for t in range(first, end):
            j, x = np.uint64(indices[t]), data[t]
            for k in range(n_classes):
                z[k] += W[j, k] * x
        z_c = z[c]
        loss += softmax_loss(s, softmax_row(z), z_c)
        for k in range(n_classes):
            z[k], _ = softmax_terms(s, z[k], k == c)     # z ← s (p − e_c)
        for t in range(first, end):
            j, x = np.uint64(indices[t]), data[t]
            for k in range(n_classes):
                grad[j, k] += z[k] * x
        for k in range(n_classes):
            grad[d, k] += z[k]
    return loss


#: the multinomial L-BFGS pass over dense or CSR rows
multinomial_rows = by_layout(dense_multinomial_rows, csr_multinomial_rows)


@jit_parallel
def multinomial_blocks(X, targets, W, n_blocks):
    """:func:`dense_multinomial_rows` or :func:`csr_multinomial_rows` over all
    rows, in parallel row blocks.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features) or CSRRows
    targets : Targets
        ``y`` int64, the class of each row; the weights.
    W : ndarray
        ``W̃``: (n_classes, n_features + 1) over dense rows, (n_features + 1,
        n_classes) over CSR rows; the intercepts last.
    n_blocks : int

    Returns
    -------
    loss : float
    grad : ndarray shaped like ``W``
    """
    n = row_count(X)
    n_blocks = max(1, min(n, n_blocks))
    losses = np.zeros(n_blocks)
    grads = np.zeros((n_blocks, W.shape[0], W.shape[1]))
    for blk in prange(n_blocks):
        losses[blk] = multinomial_rows(X, targets, W, blk * n // n_blocks,
                                       (blk + 1) * n // n_blocks, grads[blk])
    return block_total(losses), block_totals(grads)
