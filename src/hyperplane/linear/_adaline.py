"""Adaline: the adaptive linear neuron trained by the Widrow–Hoff rule
(Widrow & Hoff 1960; Widrow & Lehr 1990, "30 years of adaptive neural
networks", §"α-LMS"; the perceptron's model with a different
update strategy).

The rule is stochastic gradient descent on ``½ Σ_n (t_n − w̃·x̃_n)²`` with
targets ``t_n = ±1``, ``x̃ = (x, 1)``, in its normalised (α-LMS) form:
after each sample ``w̃ ← w̃ + η (t_n − y_n) x̃_n / ‖x̃_n‖²`` with the linear
output ``y_n`` (not the thresholded one the perceptron uses). The
normalisation is Widrow & Hoff's: it cuts the sample's error by the factor
``1 − η``, so the rule is stable for every ``0 < η < 2`` whatever the scale
of ``X`` (the unnormalised μ-LMS diverges unless ``η < 2 / ‖x̃‖²``).
Prediction thresholds ``y`` at 0 with ``sign(0) = +1``. More than two
classes: one Adaline per class, one-vs-rest.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils import check_random_state

from .._base import LinearDecisionMixin
from .._numerics import check_magnitude
from .._parameters import keep_parameters
from .._validation import (
    FLAG,
    NON_NEGATIVE,
    POSITIVE_INT,
    SEED,
    Real,
    check_sample_weight_vector,
    check_X_y,
    encode_labels,
    one_vs_rest_targets,
    validate_params,
    warn_not_converged,
)
from .._csr_rows import CSRRows
from ._adaline_kernels import LMSSamples, augmented_squared_norms, lms_epoch


def rows_of(X):
    """The rows of ``X`` as the epoch reads them: a C-ordered array or the
    CSR rows (sorted, duplicates summed)."""
    if scipy.sparse.issparse(X):
        X = scipy.sparse.csr_matrix(X)
        X.sum_duplicates()
        return CSRRows.of(X)
    return np.ascontiguousarray(X)


class Adaline(LinearDecisionMixin, ClassifierMixin, BaseEstimator):
    """Adaptive linear neuron trained by the Widrow–Hoff LMS rule.

    Starting from ``w = 0, b = 0``, every epoch visits the samples once (in a
    new random order when ``shuffle=True``, else in the given order) and
    applies ``w ← w + η e_n x_n / ‖x̃_n‖²``, ``b ← b + η e_n / ‖x̃_n‖²`` with
    the error ``e_n = t_n − w·x_n − b`` and ``‖x̃_n‖² = ‖x_n‖² + 1``.
    Training stops when the mean squared error of an epoch differs from the
    previous epoch's by less than ``tol``, or after ``max_iter`` epochs (then
    with a ``ConvergenceWarning``). With a constant ``η`` the weights keep
    fluctuating around the least-squares solution by an amount that shrinks
    with ``η``.

    Parameters
    ----------
    eta : float, default=0.01
        Learning rate ``0 < η < 2``: the fraction of a sample's error that
        its update removes.
    max_iter : int, default=1000
        Maximum number of epochs.
    tol : float, default=1e-4
        Stopping tolerance on the change of the epoch's mean squared error.
    shuffle : bool, default=True
        Visit the samples in a new random order every epoch.
    random_state : int, RandomState instance or None, default=None
        Seeds the shuffling.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
    intercept_ : ndarray of shape (1,) or (n_classes,)
    n_iter_ : int
        Epochs run.
    loss_curve_ : list of float
        Mean squared error (over samples and outputs, weighted by
        ``sample_weight``) of every epoch.
    converged_ : bool
        Whether an epoch's mean squared error differed from the previous
        epoch's by less than ``tol`` (False: ``max_iter`` epochs ran).
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    Examples
    --------
    Widrow and Hoff's rule on the three points of 李航 例2.1, which it
    separates as the perceptron does:

    >>> from hyperplane.datasets import load_perceptron_example
    >>> from hyperplane.linear import Adaline
    >>> X, y = load_perceptron_example()
    >>> clf = Adaline(eta=0.1, random_state=0).fit(X, y)
    >>> clf.predict(X).tolist()
    [1, 1, -1]
    """

    def __init__(self, *, eta=0.01, max_iter=1000, tol=1e-4, shuffle=True,
                 random_state=None):
        keep_parameters(self, locals())

    _parameter_rules = {
        "eta": Real(low=0, high=2, low_open=True, high_open=True),
        "max_iter": POSITIVE_INT, "tol": NON_NEGATIVE, "shuffle": FLAG, "random_state": SEED,
    }

    def fit(self, X, y, sample_weight=None):
        """Run LMS epochs until the epoch error settles or ``max_iter``.

        ``sample_weight`` scales each sample's step (``s_n = 0`` skips the
        sample; an integer weight is not the same as repeating the row: the
        rule is online, each visit sees the weights the last one left)."""
        validate_params(self)
        X, y = check_X_y(self, X, y, accept_sparse="csr", dtype=np.float64)
        check_magnitude(self, X)
        self.classes_, y_index = encode_labels(y)
        s = check_sample_weight_vector(sample_weight, X.shape[0])
        if not s.any():
            raise ValueError("sample_weight is zero for every sample")
        T = np.ascontiguousarray(one_vs_rest_targets(y_index, self.classes_.shape[0]).T)
        rows = rows_of(X)
        samples = LMSSamples(rows, T, s, augmented_squared_norms(rows, X.shape[0],
                                                                 np.ones(X.shape[1])))
        W = np.zeros((T.shape[1], X.shape[1]))
        b = np.zeros(T.shape[1])
        rng = check_random_state(self.random_state)
        order = np.arange(X.shape[0], dtype=np.int64)
        self.loss_curve_, self.converged_ = [], False
        for epoch_no in range(1, self.max_iter + 1):
            if self.shuffle:
                rng.shuffle(order)
            mse = lms_epoch(samples, W, b, order, float(self.eta)) / (s.sum() * T.shape[1])
            self._check_finite(mse, epoch_no)
            self.loss_curve_.append(mse)
            if epoch_no > 1 and abs(self.loss_curve_[-2] - mse) < self.tol:
                self.converged_ = True
                break
        self.n_iter_ = epoch_no
        self.coef_, self.intercept_ = W, b
        if not self.converged_:
            warn_not_converged(self, self.n_iter_,
                               "increase max_iter or tol, or lower eta")
        return self

    def _check_finite(self, mse, epoch_no):
        """A non-finite epoch error is divergence: stop and say where."""
        if not np.isfinite(mse):
            raise ValueError(
                f"Adaline diverged: the mean squared error became {mse} in epoch "
                f"{epoch_no} with eta={self.eta}; lower eta or standardise X")

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags


__all__ = ["Adaline"]
