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
import scipy.sparse
from sklearn.exceptions import ConvergenceWarning, DataConversionWarning
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_array, check_is_fitted, column_or_1d, validate_data

from ._stacklevel import user_stacklevel
from ._parameters import (  # re-exported: estimators import from here
    FLAG,
    NON_NEGATIVE,
    NONE,
    POSITIVE,
    POSITIVE_INT,
    SEED,
    VERBOSE,
    Boolean,
    Constant,
    Either,
    Instance,
    Integer,
    Options,
    RandomState,
    Real,
    Rule,
    Sizes,
    check_number,
    check_option,
    validate_params,
)

FLOAT_DTYPES = (np.float64, np.float32)


# --------------------------------------------------------------------------
# data
# --------------------------------------------------------------------------
#: the estimators whose ``fit`` accepts Dask collections
SCALES_OUT = ("LeastSquaresClassifier", "FisherDiscriminant", "LogisticRegression",
              "Perceptron", "DecisionTreeClassifier", "DecisionTreeRegressor")


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
        return canonical_sparse(validate_data(estimator, X, reset=reset, dtype=dtype,
                                              ensure_all_finite=ensure, **kw))
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
    if not kw.get("multi_output", False):
        y = one_dimensional_target(y)
    if y_numeric:
        y = _numeric_target(estimator, y)
    try:
        X, y = validate_data(estimator, X, y, reset=reset, dtype=dtype,
                             ensure_all_finite=ensure, y_numeric=y_numeric, **kw)
        return canonical_sparse(X), y
    except ValueError as exc:
        if "could not convert" in str(exc) or "Unable to convert" in str(exc):
            raise ValueError(f"{type(estimator).__name__} needs numeric features; "
                             f"{exc}") from exc
        raise


def one_dimensional_target(y):
    """``y`` given as one column, shape ``(n, 1)``, as the 1-d target it
    stands for, with scikit-learn's :class:`~sklearn.exceptions.DataConversionWarning`
    pointing at the user's call (scikit-learn's ``column_or_1d`` would point
    at its own frame); any other ``y`` is returned as it is.

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     y = one_dimensional_target([[1], [0], [1]])
    >>> y.tolist(), caught[0].category.__name__, caught[0].filename.startswith("<doctest")
    ([1, 0, 1], 'DataConversionWarning', True)
    >>> one_dimensional_target([1, 0, 1])
    [1, 0, 1]
    """
    if scipy.sparse.issparse(y):
        return y
    try:
        shape = y.shape if hasattr(y, "shape") else np.asarray(y).shape
    except ValueError:  # ragged: scikit-learn's check names the problem
        return y
    if len(shape) != 2 or shape[1] != 1:
        return y
    warnings.warn("A column-vector y was passed when a 1d array was expected. Please change "
                  "the shape of y to (n_samples, ), for example using ravel().",
                  DataConversionWarning, stacklevel=user_stacklevel())
    return column_or_1d(y)


def canonical_sparse(X):
    """A ``scipy.sparse`` CSR/CSC ``X`` in canonical form: sorted indices and
    every entry stored once, duplicates summed (scipy's meaning of a
    duplicate). Kernels that walk the stored entries would otherwise read
    another matrix than ``X.toarray()``. The caller's matrix is never changed
    (a copy is canonicalised); dense input and canonical matrices pass as is.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> X = sp.csr_matrix(([1.0, 2.0], [0, 0], [0, 2]), shape=(1, 2))   # x_00 stored twice
    >>> canonical_sparse(X).toarray().tolist(), canonical_sparse(X).nnz, X.nnz
    ([[3.0, 0.0]], 1, 2)
    """
    if not scipy.sparse.issparse(X) or X.format not in ("csr", "csc"):
        return X
    if X.has_canonical_format:
        return X
    X = X.copy()
    X.sum_duplicates()
    return X


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


def check_chunk(X_block, estimator_name, dtype=FLOAT_DTYPES, accept_sparse=False):
    """One row chunk of a Dask ``X``, checked as :func:`check_X` checks an
    in-memory ``X`` (numeric, finite; the same messages). ``accept_sparse``:
    the ``scipy.sparse`` formats the estimator reads (a chunk of another
    format is converted to the first), as in :func:`check_X`.

    Examples
    --------
    >>> check_chunk([[1.0, float("nan")]], "Perceptron")
    Traceback (most recent call last):
    ...
    ValueError: Input X contains NaN...
    """
    try:
        return canonical_sparse(check_array(X_block, dtype=dtype, ensure_all_finite=True,
                                            accept_sparse=accept_sparse, ensure_min_samples=0,
                                            estimator=estimator_name, input_name="X"))
    except ValueError as exc:
        if "could not convert" in str(exc) or "Unable to convert" in str(exc):
            raise ValueError(f"{estimator_name} needs numeric features; {exc}") from exc
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
    _check_one_label_type(y)
    if y.dtype == object and y.size and all(isinstance(v, numbers.Integral) for v in y):
        y = np.asarray(y.tolist())            # integers held as objects: integer labels
    codes = _dense_integer_codes(y)
    if codes is None:
        # hash-based factorisation (O(n)); only the distinct labels are sorted
        y_index, classes = pd.factorize(y, sort=True, use_na_sentinel=True)
        if np.any(y_index < 0):
            raise ValueError(f"y has a missing label at row {int(np.argmax(y_index < 0))}")
        classes = np.asarray(classes, dtype=y.dtype if y.dtype != object else object)
    else:
        classes, y_index = codes
    if classes.shape[0] < min_classes:
        raise ValueError("y has only one class "
                         f"({classes.tolist()[0]!r}); a classifier needs at least 2 classes")
    if codes is None:
        check_classification_targets(classes)  # integer classes always are targets
    return classes, y_index.astype(np.int64).ravel()


