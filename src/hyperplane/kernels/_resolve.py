"""Kernels given by name, with scikit-learn's ``gamma``, ``degree``, ``coef0``."""

from __future__ import annotations

import warnings
from collections.abc import Callable

import numpy as np
import scipy.sparse as sp
from sklearn.utils import check_random_state

from .._serial_sums import serial_dot
from .._stacklevel import user_stacklevel
from .._validation import POSITIVE, POSITIVE_INT, Either, Instance, Options, Real, check_number
from . import _kernels
from ._samples import as_csr


def _linear(gamma, degree, coef0):
    return _kernels.Linear()


def _poly(gamma, degree, coef0):
    return _kernels.Polynomial(degree, gamma=gamma, coef0=coef0)


def _rbf(gamma, degree, coef0):
    return _kernels.RBF(sigma=float(np.sqrt(1.0 / (2.0 * gamma))))


def _laplace(gamma, degree, coef0):
    return _kernels.Laplace(sigma=1.0 / gamma)


def _sigmoid(gamma, degree, coef0):
    return _kernels.Sigmoid(beta=gamma, theta=coef0)


#: name -> factory(gamma, degree, coef0), in scikit-learn's parametrisation:
#: poly (gamma xᵀy + coef0)^degree, rbf exp(-gamma ‖x-y‖²),
#: laplace exp(-gamma ‖x-y‖), sigmoid tanh(gamma xᵀy + coef0).
KERNELS = {
    "linear": _linear,
    "poly": _poly,
    "rbf": _rbf,
    "laplace": _laplace,
    "sigmoid": _sigmoid,
}

#: the declared rules of the kernel parameters every kernel estimator shares
KERNEL_PARAMETER_RULES = {
    "kernel": Either(Options(KERNELS), Instance(_kernels.Kernel, description="a hyperplane.kernels.Kernel"),
                     Instance(Callable, description="a function k(A, B) -> Gram matrix")),
    "gamma": Either(Options(("scale", "auto")), POSITIVE),
    "degree": POSITIVE_INT,
    "coef0": Real(),
}


def entry_variance(X):
    """The variance of all entries of ``X`` (dense or ``scipy.sparse``, whose
    entries not stored count as zeros); 0 for an empty ``X``."""
    n_entries = X.shape[0] * X.shape[1]
    if n_entries == 0:
        return 0.0
    if sp.issparse(X):                  # canonical CSR: each entry stored once
        values = as_csr(X).data
        mean = float(values.sum()) / n_entries
        return max(serial_dot(values, values) / n_entries - mean * mean, 0.0)
    return float(np.var(X))


def scale_gamma(X):
    """scikit-learn's ``gamma="scale"``, ``1 / (n_features · Var(X))`` (1 for a
    constant ``X``), or a ValueError that blames the scale of ``X`` when that
    number is not a normal float64.

    The variance is read directly when float64 holds it; else (entries near
    1e±154 and beyond, whose squares overflow or underflow) it is the
    variance of ``X · 2⁻ᵏ`` times ``4ᵏ`` (exact), so that a constant model is
    never returned because the variance overflowed to inf or underflowed to
    0 on the way.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0, 4.0], [4.0, 0.0]])
    >>> scale_gamma(X), scale_gamma(X * 1e100) == 0.125e-200
    (0.125, True)
    >>> scale_gamma(X * 1e300)
    Traceback (most recent call last):
    ...
    ValueError: gamma='scale' is 1/(n_features * Var(X)) = 1.25e-601, ...
    """
    n_features = X.shape[1]
    tiny = np.finfo(np.float64).tiny
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        var = entry_variance(X)
        if np.isfinite(var) and var >= tiny:
            gamma = 1.0 / (n_features * var)
            if tiny <= gamma < np.inf:
                return gamma
    values = X.data if sp.issparse(X) else X
    magnitude = float(np.max(np.abs(values), initial=0.0))
    if magnitude == 0.0:
        return 1.0
    k = int(np.frexp(magnitude)[1])             # X · 2⁻ᵏ has entries in [-1, 1]
    scaled = X.copy() if sp.issparse(X) else X
    if sp.issparse(X):
        scaled.data = np.ldexp(X.data, -k)
    else:
        scaled = np.ldexp(X, -k)
    var_scaled = entry_variance(scaled)
    if var_scaled <= 0.0:                       # every entry the same: sklearn's 1
        return 1.0
    mantissa = 1.0 / (n_features * var_scaled)
    with np.errstate(over="ignore", under="ignore"):
        gamma = float(np.ldexp(mantissa, -2 * k))
    if tiny <= gamma < np.inf:
        return gamma
    m, e = np.frexp(mantissa)
    exponent10 = (np.log10(m) + (e - 2 * k) * np.log10(2.0))
    raise ValueError(
        f"gamma='scale' is 1/(n_features * Var(X)) = "
        f"{10 ** (exponent10 % 1):.3g}e{int(np.floor(exponent10)):+d}, which float64 cannot "
        f"hold: the entries of X reach {magnitude:.3g}, so the scale of X is the problem; "
        "standardise X first (e.g. sklearn.preprocessing.StandardScaler) or give gamma "
        "as a number")


