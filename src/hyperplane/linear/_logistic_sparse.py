"""Summed log-loss and gradient of logistic regression over sparse rows.

The compiled passes of :mod:`._sparse_loss_kernels` read each row's
nonzeros once per evaluation (score, loss and gradient together); the rows
are split into a number of blocks fixed by the data's size, each block
summed into its own buffer in parallel and the buffers added in block order,
so that the result does not depend on the number of threads.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse

from ._sparse_loss_kernels import (
    binary_csr_blocks,
    binary_csr_rows,
    multinomial_csr_blocks,
    multinomial_csr_rows,
)
from ._logistic_kernels import BLOCK_ENTRIES, MAX_BLOCKS, dense_row_blocks
from ._state import CSRRows

#: a pass's entries per entry of the block buffers: summing the buffers
#: should cost a small share of the pass
ENTRIES_PER_BUFFER_ENTRY = 8


def canonical_csr(X):
    """``X`` as a CSR matrix with sorted, distinct column indices in every row
    (duplicates summed, on a copy), the form the compiled passes read."""
    if X.format != "csr":                 # a CSR X is kept: scipy caches the check on it
        X = X.tocsr()
    if not X.has_canonical_format:
        X = X.copy()
        X.sum_duplicates()
    return X


def row_blocks(n_entries, n_parameters):
    """The number of row blocks of a pass over ``n_entries`` stored values
    with ``n_parameters`` gradient entries: the dense passes' rule
    (:func:`~._logistic_kernels.dense_row_blocks`: one per ``BLOCK_ENTRIES``
    entries, at most ``MAX_BLOCKS``), and few enough that the block buffers
    hold at most 1/:data:`ENTRIES_PER_BUFFER_ENTRY` of the entries (a sparse
    row has few of its many parameters). A function of the data only: the
    sum is the same on any number of threads."""
    by_buffers = n_entries // (ENTRIES_PER_BUFFER_ENTRY * n_parameters)
    return int(max(1, min(dense_row_blocks(n_entries), by_buffers)))


def csr_loss_grad(X, y, coef, intercept):
    """``Σ_n ℓ_n`` and its gradient over the rows of a canonical CSR ``X``.

    Parameters
    ----------
    X : scipy.sparse.csr_matrix (see :func:`canonical_csr`)
    y : ndarray
        float64 1/0 (positive class or not) for one row of ``coef``, int64
        class indices for more.
    coef : ndarray of shape (n_rows, n_features)
    intercept : ndarray of shape (n_rows,)

    Returns
    -------
    loss : float
    grad_coef : ndarray of shape (n_rows, n_features)
    grad_intercept : ndarray of shape (n_rows,)
    """
    rows = CSRRows.of(X)
    n_classes = coef.shape[0]
    if n_classes == 1:
        w = np.append(coef[0], intercept[0])
        blocks, single, grad = binary_csr_blocks, binary_csr_rows, np.zeros(w.shape[0])
    else:
        w = np.empty((coef.shape[1] + 1, n_classes))
        w[:-1] = coef.T
        w[-1] = intercept
        blocks, single, grad = multinomial_csr_blocks, multinomial_csr_rows, np.zeros(w.shape)
    n_blocks = row_blocks(X.nnz, w.size)
    if n_blocks == 1:
        loss = single(rows, y, w, 0, X.shape[0], grad)
    else:
        loss, grad = blocks(rows, y, w, n_blocks)
    grad = grad.reshape(grad.shape[0], n_classes).T
    return loss, grad[:, :-1], grad[:, -1]


__all__ = ["canonical_csr", "csr_loss_grad", "row_blocks", "BLOCK_ENTRIES", "MAX_BLOCKS"]
