"""The dual (and kernel) perceptron, 李航《统计学习方法》algorithm 2.2."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd
import scipy.sparse
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils import check_random_state

from .._base import predict_from_scores
from .._validation import (check_is_fitted, check_X, check_X_y, encode_labels,
                           one_vs_rest_targets, one_vs_rest_weights, validate_params,
                           warn_not_converged)
from ..kernels import (KERNEL_PARAMETER_RULES, Linear, known_psd, resolve_kernel,
                       warn_if_not_psd)
from ..kernels._kernels import linear_weights
from ._perceptron import ONLINE_RULES
from ._perceptron_kernels import DualSamples, DualState, dual_epoch


class DualFit(NamedTuple):
    """One ±1 problem fitted: ``alpha``, the bias ``b``, the epochs run, the
    samples updated in order, and whether the last epoch made no update."""
    alpha: np.ndarray
    b: float
    n_iter: int
    sequence: list
    converged: bool


def gram_matrix(kernel, X, Y):
    """``[K(x_i, y_j)]``: the linear kernel's ``X Yᵀ`` straight from sparse
    rows (either of ``X``, ``Y`` may be sparse or dense: a model fitted on
    dense rows predicts CSR rows and the other way round); any other kernel
    on dense rows (sparse rows are densified)."""
    if isinstance(kernel, Linear) and (scipy.sparse.issparse(X) or scipy.sparse.issparse(Y)):
        return np.asarray(dense(X @ Y.T), dtype=np.float64)
    return kernel(dense(X), dense(Y))


def dense(X):
    """``X`` as a dense array."""
    return X.toarray() if scipy.sparse.issparse(X) else X


class DualPerceptron(ClassifierMixin, BaseEstimator):
    """Perceptron in dual form ``f(x) = sign(Σ_j alpha_j y_j K(x_j, x) + b)``.

    Algorithm 2.2: from ``alpha = 0, b = 0``, every sample with
    ``y_i (Σ_j alpha_j y_j G[j, i] + b) <= 0`` triggers
    ``alpha_i <- alpha_i + eta, b <- b + eta y_i``, on the precomputed Gram
    matrix ``G = [K(x_i, x_j)]``. With the linear kernel it makes exactly the
    updates of :class:`Perceptron` (``w = Σ alpha_i y_i x_i``); any other
    kernel of :mod:`hyperplane.kernels` gives the kernel perceptron. ``X``
    may be a ``scipy.sparse`` matrix: the linear kernel's Gram matrix comes
    from the sparse rows, other kernels see the rows densified. A kernel that
    is not positive semi-definite on the training rows (checked as
    :class:`~hyperplane.svm.SVC` checks it, unless its kind guarantees it) is
    no kernel function in the sense of 周志华 定理6.1 and gives a
    ``NotPSDWarning``: the updates still run, but they are no perceptron in
    a feature space.

    Parameters
    ----------
    eta : float, default=1.0
        Learning rate η > 0.
    kernel : str or hyperplane.kernels.Kernel, default="linear"
        A kernel object, or ``"linear"``, ``"poly"``, ``"rbf"``,
        ``"laplace"``, ``"sigmoid"`` with ``gamma``, ``degree``, ``coef0``.
    max_iter : int, default=1000
        Maximum number of epochs.
    shuffle : bool, default=False
        Visit the samples in a new random order each epoch.
    random_state : int, RandomState or None
        Seeds the shuffling.
    record_trace : bool, default=False
        Keep every update in ``trace_``.
    gamma : {"scale", "auto"} or float, default="scale"
        scikit-learn's kernel coefficient for a named kernel.
    degree : int, default=3
        Degree of ``"poly"``.
    coef0 : float, default=0.0
        Independent term of ``"poly"`` and ``"sigmoid"``.
    class_weight : dict, "balanced" or None, default=None
        Weight of each class, multiplying ``sample_weight`` per one-vs-rest
        problem as :class:`Perceptron`'s.

    Attributes
    ----------
    class_weight_ : ndarray of shape (n_classes,)
        The weight of each class the last fit used.
    alpha_ : ndarray of shape (n_samples,) or (n_classes, n_samples)
        ``alpha_i = n_i eta`` with ``n_i`` the updates made on sample i.
    intercept_ : ndarray of shape (1,) or (n_classes,)
        ``b``.
    gram_ : ndarray of shape (n_samples, n_samples)
        The Gram matrix of the training data.
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
        ``w = Σ alpha_i y_i x_i`` (linear kernel only).
    kernel_ : Kernel
        The kernel object used.
    n_iter_, n_updates_, converged_, trace_
        As in :class:`Perceptron`; ``trace_`` rows hold ``step``,
        ``sample``, ``alpha`` (after the update) and ``b``.

    Examples
    --------
    李航 例2.2:

    >>> from hyperplane.datasets import load_perceptron_example
    >>> X, y = load_perceptron_example()
    >>> model = DualPerceptron().fit(X, y)
    >>> model.alpha_.tolist(), model.intercept_.tolist()
    ([2.0, 0.0, 5.0], [-3.0])
    >>> model.gram_.tolist()
    [[18.0, 21.0, 6.0], [21.0, 25.0, 7.0], [6.0, 7.0, 2.0]]
    """

    def __init__(self, *, eta=1.0, kernel="linear", max_iter=1000, shuffle=False,
                 random_state=None, record_trace=False, gamma="scale", degree=3,
                 coef0=0.0, class_weight=None):
        self.eta = eta
        self.kernel = kernel
        self.max_iter = max_iter
        self.shuffle = shuffle
        self.random_state = random_state
        self.record_trace = record_trace
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.class_weight = class_weight

    _parameter_rules = {**ONLINE_RULES, **KERNEL_PARAMETER_RULES}

    def fit(self, X, y, sample_weight=None):
        """Run algorithm 2.2 until an epoch makes no update or ``max_iter``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), optional
            ``s_i`` scales sample i's step: ``alpha_i <- alpha_i + η s_i``
            (the primal ``w <- w + η s_i y_i x_i``). A sample of weight 0 is
            never visited, as if it were not there (its ``alpha_i`` stays 0);
            the rule is online, so an integer weight is not a repeated row.
            ``class_weight`` multiplies it.

        Returns
        -------
        self
        """
        validate_params(self)
        X, y = check_X_y(self, X, y, reset=True, dtype=np.float64, accept_sparse="csr")
        self.classes_, y_index = encode_labels(y)
        self.class_weight_, weights = one_vs_rest_weights(self.class_weight, self.classes_,
                                                          y_index, sample_weight)
        self.kernel_ = resolve_kernel(self.kernel, None if self.kernel == "linear" else dense(X),
                                      gamma=self.gamma, degree=self.degree, coef0=self.coef0)
        self.gram_ = np.ascontiguousarray(gram_matrix(self.kernel_, X, X), dtype=np.float64)
        if not np.all(np.isfinite(self.gram_)):
            raise ValueError(f"kernel {self.kernel_!r} gave non-finite values on X")
        if not known_psd(self.kernel_):   # checked on (a sample of) X, as SVC's is
            warn_if_not_psd(self.kernel_, dense(X), self.random_state)
        rng = check_random_state(self.random_state)
        problems = one_vs_rest_targets(y_index, len(self.classes_))
        self._eta = [float(self.eta) * weight for weight in weights]   # per problem
        results = [self._fit_binary(y_signed, eta, rng)
                   for y_signed, eta in zip(problems, self._eta)]
        self._X_fit = X
        self._y_signed = problems
        alpha = np.vstack([r.alpha for r in results])
        self.alpha_ = alpha[0] if len(problems) == 1 else alpha
        self.intercept_ = np.array([r.b for r in results])
        self.n_iter_ = max(r.n_iter for r in results)
        self.n_updates_ = int(sum(len(r.sequence) for r in results))
        self.converged_ = all(r.converged for r in results)
        if isinstance(self.kernel_, Linear):
            self.coef_ = linear_weights(alpha * self._y_signed, X)
        if self.record_trace:
            self.trace_ = self._trace_frame(problems, [r.sequence for r in results])
        if not self.converged_:
            warn_not_converged(self, self.n_iter_,
                               "the data may not be separable in the kernel's "
                               "feature space: raise max_iter or change the kernel")
        return self

    def _fit_binary(self, y_signed, eta, rng):
        """Epochs of :func:`dual_epoch` on one ±1 problem (the samples of
        weight 0 left out of every visiting order)."""
        n = y_signed.shape[0]
        visited = np.flatnonzero(eta > 0).astype(np.int64)
        state = DualState(np.zeros(n), np.zeros(n), np.empty(n, dtype=np.int64))
        samples = DualSamples(self.gram_, y_signed, eta)
        b, sequence, converged, epoch = 0.0, [], False, 0
        for epoch in range(1, self.max_iter + 1):
            order = rng.permutation(visited) if self.shuffle else visited
            b, n_updates = dual_epoch(samples, state, b, order)
            sequence.extend(state.updated[:n_updates].tolist())
            if n_updates == 0:
                converged = True
                break
        return DualFit(state.alpha, b, epoch, sequence, converged)

    def _trace_frame(self, problems, sequences):
        """Replay the recorded updates (alpha_i += eta_i, b += eta_i y_i)."""
        rows = []
        multiclass = len(problems) > 1
        for k, (y_signed, sequence, eta) in enumerate(zip(problems, sequences, self._eta)):
            alpha = np.zeros(y_signed.shape[0])
            b = 0.0
            for i in sequence:
                alpha[i] += eta[i]
                b += eta[i] * y_signed[i]
                row = {"step": len(rows) + 1, "sample": i, "alpha": alpha.copy(), "b": b}
                if multiclass:
                    row["class"] = self.classes_[k]
                rows.append(row)
        columns = ["step", "sample", "alpha", "b"] + (["class"] if multiclass else [])
        return pd.DataFrame(rows, columns=columns)

    def decision_function(self, X):
        """``Σ_j alpha_j y_j K(x_j, x) + b`` for each row of X.

        Returns shape (n_samples,) for two classes, else (n_samples, n_classes).
        """
        check_is_fitted(self)
        X = check_X(self, X, reset=False, dtype=np.float64, accept_sparse="csr")
        alpha = np.atleast_2d(self.alpha_)
        used = np.any(alpha > 0, axis=0)   # only samples that were ever updated
        K = gram_matrix(self.kernel_, X, self._X_fit[used])
        scores = K @ (alpha[:, used] * self._y_signed[:, used]).T + self.intercept_
        return scores.ravel() if scores.shape[1] == 1 else scores

    def predict(self, X):
        """Labels with the book's ``sign(0) = +1`` (argmax for K classes)."""
        scores = self.decision_function(X)  # checks fitted first
        return predict_from_scores(self.classes_, scores)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = True
        tags.input_tags.sparse = True
        return tags
