"""Compiled element-wise steps that turn ``X @ Y.T`` into distance-based kernels.

The expensive part of every Gram matrix is the product ``X @ Y.T``, which
numpy hands to BLAS. The distance step is element-wise and independent per
entry, so it runs in parallel, in place; the final ``exp`` is numpy's SIMD
implementation, also in place.

The expansion ``|x|² + |y|² - 2 x.y`` loses every digit when x and y are
close relative to their norms (for x = y it leaves a rounding residue
instead of 0, which exp(-gamma d²) turns into a visible error when gamma is
large). Entries where it cancels are recomputed directly as the sum of
squared differences, so that ``k(x, x) = 1`` exactly. CSR samples take the
same steps in NumPy and scipy.sparse, nothing compiled
(:func:`._samples.sq_dist_csr`).
"""

from __future__ import annotations

import math

from numba import prange

from .._numba import jit_fast_internal, jit_parallel
from ._samples import CANCELLATION


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
