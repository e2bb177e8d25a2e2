"""What SVC and SVR share: hyper-parameter checks, the kernel, the solver
call and the kernel expansion f(x) = sum_i c_i k(x_i, x) + b (周志华 式6.24)."""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.utils import check_random_state

from .._validation import (
    check_is_fitted,
    check_number,
    check_X,
    warn_not_converged,
)
from .._progress import progress
from ..kernels import Kernel, Linear, is_psd, resolve_kernel
from ._smo import SMOSolver, kernel_dot
from ._trace import StepTrace

#: rows of a user kernel's Gram matrix checked for positive semi-definiteness
PSD_CHECK_ROWS = 300
#: entries of a kernel block computed at once when predicting
BLOCK_ENTRIES = 2 ** 22


class BaseSVM(BaseEstimator):
    """Parameters and helpers common to :class:`SVC` and :class:`SVR`."""

    #: whether C = numpy.inf (the hard margin) is allowed
    _allow_inf_C = False

    def _check_params(self):
        check_number(self.C, "C", low=0, low_open=True, allow_inf=self._allow_inf_C)
        check_number(self.tol, "tol", low=0, low_open=True)
        check_number(self.cache_size, "cache_size", low=0, low_open=True)
        check_number(self.coef0, "coef0")
        if self.max_iter is not None:
            check_number(self.max_iter, "max_iter", low=1, integer=True)
        for name in ("shrinking", "record_trace"):
            value = getattr(self, name)
            if not isinstance(value, (bool, np.bool_)):
                raise TypeError(f"{name} must be True or False; got {value!r}")

    def _resolve_kernel(self, X):
        """The kernel object: a name with gamma/degree/coef0, or the user's
        kernel object, which must be positive semi-definite on (a sample of)
        the training data."""
        if isinstance(self.kernel, Kernel):
            rows = np.arange(X.shape[0])
            if rows.size > PSD_CHECK_ROWS:
                rng = check_random_state(0 if self.random_state is None else self.random_state)
                rows = np.sort(rng.choice(rows, PSD_CHECK_ROWS, replace=False))
            if not is_psd(self.kernel, X[rows]):
                raise ValueError(
                    f"kernel={self.kernel!r} is not positive semi-definite on the "
                    "training data (its kernel matrix has a negative eigenvalue), so "
                    "it is not a kernel function (周志华 定理6.1); choose another kernel "
                    "or other parameters")
            return self.kernel
        return resolve_kernel(self.kernel, X, gamma=self.gamma, degree=self.degree,
                              coef0=self.coef0)

    def _solve(self, kernel, X, kidx, y, p, C, alpha0=None, index=None):
        """Run SMO (from ``alpha0`` if given); returns the DualSolution and
        the :class:`StepTrace` (None unless ``record_trace``), and warns if
        it did not converge. A traced solve starts from alpha = 0 without
        shrinking (the book's SMO); ``index`` maps the solver's variables to
        the rows the trace reports."""
        trace = StepTrace(index) if self.record_trace else None
        with progress(None, "SMO iterations", enabled=bool(self.verbose)) as bar:
            solution = SMOSolver(kernel, X, kidx, y, p, C, tol=self.tol,
                                 max_iter=self.max_iter, cache_size=self.cache_size,
                                 shrinking=bool(self.shrinking) and trace is None,
                                 alpha0=alpha0 if trace is None else None,
                                 bar=bar).solve(trace)
        if not solution.converged:
            warn_not_converged(self, solution.n_iter,
                               "increase max_iter or tol, or scale the features")
        return solution, trace

    def _set_trace(self, traces):
        """``trace_``: the recorded SMO steps of every solve, one DataFrame
        (removed when a later fit does not record)."""
        if traces:
            import pandas as pd

            self.trace_ = pd.concat(traces, ignore_index=True)
        elif hasattr(self, "trace_"):
            del self.trace_

    def _set_expansion(self, X, dual_coef, intercept, support):
        """Store f(x) = K(x, SV) dual_coef' + intercept (rows of dual_coef:
        one function each) and, for the linear kernel, w = dual_coef SV."""
        self.support_ = support
        self.support_vectors_ = X[support]
        self.dual_coef_ = dual_coef[:, support]
        self.intercept_ = np.asarray(intercept, dtype=np.float64)
        if isinstance(self.kernel_, Linear):
            self.coef_ = self.dual_coef_ @ self.support_vectors_
        elif hasattr(self, "coef_"):      # left by an earlier fit with the linear kernel
            del self.coef_

    def _expansion(self, X):
        """``K(X, SV) @ dual_coef_.T + intercept_``, shape (n, n_functions),
        computed in blocks of rows so that no large matrix is built."""
        check_is_fitted(self)
        X = check_X(self, X, reset=False)
        X = np.asarray(X, dtype=np.float64)
        if isinstance(self.kernel_, Linear):
            return X @ self.coef_.T + self.intercept_
        return kernel_dot(self.kernel_, X, self.support_vectors_, self.dual_coef_.T,
                          BLOCK_ENTRIES) + self.intercept_
