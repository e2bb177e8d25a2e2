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
def binary_log_loss(z, y):
    """``(log(1 + e^z) − y z, σ(z))`` of one score ``z`` and target ``y ∈ {0, 1}``:
    the log-loss of a row and its probability, from one ``e^{−|z|}`` and
    without overflow (``log(1 + e^z) = max(z, 0) + log(1 + e^{−|z|})``)."""
    e = np.exp(-abs(z))
    p = 1.0 / (1.0 + e) if z >= 0.0 else e / (1.0 + e)
    return max(z, 0.0) + np.log1p(e) - y * z, p
