"""Mixins shared by the estimator families."""

from __future__ import annotations

import numpy as np

from ._validation import check_is_fitted, check_X, is_dask_collection


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
            from .distributed import predict_lazy
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
            from .distributed import predict_lazy
            return predict_lazy(self.predict, X, dtype=self.classes_.dtype)
        return predict_from_scores(self.classes_, self.decision_function(X))


def predict_from_scores(classes, scores):
    """Labels from decision scores with the book's ``sign(0) = +1``."""
    scores = np.asarray(scores)
    if scores.ndim == 1:
        return classes[(scores >= 0).astype(np.intp)]
    return classes[np.argmax(scores, axis=1)]
