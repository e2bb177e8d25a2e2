"""One-class SVM (Schölkopf et al. 2001, "Estimating the support of a
high-dimensional distribution", Neural Computation 13(7)), solved as LIBSVM
does (Chang & Lin 2011, §2.3 and §4.1): the plain SMO solver, labels all +1,
no linear term, from LIBSVM's feasible start."""

from __future__ import annotations

import numpy as np
from sklearn.base import OutlierMixin

from .._threads import uses_threads
from .._validation import Real, check_sample_weight_vector
from .._parameters import keep_parameters
from ._base import BaseSVM, kept_rows
from ._nu import fill_in_order
from ._precomputed import KERNEL_OR_PRECOMPUTED


def one_class_start(l, nu):
    """LIBSVM's initial alpha of the one-class dual (``solve_one_class``):
    the constraint sum alpha = nu l with 0 <= alpha <= 1 is met by setting
    the first floor(nu l) multipliers to 1 and the next one to the
    fractional remainder nu l - floor(nu l)."""
    total = nu * l
    n = int(total)
    alpha = np.zeros(l)
    alpha[:n] = 1.0
    if n < l:
        alpha[n] = total - n
    return alpha


class OneClassSVM(OutlierMixin, BaseSVM):
    """One-class SVM (Schölkopf et al. 2001): the dual
    ``min 1/2 a'Ka`` subject to ``0 <= a_i <= 1``, ``sum a_i = nu l``
    (LIBSVM's scaling of the paper's 0 <= a_i <= 1/(nu l), sum a_i = 1),
    solved by the same SMO as :class:`SVC` (Q = K, p = 0, y = +1) from
    LIBSVM's start :func:`one_class_start`. The decision function is
    f(x) = sum a_i k(x_i, x) - rho with rho from the KKT conditions
    (LIBSVM's calculate_rho); f(x) < 0 marks an outlier. nu is an upper
    bound on the fraction of training outliers and a lower bound on the
    fraction of support vectors (Schölkopf et al. 2001, Proposition 4).

    ``X`` may be a ``scipy.sparse`` matrix, as for :class:`SVC`.

    Parameters
    ----------
    nu : float, default=0.5
        In (0, 1].
    kernel, gamma, degree, coef0, tol, max_iter, cache_size, shrinking, random_state, verbose, n_jobs
        As for :class:`SVC`; ``kernel="precomputed"`` also (fit on the n x n
        Gram matrix, predict on the m x n kernel values against the training
        samples).
    record_trace : bool, default=False
        One row per SMO step in ``trace_``, as :class:`SVC`'s; the traced
        solve starts from :func:`one_class_start` too (alpha = 0 is not
        feasible: sum a_i = nu l) and runs without shrinking.

    Attributes
    ----------
    support_ : ndarray of int
        Samples with a_i > 0.
    support_vectors_ : ndarray or CSR matrix of shape (n_SV, n_features)
    dual_coef_ : ndarray of shape (1, n_SV)
        a_i of the support vectors.
    intercept_ : ndarray of shape (1,)
        -rho.
    offset_ : float
        rho: ``decision_function = score_samples - offset_`` (scikit-learn's
        convention).
    n_support_ : ndarray of shape (1,), int
    coef_ : ndarray of shape (1, n_features)
        w (linear kernel only).
    kernel_, n_iter_, converged_, objective_
        As for :class:`SVC`.
    trace_ : pandas.DataFrame
        Only with ``record_trace=True``: the SMO steps, columns as
        :class:`SVC`'s ``trace_``.

    Examples
    --------
    Nine points in the unit square and one far away: with nu = 0.3 at most
    three training points lie outside the boundary (f < 0); the far one does,
    the square's centre lies inside. (The square's corners lie on the
    boundary, f = 0 up to the solver's tolerance.)

    >>> import numpy as np
    >>> from hyperplane.svm import OneClassSVM
    >>> X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [0.5, 0.5],
    ...               [0.2, 0.8], [0.8, 0.3], [0.4, 0.1], [0.6, 0.9], [6.0, 6.0]])
    >>> oc = OneClassSVM(kernel="rbf", gamma=0.5, nu=0.3, tol=1e-8).fit(X)
    >>> oc.predict([[0.5, 0.5], [6.0, 6.0]]).tolist()
    [1, -1]
    >>> bool(np.allclose(oc.decision_function(X), oc.score_samples(X) - oc.offset_))
    True
    """

    _parameter_rules = {
        **{k: v for k, v in BaseSVM._parameter_rules.items() if k != "C"},
        "nu": Real(low=0.0, high=1.0, low_open=True), "kernel": KERNEL_OR_PRECOMPUTED,
    }

    def __init__(self, *, nu=0.5, kernel="rbf", gamma="scale", degree=3, coef0=0.0,
                 tol=1e-3, max_iter=None, cache_size=200, shrinking=True,
                 random_state=None, verbose=False, record_trace=False, n_jobs=None):
        keep_parameters(self, locals())

    @uses_threads
    def fit(self, X, y=None, sample_weight=None):
        """Solve the one-class dual on the rows of ``X`` (``y`` is ignored).

        ``sample_weight`` gives sample i the bound 0 <= a_i <= w_i and the
        constraint sum a_i = nu sum w_i (scikit-learn's LIBSVM; the start
        fills the bounds in order, :func:`~._nu.fill_in_order`); rows of
        weight 0 are left out, as LIBSVM's ``remove_zero_weight``."""
        self._check_params()
        X = self._check_X(X)
        weight = check_sample_weight_vector(sample_weight, X.shape[0])
        rows = np.flatnonzero(weight > 0)
        if rows.size == 0:
            raise ValueError("sample_weight is zero for every sample")
        kernel, samples = self._kernel_and_samples(X)
        l, C = rows.size, weight[rows]
        alpha0 = (one_class_start(l, float(self.nu)) if sample_weight is None
                  else fill_in_order(float(self.nu) * float(np.sum(C)), C))
        solution, trace = self._solve(kernel, kept_rows(samples, rows), np.arange(l), np.ones(l),
                                      np.zeros(l), C, alpha0=alpha0, fixed_start=True)
        self._set_trace([] if trace is None else [trace.frame()])
        coef = np.zeros((1, X.shape[0]))
        coef[0, rows] = solution.alpha
        self._set_expansion(samples, coef, [solution.b], np.flatnonzero(coef[0] > 0))
        self.offset_ = -float(solution.b)
        self.n_support_ = np.array([self.support_.size], dtype=np.int32)
        self.n_iter_ = solution.n_iter
        self.converged_ = solution.converged
        self.objective_ = solution.objective
        return self

    def decision_function(self, X):
        """f(x) = sum a_i k(x_i, x) - rho: negative for outliers."""
        return self._expansion(X)[:, 0]

    def score_samples(self, X):
        """sum a_i k(x_i, x) (the decision function plus ``offset_``)."""
        return self.decision_function(X) + self.offset_

    def predict(self, X):
        """+1 (inlier) where f(x) > 0, else -1 (outlier), as LIBSVM."""
        return np.where(self.decision_function(X) > 0, 1, -1)
