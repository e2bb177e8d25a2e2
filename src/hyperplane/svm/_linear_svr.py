"""Linear support vector regression for large data: LIBLINEAR's dual
coordinate descent (Ho & Lin, JMLR 2012) on dense or sparse samples."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from sklearn.base import RegressorMixin

from .._numerics import check_magnitude, check_target_magnitude
from .._parameters import keep_parameters
from .._validation import (
    NON_NEGATIVE,
    Options,
    check_is_fitted,
    check_sample_weight_vector,
    check_X_y,
    validate_params,
    warn_not_converged,
)
from ._liblinear import (EPOCHS_PER_CALL, BaseLiblinear, csr_samples, generator_state,
                         positive_weight_samples)
from ._linear_svc_kernels import WITHIN_TOL
from ._linear_svr_kernels import SVRLimits, SVRProblem, SVRState, svr_epochs
from ._seed_kernels import csr_squared_norms, squared_norms

#: loss -> (lambda_i, U_i) of the dual as functions of C_i (Ho & Lin 2012, eq. 18)
SVR_LOSSES = {
    "epsilon_insensitive": lambda C: (np.zeros_like(C), C),
    "squared_epsilon_insensitive": lambda C: (0.5 / C, np.full_like(C, np.inf)),
}


def regression_rows(X):
    """``X`` as the SVR epoch reads it (dense float64 rows or
    :class:`~hyperplane._csr_rows.CSRRows`) and |x_i|^2 of each row, summed in
    feature order so that both layouts agree bit for bit."""
    if sp.issparse(X):
        rows = csr_samples(X)          # columns in the narrowest integer type
        return rows, csr_squared_norms(rows)
    rows = np.ascontiguousarray(X, dtype=np.float64)
    return rows, squared_norms(rows)


def solve_svr_dual(X, y, C, loss, epsilon, B, tol, max_iter, rng):
    """Dual coordinate descent with shrinking for linear SVR (Ho & Lin 2012,
    Algorithm 4, as LIBLINEAR's ``solve_l2r_l1l2_svr``) on the rows of ``X``
    (dense or CSR) with per-sample penalties ``C`` (all > 0).

    Each epoch visits the active variables in a random order and shrinks
    those at 0 or a bound whose derivatives point out of the box by more than
    the last epoch's largest violation. When an epoch's summed violation falls
    to ``tol`` times the first epoch's, every variable is made active again,
    and the solver stops when that holds for all. Returns ``(w, beta, epochs,
    converged)`` with ``w`` of length d + 1 (the last entry multiplies B).
    """
    rows, norms = regression_rows(X)
    n = y.shape[0]
    lam, U = SVR_LOSSES[loss](C)
    problem = SVRProblem(rows, np.ascontiguousarray(y, dtype=np.float64), lam, U, float(B),
                         norms + float(B) ** 2, float(epsilon))
    state = SVRState(np.zeros(n), np.zeros(X.shape[1] + 1), np.arange(n, dtype=np.int64),
                     generator_state(rng))
    bounds = np.array([n, np.inf, -1.0])
    epochs, converged = 0, False
    while epochs < max_iter and not converged:
        limits = SVRLimits(float(tol), min(EPOCHS_PER_CALL, max_iter - epochs))
        ran, event = svr_epochs(problem, state, bounds, limits)
        epochs += ran
        if event == WITHIN_TOL:
            converged = bounds[0] == n
            bounds[0], bounds[1] = n, np.inf          # unshrink and check every variable
    return state.w, state.beta, epochs, converged


class LinearSVR(RegressorMixin, BaseLiblinear):
    """Linear support vector regression solved in the dual by coordinate
    descent (Ho & Lin, "Large-scale linear support vector regression",
    JMLR 13, 2012), the solver of LIBLINEAR's ``-s 12`` / ``-s 13``::

        min_w 1/2 |w|^2 + C sum_i loss(y_i - w.x_i),

    with the epsilon-insensitive loss ``max(0, |r| - epsilon)`` (周志华 式6.43's
    l_eps; LIBLINEAR ``-s 13``) or its square (``-s 12``). One step costs
    O(nonzeros of x_i), so it suits many samples and sparse data;
    :class:`SVR` with ``kernel="linear"`` solves the book's problem with an
    unregularised bias by SMO.

    The bias is handled as LIBLINEAR does: each sample gets an extra feature
    of value ``intercept_scaling`` whose weight is regularised like the
    others; ``intercept_ = intercept_scaling * w_extra``.

    Parameters
    ----------
    epsilon : float, default=0.0
        Half-width of the insensitive tube, >= 0.
    C : float, default=1.0
        Penalty of the loss, > 0.
    loss : {"epsilon_insensitive", "squared_epsilon_insensitive"}, default="epsilon_insensitive"
    tol : float, default=1e-4
        Stop when an epoch's summed violation of the optimality conditions
        is at most tol times the first epoch's (LIBLINEAR's ``eps``).
    max_iter : int, default=1000
        Epochs at most; reaching it warns with ConvergenceWarning.
    fit_intercept : bool, default=True
    intercept_scaling : float, default=1.0
        The value of the extra feature that carries the bias, > 0.
    random_state : int, RandomState or None, default=None
        Order of the coordinates in each epoch (None: a fixed order, so that
        fits are reproducible).

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,)
    intercept_ : ndarray of shape (1,)
    n_iter_ : int
        Epochs run.
    converged_ : bool

    Examples
    --------
    >>> import numpy as np
    >>> from hyperplane.svm import LinearSVR
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]])
    >>> svr = LinearSVR(C=100.0, epsilon=0.1, tol=1e-8, max_iter=10_000).fit(X, 2 * X[:, 0] + 1)
    >>> bool(np.all(np.abs(svr.predict(X) - (2 * X[:, 0] + 1)) <= 0.1 + 1e-6))
    True
    """

    _parameter_rules = {
        **BaseLiblinear._parameter_rules, "epsilon": NON_NEGATIVE,
        "loss": Options(tuple(SVR_LOSSES)),
    }

    def __init__(self, *, epsilon=0.0, C=1.0, loss="epsilon_insensitive", tol=1e-4,
                 max_iter=1000, fit_intercept=True, intercept_scaling=1.0, random_state=None):
        keep_parameters(self, locals())

    def fit(self, X, y, sample_weight=None):
        """Solve the dual; ``sample_weight`` scales C per sample (a sample of
        weight 0 takes no part)."""
        validate_params(self)
        X, y = check_X_y(self, X, y, accept_sparse="csr", dtype=np.float64, y_numeric=True)
        check_magnitude(self, X)
        check_target_magnitude(self, y)
        X, C, y = positive_weight_samples(
            X, self.C * check_sample_weight_vector(sample_weight, X.shape[0]), y)
        B, rng = self._bias_and_generator()
        w, _, self.n_iter_, self.converged_ = solve_svr_dual(
            X, np.asarray(y, dtype=np.float64), C, self.loss, self.epsilon, B, self.tol,
            self.max_iter, rng)
        self.coef_ = w[:-1].copy()
        self.intercept_ = np.array([w[-1] * B])
        if not self.converged_:
            warn_not_converged(self, self.n_iter_, "increase max_iter, or scale the features")
        return self

    def predict(self, X):
        """w.x + b."""
        return self._scores(X).ravel()

    def objective(self, X, y):
        """LIBLINEAR's primal objective of the fitted model on ``(X, y)``:
        ``1/2 (|w|^2 + w_extra^2) + C sum_i loss(y_i - f(x_i))``, ``w_extra``
        the weight of the bias feature (``intercept_ / intercept_scaling``)."""
        check_is_fitted(self)
        excess = np.maximum(0.0, np.abs(np.asarray(y, dtype=np.float64) - self.predict(X))
                            - self.epsilon)
        extra = self._bias_weight()
        loss = excess ** 2 if self.loss == "squared_epsilon_insensitive" else excess
        return float(0.5 * (self.coef_ @ self.coef_ + extra ** 2) + self.C * loss.sum())
