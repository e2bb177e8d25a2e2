"""The passes of the Dask tree fit that read ``X``: scan, bin sample, encode.

Steps 1-3 of :mod:`._levels`: the row chunks of ``X``, ``y`` and the weights
are the family-agnostic :class:`~hyperplane.distributed.Chunks`
(:func:`tree_chunks`), and each pass here is a statistic of one chunk that
it maps (and merges) on the workers. They give the client what it needs to
grow the tree from class tables alone: the feature encoding and classes
(:func:`scan`), the rows the hist bin edges are computed from
(:func:`sample_plan`, :func:`fetch_sample`) and each chunk as integer codes
with its bins' value ranges (:func:`encode_chunk`, persisted by
:meth:`~hyperplane.distributed.Chunks.transform`, merged by :func:`merge_bin_ranges`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

from ...distributed._chunks import Chunks
from .._encode import (FeatureSpec, densify, _check_scalars, _column_is_numeric, _encode_frame,
                      bin_sample_rows, value_indicators)
from .._bin_kernels import bin_column, bin_ranges, transposed_codes
from .._scan._split_kernels import BINNED
from .._scan._table_kernels import MomentTables


# ---------------------------------------------------------------- chunk access
def tree_chunks(X, y, sample_weight):
    """The aligned row chunks of a tree fit: :class:`~hyperplane.distributed.Chunks`
    of ``X`` (a dask.dataframe keeps its pandas partitions, so string and
    categorical columns survive), ``y`` and the weights, handed to every
    statistic (None: unit weights)."""
    if not hasattr(X, "columns"):
        dtype = getattr(X, "dtype", None)
        if dtype is not None and np.dtype(dtype).kind not in "biuf":
            raise TypeError(f"a Dask array X must be numeric (got dtype {dtype}); pass a "
                            "dask.dataframe for categorical (str/object/category) columns")
    return Chunks(X, y, sample_weight=sample_weight, frames=True, always_weights=True)


def _frame(block, columns):
    """A chunk as a pandas frame (dask.array blocks get integer column names;
    a ``scipy.sparse`` block is expanded as the in-memory fit expands it)."""
    if isinstance(block, pd.DataFrame):
        return block
    return pd.DataFrame(densify(block), columns=columns)


def _vector(block, n, name):
    v = np.asarray(block)
    if v.ndim == 2 and v.shape[1] == 1:
        v = v[:, 0]
    if v.shape != (n,):
        raise ValueError(f"{name} does not line up with X: a chunk of X has {n} rows, "
                         f"{name} has shape {v.shape}")
    return v


def _chunk_weights(block, n):
    if block is None:
        return np.ones(n)
    w = _vector(block, n, "sample_weight").astype(np.float64)
    if not np.all(np.isfinite(w)):
        raise ValueError("sample_weight must be finite")
    if np.any(w < 0):
        raise ValueError("sample_weight must be non-negative")
    return w


# ------------------------------------------------------------------ 1. scan
class ChunkScan(NamedTuple):
    """What one chunk tells the scan (:func:`scan_chunk`)."""

    n_positive: int  # rows of positive weight
    labels: np.ndarray  # the labels of all rows, in order of first appearance
    positive_labels: np.ndarray  # those of the positive-weight rows
    uniques: list  # per column in ``coded``, its known values in order of first appearance
    sample: object  # :func:`sample_values` at the chunk's bin-sample rows, or None


def scan_chunk(X_block, y_block, w_block, columns, coded, sample_cols, labelled, local_rows):
    """What one chunk tells about labels and values, plus its rows of the bin sample.

    Returns a :class:`ChunkScan`: the labels of all rows and of the rows with
    a positive weight and the known values of every column in ``coded``, each
    in order of first appearance; ``sample`` is :func:`sample_values` at
    ``local_rows`` (None if not asked).
    Real targets (``labelled`` False) are checked instead (:func:`real_targets`)
    and stand for their labels by their first value (none: an empty chunk).
    """
    frame = _frame(X_block, columns)
    n = frame.shape[0]
    y = _vector(y_block, n, "y")
    w = _chunk_weights(w_block, n)
    if not labelled:
        y = real_targets(y)
        y, positive_y = y[:1], y[:0]
    positive = w > 0
    uniques = []
    for j in coded:
        column = frame.iloc[:, j]
        if column.dtype == object:
            _check_scalars(column, str(frame.columns[j]))
        uniques.append(np.asarray(pd.unique(column[~column.isna()].astype(object)),
                                  dtype=object))
    for j in range(frame.shape[1]):
        if j not in coded:
            values = frame.iloc[:, j].to_numpy(dtype=np.float64, na_value=np.nan)
            if np.isinf(values).any():
                raise ValueError(f"column {str(frame.columns[j])!r} holds inf; "
                                 "use NaN for a missing value")
    sample = None if local_rows is None else sample_values(frame, w, local_rows, sample_cols)
    if not labelled:
        return ChunkScan(int(positive.sum()), y, positive_y, uniques, sample)
    return ChunkScan(int(positive.sum()), pd.unique(y), pd.unique(y[positive]), uniques, sample)


def real_targets(y):
    """A chunk's targets as float64, refused when not numbers or not finite."""
    try:
        y = np.asarray(y, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError("y must hold real numbers for a regression tree; got "
                         f"dtype {np.asarray(y).dtype}") from None
    if not np.all(np.isfinite(y)):
        raise ValueError("y contains NaN or infinity")
    return y


class Scanned(NamedTuple):
    """What the scan (step 1) tells the client about the training chunks."""

    spec: FeatureSpec  # names, categorical columns and their values in order of appearance
    classes: object  # sorted labels, or None (real targets)
    preference: object  # class indices in order of first appearance, or None
    n_positive: np.ndarray  # positive-weight rows per chunk
    sample: object  # the bin sample ``(values, weights)`` of ``sample_cols``, or None


def scan(chunks, X, plan, sample_cols, labelled=True):
    """Run the scan (:func:`scan_chunk` of every chunk of ``chunks``, a
    :class:`~hyperplane.distributed.Chunks`) and merge it into a :class:`Scanned`
    (real targets, ``labelled`` False: no classes nor preference)."""
    from ..._validation import encode_labels

    columns = column_names(X)
    dtypes = column_dtypes(X)
    coded = [j for j, d in enumerate(dtypes)
             if pd.api.types.is_bool_dtype(d) or not pd.api.types.is_numeric_dtype(d)]
    if len(columns) == 0:
        raise ValueError("Found array with 0 feature(s); a minimum of 1 is required.")
    plan = plan or [None] * len(chunks)
    parts = chunks.each(scan_chunk, columns, coded, sample_cols, labelled,
                        per_chunk=[(rows,) for rows in plan])
    n_positive = np.array([part.n_positive for part in parts], dtype=np.int64)
    if sum(len(part.labels) for part in parts) == 0:
        raise ValueError("Found array with 0 sample(s); a minimum of 1 is required.")
    classes = None
    if labelled:
        classes, _ = encode_labels(pd.unique(np.concatenate([part.labels for part in parts])))
    categorical = np.zeros(len(columns), dtype=bool)
    categories = [None] * len(columns)
    for pos, j in enumerate(coded):
        values = list(pd.unique(np.concatenate([part.uniques[pos] for part in parts])))
        dtype = dtypes[j]
        if (pd.api.types.is_bool_dtype(dtype) or isinstance(dtype, pd.CategoricalDtype)
                or not _column_is_numeric(values)):
            categorical[j] = True
            categories[j] = values
    preference = None
    if labelled:
        preference = _preference(classes, pd.unique(np.concatenate(
            [part.positive_labels for part in parts])))
    names = [str(c) for c in columns]
    sample = None if plan[0] is None else _concat_samples([part.sample for part in parts])
    return Scanned(FeatureSpec(names, categorical, categories), classes, preference, n_positive,
                   sample)


def column_names(X):
    """Column labels of a frame, positions of an array."""
    return list(X.columns) if hasattr(X, "columns") else list(range(X.shape[1]))


def column_dtypes(X):
    """The dtype of every column."""
    return list(X.dtypes) if hasattr(X, "columns") else [X.dtype] * X.shape[1]


def _preference(classes, seen):
    """Class indices in order of first occurrence among positive-weight rows, then the rest."""
    lookup = {c: k for k, c in enumerate(classes.tolist())}
    first = [lookup[c] for c in seen.tolist()]
    rest = [k for k in range(classes.size) if k not in set(first)]
    return np.array(first + rest, dtype=np.int64)


# ------------------------------------------------------------ 2. bin edges
def positive_counts(chunks):
    """Positive-weight rows per chunk when known without reading ``X`` (else None)."""
    counts = chunks.each_weight_block(_count_positive)
    if counts is None:
        counts = chunks.lengths
    return None if counts is None else np.array(counts, dtype=np.int64)


def _count_positive(w_block):
    w = np.asarray(w_block, dtype=np.float64).ravel()
    return int(np.count_nonzero(_chunk_weights(w, w.shape[0]) > 0))


def sample_plan(n_positive, random_state):
    """Per chunk, the positions (among its positive rows) of the bin-sample rows."""
    rows = bin_sample_rows(int(n_positive.sum()), random_state)
    if rows is None:
        return [np.arange(n) for n in n_positive]
    starts = np.concatenate([[0], np.cumsum(n_positive)])
    return [rows[(rows >= starts[c]) & (rows < starts[c + 1])] - starts[c]
            for c in range(n_positive.size)]


def sample_values(frame, w, local_rows, cols):
    """Columns ``cols`` (as numbers, NaN missing) and weights at the given positive rows."""
    rows = np.flatnonzero(w > 0)[local_rows]
    part = frame.iloc[rows]
    values = np.empty((rows.size, len(cols)))
    for i, j in enumerate(cols):
        values[:, i] = pd.to_numeric(part.iloc[:, j]).to_numpy(dtype=np.float64,
                                                              na_value=np.nan)
    return values, w[rows]


def _sample_chunk(X_block, y_block, w_block, columns, cols, local_rows):
    frame = _frame(X_block, columns)
    return sample_values(frame, _chunk_weights(w_block, frame.shape[0]), local_rows, cols)


def _concat_samples(parts):
    return (np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]))


