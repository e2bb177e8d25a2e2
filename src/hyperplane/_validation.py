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
from sklearn.utils.validation import check_array, check_is_fitted, validate_data

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
# declared parameters: one rule per constructor parameter
# --------------------------------------------------------------------------
# Every estimator declares, next to its ``__init__``, a class attribute
# ``_parameter_rules = {name: rule}`` with one rule per constructor parameter;
# ``fit`` calls :func:`validate_params` first, before it reads any data (in
# memory or on Dask). The rules reuse :func:`check_number` and
# :func:`check_option` so that every message names the parameter.
class Rule:
    """A declared rule for one hyper-parameter (subclasses say which values)."""

    #: words for the accepted values, used when no alternative of :class:`Either` fits
    description = "a valid value"

    def claims(self, value):
        """Whether ``value`` has the type this rule is about (used by :class:`Either`)."""
        return True

    def check(self, value, name):
        """Raise ``TypeError``/``ValueError`` naming ``name`` unless ``value`` is allowed."""
        raise NotImplementedError

    def __repr__(self):
        return f"{type(self).__name__}({self.description})"


class Real(Rule):
    """A real number in an interval (:func:`check_number`'s arguments); bool is refused."""

    integer = False

    def __init__(self, low=None, high=None, *, low_open=False, high_open=False,
                 allow_inf=False):
        self.bounds = dict(low=low, high=high, low_open=low_open, high_open=high_open,
                           allow_inf=allow_inf)
        self.description = "an integer" if self.integer else "a real number"

    def claims(self, value):
        kind = numbers.Integral if self.integer else numbers.Real
        return isinstance(value, kind) and not isinstance(value, bool)

    def check(self, value, name):
        check_number(value, name, integer=self.integer, **self.bounds)


class Integer(Real):
    """An integer in an interval (numpy integers included; bool and 2.0 refused)."""

    integer = True


class Options(Rule):
    """One of a fixed set of strings (a registry's keys)."""

    def __init__(self, options):
        self.options = tuple(options)
        self.description = f"one of {sorted(self.options)}"

    def claims(self, value):
        return isinstance(value, str)

    def check(self, value, name):
        check_option(value, name, self.options)


class Boolean(Rule):
    """``True`` or ``False`` (``numpy.bool_`` too; 0/1 and strings are refused)."""

    description = "True or False"

    def claims(self, value):
        return isinstance(value, (bool, np.bool_))

    def check(self, value, name):
        if not self.claims(value):
            raise TypeError(f"{name} must be True or False; got {value!r} of type "
                            f"{type(value).__name__}")


class Constant(Rule):
    """Exactly one value, e.g. ``None`` for "not set"."""

    def __init__(self, value):
        self.value = value
        self.description = repr(value)

    def claims(self, value):
        return value is self.value

    def check(self, value, name):
        if value is not self.value:
            raise ValueError(f"{name} must be {self.value!r}; got {value!r}")


class Instance(Rule):
    """An instance of one of ``types``."""

    def __init__(self, *types, description=None):
        self.types = types
        self.description = description or " or ".join(t.__name__ for t in types)

    def claims(self, value):
        return isinstance(value, self.types)

    def check(self, value, name):
        if not self.claims(value):
            raise TypeError(f"{name} must be {self.description}; got {value!r}")


class RandomState(Rule):
    """What :func:`sklearn.utils.check_random_state` accepts: ``None``, an int
    in ``[0, 2**32 - 1]`` (numpy integers too) or a ``numpy.random.RandomState``."""

    description = "None, an int in [0, 2**32 - 1] or a numpy.random.RandomState"

    def check(self, value, name):
        if value is None or isinstance(value, np.random.RandomState):
            return
        if isinstance(value, numbers.Integral) and not isinstance(value, bool):
            check_number(value, name, low=0, high=2**32 - 1, integer=True)
            return
        # a ValueError, as scikit-learn's check_random_state raises
        raise ValueError(f"{name} must be {self.description}; got {value!r} of type "
                         f"{type(value).__name__}")


class Sizes(Rule):
    """A positive integer or a sequence of them (e.g. layer sizes)."""

    description = "a positive integer or a tuple of positive integers"

    def check(self, value, name):
        sizes = (value,) if isinstance(value, numbers.Integral) else value
        if isinstance(value, (str, bytes)) or not hasattr(sizes, "__iter__"):
            raise TypeError(f"{name} must be {self.description}; got {value!r}")
        for size in sizes:
            check_number(size, f"{name} entries", low=1, integer=True)


class Either(Rule):
    """The first alternative whose type ``claims`` the value decides; if none
    does, the last one reports (e.g. ``Either(NONE, POSITIVE_INT)`` says
    "must be an integer")."""

    def __init__(self, *rules):
        self.rules = rules
        self.description = " or ".join(r.description for r in rules)

    def claims(self, value):
        return any(r.claims(value) for r in self.rules)

    def check(self, value, name):
        for rule in self.rules:
            if rule.claims(value):
                rule.check(value, name)
                return
        self.rules[-1].check(value, name)


