"""What SVC and SVR share: hyper-parameter checks, the input (dense, or CSR
as LIBSVM's sparse mode), the kernel, the solver call and the kernel
expansion f(x) = sum_i c_i k(x_i, x) + b (周志华 式6.24).

The modules of compiled kernels (the SMO solver, its trace, the rows a CSR
fit keeps) are imported where a fit or a prediction first calls them, not
with the estimator classes: loading and showing a model file imports no
compiled kernel, nor numba (``hyperplane show``)."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator

from .._parameters import N_JOBS
from .._validation import (
    FLAG,
    NONE,
    POSITIVE,
    POSITIVE_INT,
    SEED,
    VERBOSE,
    Either,
    canonical_sparse,
    check_is_fitted,
    check_X,
    check_X_y,
    validate_params,
    warn_not_converged,
)
from .._progress import progress
from .._threads import one_blas_thread, uses_threads
from ..kernels import KERNEL_PARAMETER_RULES, Kernel, Linear, resolve_kernel, warn_if_not_psd
from ..kernels._kernels import linear_weights
from ..kernels._samples import as_csr
from ._precomputed import training_gram

#: the largest |x| the solver supports, and the smallest largest |x|: the
#: kernel rows are computed from float32 samples (LIBSVM's cache precision),
#: whose squares and products must stay finite and normal
MAX_SCALE = 1e15
MIN_SCALE = 1e-15
#: entries of a kernel block computed at once when predicting
BLOCK_ENTRIES = 2 ** 22


def check_scale(X, name):
    """Refuse data whose scale the SVM cannot represent: the SVM is not
    scale-invariant, and its kernel rows are computed in float32, so the
    largest |x| must lie in [MIN_SCALE, MAX_SCALE] (an all-zero X passes)."""
    values = X.data if sp.issparse(X) else X
    top = float(np.max(np.abs(values))) if values.size else 0.0
    if top > MAX_SCALE or 0.0 < top < MIN_SCALE:
        raise ValueError(
            f"X's scale is out of range for {name}: its largest |value| is {top:.3g}, "
            f"outside [{MIN_SCALE:g}, {MAX_SCALE:g}]. The SVM is not scale-invariant and "
            "computes its kernel in float32; standardise the features (for example "
            "with sklearn.preprocessing.StandardScaler)")


def as_float64(X):
    """Validated samples as the solver reads them: a float64 array, or a
    float64 CSR matrix with sorted indices and no duplicates (CSC and COO
    input arrive here as CSR; the nonzeros are never densified)."""
    if sp.issparse(X):
        return as_csr(X).astype(np.float64, copy=False)
    return np.asarray(X, dtype=np.float64)


def kept_rows(samples, rows):
    """``samples[rows]`` for the increasing row numbers ``rows``: the samples
    themselves when every row is kept (no copy: a fixed cost of every fit,
    above all of a CSR one)."""
    return samples if rows.size == samples.shape[0] else take_rows(samples, rows)


def take_rows(X, rows):
    """``X[rows]`` of a dense array or CSR matrix (of the same class): the
    CSR rows gathered by :func:`._support_kernels.take_csr_rows`, as
    scipy's fancy indexing would give them (a fixed cost of every sparse
    fit: its support vectors)."""
    if not sp.issparse(X):
        return X[rows]
    from ._support_kernels import take_csr_rows

    rows = np.asarray(rows, dtype=np.int64)
    data, indices, indptr = take_csr_rows(X.data, X.indices, X.indptr, rows)
    return X.__class__((data, indices, indptr), shape=(rows.size, X.shape[1]))


def is_plain_matrix(X):
    """Whether ``X`` is a float64/float32 ndarray or CSR matrix, 2-d with at
    least one row and one column, whose entries sum to a finite number (so
    none is NaN or infinite): what scikit-learn's ``validate_data`` returns
    as it is, for the SVMs' arguments (``accept_sparse="csr"``, float dtypes,
    finite). A sum that overflows only sends ``X`` the long way."""
    if type(X) is np.ndarray:
        values = X
    elif sp.issparse(X) and X.format == "csr":
        values = X.data
    else:
        return False
    return (X.dtype in (np.float64, np.float32) and X.ndim == 2 and X.shape[0] > 0
            and X.shape[1] > 0 and finite_sum(values))


def finite_sum(values):
    """Whether the entries of ``values`` sum to a finite number (then none is
    NaN or infinite), without a warning when they do not."""
    with np.errstate(over="ignore", invalid="ignore"):
        return bool(np.isfinite(values.sum()))


def is_plain_target(y, n_samples):
    """Whether ``y`` is a 1-d integer or float ndarray of ``n_samples``
    entries with a finite sum: what ``validate_data`` returns unchanged as
    a target (C-contiguous)."""
    return (type(y) is np.ndarray and y.ndim == 1 and y.dtype.kind in "fiu"
            and y.shape[0] == n_samples and y.flags.c_contiguous
            and (y.dtype.kind != "f" or finite_sum(y)))


def plain_fit_input(estimator, X, y=None):
    """``X`` (and ``y``) as ``check_X_y`` / ``check_X`` with ``reset=True``
    would return them, or None when the input is not plain
    (:func:`is_plain_matrix`, :func:`is_plain_target`) and must go through
    them: for plain input that is ``n_features_in_`` set, no
    ``feature_names_in_`` (an ndarray or CSR matrix has no column names) and
    the matrix in canonical form, without scikit-learn's generic checks (a
    tenth of a tiny fit)."""
    if not is_plain_matrix(X) or (y is not None and not is_plain_target(y, X.shape[0])):
        return None
    estimator.n_features_in_ = X.shape[1]
    if hasattr(estimator, "feature_names_in_"):
        del estimator.feature_names_in_
    return canonical_sparse(X), y


class BaseSVM(BaseEstimator):
    """Parameters and helpers common to :class:`SVC` and :class:`SVR`."""

    _parameter_rules = {
        "C": POSITIVE, "tol": POSITIVE, "max_iter": Either(NONE, POSITIVE_INT),
        "cache_size": POSITIVE, "shrinking": FLAG, "random_state": SEED, "verbose": VERBOSE,
        "record_trace": FLAG, "n_jobs": N_JOBS, **KERNEL_PARAMETER_RULES,
    }

    def _check_params(self):
        validate_params(self)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = not isinstance(self.kernel, Kernel) or self.kernel.accepts_sparse
        return tags

    def _check_X_y(self, X, y, **kw):
        """Validated ``X`` (dense, or sparse in any format, made CSR) and ``y``
        (plain input: :func:`plain_fit_input`)."""
        plain = plain_fit_input(self, X, y) if y is not None else None
        X, y = plain if plain is not None else check_X_y(self, X, y, accept_sparse="csr", **kw)
        return as_float64(X), y

    def _check_X(self, X):
        """Validated ``X`` alone (one-class fit): dense, or CSR (plain input:
        :func:`plain_fit_input`)."""
        plain = plain_fit_input(self, X)
        if plain is not None:
            return as_float64(plain[0])
        return as_float64(check_X(self, X, reset=True, accept_sparse="csr"))

    def _is_precomputed(self):
        return isinstance(self.kernel, str) and self.kernel == "precomputed"

    def _kernel_and_samples(self, X):
        """The solver's kernel and samples: for ``kernel="precomputed"`` the
        Gram matrix X read by row number (:func:`._precomputed.training_gram`;
        ``kernel_`` is then the string), else :meth:`_resolve_kernel`'s kernel
        and X itself."""
        if self._is_precomputed():
            kernel, rows = training_gram(X)
            warn_if_not_psd(kernel, rows, self.random_state)
            self.kernel_ = "precomputed"
            return kernel, rows
        self.kernel_ = self._resolve_kernel(X)
        return self.kernel_, X

    def _resolve_kernel(self, X):
        """The kernel object (a name with gamma/degree/coef0, or the user's
        kernel object), after checking that the data's scale suits the
        solver (:func:`check_scale`). A kernel that is not positive
        semi-definite on (a sample of) the data gives one NotPSDWarning;
        with C = inf (the hard margin) it is an error, as the dual may then
        have no bounded solution."""
        check_scale(X, type(self).__name__)
        if sp.issparse(X) and isinstance(self.kernel, Kernel) and not self.kernel.accepts_sparse:
            raise TypeError(
                f"kernel={self.kernel!r} does not take scipy.sparse X (its class does not "
                "set accepts_sparse = True); use a named kernel (or a sum, product or "
                "multiple of named kernels), or pass X.toarray()")
        kernel = resolve_kernel(self.kernel, X, gamma=self.gamma, degree=self.degree,
                                coef0=self.coef0)
        if not warn_if_not_psd(kernel, X, self.random_state) and np.isinf(getattr(self, "C", 1.0)):
            raise ValueError(
                f"C=inf (hard margin) needs a positive semi-definite kernel, but "
                f"kernel={kernel!r} is not on the training data; use a finite C")
        return kernel

    def _solve(self, kernel, X, kidx, y, p, C, alpha0=None, index=None, record=True,
               by_label=False, fixed_start=False):
        """Run SMO (from ``alpha0`` if given); returns the DualSolution and
        the :class:`StepTrace` (None unless ``record_trace``), and warns if
        it did not converge. A traced solve starts from alpha = 0 without
        shrinking (the book's SMO); ``index`` maps the solver's variables to
        the rows the trace reports (the nu and one-class duals keep their
        start, which meets their equality constraints: ``by_label`` or
        ``fixed_start``); ``record=False`` never traces (the
        probability model's fold solves); ``by_label`` solves the nu dual
        (one equality constraint per label, :class:`SMOSolver`)."""
        from ._smo import SMOSolver
        from ._trace import StepTrace

        trace = StepTrace(index) if getattr(self, "record_trace", False) and record else None
        with progress(None, "SMO iterations", enabled=bool(self.verbose)) as bar:
            solution = SMOSolver(kernel, X, kidx, y, p, C, tol=self.tol,
                                 max_iter=self.max_iter, cache_size=self.cache_size,
                                 shrinking=bool(self.shrinking) and trace is None,
                                 alpha0=alpha0 if trace is None or by_label or fixed_start else None,
                                 bar=bar, by_label=by_label).solve(trace)
        if not (np.all(np.isfinite(solution.alpha)) and np.isfinite(solution.b)):
            raise ValueError(
                f"SMO diverged (alpha or b is not finite) with kernel={kernel!r}, "
                f"C={getattr(self, 'C', 1.0)!r}: the kernel is not positive semi-definite or the "
                "features are badly scaled; use a finite C or standardise the features")
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
        one function each) and, for the linear kernel, w = dual_coef SV (a
        dense array). The support vectors keep the layout of X: CSR for a
        sparse fit (as scikit-learn's), so that a model of text data holds
        the SVs' nonzeros, not n_SV x n_features values."""
        self.support_ = support
        # precomputed: no samples to keep (scikit-learn's empty array)
        self.support_vectors_ = np.empty((0, 0)) if self._is_precomputed() else take_rows(
            X, support)
        self.dual_coef_ = dual_coef[:, support]
        self.intercept_ = np.asarray(intercept, dtype=np.float64)
        if isinstance(self.kernel_, Linear):
            self.coef_ = linear_weights(self.dual_coef_, self.support_vectors_)
        elif hasattr(self, "coef_"):      # left by an earlier fit with the linear kernel
            del self.coef_

    @uses_threads
    def _expansion(self, X):
        """``K(X, SV) @ dual_coef_.T + intercept_``, shape (n, n_functions),
        computed in blocks of rows so that no large matrix is built. The
        products run on one BLAS thread: BLAS splits the sum over the support
        vectors among its threads, which would make the scores depend on the
        thread count (``n_jobs``)."""
        check_is_fitted(self)
        X = as_float64(check_X(self, X, reset=False, accept_sparse="csr"))
        with one_blas_thread():
            if self._is_precomputed():      # X: kernel values against the training rows
                return X[:, self.support_] @ self.dual_coef_.T + self.intercept_
            if isinstance(self.kernel_, Linear):
                return X @ self.coef_.T + self.intercept_
            from ._smo import kernel_dot

            return kernel_dot(self.kernel_, X, self.support_vectors_, self.dual_coef_.T,
                              BLOCK_ENTRIES) + self.intercept_
