"""Input checking, label encoding and warnings shared by every estimator.

The estimator layer calls these helpers; compiled kernels never see
unvalidated input. Messages name the parameter, column or row at fault so a
user can fix the call without reading a traceback.
"""

from __future__ import annotations

import numbers
import warnings

import numpy as np
import pandas as pd
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

FLOAT_DTYPES = (np.float64, np.float32)


# --------------------------------------------------------------------------
# hyper-parameters
# --------------------------------------------------------------------------
def check_number(value, name, *, low=None, high=None, low_open=False,
                 high_open=False, integer=False, allow_inf=False):
    """Check that hyper-parameter ``name`` is a number inside an interval.

    Parameters
    ----------
    value : object
        The value given by the user.
    name : str
        The parameter's name, used in the error message.
    low, high : float or None
        Bounds of the interval (``None``: unbounded).
    low_open, high_open : bool
        Whether a bound itself is excluded.
    integer : bool
        Require an integral number (bool is never accepted).
    allow_inf : bool
        Accept ``numpy.inf`` (used for ``C=inf``, the hard margin).

    Returns
    -------
    number
        ``value`` unchanged.

    Examples
    --------
    >>> check_number(0.5, "eta", low=0, low_open=True)
    0.5
    """
    kind = numbers.Integral if integer else numbers.Real
    if isinstance(value, bool) or not isinstance(value, kind):
        what = "an integer" if integer else "a real number"
        raise TypeError(f"{name} must be {what}; got {value!r} of type "
                        f"{type(value).__name__}")
    if np.isnan(value) or (np.isinf(value) and not allow_inf):
        raise ValueError(f"{name} must be finite; got {value!r}")
    too_low = low is not None and (value < low or (low_open and value == low))
    too_high = high is not None and (value > high or (high_open and value == high))
    if too_low or too_high:
        left = "(" if low_open else "["
        right = ")" if high_open else "]"
        lo = "-inf" if low is None else low
        hi = "inf" if high is None else high
        raise ValueError(f"{name} must be in {left}{lo}, {hi}{right}; got {value!r}")
    return value


def check_option(value, name, options):
    """Check that ``value`` is one of ``options`` (a registry's keys).

    Examples
    --------
    >>> check_option("pocket", "variant", ("standard", "pocket", "averaged"))
    'pocket'
    """
    if not isinstance(value, str) or value not in options:
        raise ValueError(f"{name} must be one of {sorted(options)}; got {value!r}")
    return value


# --------------------------------------------------------------------------
# data
# --------------------------------------------------------------------------
#: the estimators whose ``fit`` accepts Dask collections (SPEC, "Scale-out")
SCALES_OUT = ("LeastSquaresClassifier", "FisherDiscriminant", "LogisticRegression",
              "Perceptron", "DecisionTreeClassifier")


def is_dask_collection(obj):
    """Whether ``obj`` is a Dask array/dataframe/series (without importing dask)."""
    return hasattr(obj, "__dask_graph__") and callable(obj.__dask_graph__) \
        and obj.__dask_graph__() is not None


def reject_dask(estimator, *arrays):
    """Refuse Dask input in an estimator that cannot fit without gathering it."""
    if any(is_dask_collection(a) for a in arrays):
        raise TypeError(
            f"{type(estimator).__name__} does not scale out on Dask and will not "
            "gather the data into one process; compute the input first "
            "(e.g. X.compute()) or use an estimator that scales out: "
            f"{', '.join(SCALES_OUT)}")


def check_X(estimator, X, *, reset, dtype=FLOAT_DTYPES, allow_nan=False, **kw):
    """Validate a numeric feature matrix and record ``n_features_in_``.

    Thin wrapper around :func:`sklearn.utils.validation.validate_data` so that
    every estimator reports the same messages (wrong feature count, NaN, empty
    data, non-numeric columns). ``float32`` input stays ``float32``.
    """
    reject_dask(estimator, X)
    ensure = "allow-nan" if allow_nan else True
    try:
        return validate_data(estimator, X, reset=reset, dtype=dtype,
                             ensure_all_finite=ensure, **kw)
    except ValueError as exc:
        if "could not convert" in str(exc) or "Unable to convert" in str(exc):
            raise ValueError(f"{type(estimator).__name__} needs numeric features; "
                             f"{exc}") from exc
        raise


