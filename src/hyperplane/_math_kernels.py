"""Scalar functions shared by compiled kernels of several families."""

from __future__ import annotations

import numpy as np

from ._numba import jit_fast


@jit_fast
def sigmoid(z):
    """``1 / (1 + e^{−z})`` without overflow: ``e^z / (1 + e^z)`` for negative z."""
    if z >= 0.0:
        return 1.0 / (1.0 + np.exp(-z))
    e = np.exp(z)
    return e / (1.0 + e)


@jit_fast
def log1pexp(z):
    """``log(1 + e^z)`` without overflow."""
    if z > 0.0:
        return z + np.log1p(np.exp(-z))
    return np.log1p(np.exp(z))
