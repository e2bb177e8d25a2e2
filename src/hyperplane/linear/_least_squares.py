"""Least-squares (MSE) linear classifier (Bishop, PRML §4.1.3).

With one-hot targets ``T`` (N × K) and augmented vectors ``x̃ = (1, x)`` the
sum-of-squares error ``E_D(W̃) = ½ Tr{(X̃W̃ − T)ᵀ(X̃W̃ − T)}`` is minimised by
``W̃ = X̃⁺T``, the Moore–Penrose pseudo-inverse; a sample is given the class
of the largest entry of ``W̃ᵀx̃``. Outliers pull the boundary (PRML figure 4.4's
caveat), which logistic regression avoids.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin

from .._base import LinearDecisionMixin, dask_classification_data
from .._validation import CLASS_WEIGHT, FLAG, check_X_y, is_dask_collection, validate_params
from .._numerics import power_of_two_exponent, scaled_by_power_of_two
from .._parameters import N_JOBS, keep_parameters
from .._threads import uses_threads
from ._moments import (class_moments, merge_class_moments, psd_eigh, reject_weights_on_dask,
                       weighted_labels)


def solve_least_squares(moments, targets, *, fit_intercept=True):
    """``W̃ = X̃⁺T`` from class moments, for targets that depend only on the class.

    Every row of class k has target vector ``t_k`` (one-hot: ``targets = I``;
    Fisher's remark: ``N/N₁`` and ``−N/N₂``). With centred data the normal
    equations are ``S_T W = S_XT`` where ``S_XT = Σ_k N_k (m_k − m) t_kᵀ`` and
    the intercept is ``b = t̄ − Wᵀm``. ``S_T`` is inverted only on its range
    (eigenvalues above the rank cutoff); when it is singular the null-space
    part ``W₀ + V₀C`` with ``C = u c₀ᵀ / (1 + ‖u‖²)``, ``u = V₀ᵀm``,
    ``c₀ = t̄ − W₀ᵀm`` makes ``(b, W)`` the minimum-norm solution, i.e. exactly
    ``X̃⁺T`` as ``numpy.linalg.lstsq`` returns it.

    Parameters
    ----------
    moments : ClassMoments
    targets : ndarray of shape (n_classes, n_outputs)
        The target vector of each class.
    fit_intercept : bool
        Augment ``x`` with a constant 1 (PRML's ``x̃``); otherwise solve
        ``W = X⁺T``.

    Returns
    -------
    W : ndarray of shape (n_features, n_outputs)
    b : ndarray of shape (n_outputs,)

    Examples
    --------
    >>> import numpy as np
    >>> from hyperplane.linear._moments import class_moments
    >>> X = np.array([[0.0], [1.0], [3.0], [4.0]])
    >>> W, b = solve_least_squares(class_moments(X, np.array([0, 0, 1, 1]), 2),
    ...                            np.eye(2))
    >>> np.round(W, 3).tolist(), np.round(b, 3).tolist()
    ([[-0.3, 0.3]], [1.1, -0.1])
    """
    counts, means = moments.counts, moments.means
    N = moments.n_samples
    targets = np.asarray(targets, dtype=np.float64)
    if not fit_intercept:
        gram = moments.scatter + (means.T * counts) @ means  # XᵀX
        lam, V, keep = psd_eigh(gram)
        Vr = V[:, keep]
        XtT = (means.T * counts) @ targets
        W = Vr @ ((Vr.T @ XtT) / lam[keep][:, None])
        return W, np.zeros(targets.shape[1])
    m = moments.mean
    t_bar = counts @ targets / N
    S_XT = ((means - m).T * counts) @ targets
    lam, V, keep = psd_eigh(moments.total_scatter())
    Vr, V0 = V[:, keep], V[:, ~keep]
    W = Vr @ ((Vr.T @ S_XT) / lam[keep][:, None])
    u = V0.T @ m
    c0 = t_bar - W.T @ m
    W = W + np.outer(V0 @ u, c0) / (1.0 + u @ u)
    return W, t_bar - W.T @ m


class LeastSquaresClassifier(LinearDecisionMixin, ClassifierMixin, BaseEstimator):
    """Minimum squared-error linear classifier with one-hot targets.

    Fits ``W̃ = X̃⁺T`` ("Minimum Square Error"; Bishop, PRML
    §4.1.3) from one pass over ``X``: class counts and means and one Gram
    product of the class-centred data, solved through an eigen-decomposition
    so that collinear or constant features are handled (the minimum-norm
    solution, as ``numpy.linalg.lstsq`` gives) rather than an error. ``X``
    may be a ``scipy.sparse`` matrix (Gram product of the sparse rows; the
    dense fit's solution). The solution is scale-covariant, so features of an
    extreme magnitude (beyond 1e±100) are solved on ``X · 2⁻ᵏ`` and ``W`` is
    multiplied by the exact ``2⁻ᵏ``: ``X · 1e300`` predicts as ``X``.

    Parameters
    ----------
    fit_intercept : bool, default=True
        Use augmented vectors ``x̃ = (1, x)``.
    class_weight : dict, "balanced" or None, default=None
        Weight of each class's rows in the squared error, multiplying
        ``sample_weight`` (scikit-learn's meaning): ``{label: w}``, or
        ``"balanced"``, ``n / (K n_k)`` from the class counts; the targets
        stay one-hot. In memory only.
    n_jobs : int or None, default=None
        Threads of an in-memory ``fit`` (numba's and BLAS's): scikit-learn's
        meaning, except that ``None`` takes every idle core (see
        :func:`hyperplane._threads.resolve_n_jobs`). The solution does not
        depend on it.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    class_weight_ : ndarray of shape (n_classes,)
        The weight of each class the last in-memory fit used.
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
        Rows of ``Wᵀ``; with two classes the single row is ``w₂ − w₁`` so that
        ``decision_function`` is ``y₂(x) − y₁(x)``.
    intercept_ : ndarray of shape (1,) or (n_classes,)
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Only when ``X`` has string column names.

    Examples
    --------
    >>> from hyperplane.datasets import load_watermelon
    >>> from hyperplane.linear import LeastSquaresClassifier
    >>> X, y = load_watermelon("3.0alpha")
    >>> clf = LeastSquaresClassifier().fit(X, y)
    >>> clf.coef_.shape, round(clf.score(X, y), 3)
    ((1, 2), 0.706)
    """

    def __init__(self, *, fit_intercept=True, class_weight=None, n_jobs=None):
        keep_parameters(self, locals())

    _parameter_rules = {"fit_intercept": FLAG, "class_weight": CLASS_WEIGHT, "n_jobs": N_JOBS}

    @uses_threads
    def fit(self, X, y, sample_weight=None):
        """Solve ``W̃ = X̃⁺T`` for one-hot targets ``T``.

        A ``dask.array``/``dask.dataframe`` ``X`` is fitted on the Dask cluster
        from class moments reduced over its chunks (exactly the same solution).
        ``sample_weight`` weighs each row's squared error (weighted least
        squares, ``min Σ_n s_n ‖W̃ᵀx̃_n − t_n‖²``, from the weighted class
        moments): an integer weight is that many copies of the row, 0 drops
        it; ``class_weight`` multiplies it. In memory only.
        """
        validate_params(self)
        if is_dask_collection(X):
            reject_weights_on_dask(self, sample_weight)
            chunks = dask_classification_data(self, X, y)
            return self._fit_moments(chunks.reduce(class_moments, merge_class_moments,
                                                   self.classes_.shape[0]))
        X, y = check_X_y(self, X, y, accept_sparse="csr")
        y_index, weight = weighted_labels(self, y, sample_weight)
        exponent = power_of_two_exponent(X)
        moments = class_moments(scaled_by_power_of_two(X, exponent), y_index,
                                self.classes_.shape[0], weight=weight)
        return self._fit_moments(moments, exponent)

    def _fit_moments(self, moments, exponent=0):
        """Solve from class moments (``classes_`` already set): those of the
        whole data, or on Dask the merge of every chunk's (the chunk statistic
        is :func:`~._moments.class_moments`, its merge
        :func:`~._moments.merge_class_moments`). Two classes keep only the
        difference of the two outputs. Moments of ``X · 2⁻ᵏ`` (``exponent = k``)
        give ``W̃`` of ``X`` after ``W ← W · 2⁻ᵏ``."""
        n_classes = moments.counts.shape[0]
        W, b = solve_least_squares(moments, np.eye(n_classes),
                                   fit_intercept=bool(self.fit_intercept))
        if W.shape[1] == 2:
            self.coef_ = (W[:, 1] - W[:, 0])[None, :]
            self.intercept_ = np.array([b[1] - b[0]])
        else:
            self.coef_ = np.ascontiguousarray(W.T)
            self.intercept_ = b
        self.coef_ = np.ldexp(self.coef_, -exponent)
        return self

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags


__all__ = ["LeastSquaresClassifier", "solve_least_squares"]
