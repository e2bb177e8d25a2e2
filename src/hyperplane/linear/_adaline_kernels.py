"""Compiled epoch of the Widrow–Hoff rule (α-LMS) of the Adaline.

The updates of one epoch depend on each other (sample n sees the weights
left by sample n − 1), so the epoch runs serially under strict IEEE
arithmetic, in the order the caller gives.
"""

from __future__ import annotations

import numpy as np

from .._numba import jit


@jit
def lms_epoch(X, T, W, b, order, eta):
    """One pass of ``w̃_k ← w̃_k + η (t_nk − y_nk) x̃_n / ‖x̃_n‖²``.

    ``x̃ = (x, 1)``, so the bias moves by ``η (t_nk − y_nk) / ‖x̃_n‖²``;
    ``y_nk = w_k·x_n + b_k`` is the linear output before the update (the
    Adaline's error is measured before the threshold, unlike the
    perceptron's). Widrow & Lehr (1990), eq. (4): after the update the
    sample's error is ``(1 − η)`` times what it was. Updates ``W`` and ``b``
    in place.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    T : ndarray of shape (n_samples, n_outputs), targets ±1
    W : ndarray of shape (n_outputs, n_features), float64
    b : ndarray of shape (n_outputs,), float64
    order : ndarray of int64, the rows to visit in order
    eta : float

    Returns
    -------
    float
        Σ of the squared errors ``(t_nk − y_nk)²`` seen during the epoch.
    """
    d = X.shape[1]
    n_outputs = W.shape[0]
    sse = 0.0
    for i in order:
        norm2 = 1.0
        for j in range(d):
            norm2 += X[i, j] * X[i, j]
        for k in range(n_outputs):
            y = b[k]
            for j in range(d):
                y += W[k, j] * X[i, j]
            e = T[i, k] - y
            sse += e * e
            step = eta * e / norm2
            for j in range(d):
                W[k, j] += step * X[i, j]
            b[k] += step
    return sse


@jit
def sparse_lms_epoch(data, indices, indptr, T, W, b, order, eta):
    """:func:`lms_epoch` on CSR rows (``data``, ``indices``, ``indptr``):
    the same updates, reading only the row's nonzeros."""
    n_outputs = W.shape[0]
    sse = 0.0
    for i in order:
        norm2 = 1.0
        for t in range(np.uint64(indptr[i]), np.uint64(indptr[i + 1])):
            norm2 += data[t] * data[t]
        for k in range(n_outputs):
            y = b[k]
            for t in range(np.uint64(indptr[i]), np.uint64(indptr[i + 1])):
                y += W[k, np.uint64(indices[t])] * data[t]
            e = T[i, k] - y
            sse += e * e
            step = eta * e / norm2
            for t in range(np.uint64(indptr[i]), np.uint64(indptr[i + 1])):
                W[k, np.uint64(indices[t])] += step * data[t]
            b[k] += step
    return sse
