"""Turning user data into the arrays the tree kernels read.

A tree sees every attribute as one float64 column: numeric attributes as they
are (NaN = missing), categorical attributes as the index of their value in the
attribute's domain (NaN = missing). The domain of a pandas ``Categorical``
column is its declared categories, in their declared order (周志华 4.1: a
value no training row takes still gets its branch); of any other column, the
values seen in training, in order of first appearance.
A value not seen in training is encoded as NaN, i.e. treated as missing: the
prediction combines every branch by ``r_v`` (documented behaviour, never an
error).
"""

from __future__ import annotations

import numbers
import warnings
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import pandas as pd
from scipy import sparse

from .._stacklevel import user_stacklevel
from .._validation import check_X, check_X_y, reject_dask
from ._bin_kernels import column_ranges


class ColumnNumbers:
    """The names ``"0", "1", ...`` of the ``n`` columns of an array without names.

    A sequence of strings made on demand: wide data (10⁶ columns) then costs
    no Python string per column.
    """

    def __init__(self, n):
        self.n = int(n)

    def __len__(self):
        return self.n

    def __getitem__(self, j):
        if isinstance(j, slice):
            return [str(i) for i in range(self.n)[j]]
        return str(range(self.n)[j])

    def __iter__(self):
        return map(str, range(self.n))

    def __contains__(self, name):
        return self._number(name) is not None

    def index(self, name):
        """Position of the column called ``name`` (``ValueError`` if none)."""
        j = self._number(name)
        if j is None:
            raise ValueError(f"{name!r} is not a column name")
        return j

    def _number(self, name):
        text = str(name)
        if text.isdecimal() and text == str(int(text)) and int(text) < self.n:
            return int(text)
        return None

    def __eq__(self, other):
        return list(self) == list(other)

    def __repr__(self):
        shown = ", ".join(repr(name) for name in self[:5])
        return f"[{shown}{', ...' if self.n > 5 else ''}]"


@dataclass
class FeatureSpec:
    """How to encode each column: names, which are categorical, their values."""

    names: list
    categorical: np.ndarray  # bool per attribute
    categories: list  # per attribute: list of training values, or None

    @property
    def n_codes(self):
        return np.array([len(c) if c is not None else 0 for c in self.categories],
                        dtype=np.int64)


def _is_mixed(X):
    """True when ``X`` holds non-numeric columns (handled outside sklearn's validation)."""
    if isinstance(X, pd.DataFrame):
        return any(not (pd.api.types.is_numeric_dtype(d) and not pd.api.types.is_bool_dtype(d))
                   for d in X.dtypes)
    arr = np.asarray(X) if not hasattr(X, "dtype") else X
    return getattr(arr, "dtype", None) is not None and arr.dtype.kind in "OUS"


def _column_is_numeric(values):
    """An object column is numeric when every known entry is a real number."""
    known = [v for v in values if not _missing(v)]
    return all(isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool)
               for v in known)


def _missing(v):
    return v is None or (isinstance(v, (float, np.floating)) and np.isnan(v)) or v is pd.NA


def _as_frame(X):
    if isinstance(X, pd.DataFrame):
        return X
    arr = np.asarray(X, dtype=object)
    if arr.ndim != 2:
        raise ValueError(f"Expected a 2-d X; got an array of shape {arr.shape}")
    return pd.DataFrame(arr)


def densify(X):
    """A ``scipy.sparse`` matrix or array (any format) as its dense float64 array, else ``X``.

    The tree reads every attribute as a dense column (sorted once at the root),
    so sparse input is expanded: entries not stored are 0, a stored NaN is
    missing -- the same tree as the dense array gives.
    """
    if sparse.issparse(X):
        return X.toarray().astype(np.float64, copy=False)
    return X


