"""Support vector regression with the epsilon-insensitive loss (周志华 6.5)."""

from __future__ import annotations

import numpy as np
from sklearn.base import RegressorMixin

from .._numerics import check_target_magnitude
from .._threads import uses_threads
from .._validation import NON_NEGATIVE, check_sample_weight_vector
from .._parameters import keep_parameters
from ._base import BaseSVM, kept_rows
from ._precomputed import KERNEL_OR_PRECOMPUTED


def svr_trace_frame(trace, rows):
    """The SMO trace of the stacked SVR dual with variables mapped to
    training rows (``i``, ``j``) and to the multiplier that moved
    (``var_i``, ``var_j``: variable t < m is a_hat, t >= m is a)."""
    frame = trace.frame()
    m = rows.size
    names = np.array(["alpha_hat", "alpha"])
    for col in ("i", "j"):
        t = frame[col].to_numpy()
        frame[col] = rows[t % m]
        frame.insert(frame.columns.get_loc(col) + 1, "var_" + col, names[(t >= m).astype(int)])
    return frame


class BaseTubeSVR(RegressorMixin, BaseSVM):
    """What :class:`SVR` and :class:`NuSVR` share: the stacked dual of 2n
    variables (a_hat, a) with labels (+1, -1) and f(x) = sum (a_hat_i - a_i)
    k(x_i, x) + b. A subclass gives the linear term, the start and the
    constraint form in :meth:`_tube_problem`."""

    def _tube_problem(self, z, C):
        """``(p, alpha0, by_label)`` of the stacked dual for targets ``z`` and
        per-sample bounds ``C``."""
        raise NotImplementedError

    @uses_threads
    def fit(self, X, y, sample_weight=None):
        """Solve the stacked dual; ``sample_weight`` scales C per sample."""
        self._check_params()
        X, y = self._check_X_y(X, y, y_numeric=True)
        check_target_magnitude(self, y)  # a target at 1e300 would give a constant model
        z = np.asarray(y, dtype=np.float64)
        weight = check_sample_weight_vector(sample_weight, X.shape[0])
        kernel, samples = self._kernel_and_samples(X)
        rows = np.flatnonzero(weight > 0)
        if rows.size == 0:
            raise ValueError("sample_weight is zero for every sample")
        m = rows.size
        ones = np.ones(m)
        C = self.C * weight[rows]
        p, alpha0, by_label = self._tube_problem(z[rows], C)
        solution, trace = self._solve(
            kernel, kept_rows(samples, rows), np.concatenate([np.arange(m), np.arange(m)]),
            np.concatenate([ones, -ones]), p, np.tile(C, 2), alpha0, by_label=by_label)
        self._set_trace([] if trace is None else [svr_trace_frame(trace, rows)])
        self.alpha_ = np.zeros((X.shape[0], 2))
        self.alpha_[rows, 1] = solution.alpha[:m]
        self.alpha_[rows, 0] = solution.alpha[m:]
        coef = (self.alpha_[:, 1] - self.alpha_[:, 0])[None, :]
        self._set_expansion(samples, coef, [solution.b], np.flatnonzero(coef[0] != 0))
        self.n_support_ = np.array([self.support_.size], dtype=np.int32)
        self.n_iter_ = solution.n_iter
        self.converged_ = solution.converged
        self.objective_ = solution.objective
        self._solved(solution)
        return self

    def _solved(self, solution):
        """Attributes a subclass reads off the solution (none here)."""

    def predict(self, X):
        """f(x) = sum (a_hat_i - a_i) k(x_i, x) + b."""
        return self._expansion(X)[:, 0]


class SVR(BaseTubeSVR):
    """epsilon-SVR: ``min 1/2 |w|^2 + C sum l_eps(f(x_i) - y_i)`` (周志华 式6.43),
    whose dual (式6.51) in a_hat, a (multipliers of the upper and lower
    edge of the tube) is solved by the same SMO as :class:`SVC`, with
    2n variables stacked as (a_hat, a), labels (+1, -1) and linear term
    (eps - y, eps + y). f(x) = sum (a_hat_i - a_i) k(x_i, x) + b (式6.53).

    ``X`` may be a ``scipy.sparse`` matrix, as for :class:`SVC`.

    Parameters
    ----------
    C : float, default=1.0
        Penalty of the epsilon-insensitive loss, > 0.
    epsilon : float, default=0.1
        Half-width of the tube in which errors cost nothing, >= 0.
    kernel, gamma, degree, coef0, tol, max_iter, cache_size, shrinking, random_state, verbose, n_jobs
        As for :class:`SVC`; ``kernel="precomputed"`` also (fit on the n x n
        Gram matrix, predict on the m x n kernel values against the training
        samples).
    record_trace : bool, default=False
        Keep one row per SMO iteration in ``trace_`` (as :class:`SVC`).

    Attributes
    ----------
    alpha_ : ndarray of shape (n_samples, 2)
        Columns (a_i, a_hat_i) of 式6.51: a_i > 0 where f(x_i) >= y_i + eps,
        a_hat_i > 0 where f(x_i) <= y_i - eps.
    support_ : ndarray of int
        Samples with a_hat_i - a_i != 0.
    support_vectors_ : ndarray or CSR matrix of shape (n_SV, n_features)
    dual_coef_ : ndarray of shape (1, n_SV)
        a_hat_i - a_i of the support vectors.
    coef_ : ndarray of shape (1, n_features)
        w (linear kernel only).
    intercept_ : ndarray of shape (1,)
    n_support_ : ndarray of shape (1,), int32
        The number of support vectors.
    kernel_, n_iter_, converged_, objective_
        As for :class:`SVC`.
    trace_ : pandas.DataFrame
        Only with ``record_trace=True``: the SMO steps, columns as
        :class:`SVC`'s ``trace_``. The 2n dual variables are a_hat_1..a_hat_n
        then a_1..a_n: ``i``, ``j`` are training rows and ``var_i``,
        ``var_j`` say which multiplier of the row moved (``"alpha_hat"`` or
        ``"alpha"``).

    Examples
    --------
    The flattest line within eps = 0.5 of z = 2x + 1 on x = 0..9 has slope
    2 - 2 eps / 9 and passes through (0, 1 + eps):

    >>> import numpy as np
    >>> from hyperplane.svm import SVR
    >>> X = np.arange(10.0).reshape(-1, 1)
    >>> svr = SVR(kernel="linear", C=10.0, epsilon=0.5, tol=1e-8).fit(X, 2 * X.ravel() + 1)
    >>> round(float(svr.coef_[0, 0]), 6), round(float(svr.intercept_[0]), 6)
    (1.888889, 1.5)
    >>> svr.support_.tolist()
    [0, 9]
    """

    _parameter_rules = {**BaseSVM._parameter_rules, "epsilon": NON_NEGATIVE,
                        "kernel": KERNEL_OR_PRECOMPUTED}

    def __init__(self, *, C=1.0, epsilon=0.1, kernel="rbf", gamma="scale", degree=3,
                 coef0=0.0, tol=1e-3, max_iter=None, cache_size=200, shrinking=True,
                 random_state=None, verbose=False, record_trace=False, n_jobs=None):
        keep_parameters(self, locals())

    def _tube_problem(self, z, C):
        """p = (eps - z, eps + z) of 式6.51, from a = 0, one constraint."""
        return np.concatenate([self.epsilon - z, self.epsilon + z]), None, False