def resolve_gamma(gamma, X):
    """scikit-learn's rule: ``"scale"`` is 1 / (n_features · X.var()),
    ``"auto"`` is 1 / n_features, a number is used as given.

    Examples
    --------
    >>> import numpy as np
    >>> from hyperplane.kernels import resolve_gamma
    >>> X = np.array([[0.0, 4.0], [4.0, 0.0]])      # 2 features, entry variance 4
    >>> resolve_gamma("scale", X), resolve_gamma("auto", X), resolve_gamma(0.3, X)
    (0.125, 0.5, 0.3)
    >>> resolve_gamma("median", X)
    Traceback (most recent call last):
    ...
    ValueError: gamma must be 'scale', 'auto' or a positive float; got 'median'
    """
    if gamma == "scale":
        return scale_gamma(X)
    if gamma == "auto":
        return 1.0 / X.shape[1]
    if isinstance(gamma, str):
        raise ValueError(f"gamma must be 'scale', 'auto' or a positive float; got {gamma!r}")
    return float(check_number(gamma, "gamma", low=0, low_open=True))


def resolve_kernel(kernel, X=None, *, gamma="scale", degree=3, coef0=0.0):
    """Turn an estimator's ``kernel=`` parameter into a kernel object.

    Parameters
    ----------
    kernel : str, Kernel or callable
        A kernel object (returned as is), one of ``KERNELS``' names, or a
        function ``k(A, B) -> Gram`` (wrapped in :class:`FunctionKernel`,
        scikit-learn's ``kernel=callable``).
    X : array-like of shape (n_samples, n_features), optional
        Training data, needed for ``gamma="scale"`` and ``"auto"``.
    gamma, degree, coef0
        scikit-learn's kernel parameters (ignored for a kernel object).

    Examples
    --------
    >>> resolve_kernel("rbf", gamma=0.5)
    RBF(sigma=1.0)
    """
    if isinstance(kernel, _kernels.Kernel):
        return kernel
    if callable(kernel):
        return _kernels.FunctionKernel(kernel)
    if not isinstance(kernel, str) or kernel not in KERNELS:
        raise ValueError(f"kernel must be a hyperplane.kernels.Kernel or one of "
                         f"{sorted(KERNELS)}; got {kernel!r}")
    if isinstance(gamma, str) and X is None and kernel not in ("linear",):
        raise ValueError(f"gamma={gamma!r} needs the training data X")
    if X is not None and not sp.issparse(X):
        X = np.asarray(X)
    g = 1.0 if kernel == "linear" else resolve_gamma(gamma, X)
    if kernel == "poly":
        check_number(degree, "degree", low=1, integer=True)
    try:
        return KERNELS[kernel](g, degree, coef0)
    except ValueError as exc:
        if kernel not in ("rbf", "laplace"):
            raise
        raise ValueError(f"gamma={g!r} is out of float64's range for kernel={kernel!r} "
                         f"({exc})") from exc