def encode_fit(estimator, X, y):
    """Validate ``X`` (and ``y``) at fit time and return ``(X_enc, y, spec)``.

    Numeric input goes through scikit-learn's validation (NaN allowed, inf
    rejected); a DataFrame or object array with text columns is encoded column
    by column.
    """
    reject_dask(estimator, X, y)
    X = densify(X)
    if not _is_mixed(X):
        Xv, y = check_X_y(estimator, X, y, dtype=np.float64, allow_nan=True)
        p = Xv.shape[1]
        given = getattr(estimator, "feature_names_in_", None)
        names = ColumnNumbers(p) if given is None else [str(n) for n in given]
        spec = FeatureSpec(names, np.zeros(p, dtype=bool), [None] * p)
        # no copy of a C-ordered writeable float64 array: nothing writes into X_enc
        return np.require(Xv, np.float64, ["C", "W"]), y, spec
    if y is None:
        raise ValueError(f"{type(estimator).__name__} requires y to be passed, "
                         "but the target y is None")
    frame = _as_frame(X)
    if frame.shape[0] == 0:
        raise ValueError("Found array with 0 sample(s) (shape=(0, %d)) while a minimum of 1 "
                         "is required." % frame.shape[1])
    if frame.shape[1] == 0:
        raise ValueError("Found array with 0 feature(s); a minimum of 1 is required.")
    if hasattr(estimator, "feature_names_in_"):
        del estimator.feature_names_in_
    if isinstance(X, pd.DataFrame):
        estimator.feature_names_in_ = np.asarray([str(c) for c in frame.columns], dtype=object)
    estimator.n_features_in_ = frame.shape[1]
    categorical = np.zeros(frame.shape[1], dtype=bool)
    categories = []
    known_codes = {}
    for j, name in enumerate(frame.columns):
        column = frame.iloc[:, j]
        inferred = _inferred_kind(column)
        if column.dtype == object and inferred is None:
            _check_scalars(column, str(name))
        if _column_kind_numeric(column, inferred):
            categories.append(None)
        elif isinstance(column.dtype, pd.CategoricalDtype):
            categorical[j] = True
            categories.append(declared_domain(column))
        elif _is_text_dtype(column.dtype):
            # pandas' string dtype: codes and values (first appearance order) in one pass
            categorical[j] = True
            codes, seen = pd.factorize(column, use_na_sentinel=True)
            categories.append([str(v) for v in seen])
            known_codes[j] = codes
        else:
            categorical[j] = True
            seen = pd.unique(column[~column.isna()].astype(object))
            categories.append(list(seen))
    names = [str(c) for c in frame.columns]
    spec = FeatureSpec(names, categorical, categories)
    return _encode_frame(frame, spec, known_codes), np.asarray(y), spec


def warn_values_within(X_enc, spec, tolerance):
    """Warn of numeric columns whose known values all lie within ``tolerance``
    of each other but are not all equal: a rule that treats values closer
    than ``tolerance`` as one value (C4.5's, J48's 1e-5) cannot cut them, so
    their scale, not the data, decides. The warning names the column, its
    spread and the fix."""
    numeric = np.flatnonzero(~spec.categorical)
    if numeric.size == 0 or X_enc.shape[0] == 0:
        return
    # NaN (missing) skipped; an all-missing column spans NaN
    low, high = column_ranges(X_enc)
    spread = (high - low)[numeric]
    merged = numeric[(spread > 0) & (spread < tolerance)]
    if merged.size:
        j = int(merged[0])
        warnings.warn(
            f"column {spec.names[j]!r} spans only {spread[numeric == j][0]:.3g} (and "
            f"{merged.size - 1} more column(s) less than {tolerance:g}): values closer than "
            f"{tolerance:g} count as one value, so no cut separates them. The scale of X is "
            "the problem: rescale these columns (e.g. StandardScaler) or use another "
            "criterion.", UserWarning, stacklevel=user_stacklevel())


def declared_domain(column):
    """The declared categories of a pandas ``Categorical`` column, in declared order."""
    return list(column.cat.categories)


def declared_classes(y):
    """The declared categories of a ``Categorical`` target (``None`` for any other ``y``)."""
    dtype = getattr(y, "dtype", None)
    if isinstance(dtype, pd.CategoricalDtype):
        return list(dtype.categories)
    return None


def _is_text_dtype(dtype):
    """pandas' dedicated string dtype (``str``/``string``), not ``object``."""
    return pd.api.types.is_string_dtype(dtype) and dtype != object


def _check_scalars(column, name):
    """Categorical values must be strings, numbers or booleans (hashable scalars)."""
    for row, v in enumerate(column.tolist()):
        if not (_missing(v) or isinstance(v, (str, bytes, numbers.Number, np.generic))):
            raise TypeError(f"column {name!r}, row {row}: argument must be a string or a "
                            f"number, got {type(v).__name__}")


