"""Compiled loss-and-gradient pass of logistic regression, one read of each
row, over dense rows or CSR rows: what L-BFGS calls (Nocedal & Wright,
*Numerical Optimization*, 2nd ed., §7.2) and TRON's gradient pass over
dense rows (Lin, Weng & Keerthi 2008, §3).

``binary_rows`` / ``multinomial_rows`` read rows ``start:stop``: they form a
row's scores, add its weighted log-loss and its gradient contribution
``s (p − y) x̃`` (the gradient ``X̃ᵀ r``) by the rules of
:mod:`._rules_kernels`, from the same read of the row. The layout is chosen
when numba compiles the pass: the row layer (:mod:`hyperplane._row_kernels`)
for one weight vector, and :data:`class_scores` / :data:`class_axpy` below
for K of them (``W̃`` class-major over dense
rows, feature-major over CSR rows, so that a gathered feature's K weights
share a cache line; every class from one read of a row's nonzeros).

The pass adds to ``grad``; TRON's also stores the curvature each
Hessian-vector pass reads (``D_n`` or ``p_nk``) and adds the Hessian's
diagonal (the preconditioner's); L-BFGS's passes None for both, and numba
then compiles the pass without them (an ``if D is not None`` on an argument).

The ``*_blocks`` functions split the rows into ``n_blocks`` blocks summed
independently in parallel and added in block order
(:func:`~._blocks_kernels.block_totals`). The number of blocks is a function
of the data's size only (:func:`dense_row_block_count`; one block: the caller
runs the row functions directly), so the sums are the same on any number
of threads. Sums, not means, are returned so that results for disjoint
chunks of rows simply add (a Dask fit sums them).
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ..._lowered import empty, zeros
from ..._numba import jit_fast, jit_parallel
from ..._row_kernels import by_layout, row_axpy_inline, row_dot_inline, row_square_axpy_inline
from ._blocks_kernels import block_total, block_totals, block_totals_of, buffer_of, buffers_like
from ._rules_kernels import (
    binary_terms,
    row_count,
    row_weight,
    softmax_exp,
    softmax_loss,
    softmax_terms,
)

#: stored entries per row block of a dense pass, and the most blocks of one
#: pass (enough to keep 16 threads busy; each block has its own buffer)
BLOCK_ENTRIES = 1 << 17
MAX_BLOCKS = 32


def dense_row_block_count(n_entries):
    """The number of row blocks of a pass over ``n_entries`` values: one per
    :data:`BLOCK_ENTRIES`, at most :data:`MAX_BLOCKS`. A function of the
    data only, never of the number of threads (called by the estimators
    before a pass; the sparse passes add a cap of their own,
    :func:`~._layout.csr_row_block_count`)."""
    return max(1, min(MAX_BLOCKS, n_entries // BLOCK_ENTRIES))


# --------------------------------------------------------------------------
# K weight vectors on one row, per layout: W̃ (K, n_features + 1) class-major
# over dense rows, (n_features + 1, K) feature-major over CSR rows
# --------------------------------------------------------------------------
@jit_fast
def dense_class_count(X, W):
    """K of a class-major ``W̃``."""
    return W.shape[0]


@jit_fast
def csr_class_count(X, W):
    """K of a feature-major ``W̃``."""
    return W.shape[1]


@jit_fast
def dense_class_scores(X, i, W, z):
    """``z[k] = W̃_k·x̃_i`` for every class k, each summed in feature order."""
    d = X.shape[1]
    for k in range(W.shape[0]):
        acc = W[k, d]
        for j in range(d):
            acc += W[k, j] * X[i, j]
        z[k] = acc


@jit_fast
def csr_class_scores(X, i, W, z):
    """:func:`dense_class_scores` of the CSR row i: the K scores from one read
    of its nonzeros."""
    data, indices, indptr = X.data, X.indices, X.indptr
    d = W.shape[0] - 1
    for k in range(W.shape[1]):
        z[k] = W[d, k]
    for t in range(np.uint64(indptr[i]), np.uint64(indptr[i + 1])):
        j, x = np.uint64(indices[t]), data[t]
        for k in range(W.shape[1]):
            z[k] += W[j, k] * x


@jit_fast
def dense_class_axpy(X, i, G, r):
    """``G̃_k += r[k] x̃_i`` for every class k."""
    d = X.shape[1]
    for k in range(G.shape[0]):
        rk = r[k]
        for j in range(d):
            G[k, j] += rk * X[i, j]
        G[k, d] += rk


@jit_fast
def csr_class_axpy(X, i, G, r):
    """:func:`dense_class_axpy` of the CSR row i, from one read of its nonzeros."""
    data, indices, indptr = X.data, X.indices, X.indptr
    d = G.shape[0] - 1
    for t in range(np.uint64(indptr[i]), np.uint64(indptr[i + 1])):
        j, x = np.uint64(indices[t]), data[t]
        for k in range(G.shape[1]):
            G[j, k] += r[k] * x
    for k in range(G.shape[1]):
        G[d, k] += r[k]


@jit_fast
def dense_class_axpy_square(X, i, G, r, diag, c):
    """:func:`dense_class_axpy` and ``diag_k += c[k] x̃_i²`` from the same read
    of the row."""
    d = X.shape[1]
    for k in range(G.shape[0]):
        rk = r[k]
        ck = c[k]
        for j in range(d):
            x = X[i, j]
            G[k, j] += rk * x
            diag[k, j] += ck * x * x
        G[k, d] += rk
        diag[k, d] += ck


@jit_fast
def csr_class_axpy_square(X, i, G, r, diag, c):
    """:func:`dense_class_axpy_square` of the CSR row i: :func:`csr_class_axpy`,
    then the squares from a second read of the nonzeros (TRON reads CSR rows
    by its two-phase passes instead, :mod:`._tron_sparse_kernels`)."""
    csr_class_axpy(X, i, G, r)
    data, indices, indptr = X.data, X.indices, X.indptr
    for t in range(np.uint64(indptr[i]), np.uint64(indptr[i + 1])):
        square = data[t] * data[t]
        entries = diag[np.uint64(indices[t])]
        for k in range(c.shape[0]):
            entries[k] += c[k] * square
    for k in range(c.shape[0]):
        diag[diag.shape[0] - 1, k] += c[k]


#: K of ``W̃``, the K scores of a row, ``G̃_k += r_k x̃`` and the same with the
#: diagonal's ``c_k x̃²`` on either layout; inlined where they are called (a
#: call per row made the multinomial passes up to 2x slower)
class_count = by_layout(dense_class_count, csr_class_count)
class_scores = by_layout(dense_class_scores, csr_class_scores, inline=True)
class_axpy = by_layout(dense_class_axpy, csr_class_axpy, inline=True)
class_axpy_square = by_layout(dense_class_axpy_square, csr_class_axpy_square, inline=True)


# --------------------------------------------------------------------------
# the passes over rows start:stop
# --------------------------------------------------------------------------
@jit_fast
def binary_rows(X, targets, w, start, stop, grad, D, diag):
    """Add ``Σ_n r_n x̃_n`` over rows ``start:stop`` of ``X`` (dense or CSR)
    to ``grad`` (intercept entry last) and return ``Σ_n s_n ℓ_n``: the rules
    of :func:`~._rules_kernels.binary_terms` at ``z_n = w̃·x̃_n``; with ``D``
    (TRON's pass; None: L-BFGS's), store ``D_n = s_n σ(z_n)(1 − σ(z_n))``
    there and add ``D_n x̃_n²`` to ``diag``."""
    y, weight = targets.y, targets.weight
    d = w.shape[0] - 1
    loss = 0.0
    for i in range(start, stop):
        ell, r, c = binary_terms(row_weight(weight, i), row_dot_inline(X, i, w, w[d]), y[i])
        loss += ell
        row_axpy_inline(X, i, grad, r)
        grad[d] += r
        if D is not None:
            D[i] = c
            row_square_axpy_inline(X, i, diag, c)
            diag[d] += c
    return loss


@jit_fast
def multinomial_rows(X, targets, W, start, stop, grad, P, diag):
    """Add ``Σ_n s_n (p_nk − [y_n = k]) x̃_n`` over rows ``start:stop`` to
    ``grad`` (shaped like ``W̃``) and return ``Σ_n s_n (log Σ_k e^{z_nk}
    − z_{n,y_n})``, ``z_nk = W̃_k·x̃_n`` (the rules
    :func:`~._rules_kernels.softmax_exp`, ``softmax_loss``, ``softmax_terms``);
    with ``P`` (TRON's pass; None: L-BFGS's), store ``p_nk`` there and add
    ``s_n p_nk(1 − p_nk) x̃_n²`` to ``diag``."""
    y_index, weight = targets.y, targets.weight
    n_classes = class_count(X, W)
    z = empty(n_classes, np.float64)
    r = empty(n_classes, np.float64)
    loss = 0.0
    for i in range(start, stop):
        s = row_weight(weight, i)
        c = y_index[i]
        class_scores(X, i, W, z)
        z_c = z[c]
        scale, log_total = softmax_exp(z)
        loss += softmax_loss(s, log_total, z_c)
        for k in range(n_classes):
            p_k = z[k] * scale
            if P is not None:
                P[i, k] = p_k
            r[k], z[k] = softmax_terms(s, p_k, k == c)      # z ← the curvature
        if P is None:
            class_axpy(X, i, grad, r)
        else:
            class_axpy_square(X, i, grad, r, diag, z)
    return loss


# --------------------------------------------------------------------------
# all rows in parallel blocks: block ``blk`` of ``n_blocks`` covers rows
# ``blk·n // n_blocks : (blk + 1)·n // n_blocks``
# --------------------------------------------------------------------------
@jit_parallel
def binary_blocks(X, targets, w, D, n_blocks):
    """:func:`binary_rows` over all rows, in parallel row blocks.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features) or CSRRows
    targets : Targets
        ``y`` float64, 1 for the positive class and 0 otherwise; the weights.
    w : ndarray of shape (n_features + 1,)
        The intercept last.
    D : ndarray of shape (n_samples,) or None
        Receives the rows' curvatures (None: not computed).
    n_blocks : int

    Returns
    -------
    loss : float
    grad : ndarray of shape (n_features + 1,)
        ``Σ_n r_n x̃_n`` with the intercept's entry last.
    diag : ndarray of shape (n_features + 1,) or None
        ``Σ_n D_n x̃_n²`` (None without ``D``).
    """
    n = row_count(X)
    n_blocks = max(1, min(n, n_blocks))
    losses = zeros(n_blocks, np.float64)
    grads = zeros((n_blocks, w.shape[0]), np.float64)
    diags = buffers_like(D, grads)
    for blk in prange(n_blocks):
        losses[blk] = binary_rows(X, targets, w, blk * n // n_blocks, (blk + 1) * n // n_blocks,
                                  grads[blk], D, buffer_of(diags, blk))
    return block_total(losses), block_totals(grads), block_totals_of(diags)


@jit_parallel
def multinomial_blocks(X, targets, W, P, n_blocks):
    """:func:`multinomial_rows` over all rows, in parallel row blocks: as
    :func:`binary_blocks`, with ``y`` int64 class indices, ``W̃`` of shape
    (n_classes, n_features + 1) over dense rows and (n_features + 1,
    n_classes) over CSR rows (the intercepts last), ``grad`` and ``diag``
    shaped like it and ``P`` (n_samples, n_classes) receiving the rows'
    probabilities (None: not stored, and no ``diag``)."""
    n = row_count(X)
    n_blocks = max(1, min(n, n_blocks))
    losses = zeros(n_blocks, np.float64)
    grads = zeros((n_blocks, W.shape[0], W.shape[1]), np.float64)
    diags = buffers_like(P, grads)
    for blk in prange(n_blocks):
        losses[blk] = multinomial_rows(X, targets, W, blk * n // n_blocks,
                                       (blk + 1) * n // n_blocks, grads[blk], P,
                                       buffer_of(diags, blk))
    return block_total(losses), block_totals(grads), block_totals_of(diags)
