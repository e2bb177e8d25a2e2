"""Mixins shared by the estimator families."""

from __future__ import annotations

import numpy as np

import functools

from ._validation import check_chunk, check_is_fitted, check_X, is_dask_collection
from .distributed import Chunks, predict_lazy


def dask_classification_data(estimator, X, y):
    """A Dask ``(X, y)`` as :class:`~hyperplane.distributed.Chunks` for a classifier.

    Every block of ``X`` gets the in-memory checks (:func:`check_chunk`)
    inside its task; a ``scipy.sparse`` block (e.g. of
    ``dask.array.from_array(X_csr, asarray=False)``) stays sparse as CSR, the
    form the chunk statistics read. The labels are encoded against the sorted
    classes once.
    Sets ``classes_``, ``n_features_in_`` and ``feature_names_in_`` (string
    column names of a dataframe only), as ``check_X_y`` and ``encode_labels``
    do in memory.
    """
    name = type(estimator).__name__
    chunks = Chunks(X, y, check_block=functools.partial(check_chunk, estimator_name=name,
                                                        accept_sparse="csr"))
    estimator.classes_ = chunks.classes()
    chunks.encode_labels(estimator.classes_)
    estimator.n_features_in_ = chunks.n_features
    if chunks.feature_names is not None:
        estimator.feature_names_in_ = chunks.feature_names
    else:
        estimator.__dict__.pop("feature_names_in_", None)
    return chunks


class LinearDecisionMixin:
    """``decision_function`` and ``predict`` for models ``f(x) = sign(w.x + b)``.

    Requires ``coef_`` of shape (1, n_features) for two classes or
    (n_classes, n_features) for one-vs-rest, ``intercept_`` and ``classes_``.
    A score of exactly 0 predicts the positive class ``classes_[1]``
    (李航: sign(0) = +1); with K classes the largest score wins.
    """

    def decision_function(self, X):
        """Signed distance times ``‖w‖``: ``X @ coef_.T + intercept_``
        (``X`` dense or ``scipy.sparse``).

        Returns an array of shape (n_samples,) for two classes, else
        (n_samples, n_classes).
        """
        check_is_fitted(self)
        if is_dask_collection(X):
            return predict_lazy(self.decision_function, X,
                                ndim_out=1 if self.coef_.shape[0] == 1 else 2)
        X = check_X(self, X, reset=False, accept_sparse=("csr", "csc"))
        scores = (X @ self.coef_.T.astype(X.dtype, copy=False)
                  + np.asarray(self.intercept_).astype(X.dtype, copy=False))
        return scores.ravel() if scores.shape[1] == 1 else scores

    def predict(self, X):
        """Class labels: ``classes_[1]`` where the score is ``>= 0`` (two
        classes), else the class of the largest one-vs-rest score."""
        check_is_fitted(self)
        if is_dask_collection(X):
            return predict_lazy(self.predict, X, dtype=self.classes_.dtype)
        return predict_from_scores(self.classes_, self.decision_function(X))


def predict_from_scores(classes, scores):
    """Labels from decision scores with the book's ``sign(0) = +1``."""
    scores = np.asarray(scores)
    if scores.ndim == 1:
        return classes[(scores >= 0).astype(np.intp)]
    return classes[np.argmax(scores, axis=1)]
