"""The training data laid out for the tree's kernels (attributes as rows).

:func:`layout` turns ``X`` into exact numeric columns (``num_T``) and coded
columns (categorical values, or quantile bins of ``splitter="hist"``): the
codes row-major and column-major, each binned column's edges and the range of
training values each bin holds (where a binned cut's threshold lies).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cached_property

import numba
import numpy as np

from .._bin_kernels import bin_ranges, bin_rows, transposed_codes, transposed_columns
from .._encode import bin_sample_rows, quantile_edges
from .._scan._split_kernels import BINNED, CATEGORICAL, NUMERIC
from .._state import Columns


@dataclass
class TreeData:
    """The training data laid out for the kernels (attributes as rows)."""

    X: np.ndarray  # (n, p) float64, categorical as codes, NaN missing
    y: np.ndarray  # (n,) int64 class index
    w: np.ndarray  # (n,) float64
    kind: np.ndarray  # (p,) NUMERIC / CATEGORICAL / BINNED
    col: np.ndarray  # (p,) row of the attribute in num_T or codes_T
    n_codes: np.ndarray  # (p,) values per coded attribute (bins for BINNED)
    num_T: np.ndarray  # (p_num, n) exact numeric attributes
    codes_T: np.ndarray  # (p_coded, n) int32, -1 missing
    codes_rows: np.ndarray  # (n, p_coded) the same codes row-major, smallest int type
    edges: np.ndarray  # (p_coded, max_edges) thresholds of BINNED attributes
    bin_range: np.ndarray  # (p_coded, 2, width) each bin's smallest and largest training value
    n_classes: int

    @property
    def codes_count(self):
        """Number of codes of each row of ``codes_T`` (for :func:`level_class_tables`)."""
        coded = np.flatnonzero(self.kind != NUMERIC)
        out = np.zeros(self.codes_T.shape[0], dtype=np.int64)
        out[self.col[coded]] = self.n_codes[coded]
        return out

    @cached_property
    def columns(self):
        """The arrays the kernels read, as one :class:`~hyperplane.tree._state.Columns`."""
        return Columns(self.num_T, self.codes_T, self.codes_rows, self.codes_count, self.kind,
                       self.col, self.bin_range, self.y)


def attribute_kinds(categorical, splitter):
    """NUMERIC / CATEGORICAL / BINNED code of every attribute."""
    return np.where(categorical, CATEGORICAL,
                    BINNED if splitter == "hist" else NUMERIC).astype(np.int64)


def layout(X, y, w, categorical, n_codes, n_classes, splitter, max_bins, random_state=None):
    """Build :class:`TreeData`: exact numeric columns or quantile-binned ones.

    Bin edges are :func:`~hyperplane.tree._encode.quantile_edges` of the rows
    :func:`~hyperplane.tree._encode.bin_sample_rows` picks (all rows up to
    ``BIN_SAMPLE_ROWS``, a sample seeded by ``random_state`` above); the codes
    of all binned columns come from one pass of :func:`~hyperplane.tree._bin_kernels.bin_rows`,
    and each bin's smallest and largest training value (the values either side
    of a cut) from :func:`~hyperplane.tree._bin_kernels.bin_ranges`.
    """
    n, p = X.shape
    kind = attribute_kinds(categorical, splitter)
    col = np.zeros(p, dtype=np.int64)
    coded = np.flatnonzero(kind != NUMERIC)
    numeric = np.flatnonzero(kind == NUMERIC)
    col[numeric] = np.arange(numeric.size)
    col[coded] = np.arange(coded.size)
    binned = np.flatnonzero(kind == BINNED)
    binned_edges, n_edges = _bin_edges(X, w, binned, max_bins, random_state)
    codes_count = np.array(n_codes, dtype=np.int64).copy()
    codes_count[binned] = n_edges + 1
    width = max(binned_edges.shape[1], 1)
    edges = np.full((coded.size, width), np.nan)
    edges[col[binned], :binned_edges.shape[1]] = binned_edges
    widest = int(codes_count.max()) if p else 0
    small = np.int8 if widest <= 127 else np.int16 if widest <= 32767 else np.int32
    codes_rows = np.empty((n, coded.size), dtype=small)
    for j in np.flatnonzero(kind == CATEGORICAL):
        codes_rows[:, col[j]] = np.where(np.isnan(X[:, j]), -1, X[:, j])
    if binned.size:
        bin_rows(X, binned, col[binned], edges[col[binned]], n_edges, codes_rows)
    codes_T = transposed_codes(codes_rows)
    num_T = transposed_columns(X, numeric)
    bin_range = np.full((coded.size, 2, widest), np.nan)
    if binned.size:
        bin_range[col[binned]] = bin_ranges(X, binned, codes_T, col[binned], widest)
    return TreeData(X, y, w, kind.astype(np.int64), col, codes_count, num_T, codes_T,
                    codes_rows, edges, bin_range, n_classes)


#: at most this many columns per task of the edge computation (one task per
#: column cost more than the sort of a short column: 85 s for 3 rows x 1e6
#: columns) ...
EDGE_COLUMNS_PER_TASK = 512
#: ... and at least this many sample values per task
EDGE_VALUES_PER_TASK = 1 << 16


def edge_columns_per_task(n_rows, n_columns, threads):
    """Columns per task of :func:`_bin_edges`: the columns shared evenly among
    ``threads`` (a 200k x 50 fit on 16 threads sorted all 50 in one task, 0.17 s
    of its 0.42), unless a task would then sort fewer than
    ``EDGE_VALUES_PER_TASK`` values, and never more than
    ``EDGE_COLUMNS_PER_TASK`` columns.

    Examples
    --------
    >>> edge_columns_per_task(200_000, 50, 16), edge_columns_per_task(3, 10**6, 16)
    (4, 512)
    """
    even = -(-n_columns // max(threads, 1))
    enough = -(-EDGE_VALUES_PER_TASK // max(n_rows, 1))
    return int(min(EDGE_COLUMNS_PER_TASK, max(1, even, enough)))


def _bin_edges(X, w, columns, max_bins, random_state=None):
    """Quantile edges of the numeric ``columns``, as an array of one row per
    column (NaN after its edges) and the number of edges of each.

    The edges come from the rows :func:`~hyperplane.tree._encode.bin_sample_rows` picks (all
    rows up to ``BIN_SAMPLE_ROWS``), the rule the Dask fit follows too. With
    at most ``max_bins`` sample rows every column has at most ``max_bins``
    values, so its edges are all the midpoints (:func:`every_midpoint`, one
    vectorised pass over every column); otherwise
    :func:`~hyperplane.tree._encode.quantile_edges` of each column, in blocks of columns on a
    pool of numba's thread count (NumPy sorts without the GIL).
    """
    if columns.size == 0:
        return np.empty((0, 0)), np.zeros(0, dtype=np.int64)
    rows = bin_sample_rows(X.shape[0], random_state)
    X_sample, w_sample = (X, w) if rows is None else (X[rows], None if w is None else w[rows])
    if X_sample.shape[0] <= max_bins:
        return every_midpoint(X_sample[:, columns])
    threads = numba.get_num_threads()
    per_task = edge_columns_per_task(X_sample.shape[0], columns.size, threads)
    blocks = [columns[start:start + per_task] for start in range(0, columns.size, per_task)]

    def block_edges(block):
        return [quantile_edges(np.ascontiguousarray(X_sample[:, j]), max_bins, w_sample)
                for j in block]

    with ThreadPoolExecutor(max_workers=threads) as pool:
        edge_list = [e for part in pool.map(block_edges, blocks) for e in part]
    n_edges = np.array([e.size for e in edge_list], dtype=np.int64)
    edges = np.full((columns.size, int(n_edges.max())), np.nan)
    for k, e in enumerate(edge_list):
        edges[k, :e.size] = e
    return edges, n_edges


def every_midpoint(X):
    """The edges :func:`~hyperplane.tree._encode.quantile_edges` gives every column of ``X``
    when it has at most ``max_bins`` distinct known values: the midpoints
    ``v + (v' − v) / 2`` of its consecutive distinct values (the same
    arithmetic, so the same bits), for all columns at once. Returns the edges
    (one row per column, NaN after its own) and their number per column.

    Examples
    --------
    >>> edges, n = every_midpoint(np.array([[1.0, 5.0, 2.0], [3.0, 5.0, np.nan],
    ...                                     [1.0, 5.0, 4.0]]))
    >>> n.tolist(), edges[0, :1].tolist(), edges[2, :1].tolist()
    ([1, 0, 1], [2.0], [3.0])
    """
    S = np.sort(X, axis=0)                      # NaN last in every column
    step = S[1:] != S[:-1]
    step &= ~np.isnan(S[1:])                    # no edge towards a missing value
    n_edges = step.sum(axis=0).astype(np.int64)
    width = int(n_edges.max(initial=0))
    if width == 0:
        return np.empty((X.shape[1], 0)), n_edges
    low = S[:-1] + (S[1:] - S[:-1]) / 2.0
    # each column's edges moved to its top rows, in order (a stable sort of ~step)
    top = np.argsort(~step, axis=0, kind="stable")[:width]
    edges = np.take_along_axis(low, top, axis=0)
    edges[np.arange(width)[:, None] >= n_edges[None, :]] = np.nan
    return np.ascontiguousarray(edges.T), n_edges