#: pandas' ``infer_dtype`` results that settle a column's kind without a Python loop
#: (all known entries strings / all real numbers); any other result is checked entry by entry
_INFERRED_NUMERIC = {"string": False, "integer": True, "floating": True,
                     "mixed-integer-float": True}


def _inferred_kind(column):
    """True/False (numeric or not) when pandas' C type inference settles it, else None."""
    if column.dtype != object:
        return None
    return _INFERRED_NUMERIC.get(pd.api.types.infer_dtype(column, skipna=True))


def _column_kind_numeric(column, inferred=None):
    if pd.api.types.is_bool_dtype(column.dtype):
        return False
    if pd.api.types.is_numeric_dtype(column.dtype):
        return True
    if isinstance(column.dtype, pd.CategoricalDtype) or _is_text_dtype(column.dtype):
        return False
    if inferred is not None:
        return inferred
    return _column_is_numeric(column.tolist())


def _encode_frame(frame, spec, known_codes=None):
    """Encoded float64 array of ``frame``; ``known_codes[j]``: column ``j``'s codes
    (−1 missing) when already computed."""
    n, p = frame.shape
    out = np.empty((n, p), dtype=np.float64)
    for j in range(p):
        column = frame.iloc[:, j]
        if known_codes and j in known_codes:
            codes = known_codes[j]
            out[:, j] = np.where(codes < 0, np.nan, codes)
        elif spec.categorical[j]:
            # code = index among the training values; missing and unseen values -> NaN
            codes = pd.Index(spec.categories[j], dtype=object).get_indexer(
                column.astype(object))
            out[:, j] = np.where(codes < 0, np.nan, codes)
        else:
            try:
                values = pd.to_numeric(column, errors="raise").to_numpy(dtype=np.float64,
                                                                        na_value=np.nan)
            except (TypeError, ValueError) as exc:
                raise ValueError(f"column {spec.names[j]!r} was numeric in fit but holds "
                                 f"non-numeric values now: {exc}") from exc
            if np.isinf(values).any():
                row = int(np.flatnonzero(np.isinf(values))[0])
                raise ValueError(f"column {spec.names[j]!r} holds inf at row {row}; "
                                 "use NaN for a missing value")
            out[:, j] = values
    return out


def encode_predict(estimator, X, spec):
    """Validate and encode ``X`` at predict time with the spec learned in fit."""
    reject_dask(estimator, X)
    X = densify(X)
    if not spec.categorical.any() and not _is_mixed(X):
        Xv = check_X(estimator, X, reset=False, dtype=np.float64, allow_nan=True)
        return np.asarray(Xv, dtype=np.float64)
    frame = _as_frame(X)
    if isinstance(X, pd.DataFrame) and hasattr(estimator, "feature_names_in_"):
        given = [str(c) for c in frame.columns]
        expected = list(estimator.feature_names_in_)
        if given != expected:
            missing = [c for c in expected if c not in given]
            extra = [c for c in given if c not in expected]
            raise ValueError(f"The feature names should match those passed during fit; "
                             f"missing columns {missing}, unexpected columns {extra}"
                             + ("" if missing or extra else ", order differs"))
    if frame.shape[1] != estimator.n_features_in_:
        raise ValueError(f"X has {frame.shape[1]} features, but {type(estimator).__name__} "
                         f"is expecting {estimator.n_features_in_} features as input.")
    if frame.shape[0] == 0:
        raise ValueError("Found array with 0 sample(s); a minimum of 1 is required.")
    return _encode_frame(frame, spec)


#: rows on which the quantile bin edges are computed (LightGBM's bin_construct_sample_cnt)
BIN_SAMPLE_ROWS = 200_000


def bin_sample_rows(n_rows, random_state=None, cap=None):
    """Rows whose values define the hist bin edges: all (``None``) when ``n_rows <= cap``.

    Above ``cap``, ``cap`` distinct row indices (sorted) drawn uniformly without
    replacement by ``numpy.random.default_rng(seed)``: ``seed`` is
    ``random_state`` when it is an int, 0 when it is None, and one draw from it
    when it is a ``RandomState``. The indices depend only on ``n_rows`` and the
    seed, never on the data, so an in-memory fit and a Dask fit (which fetches
    only these rows from the cluster) bin identically.
    """
    cap = BIN_SAMPLE_ROWS if cap is None else cap
    if n_rows <= cap:
        return None
    if random_state is None:
        seed = 0
    elif isinstance(random_state, numbers.Integral):
        seed = int(random_state)
    else:
        seed = int(random_state.randint(np.iinfo(np.int32).max))
    rows = np.random.default_rng(seed).choice(n_rows, size=cap, replace=False, shuffle=False)
    return np.sort(rows)


