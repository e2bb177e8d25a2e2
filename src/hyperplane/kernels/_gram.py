"""Compiled element-wise steps that turn ``X @ Y.T`` into distance-based kernels.

The expensive part of every Gram matrix is the product ``X @ Y.T``, which
numpy hands to BLAS. The distance step is element-wise and independent per
entry, so it runs in parallel, in place, with no branch in the loop so that it
vectorises; the final ``exp`` is numpy's SIMD implementation, also in place.
"""

from __future__ import annotations

import math

from numba import prange

from .._numba import jit_parallel


@jit_parallel
def neg_scaled_sq_dist(G, sq_x, sq_y, scale):
    """In place: ``G[i, j] <- -scale · max(|x_i|² + |y_j|² - 2 G[i, j], 0)``.

    ``G`` holds ``X @ Y.T`` on entry; the ``max`` clips the negative squared
    distances that rounding can produce.
    """
    n, m = G.shape
    for i in prange(n):
        for j in range(m):
            G[i, j] = -scale * max(sq_x[i] + sq_y[j] - 2.0 * G[i, j], 0.0)
    return G


@jit_parallel
def neg_scaled_dist(G, sq_x, sq_y, scale):
    """In place: ``G[i, j] <- -scale · ‖x_i - y_j‖`` from ``G = X @ Y.T``."""
    n, m = G.shape
    for i in prange(n):
        for j in range(m):
            G[i, j] = -scale * math.sqrt(max(sq_x[i] + sq_y[j] - 2.0 * G[i, j], 0.0))
    return G
