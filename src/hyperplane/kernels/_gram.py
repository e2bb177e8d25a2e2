"""Compiled element-wise finishing steps for Gram matrices.

The expensive part of every Gram matrix is the product ``X @ Y.T``, which
numpy hands to BLAS. What remains is element-wise and independent per entry,
so it runs in parallel in place, touching the n x m matrix once.
"""

from __future__ import annotations

import math

from numba import prange

from .._numba import jit_parallel


@jit_parallel
def rbf_from_dot(G, sq_x, sq_y, inv_two_sigma2):
    """In place: ``G[i, j] <- exp(-(|x_i|^2 + |y_j|^2 - 2 G[i, j]) / (2 sigma^2))``.

    ``G`` holds ``X @ Y.T`` on entry. Squared distances that rounding makes
    negative are clipped at 0.
    """
    n, m = G.shape
    for i in prange(n):
        for j in range(m):
            d2 = sq_x[i] + sq_y[j] - 2.0 * G[i, j]
            if d2 < 0.0:
                d2 = 0.0
            G[i, j] = math.exp(-d2 * inv_two_sigma2)
    return G


@jit_parallel
def laplace_from_dot(G, sq_x, sq_y, inv_sigma):
    """In place: ``G[i, j] <- exp(-|x_i - y_j| / sigma)`` from ``G = X @ Y.T``."""
    n, m = G.shape
    for i in prange(n):
        for j in range(m):
            d2 = sq_x[i] + sq_y[j] - 2.0 * G[i, j]
            if d2 < 0.0:
                d2 = 0.0
            G[i, j] = math.exp(-math.sqrt(d2) * inv_sigma)
    return G