def quantile_edges(x, max_bins, w=None):
    """Cut points for at most ``max_bins`` bins of the known values of ``x``.

    With few distinct values the edges are every midpoint (the hist tree is
    then exact); otherwise midpoints just above the weighted ``i / max_bins``
    quantiles, as Spark MLlib and LightGBM bin their features. A bin is
    ``edges[b-1] < x <= edges[b]``. Integer weights give the same edges as
    repeated rows.
    """
    missing = np.isnan(x)
    has_missing = missing.any()  # no copies for complete columns
    known = x[~missing] if has_missing else x
    if known.size == 0:
        return np.empty(0)
    w_known = None if w is None else w[~missing] if has_missing else w
    weight = None if w_known is None or np.all(w_known == w_known[0]) else w_known
    if weight is None:
        ordered = np.sort(known)   # NumPy >= 2 sorts float64 with SIMD: faster than a radix sort
    else:
        order = np.argsort(known, kind="stable")
        ordered = known[order]
    distinct = ordered[1:] != ordered[:-1]
    if distinct.all():
        last, values = np.arange(ordered.size), ordered
    else:
        last = np.flatnonzero(np.r_[distinct, True])  # last of each value
        values = ordered[last]
    if values.size <= max_bins:
        return values[:-1] + (values[1:] - values[:-1]) / 2.0
    if weight is None:
        cumulative = (last + 1).astype(np.float64)
    else:
        cumulative = np.cumsum(weight[order])[last]
    levels = cumulative[-1] * np.arange(1, max_bins) / max_bins
    idx = np.unique(np.searchsorted(cumulative, levels, side="left"))
    idx = idx[idx < values.size - 1]
    return values[idx] + (values[idx + 1] - values[idx]) / 2.0


class Indicators(NamedTuple):
    """The data as CART's binary tests see it (:func:`value_indicators`)."""

    X: np.ndarray  # (n, p') float64: numeric columns as they were, one 0/1 column per A = a
    spec: FeatureSpec  # names "A = a" for the indicators, every column numeric
    source: np.ndarray  # (p',) int64: the attribute each column comes from


def value_indicators(X_enc, spec):
    """CART's binary tests on categorical attributes (李航 §5.5.2, 算法5.6).

    Each categorical attribute ``A`` with values ``a₁ … a_k`` becomes ``k``
    numeric columns ``[A = a]`` (1 or 0, NaN where ``A`` is missing), so the
    numeric cut ``[A = a] <= 0.5`` is the book's test ``A ≠ a`` against
    ``A = a`` and a tree grown on them chooses among exactly the tests of
    算法5.6 (with the criterion's score of each, :func:`~hyperplane.tree._scan._split_kernels.value_split_score`).
    Numeric columns are kept as they are.

    Examples
    --------
    >>> import numpy as np
    >>> spec = FeatureSpec(["A"], np.array([True]), [["x", "y"]])
    >>> value_indicators(np.array([[0.0], [1.0], [np.nan]]), spec).X.tolist()
    [[1.0, 0.0], [0.0, 1.0], [nan, nan]]
    """
    columns, names, source = [], [], []
    for j, name in enumerate(spec.names):
        x = X_enc[:, j]
        if not spec.categorical[j]:
            columns.append(x)
            names.append(name)
            source.append(j)
            continue
        for a, value in enumerate(spec.categories[j]):
            columns.append(np.where(np.isnan(x), np.nan, (x == a).astype(np.float64)))
            names.append(f"{name} = {value}")
            source.append(j)
    p = len(names)
    X = np.column_stack(columns) if columns else np.empty((X_enc.shape[0], 0))
    return Indicators(np.ascontiguousarray(X, dtype=np.float64),
                      FeatureSpec(names, np.zeros(p, dtype=bool), [None] * p),
                      np.asarray(source, dtype=np.int64))
