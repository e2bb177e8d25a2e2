"""Compiled log-loss and gradient of logistic regression over CSR rows, for L-BFGS.

L-BFGS needs the objective and its gradient at every trial point (Nocedal &
Wright, *Numerical Optimization*, 2nd ed., §7.2). Over sparse rows both come
from one read of each row's nonzeros: the score ``z_n = w·x_n + b`` is
gathered from the row, the row's log-loss and residual ``r_n = p_n − y_n``
follow, and ``r_n x̃_n`` is added to the gradient from the same nonzeros
while they are still in cache (Lin, Weng & Keerthi 2008, §3: the gradient
``X̃ᵀ r``). Two classes use :func:`~.._math_kernels.binary_log_loss`, K
classes :func:`~._newton_kernels.softmax_row` (Bishop, PRML §4.3.4).

The weights come as one array with the intercept last: ``w`` of shape
(n_features + 1,) for two classes, ``W`` of shape (n_features + 1, K) for K
classes (a feature's K weights adjacent, one cache line for a few classes).

The binary gradient adds a row's nonzeros two at a time
(:func:`~._newton_kernels.add_scaled_row`), which relies on the distinct
column indices of a row of a canonical CSR matrix
(:func:`~._logistic_sparse.canonical_csr`).

Each ``*_blocks`` function splits the rows into ``n_blocks`` blocks, each
adding into its own gradient buffer in parallel, and sums the buffers in
block order (:func:`~._newton_kernels.block_totals`). ``n_blocks`` depends
on the data's size only, never on the number of threads, so the result is
the same on any number of threads.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from .._math_kernels import binary_log_loss
from .._numba import jit_fast, jit_parallel
from ._newton_kernels import add_scaled_row, block_total, block_totals, softmax_row


@jit_fast
def binary_csr_rows(rows, y, w, start, stop, grad):
    """Σ log(1 + e^{z_n}) − y_n z_n over the CSR rows ``start:stop``
    (``z_n = w̃·x̃_n``); adds ``(σ(z_n) − y_n) x̃_n`` to ``grad``."""
    data, indices, indptr = rows
    d = w.shape[0] - 1
    loss = 0.0
    for i in range(start, stop):
        first, end = np.uint64(indptr[i]), np.uint64(indptr[i + 1])
        z = w[d]
        for t in range(first, end):
            z += w[np.uint64(indices[t])] * data[t]
        ell, p = binary_log_loss(z, y[i])
        loss += ell
        r = p - y[i]
        add_scaled_row(data, indices, first, end, r, grad)
        grad[d] += r
    return loss


@jit_parallel
def binary_csr_blocks(rows, y, w, n_blocks):
    """:func:`binary_csr_rows` over ``n_blocks`` row blocks in parallel.

    Returns
    -------
    loss : float
    grad : ndarray of shape (n_features + 1,)
        The blocks' gradients summed in block order.
    """
    n = rows.indptr.shape[0] - 1
    losses = np.zeros(n_blocks)
    grads = np.zeros((n_blocks, w.shape[0]))
    for blk in prange(n_blocks):
        losses[blk] = binary_csr_rows(rows, y, w, blk * n // n_blocks,
                                      (blk + 1) * n // n_blocks, grads[blk])
    return block_total(losses), block_totals(grads)


@jit_fast
def multinomial_csr_rows(rows, y_index, W, start, stop, grad):
    """Σ log Σ_k e^{z_nk} − z_{n,y_n} over the CSR rows ``start:stop``
    (``z_nk = W̃[:, k]·x̃_n``); adds ``(p_nk − [y_n = k]) x̃_n`` to ``grad[:, k]``."""
    data, indices, indptr = rows
    d = W.shape[0] - 1
    n_classes = W.shape[1]
    z = np.empty(n_classes)
    loss = 0.0
    for i in range(start, stop):
        first, end = np.uint64(indptr[i]), np.uint64(indptr[i + 1])
        for k in range(n_classes):
            z[k] = W[d, k]
        for t in range(first, end):
            j, x = np.uint64(indices[t]), data[t]
            for k in range(n_classes):
                z[k] += W[j, k] * x
        z_c = z[y_index[i]]
        loss += softmax_row(z) - z_c
        z[y_index[i]] -= 1.0                     # z ← p − e_{y_n}
        for t in range(first, end):
            j, x = np.uint64(indices[t]), data[t]
            for k in range(n_classes):
                grad[j, k] += z[k] * x
        for k in range(n_classes):
            grad[d, k] += z[k]
    return loss


@jit_parallel
def multinomial_csr_blocks(rows, y_index, W, n_blocks):
    """:func:`multinomial_csr_rows` over ``n_blocks`` row blocks in parallel.

    Returns
    -------
    loss : float
    grad : ndarray of shape (n_features + 1, n_classes)
    """
    n = rows.indptr.shape[0] - 1
    losses = np.zeros(n_blocks)
    grads = np.zeros((n_blocks, W.shape[0], W.shape[1]))
    for blk in prange(n_blocks):
        losses[blk] = multinomial_csr_rows(rows, y_index, W, blk * n // n_blocks,
                                           (blk + 1) * n // n_blocks, grads[blk])
    return block_total(losses), block_totals(grads)
