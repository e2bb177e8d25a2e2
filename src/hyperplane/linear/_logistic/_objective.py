"""The objective of logistic regression as the solvers see it: the summed,
weighted log-loss and its gradient over the rows (Bishop, PRML §4.3.2 and
§4.3.4; one compiled pass, :mod:`._gradient_kernels`), the normalised
penalised objective ``(C Σ s_n ℓ_n + ½‖W‖²) / (C Σ s_n)`` on a flat vector,
and its restriction to ``b = 0``.

:func:`logistic_loss_grad` returns sums over rows, so a distributed fit adds
the results of its chunks and drives the same solver.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse

from .._state import CSRRows, Targets
from ._gradient_kernels import binary_blocks, binary_rows, dense_row_block_count
from ._gradient_kernels import multinomial_blocks, multinomial_rows
from ._layout import canonical_csr, csr_row_block_count


def logistic_loss_grad(X, y_index, coef, intercept, sample_weight=None):
    """Summed (weighted) log-loss of ``X`` and its gradient at ``(coef, intercept)``.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y_index : ndarray of int64
        Class indices; with ``coef`` of one row, 1 is the positive class.
    coef : ndarray of shape (1, n_features) or (n_classes, n_features)
    intercept : ndarray of shape (1,) or (n_classes,)
    sample_weight : ndarray of shape (n_samples,) or None
        The rows' weights ``s_n`` (None: all 1).

    Returns
    -------
    loss : float
        ``Σ_n s_n ℓ_n`` (no penalty).
    grad_coef : ndarray shaped like ``coef``
    grad_intercept : ndarray shaped like ``intercept``

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1.0], [-1.0]]); y = np.array([1, 0])
    >>> loss, g, g0 = logistic_loss_grad(X, y, np.zeros((1, 1)), np.zeros(1))
    >>> round(loss, 6), g.tolist(), g0.tolist()
    (1.386294, [[-1.0]], [0.0])
    >>> loss, g, g0 = logistic_loss_grad(X, y, np.zeros((1, 1)), np.zeros(1),
    ...                                  np.array([3.0, 1.0]))
    >>> round(loss, 6), g.tolist(), g0.tolist()
    (2.772589, [[-2.0]], [-1.0])
    """
    coef = np.ascontiguousarray(coef, dtype=np.float64)
    intercept = np.asarray(intercept, dtype=np.float64)
    weight = row_weights(sample_weight)
    y = loss_targets(y_index, coef.shape[0] == 1)
    if scipy.sparse.issparse(X):
        return csr_loss_grad(canonical_csr(X), y, coef, intercept, weight)
    X = np.ascontiguousarray(X)
    return rows_loss_grad(X, y, coef, intercept, weight, dense_row_block_count(X.size))


def csr_loss_grad(X, y, coef, intercept, weight=None):
    """``Σ_n s_n ℓ_n`` and its gradient over the rows of a canonical CSR ``X``
    (:func:`~._layout.canonical_csr`), ``y`` as :func:`loss_targets` gives
    it: :func:`rows_loss_grad` over its rows, in the blocks of
    :func:`~._layout.csr_row_block_count`."""
    n_parameters = coef.shape[0] * (coef.shape[1] + 1)
    return rows_loss_grad(CSRRows.of(X), y, coef, intercept, weight,
                          csr_row_block_count(X.nnz, n_parameters))


def rows_loss_grad(rows, y, coef, intercept, weight, n_blocks):
    """``Σ_n s_n ℓ_n`` and its gradient by one pass over dense or CSR rows
    (:mod:`._gradient_kernels`), in ``n_blocks`` row blocks.

    Parameters
    ----------
    rows : ndarray of shape (n_samples, n_features), C-contiguous, or CSRRows
    y : ndarray
        float64 1/0 (positive class or not) for one row of ``coef``, int64
        class indices for more (:func:`loss_targets`).
    coef : ndarray of shape (n_rows, n_features)
    intercept : ndarray of shape (n_rows,)
    weight : ndarray of shape (n_samples,) or None
        The rows' weights ``s_n`` (None: all 1).
    n_blocks : int
        A function of the data only (the sums then do not depend on the
        number of threads).

    Returns
    -------
    loss : float
    grad_coef : ndarray of shape (n_rows, n_features)
    grad_intercept : ndarray of shape (n_rows,)
    """
    targets = Targets(y, weight)
    n_rows = coef.shape[0]
    feature_major = not isinstance(rows, np.ndarray)   # W̃ of CSR rows: (n_features + 1, K)
    if n_rows == 1:
        W, single, blocks = np.append(coef[0], intercept[0]), binary_rows, binary_blocks
    else:
        single, blocks = multinomial_rows, multinomial_blocks
        if feature_major:
            W = np.empty((coef.shape[1] + 1, n_rows))
            W[:-1] = coef.T
            W[-1] = intercept
        else:
            W = np.column_stack([coef, intercept])
    if n_blocks == 1:
        grad = np.zeros_like(W)
        loss = single(rows, targets, W, 0, rows_count(rows), grad, None, None)
    else:
        loss, grad, _ = blocks(rows, targets, W, None, n_blocks)
    if n_rows == 1:
        grad = grad[None, :]
    elif feature_major:
        grad = grad.T
    return loss, grad[:, :-1], grad[:, -1]


def rows_count(rows):
    """The number of rows of a dense array or of CSR rows."""
    return rows.shape[0] if isinstance(rows, np.ndarray) else rows.indptr.shape[0] - 1


def row_weights(sample_weight):
    """The rows' weights as the compiled passes read them: contiguous float64,
    or None (every row weighs 1)."""
    if sample_weight is None:
        return None
    return np.ascontiguousarray(sample_weight, dtype=np.float64)


def sample_weight_sum(n_samples, weight):
    """``Σ_n s_n``, the N of the normalised objective: ``n_samples`` without weights."""
    return n_samples if weight is None else float(np.sum(weight))


def loss_targets(y_index, binary):
    """The targets as the compiled passes read them: float64 1/0 (positive
    class or not) for two classes, int64 class indices for more."""
    if binary:
        return (np.asarray(y_index) == 1).astype(np.float64)
    return np.ascontiguousarray(y_index, dtype=np.int64)


def penalised_objective(loss_grad, C, n_samples, shape):
    """The normalised objective ``(C Σℓ + ½‖W‖²) / (C N)`` on a flat vector.

    Parameters
    ----------
    loss_grad : callable ``(coef, intercept) -> (loss, grad_coef, grad_intercept)``
        Sums over the data, e.g. :func:`logistic_loss_grad` bound to ``X, y``
        or a reduction over Dask chunks.
    C : float
    n_samples : int
    shape : tuple ``(n_rows, n_features)`` of ``coef``

    Returns
    -------
    callable ``theta -> (f, grad)`` where ``theta = [coef.ravel(), intercept]``.
    """
    n_rows, n_features = shape
    size = n_rows * n_features
    scale = 1.0 / (C * n_samples)

    def objective(theta):
        coef = theta[:size].reshape(n_rows, n_features)
        loss, g_coef, g_intercept = loss_grad(coef, theta[size:])
        f = scale * (C * loss + 0.5 * np.dot(theta[:size], theta[:size]))
        grad = np.concatenate([scale * (C * g_coef + coef).ravel(),
                               scale * C * g_intercept])
        return f, grad

    return objective


def without_intercept(objective, n_rows):
    """``objective`` of ``theta = [coef.ravel(), intercept]`` restricted to
    ``intercept = 0``: a callable of ``coef.ravel()`` alone (its gradient
    the coef part of the full one).

    Examples
    --------
    >>> import numpy as np
    >>> f = without_intercept(lambda t: (t @ t, 2 * t), 1)
    >>> f(np.array([1.0, 2.0]))
    (np.float64(5.0), array([2., 4.]))
    """
    zeros = np.zeros(n_rows)

    def restricted(coef):
        f, grad = objective(np.concatenate([coef, zeros]))
        return f, grad[:coef.shape[0]]

    return restricted


__all__ = ["csr_loss_grad", "logistic_loss_grad", "loss_targets", "penalised_objective",
           "row_weights", "rows_loss_grad", "sample_weight_sum", "without_intercept"]
