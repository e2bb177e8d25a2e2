"""Compiled element-wise steps that turn ``X @ Y.T`` into distance-based kernels.

The expensive part of every Gram matrix is the product ``X @ Y.T``, which
numpy hands to BLAS. The distance step is element-wise and independent per
entry, so it runs in parallel, in place; the final ``exp`` is numpy's SIMD
implementation, also in place.

The expansion ``|x|² + |y|² - 2 x.y`` loses every digit when x and y are
close relative to their norms (for x = y it leaves a rounding residue
instead of 0, which exp(-gamma d²) turns into a visible error when gamma is
large). Entries where it cancels are recomputed directly as the sum of
squared differences, so that ``k(x, x) = 1`` exactly. For CSR samples the
direct sum runs over the union of the two rows' nonzeros
(:func:`sq_dist_csr`).
"""

from __future__ import annotations

import math

from numba import prange

from .._numba import jit_fast, jit_fast_inline, jit_fast_internal, jit_parallel

#: an expanded squared distance below this share of |x|² + |y|² is recomputed
#: directly (its relative error could exceed about 1e-8 in float64)
CANCELLATION = 1e-6
#: a CSR block of at least this many entries is finished on all threads
#: (:func:`sq_dist_csr`), a smaller one on the calling thread
#: (:func:`sq_dist_csr_serial`): the parallel kernel's compilation is most of
#: a first sparse fit's kernel blocks, and a block below ~10^6 entries takes
#: about a millisecond on one thread
PARALLEL_ENTRIES = 1 << 20


@jit_fast_internal
def exact_sq_dist(x, y):
    """Σ (x_f - y_f)², exactly 0 for x = y."""
    acc = 0.0
    for f in range(x.shape[0]):
        diff = x[f] - y[f]
        acc += diff * diff
    return acc


@jit_parallel
def sq_dist(G, X, Y, sq_x, sq_y):
    """In place: ``G[i, j] <- ‖x_i - y_j‖²`` from ``G = X @ Y.T``, by the
    expansion (clipped at 0), or directly where the expansion cancels."""
    n, m = G.shape
    for i in prange(n):
        row = G[i]
        for j in range(m):
            row[j] = max(sq_x[i] + sq_y[j] - 2.0 * row[j], 0.0)
        for j in range(m):
            if row[j] <= CANCELLATION * (sq_x[i] + sq_y[j]):
                row[j] = exact_sq_dist(X[i], Y[j])
    return G


@jit_fast_inline
def exact_sq_dist_csr(xd, xi, yd, yi):
    """Σ (x_f - y_f)² of two sparse rows (values ``xd``, ``yd`` at sorted
    feature indices ``xi``, ``yi``), merging their nonzeros."""
    acc = 0.0
    p = 0
    q = 0
    while p < xi.shape[0] or q < yi.shape[0]:
        if q == yi.shape[0] or (p < xi.shape[0] and xi[p] < yi[q]):
            diff = xd[p]
            p += 1
        elif p == xi.shape[0] or yi[q] < xi[p]:
            diff = yd[q]
            q += 1
        else:
            diff = xd[p] - yd[q]
            p += 1
            q += 1
        acc += diff * diff
    return acc


@jit_fast_inline
def sq_dist_csr_row(G, X, Y, sq_x, sq_y, i):
    """Row i of :func:`sq_dist_csr`: ``G[i, j] <- ‖x_i - y_j‖²`` for every j,
    by the expansion (clipped at 0), or directly where it cancels."""
    x_data, x_indices, x_indptr = X.data, X.indices, X.indptr
    y_data, y_indices, y_indptr = Y.data, Y.indices, Y.indptr
    row = G[i]
    m = row.shape[0]
    for j in range(m):
        row[j] = max(sq_x[i] + sq_y[j] - 2.0 * row[j], 0.0)
    xs, xe = x_indptr[i], x_indptr[i + 1]
    for j in range(m):
        if row[j] <= CANCELLATION * (sq_x[i] + sq_y[j]):
            ys, ye = y_indptr[j], y_indptr[j + 1]
            row[j] = exact_sq_dist_csr(x_data[xs:xe], x_indices[xs:xe],
                                       y_data[ys:ye], y_indices[ys:ye])


@jit_parallel
def sq_dist_csr(G, X, Y, sq_x, sq_y):
    """:func:`sq_dist` for CSR ``X`` and ``Y`` (each a :class:`hyperplane._csr_rows.CSRRows`:
    sorted indices, no duplicates), the rows on all threads."""
    for i in prange(G.shape[0]):
        sq_dist_csr_row(G, X, Y, sq_x, sq_y, i)
    return G


@jit_fast
def sq_dist_csr_serial(G, X, Y, sq_x, sq_y):
    """:func:`sq_dist_csr` on this thread: the same rows, the same values,
    without compiling a parallel region (for blocks too small to pay for one:
    :data:`PARALLEL_ENTRIES`)."""
    for i in range(G.shape[0]):
        sq_dist_csr_row(G, X, Y, sq_x, sq_y, i)
    return G


@jit_parallel
def neg_scaled_dist(G, X, Y, sq_x, sq_y, scale, squared):
    """In place: ``G[i, j] <- -scale · ‖x_i - y_j‖²`` (``squared``; the RBF
    kernel's exponent) or ``-scale · ‖x_i - y_j‖`` (the Laplace kernel's),
    from ``G = X @ Y.T``."""
    sq_dist(G, X, Y, sq_x, sq_y)
    n, m = G.shape
    for i in prange(n):
        for j in range(m):
            G[i, j] = -scale * (G[i, j] if squared else math.sqrt(G[i, j]))
    return G
