"""What SVC and SVR share: hyper-parameter checks, the kernel, the solver
call and the kernel expansion f(x) = sum_i c_i k(x_i, x) + b (周志华 式6.24)."""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.utils import check_random_state

from .._validation import (
    FLAG,
    NONE,
    POSITIVE,
    POSITIVE_INT,
    SEED,
    VERBOSE,
    Either,
    check_is_fitted,
    check_X,
    validate_params,
    warn_not_converged,
)
from .._progress import progress
from ..kernels import KERNEL_PARAMETER_RULES, Kernel, Linear, is_psd, resolve_kernel
from ._smo import SMOSolver, kernel_dot

#: rows of a user kernel's Gram matrix checked for positive semi-definiteness
PSD_CHECK_ROWS = 300
#: entries of a kernel block computed at once when predicting
BLOCK_ENTRIES = 2 ** 22


class BaseSVM(BaseEstimator):
    """Parameters and helpers common to :class:`SVC` and :class:`SVR`."""

    _parameter_rules = {
        "C": POSITIVE, "tol": POSITIVE, "max_iter": Either(NONE, POSITIVE_INT),
        "cache_size": POSITIVE, "shrinking": FLAG, "random_state": SEED, "verbose": VERBOSE,
        **KERNEL_PARAMETER_RULES,
    }

    def _check_params(self):
        validate_params(self)

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

    def _solve(self, kernel, X, kidx, y, p, C, alpha0=None):
        """Run SMO (from ``alpha0`` if given); returns the DualSolution and
        warns if it did not converge."""
        with progress(None, "SMO iterations", enabled=bool(self.verbose)) as bar:
            solution = SMOSolver(kernel, X, kidx, y, p, C, tol=self.tol,
                                 max_iter=self.max_iter, cache_size=self.cache_size,
                                 shrinking=bool(self.shrinking), alpha0=alpha0,
                                 bar=bar).solve()
        if not solution.converged:
            warn_not_converged(self, solution.n_iter,
                               "increase max_iter or tol, or scale the features")
        return solution

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