def validate_params(estimator):
    """Check every constructor parameter of ``estimator`` against its
    class's ``_parameter_rules``, before any data is read.

    Raises
    ------
    TypeError, ValueError
        Naming the parameter; a parameter with no declared rule is a
        ``TypeError`` too (every parameter must be declared).

    Examples
    --------
    >>> from hyperplane.linear import Perceptron
    >>> validate_params(Perceptron(shuffle=1))
    Traceback (most recent call last):
    ...
    TypeError: shuffle must be True or False; got 1 of type int
    """
    rules = type(estimator)._parameter_rules
    for name, value in estimator.get_params(deep=False).items():
        if name not in rules:
            raise TypeError(f"{type(estimator).__name__} declares no rule for its "
                            f"parameter {name!r} in _parameter_rules")
        rules[name].check(value, name)
    return estimator


#: the rules most estimators share
POSITIVE = Real(low=0, low_open=True)
NON_NEGATIVE = Real(low=0)
POSITIVE_INT = Integer(low=1)
SEED = RandomState()
FLAG = Boolean()
NONE = Constant(None)
VERBOSE = Either(Boolean(), Integer(low=0))


# --------------------------------------------------------------------------
# data
# --------------------------------------------------------------------------
#: the estimators whose ``fit`` accepts Dask collections
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
    if y_numeric:
        y = _numeric_target(estimator, y)
    try:
        return validate_data(estimator, X, y, reset=reset, dtype=dtype,
                             ensure_all_finite=ensure, y_numeric=y_numeric, **kw)
    except ValueError as exc:
        if "could not convert" in str(exc) or "Unable to convert" in str(exc):
            raise ValueError(f"{type(estimator).__name__} needs numeric features; "
                             f"{exc}") from exc
        raise


def _numeric_target(estimator, y):
    """A regressor's ``y`` as floats, or an error that blames ``y`` (not the features)."""
    y_array = np.asarray(y)
    if y_array.dtype.kind not in "OUSV":
        return y
    try:
        return y_array.astype(np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{type(estimator).__name__} needs a numeric target y; {exc}") from exc


def _check_one_label_type(y):
    """Refuse labels that mix strings with numbers (they have no common order)."""
    if y.dtype != object or y.size == 0:
        return
    is_text = np.fromiter((isinstance(v, str) for v in y), dtype=bool, count=y.size)
    is_none = np.fromiter((v is None for v in y), dtype=bool, count=y.size)
    is_other = ~is_text & ~is_none
    if is_text.any() and is_other.any():
        t, o = int(np.argmax(is_text)), int(np.argmax(is_other))
        raise ValueError(
            f"y mixes string and non-string labels: {y[t]!r} (row {t}) and {y[o]!r} "
            f"(row {o}, {type(y[o]).__name__}); give every label the same type, "
            "e.g. y.astype(str)")


def check_chunk(X_block, estimator_name, dtype=FLOAT_DTYPES):
    """One row chunk of a Dask ``X``, checked as :func:`check_X` checks an
    in-memory ``X`` (numeric, finite; the same messages).

    Examples
    --------
    >>> check_chunk([[1.0, float("nan")]], "Perceptron")
    Traceback (most recent call last):
    ...
    ValueError: Input X contains NaN...
    """
    try:
        return check_array(X_block, dtype=dtype, ensure_all_finite=True,
                           ensure_min_samples=0, estimator=estimator_name, input_name="X")
    except ValueError as exc:
        if "could not convert" in str(exc) or "Unable to convert" in str(exc):
            raise ValueError(f"{estimator_name} needs numeric features; {exc}") from exc
        raise


def encode_labels(y):
    """Sort the classes and map ``y`` to indices into them.

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
    _check_one_label_type(y)
    # hash-based factorisation (O(n)); only the distinct labels are sorted
    y_index, classes = pd.factorize(y, sort=True, use_na_sentinel=True)
    if np.any(y_index < 0):
        raise ValueError(f"y has a missing label at row {int(np.argmax(y_index < 0))}")
    classes = np.asarray(classes, dtype=y.dtype if y.dtype != object else object)
    check_classification_targets(classes)
    if classes.shape[0] < 2:
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
    "FLOAT_DTYPES", "check_chunk", "check_number", "check_option", "validate_params", "Rule", "Real",
    "Integer", "Options", "Boolean", "Constant", "Instance", "RandomState", "Sizes", "Either",
    "POSITIVE", "NON_NEGATIVE", "POSITIVE_INT", "SEED", "FLAG", "NONE", "VERBOSE", "check_X", "check_X_y",
    "encode_labels", "signed_labels", "one_vs_rest_targets", "sign",
    "check_sample_weight_vector",
    "warn_not_converged", "check_is_fitted", "ConvergenceWarning",
    "SCALES_OUT", "is_dask_collection", "reject_dask",
]