def fetch_sample(chunks, columns, plan, cols):
    """The bin-sample rows of ``cols`` from the cluster (a second pass over ``X``)."""
    return _concat_samples(chunks.each(_sample_chunk, columns, cols,
                                       per_chunk=[(rows,) for rows in plan]))


def _indicator_sample_chunk(X_block, y_block, w_block, columns, spec, local_rows):
    frame = _frame(X_block, columns)
    w = _chunk_weights(w_block, frame.shape[0])
    rows = np.flatnonzero(w > 0)[local_rows]
    return encoded_values(frame.iloc[rows], spec, True), w[rows]


def fetch_indicator_sample(chunks, columns, plan, spec):
    """The bin-sample rows of every column of :func:`encoded_values` with
    indicators (a second pass over ``X``; the categories known from the scan)."""
    return _concat_samples(chunks.each(_indicator_sample_chunk, columns, spec,
                                       per_chunk=[(rows,) for rows in plan]))


# --------------------------------------------------------------- 3. encode
class Chunk(NamedTuple):
    """An encoded chunk of the training rows (its positive-weight rows)."""

    codes: np.ndarray  # (n, p) category index or bin, -1 missing
    y: np.ndarray  # (n,) class index (int64), or real target (float64, ``classes`` None)
    w: np.ndarray  # (n,) weight
    bin_range: np.ndarray  # (p_binned, 2, width): :func:`~hyperplane.tree._bin_kernels.bin_ranges` of the chunk