def _dense_integer_codes(y):
    """``(classes, y_index)`` of 1-d integer labels spanning at most ``len(y)``
    values, by counting (O(n), the usual 0..K-1 or ±1 labels), also when they
    are held as floats with integer values (``classes`` then keeps y's float
    type); None for other labels."""
    if y.ndim == 1 and y.dtype.kind == "f" and y.size:
        with np.errstate(invalid="ignore"):      # NaN, inf: not integers
            as_int = y.astype(np.int64)
        if not np.array_equal(as_int, y):
            return None
        codes = _dense_integer_codes(as_int)
        return None if codes is None else (codes[0].astype(y.dtype), codes[1])
    if y.ndim != 1 or y.dtype.kind not in "iu" or y.size == 0:
        return None
    low, high = y.min(), y.max()
    if int(high) - int(low) >= y.size:
        return None
    # y - low wraps around in y's type; read as unsigned it is the true offset
    offset = (y - low).view(f"u{y.dtype.itemsize}").astype(np.intp)
    present = np.bincount(offset) > 0
    index_of = np.cumsum(present) - 1
    return np.flatnonzero(present).astype(y.dtype) + low, index_of[offset]


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


#: ``class_weight``: None, "balanced" or a dict {class label: weight}
CLASS_WEIGHT = Either(NONE, Options(("balanced",)),
                      Instance(dict, description='None, "balanced" or a dict {class: weight}'))


def class_weight_vector(class_weight, classes, y_index, sample_weight=None):
    """One weight per class for ``class_weight`` (scikit-learn's meaning):
    None gives ones, ``"balanced"`` n / (K * n_k) (counts of rows, whatever
    their sample weights; with ``sample_weight`` given, its sums over all
    rows and over the rows of class k, as scikit-learn's ``LinearSVC``), a dict ``{label: w}`` w for the labels it names
    and 1 for the others; a label not among ``classes`` or a negative or
    non-finite weight is a ValueError.

    Examples
    --------
    >>> import numpy as np
    >>> class_weight_vector("balanced", np.array(["a", "b"]), np.array([0, 0, 0, 1])).tolist()
    [0.6666666666666666, 2.0]
    >>> class_weight_vector({"b": 5}, np.array(["a", "b"]), np.array([0, 1])).tolist()
    [1.0, 5.0]
    >>> class_weight_vector("balanced", np.array(["a", "b"]), np.array([0, 0, 1]),
    ...                     np.array([1.0, 1.0, 4.0])).tolist()
    [1.5, 0.75]
    """
    n_classes = len(classes)
    if class_weight is None:
        return np.ones(n_classes)
    if isinstance(class_weight, str):
        check_option(class_weight, "class_weight", ("balanced",))
        counts = np.bincount(y_index, weights=sample_weight,
                             minlength=n_classes).astype(np.float64)
        return counts.sum() / (n_classes * counts)
    weights = np.ones(n_classes)
    position = {label: k for k, label in enumerate(classes.tolist())}
    for label, w in class_weight.items():
        key = label.item() if isinstance(label, np.generic) else label
        if key not in position:
            raise ValueError(f"class_weight names the class {label!r}, which is not in "
                             f"y's classes {classes.tolist()}")
        w = float(w)
        if not np.isfinite(w) or w < 0:
            raise ValueError(f"class_weight[{label!r}] must be finite and non-negative; "
                             f"got {w}")
        weights[position[key]] = w
    return weights


def class_sample_weights(class_weight, classes, y_index, sample_weight):
    """``(class_weight_, weights)``: the weight of each class
    (:func:`class_weight_vector`, ``"balanced"`` from the class counts) and
    each sample's ``s_i · w_{y_i}`` -- the class weight multiplies the sample
    weight, scikit-learn's meaning. ``weights`` is None when neither is given
    (every row once); weights that are zero on every row are a ValueError.

    Examples
    --------
    >>> import numpy as np
    >>> cw, w = class_sample_weights({1: 3.0}, np.array([0, 1]), np.array([0, 1, 1]),
    ...                              np.array([2.0, 1.0, 0.5]))
    >>> cw.tolist(), w.tolist()
    ([1.0, 3.0], [2.0, 3.0, 1.5])
    >>> class_sample_weights(None, np.array([0, 1]), np.array([0, 1]), None)[1] is None
    True
    """
    per_class = class_weight_vector(class_weight, classes, y_index)
    if sample_weight is None and class_weight is None:
        return per_class, None
    weights = check_sample_weight_vector(sample_weight, y_index.shape[0]) * per_class[y_index]
    if not weights.any():
        raise ValueError("sample_weight is zero for every sample (times class_weight)")
    return per_class, weights