def check_X_y(estimator, X, y, *, reset=True, dtype=FLOAT_DTYPES,
              allow_nan=False, y_numeric=False, **kw):
    """Validate ``X`` and ``y`` together (same rows, 1-d ``y``)."""
    reject_dask(estimator, X, y)
    ensure = "allow-nan" if allow_nan else True
    if y is None:
        raise ValueError(f"{type(estimator).__name__} requires y to be passed, "
                         "but the target y is None")
    try:
        return validate_data(estimator, X, y, reset=reset, dtype=dtype,
                             ensure_all_finite=ensure, y_numeric=y_numeric, **kw)
    except ValueError as exc:
        if "could not convert" in str(exc) or "Unable to convert" in str(exc):
            raise ValueError(f"{type(estimator).__name__} needs numeric features; "
                             f"{exc}") from exc
        raise


def encode_labels(y, min_classes=2):
    """Sort the classes and map ``y`` to indices into them.

    ``min_classes``: fewer distinct labels is an error (a tree takes 1).

    ``classes_[1]`` is the positive class (+1 in the books).

    Returns
    -------
    classes : ndarray
        The sorted distinct labels.
    y_index : ndarray of int64
        ``classes[y_index] == y``.

    Raises
    ------
    ValueError
        If ``y`` is not a classification target or has a single class.

    Examples
    --------
    >>> classes, idx = encode_labels(["是", "否", "是"])
    >>> classes.tolist(), idx.tolist()
    (['否', '是'], [1, 0, 1])
    """
    y = np.asarray(y)
    if y.ndim == 2 and y.shape[1] == 1:
        y = y.ravel()
    if y.ndim != 1:
        check_classification_targets(y)   # raises sklearn's message for 2-d targets
    # hash-based factorisation (O(n)); only the distinct labels are sorted
    y_index, classes = pd.factorize(y, sort=True, use_na_sentinel=True)
    if np.any(y_index < 0):
        raise ValueError(f"y has a missing label at row {int(np.argmax(y_index < 0))}")
    classes = np.asarray(classes, dtype=y.dtype if y.dtype != object else object)
    check_classification_targets(classes)
    if classes.shape[0] < min_classes:
        raise ValueError("y has only one class "
                         f"({classes[0]!r}); a classifier needs at least 2 classes")
    return classes, y_index.astype(np.int64).ravel()


def signed_labels(y_index, positive=1, dtype=np.float64):
    """The book's labels: +1 where ``y_index == positive``, else -1."""
    return np.where(y_index == positive, 1.0, -1.0).astype(dtype)


def one_vs_rest_targets(y_index, n_classes, dtype=np.float64):
    """The book's ±1 targets, one row per binary problem.

    Two classes: one row, +1 for ``classes_[1]``. K > 2 classes: K rows
    (one-vs-rest), row k is +1 for class k and -1 for the rest.

    Examples
    --------
    >>> one_vs_rest_targets(np.array([0, 2, 1]), 3).tolist()
    [[1.0, -1.0, -1.0], [-1.0, -1.0, 1.0], [-1.0, 1.0, -1.0]]
    """
    positives = [1] if n_classes == 2 else range(n_classes)
    y_index = np.asarray(y_index)
    return np.array([np.where(y_index == k, 1.0, -1.0) for k in positives], dtype=dtype)


def sign(score):
    """The book's sign with ``sign(0) = +1`` (李航 eq. 2.2)."""
    return np.where(score >= 0, 1, -1)


def check_sample_weight_vector(sample_weight, n_samples, dtype=np.float64):
    """Validate ``sample_weight`` (None: all ones; no negative or NaN entry)."""
    if sample_weight is None:
        return np.ones(n_samples, dtype=dtype)
    w = np.asarray(sample_weight, dtype=dtype)
    if w.ndim == 0:
        w = np.full(n_samples, float(w), dtype=dtype)
    if w.shape != (n_samples,):
        raise ValueError(f"sample_weight must have shape ({n_samples},); got {w.shape}")
    if not np.all(np.isfinite(w)):
        raise ValueError("sample_weight must be finite")
    if np.any(w < 0):
        raise ValueError(f"sample_weight must be non-negative; row {int(np.argmax(w < 0))} "
                         f"has {w[w < 0][0]}")
    return w


# --------------------------------------------------------------------------
# warnings
# --------------------------------------------------------------------------
def warn_not_converged(estimator, n_iter, fix):
    """Emit the package's :class:`ConvergenceWarning` with the fix to try."""
    warnings.warn(f"{type(estimator).__name__} did not converge in {n_iter} "
                  f"iterations; {fix}", ConvergenceWarning, stacklevel=3)


__all__ = [
    "FLOAT_DTYPES", "check_number", "check_option", "check_X", "check_X_y",
    "encode_labels", "signed_labels", "one_vs_rest_targets", "sign",
    "check_sample_weight_vector",
    "warn_not_converged", "check_is_fitted", "ConvergenceWarning",
    "SCALES_OUT", "is_dask_collection", "reject_dask",
]
