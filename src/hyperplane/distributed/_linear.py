"""Least squares, Fisher and logistic regression on Dask.

* Least squares and Fisher need only the class moments (counts, means and
  the within-class scatter, :mod:`hyperplane.linear._moments`). Every chunk
  computes its own; they are merged on the cluster
  (:func:`~hyperplane.linear._moments.merge_class_moments`, Chan, Golub &
  LeVeque's exact update) and only the final d×d scatter reaches the client,
  which solves exactly as the in-memory fit does.
* Logistic regression: each L-BFGS evaluation sums the per-chunk loss and
  gradient (:func:`~hyperplane.linear._logistic.logistic_loss_grad`) on the
  cluster; the client runs the same quasi-Newton iterations as in memory.
"""

from __future__ import annotations

import numpy as np

from ..linear._logistic import logistic_loss_grad
from ..linear._moments import class_moments, merge_class_moments
from ._dask import add_parts, chunk_pairs, dask_classes, import_dask, tree_reduce


def _encode(y_block, classes):
    y_block = np.asarray(y_block)
    y_index = np.searchsorted(classes, y_block)
    bad = (y_index >= len(classes)) | (classes[np.minimum(y_index, len(classes) - 1)] != y_block)
    if np.any(bad):
        raise ValueError(f"y has a label {y_block[np.argmax(bad)]!r} outside {classes.tolist()}")
    return y_index.astype(np.int64)


def _chunk_moments(X_block, y_block, classes):
    X = np.ascontiguousarray(X_block)
    if not np.issubdtype(X.dtype, np.floating):
        X = X.astype(np.float64)
    if not np.all(np.isfinite(X)):
        raise ValueError("X contains NaN or infinity")
    return class_moments(X, _encode(y_block, classes), len(classes))


def _start(model, X, y):
    dask = import_dask()
    X_blocks, y_blocks = chunk_pairs(X, y)
    model.classes_ = dask_classes(y)
    model.n_features_in_ = int(X.shape[1])
    if hasattr(X, "columns") and all(isinstance(c, str) for c in X.columns):
        model.feature_names_in_ = np.asarray(list(X.columns), dtype=object)
    elif hasattr(model, "feature_names_in_"):
        del model.feature_names_in_
    return dask, X_blocks, y_blocks


def fit_moments_on_dask(model, X, y):
    """Fit a model with ``_fit_moments`` (least squares, linear Fisher)."""
    if getattr(model, "kernel", None) is not None:
        raise TypeError("the kernel FisherDiscriminant (KLDA) needs the n×n kernel "
                        "matrix and does not scale out on Dask; use kernel=None")
    dask, X_blocks, y_blocks = _start(model, X, y)
    chunk = dask.delayed(_chunk_moments)
    parts = [chunk(xb, yb, model.classes_) for xb, yb in zip(X_blocks, y_blocks)]
    (moments,) = dask.compute(tree_reduce(dask, parts, merge_class_moments))
    return model._fit_moments(moments)


def _chunk_loss_grad(X_block, y_index, coef, intercept):
    return logistic_loss_grad(np.ascontiguousarray(X_block, dtype=np.float64), y_index,
                              coef, intercept)


def _count(y_block):
    return int(np.asarray(y_block).shape[0])


def fit_logistic_on_dask(model, X, y):
    """Fit :class:`~hyperplane.linear.LogisticRegression` with cluster-side
    loss/gradient reductions."""
    from .._validation import check_number
    check_number(model.C, "C", low=0, low_open=True)
    check_number(model.max_iter, "max_iter", low=1, integer=True)
    check_number(model.tol, "tol", low=0)
    dask, X_blocks, y_blocks = _start(model, X, y)
    # labels are encoded once and kept where the scheduler keeps data (on the
    # workers with a distributed client), not re-encoded at every evaluation
    encode = dask.delayed(_encode)
    y_index = dask.persist(*[encode(yb, model.classes_) for yb in y_blocks])
    chunk = dask.delayed(_chunk_loss_grad)

    def loss_grad(coef, intercept):
        parts = [chunk(xb, yi, coef, intercept) for xb, yi in zip(X_blocks, y_index)]
        (total,) = dask.compute(tree_reduce(dask, parts, add_parts))
        return total

    n_samples = int(X.shape[0]) if not np.isnan(X.shape[0]) else \
        sum(dask.compute(*[dask.delayed(_count)(yb) for yb in y_blocks]))
    return model._fit_loss_grad(loss_grad, n_samples, model.n_features_in_)
