"""Compiled passes of the trust-region Newton solver over sparse rows, in two
phases that only ever *gather*.

The gradient ``X̃ᵀ r`` and the Hessian-vector product ``X̃ᵀ D X̃ v`` (Lin, Weng
& Keerthi 2008, §3) each multiply by ``X`` and then by ``Xᵀ``. Done row by
row on CSR rows alone, the second product scatters every nonzero into the
output (a read-modify-write at a random address). Here it reads the columns
instead: the CSC arrays of ``X`` (the CSR arrays of ``Xᵀ``, Saad, *Iterative
Methods for Sparse Linear Systems*, 2nd ed., §3.4), so that ``(Xᵀ u)_j`` is
a dot product of column j with ``u``:

* the *row phase* reads the CSR rows: per row, the score ``z_n = w̃·x̃_n``
  (or ``u_n = x̃_n·v``, kept as the image ``X̃v`` of the direction), then
  what follows from it alone by the rules of :mod:`._rules_kernels`
  (shared with the dense passes) — the weighted log-loss, the residual
  ``r_n = s_n (p_n − y_n)``, the curvature ``D_n = s_n σ(z_n)(1 − σ(z_n))``
  (softmax: ``p_nk``, and ``s_n p_nk (u_nk − Σ_j p_nj u_nj)``, Bishop, PRML
  eq. 4.110). The terms are
  computed from stored scores, so that a gradient pass whose scores are
  already known (those of the last point plus the image ``X̃s`` of the
  step) does not read the rows at all. The row phase also sums these terms
  over the rows: the intercept's entries (its column of ``X̃`` is all ones);
* the *column phase* reads the CSC columns: ``g_j = Σ_n x_nj r_n`` and the
  Hessian's diagonal ``Σ_n x_nj² D_n`` (for the preconditioner), or
  ``(Hv)_j = Σ_n x_nj u_n``. The columns are stored per chunk of rows
  (:class:`._state.ColumnChunks`: the CSC arrays of each chunk, one after
  the other) and read chunk by chunk, so that the per-row values one chunk's
  columns gather from stay in the core's cache instead of being fetched
  from all ``n`` rows at random.

Every output entry is computed by one thread in a fixed order: a row's
terms by the thread of its row block, a column's sums by the thread of its
column block, chunk after chunk (one column block per thread: a chunk's
per-row values are then fetched once per thread, not once per block);
per-block losses and row sums are added in block order. The
results are therefore the same on any number of threads. Per-row arrays
have shape (n_samples, K) — K = 1 for two classes — and parameters are
stored feature-major, ``(n_features + 1, K)``, intercepts last, so that a
gathered feature's K weights share a cache line. Per-class sums are scalars
over the row's (or column's) nonzeros, three classes per read of them (a
gathered row's entries for them lie a constant apart), the one or two left
over one at a time (from L1 after the first read): an array of K running
sums in memory made the passes 1.3-2.7x slower, one class per read made the
three-class Hessian-vector product 1.2x slower (benchmarks/RESULTS.md).
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ..._lowered import empty, zeros
from ..._numba import jit_fast, jit_parallel
from ..._row_kernels import row_dot_fast
from ._rules_kernels import (
    binary_terms,
    row_weight,
    softmax_curvature,
    softmax_loss,
    softmax_row,
    softmax_terms,
)
from ._blocks_kernels import block_total, block_totals


# --------------------------------------------------------------------------
# row phase, rows start:stop (CSR): scores, then each row's terms from them
# --------------------------------------------------------------------------
@jit_fast
def binary_row_scores(rows, v, start, stop, z):
    """``z[n] = x̃_n·v`` over rows ``start:stop`` (``v`` of shape (n_features + 1,),
    the intercept last)."""
    d = v.shape[0] - 1
    for i in range(start, stop):
        z[i] = row_dot_fast(rows, i, v, v[d])


@jit_fast
def multinomial_row_scores(rows, V, start, stop, Z):
    """``Z[n, k] = x̃_n·V[:, k]`` over rows ``start:stop`` (``V`` feature-major,
    of shape (n_features + 1, K), the intercepts last), three classes per
    read of the row, the one or two left over one at a time."""
    data, indices, indptr = rows.data, rows.indices, rows.indptr
    d = V.shape[0] - 1
    n_classes = V.shape[1]
    for i in range(start, stop):
        first, end = np.uint64(indptr[i]), np.uint64(indptr[i + 1])
        for k in range(0, n_classes - 2, 3):   # three classes per read of the row
            s0 = V[d, k]
            s1 = V[d, k + 1]
            s2 = V[d, k + 2]
            for t in range(first, end):
                j, x = np.uint64(indices[t]), data[t]
                s0 += V[j, k] * x
                s1 += V[j, k + 1] * x
                s2 += V[j, k + 2] * x
            Z[i, k] = s0
            Z[i, k + 1] = s1
            Z[i, k + 2] = s2
        for k in range(n_classes - n_classes % 3, n_classes):
            s = V[d, k]
            for t in range(first, end):
                s += V[np.uint64(indices[t]), k] * data[t]
            Z[i, k] = s


@jit_fast
def binary_score_terms(targets, z, start, stop, RD, D, total):
    """``Σ_n s_n ℓ_n`` over rows ``start:stop`` from their scores ``z[n]``
    (:func:`~._rules_kernels.binary_terms`); stores the curvature
    ``D_n = s_n σ(z_n)(1 − σ(z_n))`` in ``D`` and ``(r_n, D_n)``,
    ``r_n = s_n (σ(z_n) − y_n)``, in row n of ``RD``, and adds them to ``total``."""
    y, weight = targets.y, targets.weight
    loss = 0.0
    for i in range(start, stop):
        ell, r, c = binary_terms(row_weight(weight, i), z[i], y[i])
        loss += ell
        D[i] = c
        RD[i, 0] = r
        RD[i, 1] = c
        total[0] += RD[i, 0]
        total[1] += RD[i, 1]
    return loss


@jit_fast
def multinomial_score_terms(targets, Z, start, stop, RD, P, total):
    """``Σ_n s_n (log Σ_k e^{z_nk} − z_{n,y_n})`` over rows ``start:stop``
    from their scores ``Z[n, k]`` (:func:`~._rules_kernels.softmax_loss`);
    stores ``p_nk`` in ``P``, ``s_n (p_nk − [y_n = k])`` in ``RD[n, k]`` and
    ``s_n p_nk(1 − p_nk)`` in ``RD[n, K + k]``, and adds row n of ``RD`` to
    ``total``."""
    y_index, weight = targets.y, targets.weight
    n_classes = Z.shape[1]
    loss = 0.0
    for i in range(start, stop):
        s = row_weight(weight, i)
        p = P[i]
        for k in range(n_classes):
            p[k] = Z[i, k]
        loss += softmax_loss(s, softmax_row(p), Z[i, y_index[i]])
        for k in range(n_classes):
            RD[i, k], RD[i, n_classes + k] = softmax_terms(s, p[k], k == y_index[i])
        for c in range(2 * n_classes):
            total[c] += RD[i, c]
    return loss


@jit_fast
def binary_curvature_rows(rows, D, v, start, stop, XV, U, total):
    """``XV[n] = x̃_n·v`` (the image of the direction) and ``U_n0 = D_n XV[n]``
    over rows ``start:stop`` (``v`` of shape (n_features + 1,)), added to
    ``total[0]``: :func:`binary_row_scores` with the curvature applied while
    the score is in a register (one more pass over ``XV`` cost 1 ms in 7 at
    200k rows). ``XV`` may be ``U[:, 0]`` (the image not kept)."""
    d = v.shape[0] - 1
    for i in range(start, stop):
        s = row_dot_fast(rows, i, v, v[d])
        XV[i] = s
        U[i, 0] = D[i] * s
        total[0] += U[i, 0]


#: rows scored at a time by :func:`multinomial_curvature_rows`: their scores
#: are then turned into the curvature terms while they are still in the L1 cache
CURVATURE_ROWS = 256


@jit_fast
def multinomial_curvature_rows(rows, P, V, weight, start, stop, U, total):
    """``U_nk = s_n p_nk (u_nk − Σ_j p_nj u_nj)``, ``u_nk = V[:, k]·x̃_n`` (``V``
    feature-major, :func:`multinomial_row_scores`;
    :func:`~._rules_kernels.softmax_curvature`), over rows
    ``start:stop``, added to ``total``; :data:`CURVATURE_ROWS` rows at a
    time, so that their ``u`` is read back from cache."""
    n_classes = V.shape[1]
    for lo in range(start, stop, CURVATURE_ROWS):
        hi = min(stop, lo + CURVATURE_ROWS)
        multinomial_row_scores(rows, V, lo, hi, U)
        for i in range(lo, hi):
            softmax_curvature(row_weight(weight, i), P[i], U[i])
            for k in range(n_classes):
                total[k] += U[i, k]


# --------------------------------------------------------------------------
# column phase, columns start:stop of every row chunk (:class:`._state.ColumnChunks`)
# --------------------------------------------------------------------------
@jit_fast
def column_products(cols, U, start, stop, out):
    """``out[j, k] = Σ_n x_nj U_nk`` for the columns ``start:stop``: chunk by
    chunk (the rows of one chunk of ``U`` stay in cache), each column's part
    in a chunk read once per three classes and added to ``out`` in chunk order."""
    data, indices, indptr = cols.data, cols.indices, cols.indptr
    out[start:stop] = 0.0
    for c in range(indptr.shape[0]):
        for j in range(start, stop):
            first, end = np.uint64(indptr[c, j]), np.uint64(indptr[c, j + 1])
            for k in range(0, U.shape[1] - 2, 3):   # three classes per read of the column
                s0 = 0.0
                s1 = 0.0
                s2 = 0.0
                for t in range(first, end):
                    i, x = np.uint64(indices[t]), data[t]
                    s0 += U[i, k] * x
                    s1 += U[i, k + 1] * x
                    s2 += U[i, k + 2] * x
                out[j, k] += s0
                out[j, k + 1] += s1
                out[j, k + 2] += s2
            for k in range(U.shape[1] - U.shape[1] % 3, U.shape[1]):
                s = 0.0
                for t in range(first, end):
                    s += data[t] * U[np.uint64(indices[t]), k]
                out[j, k] += s


@jit_fast
def column_gradients(cols, RD, start, stop, grad, diag):
    """``grad[j, k] = Σ_n x_nj RD_nk`` and ``diag[j, k] = Σ_n x_nj² RD_n,K+k``
    for the columns ``start:stop`` (``RD`` of shape (n_samples, 2K): a row's
    residuals and curvatures share a cache line), chunk by chunk as
    :func:`column_products`, from one read of each column's part."""
    data, indices, indptr = cols.data, cols.indices, cols.indptr
    n_classes = RD.shape[1] // 2
    grad[start:stop] = 0.0
    diag[start:stop] = 0.0
    for c in range(indptr.shape[0]):
        for j in range(start, stop):
            first, end = np.uint64(indptr[c, j]), np.uint64(indptr[c, j + 1])
            for k in range(0, n_classes - 2, 3):   # three classes per read of the column
                g0 = 0.0
                g1 = 0.0
                g2 = 0.0
                h0 = 0.0
                h1 = 0.0
                h2 = 0.0
                for t in range(first, end):
                    i, x = np.uint64(indices[t]), data[t]
                    xx = x * x
                    g0 += x * RD[i, k]
                    g1 += x * RD[i, k + 1]
                    g2 += x * RD[i, k + 2]
                    h0 += xx * RD[i, n_classes + k]
                    h1 += xx * RD[i, n_classes + k + 1]
                    h2 += xx * RD[i, n_classes + k + 2]
                grad[j, k] += g0
                grad[j, k + 1] += g1
                grad[j, k + 2] += g2
                diag[j, k] += h0
                diag[j, k + 1] += h1
                diag[j, k + 2] += h2
            for k in range(n_classes - n_classes % 3, n_classes):
                g = 0.0
                h = 0.0
                for t in range(first, end):
                    i, x = np.uint64(indices[t]), data[t]
                    g += x * RD[i, k]
                    h += x * x * RD[i, n_classes + k]
                grad[j, k] += g
                diag[j, k] += h