#: kernel type -> whether an instance is positive semi-definite on any data
#: (Mercer: 周志华 定理6.1, 表6.1; the closure rules 式6.25-6.27). Types not
#: listed (Sigmoid, a user's kernel) are checked on the data.
KNOWN_PSD = {
    _kernels.Linear: lambda k: True,
    _kernels.RBF: lambda k: True,
    _kernels.Laplace: lambda k: True,
    _kernels.Polynomial: lambda k: k.coef0 >= 0,
    _kernels.SumKernel: lambda k: known_psd(k.k1) and known_psd(k.k2),
    _kernels.ProductKernel: lambda k: known_psd(k.k1) and known_psd(k.k2),
    _kernels.ScaledKernel: lambda k: known_psd(k.kernel),
    _kernels.WarpedKernel: lambda k: known_psd(k.kernel),
}
#: rows of the data on which a kernel of unknown kind is checked
PSD_CHECK_ROWS = 300


def known_psd(kernel):
    """Whether ``kernel`` is positive semi-definite on every data set by its
    kind alone (see ``KNOWN_PSD``).

    Examples
    --------
    >>> from hyperplane.kernels import RBF, Linear, Sigmoid
    >>> known_psd(RBF() + 2.0 * Linear()), known_psd(Sigmoid())
    (True, False)
    """
    rule = KNOWN_PSD.get(type(kernel))
    return rule is not None and bool(rule(kernel))


class NotPSDWarning(UserWarning):
    """The kernel matrix on the training data has a negative eigenvalue.

    Examples
    --------
    A sigmoid kernel with ``theta > 0`` is not PSD on these samples; the
    warning has its own category, so it can be caught, silenced or made an
    error on its own:

    >>> import warnings
    >>> import numpy as np
    >>> from hyperplane.kernels import NotPSDWarning, Sigmoid, warn_if_not_psd
    >>> X = np.random.default_rng(0).normal(size=(20, 3))
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     psd = warn_if_not_psd(Sigmoid(beta=1.0, theta=1.0), X)
    >>> psd, [w.category.__name__ for w in caught]
    (False, ['NotPSDWarning'])
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warnings.simplefilter("ignore", NotPSDWarning)
    ...     psd = warn_if_not_psd(Sigmoid(beta=1.0, theta=1.0), X)
    >>> psd, caught
    (False, [])
    """


def warn_if_not_psd(kernel, X, random_state=None):
    """Check that ``kernel`` is positive semi-definite on (up to
    ``PSD_CHECK_ROWS`` rows of) ``X`` unless its kind guarantees it; if not,
    warn once (:class:`NotPSDWarning`; LIBSVM accepts such kernels, the
    sigmoid among them, but the dual is then not convex and its solution
    not unique). Returns whether the kernel is PSD on the rows checked.

    Examples
    --------
    >>> import warnings
    >>> from hyperplane.kernels import Sigmoid
    >>> X = np.random.default_rng(0).normal(size=(20, 3))
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn_if_not_psd(Sigmoid(beta=1.0, theta=1.0), X)
    False
    >>> len(caught)
    1
    """
    if known_psd(kernel):
        return True
    rows = np.arange(X.shape[0])
    if rows.size > PSD_CHECK_ROWS:
        rng = check_random_state(0 if random_state is None else random_state)
        rows = np.sort(rng.choice(rows, PSD_CHECK_ROWS, replace=False))
    if is_psd(kernel, X[rows]):
        return True
    warnings.warn(
        f"kernel={kernel!r} is not positive semi-definite on the training data (its "
        "kernel matrix has a negative eigenvalue), so it is not a kernel function in "
        "the sense of 周志华 定理6.1: the dual is not convex and the solution found "
        "may depend on the solver's path", NotPSDWarning, stacklevel=user_stacklevel())
    return False


def is_psd(kernel, X, tol=1e-8):
    """Whether ``kernel``'s Gram matrix on ``X`` is symmetric positive semi-definite.

    The smallest eigenvalue may be as low as ``-tol`` times the largest
    absolute eigenvalue (rounding).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.random.default_rng(0).normal(size=(20, 3))
    >>> from hyperplane.kernels import RBF, Sigmoid
    >>> is_psd(RBF(), X), is_psd(Sigmoid(beta=1.0, theta=1.0), X)
    (True, False)
    """
    K = np.asarray(kernel(X), dtype=np.float64)     # finite and symmetric, or an error
    eig = np.linalg.eigvalsh(K)
    return bool(eig[0] >= -tol * max(1.0, float(np.max(np.abs(eig)))))