def encoded_values(frame, spec, indicators):
    """A chunk's rows as the in-memory fit encodes them (category index, NaN
    missing), with ``indicators`` each categorical column as its 0/1 columns
    ``[A = a]`` (:func:`~hyperplane.tree._encode.value_indicators`, CART's tests, 李航 §5.5.2)."""
    X_enc = _encode_frame(frame, spec)
    return value_indicators(X_enc, spec).X if indicators else X_enc


def encode_chunk(X_block, y_block, w_block, columns, spec, kind, edges, classes, code_dtype,
                 indicators=False):
    """A chunk as a :class:`Chunk` over its positive-weight rows: codes, class
    index (the target itself when ``classes`` is None), weight, and the smallest
    and largest value in each bin of each binned column (in column order; width:
    the most bins of one). ``indicators``: the columns of :func:`encoded_values`
    (``kind`` and ``edges`` then describe those)."""
    frame = _frame(X_block, columns)
    n = frame.shape[0]
    w = _chunk_weights(w_block, n)
    keep = w > 0
    X_enc = encoded_values(frame if keep.all() else frame.iloc[np.flatnonzero(keep)], spec,
                           indicators)
    codes = np.empty(X_enc.shape, dtype=code_dtype)
    for j in range(X_enc.shape[1]):
        if kind[j] == BINNED:
            codes[:, j] = bin_column(X_enc[:, j], edges[j])
        else:
            codes[:, j] = np.where(np.isnan(X_enc[:, j]), -1, X_enc[:, j])
    y = _vector(y_block, n, "y")[keep]
    y = real_targets(y) if classes is None else pd.Index(classes).get_indexer(y).astype(np.int64)
    binned = np.flatnonzero(np.asarray(kind) == BINNED)
    width = max([edges[j].size + 1 for j in binned], default=1)
    ranges = bin_ranges(X_enc, binned, transposed_codes(codes), binned, width)
    return Chunk(codes, y, w[keep], ranges)


def merge_bin_ranges(a, b):
    """The bins' value ranges of two chunks together (NaN: no value in a chunk)."""
    return np.stack([np.fmin(a[:, 0], b[:, 0]), np.fmax(a[:, 1], b[:, 1])], axis=1)


def chunk_bin_ranges(chunk):
    """The :attr:`Chunk.bin_range` of an encoded chunk (a task of the merge)."""
    return chunk.bin_range


def class_totals(chunk, n_classes):
    """Class weights of an encoded chunk (its contribution to the root)."""
    return np.bincount(chunk.y, weights=chunk.w, minlength=n_classes)


def target_totals(chunk):
    """The moments ``[Σw, Σwy, Σwy²]`` of an encoded chunk's real targets, their
    number and their smallest and largest value (its contribution to a
    regression tree's root, a :class:`~hyperplane.tree._scan._table_kernels.MomentTables` of one node)."""
    wy = chunk.w * chunk.y
    low, high = (chunk.y.min(), chunk.y.max()) if chunk.y.size else (np.inf, -np.inf)
    return MomentTables(np.array([chunk.w.sum(), wy.sum(), (wy * chunk.y).sum()]),
                        chunk.y.size, low, high)