# --------------------------------------------------------------------------
# the phases over fixed blocks in parallel: block ``blk`` of ``n_blocks``
# covers rows (columns) ``blk·n // n_blocks : (blk + 1)·n // n_blocks``
# --------------------------------------------------------------------------
@jit_parallel
def binary_score_blocks(rows, v, z, n_blocks):
    """:func:`binary_row_scores` over all rows: ``z = X̃ v``."""
    n = rows.indptr.shape[0] - 1
    for blk in prange(n_blocks):
        binary_row_scores(rows, v, blk * n // n_blocks, (blk + 1) * n // n_blocks, z)


@jit_parallel
def multinomial_score_blocks(rows, V, Z, n_blocks):
    """:func:`multinomial_row_scores` over all rows: ``Z = X̃ V``."""
    n = rows.indptr.shape[0] - 1
    for blk in prange(n_blocks):
        multinomial_row_scores(rows, V, blk * n // n_blocks, (blk + 1) * n // n_blocks, Z)


@jit_parallel
def binary_terms_blocks(targets, z, RD, D, n_blocks):
    """:func:`binary_score_terms` over all rows; returns the summed log-loss and
    the column sums of ``RD`` (the intercept's gradient and curvature)."""
    n = z.shape[0]
    losses = zeros(n_blocks, np.float64)
    totals = zeros((n_blocks, 2), np.float64)
    for blk in prange(n_blocks):
        losses[blk] = binary_score_terms(targets, z, blk * n // n_blocks,
                                         (blk + 1) * n // n_blocks, RD, D, totals[blk])
    return block_total(losses), block_totals(totals)


@jit_parallel
def multinomial_terms_blocks(targets, Z, RD, P, n_blocks):
    """:func:`multinomial_score_terms` over all rows; returns the summed
    log-loss and the column sums of ``RD``."""
    n = Z.shape[0]
    losses = zeros(n_blocks, np.float64)
    totals = zeros((n_blocks, RD.shape[1]), np.float64)
    for blk in prange(n_blocks):
        losses[blk] = multinomial_score_terms(targets, Z, blk * n // n_blocks,
                                              (blk + 1) * n // n_blocks, RD, P, totals[blk])
    return block_total(losses), block_totals(totals)


@jit_parallel
def binary_curvature_blocks(rows, D, v, XV, U, n_blocks):
    """:func:`binary_curvature_rows` over all rows; returns the sum of ``U``."""
    n = rows.indptr.shape[0] - 1
    totals = zeros((n_blocks, 1), np.float64)
    for blk in prange(n_blocks):
        binary_curvature_rows(rows, D, v, blk * n // n_blocks, (blk + 1) * n // n_blocks, XV, U,
                              totals[blk])
    return block_totals(totals)


@jit_parallel
def multinomial_curvature_blocks(rows, P, V, weight, U, n_blocks):
    """:func:`multinomial_curvature_rows` over all rows; returns the column sums of ``U``."""
    n = rows.indptr.shape[0] - 1
    totals = zeros((n_blocks, U.shape[1]), np.float64)
    for blk in prange(n_blocks):
        multinomial_curvature_rows(rows, P, V, weight, blk * n // n_blocks,
                                   (blk + 1) * n // n_blocks, U, totals[blk])
    return block_totals(totals)


@jit_parallel
def transpose_product(cols, U, intercept, bounds):
    """``X̃ᵀ U`` of shape (n_features + 1, K): :func:`column_products` over the
    column blocks ``bounds[b]:bounds[b + 1]``, the intercept's row
    ``intercept`` (the column sums of ``U``). Each entry is one block's sum in
    a fixed order: the blocks (one per thread) change no bit of the result."""
    d = cols.indptr.shape[1] - 1
    out = empty((d + 1, U.shape[1]), np.float64)
    for blk in prange(bounds.shape[0] - 1):
        column_products(cols, U, bounds[blk], bounds[blk + 1], out)
    out[d] = intercept
    return out


@jit_parallel
def transpose_gradient(cols, RD, intercept, bounds):
    """``X̃ᵀ RD`` as the gradient (first K columns of ``RD``) and the Hessian's
    diagonal (squared entries, last K): :func:`column_gradients` over the
    column blocks ``bounds[b]:bounds[b + 1]``, the intercept's rows from
    ``intercept`` (the column sums of ``RD``)."""
    d = cols.indptr.shape[1] - 1
    n_classes = RD.shape[1] // 2
    grad = empty((d + 1, n_classes), np.float64)
    diag = empty((d + 1, n_classes), np.float64)
    for blk in prange(bounds.shape[0] - 1):
        column_gradients(cols, RD, bounds[blk], bounds[blk + 1], grad, diag)
    grad[d] = intercept[:n_classes]
    diag[d] = intercept[n_classes:]
    return grad, diag
