"""Compiled epoch of the Widrow–Hoff rule (α-LMS) of the Adaline.

The updates of one epoch depend on each other (sample n sees the weights
left by sample n − 1), so the epoch runs serially under strict IEEE
arithmetic, in the order the caller gives. The samples are dense rows or
CSR rows, read through the package's row layer
(:mod:`hyperplane._row_kernels`): one epoch for both layouts, the same bits.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._lowered import empty
from .._numba import jit
from .._row_kernels import row_axpy, row_dot, row_weighted_square


class LMSSamples(NamedTuple):
    """What an epoch reads: the rows ``X`` (dense or
    :class:`~hyperplane._csr_rows.CSRRows`), targets ``T`` (n_samples,
    n_outputs) of ±1, the sample weights ``s`` and ``norm2 = ‖x̃_n‖²``
    (:func:`augmented_squared_norms`)."""
    X: object
    T: np.ndarray
    s: np.ndarray
    norm2: np.ndarray


@jit
def augmented_squared_norms(X, n_samples, ones):
    """``‖x̃_n‖² = ‖x_n‖² + 1`` of every row (``ones``: a vector of ones, one
    per feature)."""
    out = empty(n_samples, np.float64)
    for n in range(n_samples):
        out[n] = row_weighted_square(X, n, ones) + 1.0
    return out


@jit
def lms_epoch(samples, W, b, order, eta):
    """One pass of ``w̃_k ← w̃_k + η s_n (t_nk − y_nk) x̃_n / ‖x̃_n‖²``.

    ``x̃ = (x, 1)``, so the bias moves by ``η s_n (t_nk − y_nk) / ‖x̃_n‖²``;
    ``y_nk = w_k·x_n + b_k`` is the linear output before the update (the
    Adaline's error is measured before the threshold, unlike the
    perceptron's). Widrow & Lehr (1990), eq. (4): with ``s_n = 1`` the
    update leaves the sample's error ``(1 − η)`` times what it was; a sample
    weight ``s_n`` scales the step (``s_n = 0``: the sample is skipped).
    Updates ``W`` and ``b`` in place.

    Parameters
    ----------
    samples : LMSSamples
    W : ndarray of shape (n_outputs, n_features), float64
    b : ndarray of shape (n_outputs,), float64
    order : ndarray of int64, the rows to visit in order
    eta : float

    Returns
    -------
    float
        Σ of the weighted squared errors ``s_n (t_nk − y_nk)²`` seen during
        the epoch.
    """
    X, T, s, norm2 = samples.X, samples.T, samples.s, samples.norm2
    sse = 0.0
    for n in order:
        for k in range(W.shape[0]):
            e = T[n, k] - row_dot(X, n, W[k], b[k])
            sse += s[n] * e * e
            step = eta * s[n] * e / norm2[n]
            row_axpy(X, n, W[k], step)
            b[k] += step
    return sse