def partial_fit_labels(y, classes, class_weight):
    """Indices in ``classes`` (the first call's ``classes_``) of the labels of
    a ``partial_fit`` batch. A label not among them is a ValueError, and so is
    ``class_weight="balanced"``, whose class counts are those of all the data,
    which a batch does not show.

    Examples
    --------
    >>> import numpy as np
    >>> partial_fit_labels(np.array(["b", "a", "b"]), np.array(["a", "b"]), None).tolist()
    [1, 0, 1]
    """
    if isinstance(class_weight, str):
        raise ValueError('class_weight="balanced" needs the class counts of all the data, '
                         "which partial_fit does not see; pass a dict {label: weight} (e.g. "
                         "computed once with sklearn.utils.class_weight.compute_class_weight)")
    unknown = np.setdiff1d(np.unique(y), classes)
    if unknown.size:
        raise ValueError(f"y has labels {unknown.tolist()} not in classes "
                         f"{classes.tolist()} of the first partial_fit")
    return np.searchsorted(classes, y)


def class_penalties(C, class_weight, y_index, k, binary):
    """C_i of the binary problem of class ``k`` (LIBLINEAR's ``-wi``, as
    ``train``): with two classes ``C_i w_{y_i}``; in the one-vs-rest problem
    of class ``k``, ``C_i w_k`` for its samples and ``C_i`` for the rest.

    Examples
    --------
    >>> import numpy as np
    >>> class_penalties(np.ones(3), np.array([2.0, 5.0]), np.array([0, 1, 1]), 1, True).tolist()
    [2.0, 5.0, 5.0]
    >>> class_penalties(np.ones(3), np.array([2.0, 5.0, 7.0]), np.array([0, 1, 2]), 2,
    ...                 False).tolist()
    [1.0, 1.0, 7.0]
    """
    if binary:
        return C * class_weight[y_index]
    return C * np.where(y_index == k, class_weight[k], 1.0)


def one_vs_rest_weights(class_weight, classes, y_index, sample_weight):
    """``(class_weight_, weights)`` of a one-vs-rest learner: the weight of each
    class and, for each binary problem, each sample's weight
    (:func:`class_penalties` with ``C_i = s_i``): two classes, one problem,
    ``s_i w_{y_i}``; K classes, problem k weighs its own class by ``w_k`` and
    the rest by 1 (LIBLINEAR's and scikit-learn's SGD one-vs-rest). A problem
    whose weights are all zero is a ValueError.

    Examples
    --------
    >>> import numpy as np
    >>> cw, w = one_vs_rest_weights({2: 4.0}, np.array([0, 1, 2]), np.array([0, 1, 2]), None)
    >>> [p.tolist() for p in w]
    [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0], [1.0, 1.0, 4.0]]
    """
    per_class = class_weight_vector(class_weight, classes, y_index)
    s = check_sample_weight_vector(sample_weight, y_index.shape[0])
    binary = len(classes) == 2
    weights = [class_penalties(s, per_class, y_index, k, binary)
               for k in ([1] if binary else range(len(classes)))]
    if not all(w.any() for w in weights):
        raise ValueError("sample_weight is zero for every sample (times class_weight) of a "
                         "one-vs-rest problem")
    return per_class, weights


# --------------------------------------------------------------------------
# warnings
# --------------------------------------------------------------------------
def warn_not_converged(estimator, n_iter, fix):
    """Emit the package's :class:`ConvergenceWarning` with the fix to try."""
    warnings.warn(f"{type(estimator).__name__} did not converge in {n_iter} "
                  f"iterations; {fix}", ConvergenceWarning, stacklevel=user_stacklevel())


__all__ = [
    "FLOAT_DTYPES", "canonical_sparse", "check_chunk", "check_number", "check_option", "validate_params", "Rule", "Real",
    "Integer", "Options", "Boolean", "Constant", "Instance", "RandomState", "Sizes", "Either",
    "POSITIVE", "NON_NEGATIVE", "POSITIVE_INT", "SEED", "FLAG", "NONE", "VERBOSE", "check_X", "check_X_y",
    "encode_labels", "signed_labels", "one_vs_rest_targets", "sign",
    "check_sample_weight_vector", "CLASS_WEIGHT", "class_weight_vector", "class_sample_weights",
    "class_penalties", "one_vs_rest_weights", "partial_fit_labels",
    "warn_not_converged", "check_is_fitted", "ConvergenceWarning",
    "SCALES_OUT", "is_dask_collection", "reject_dask",
]
