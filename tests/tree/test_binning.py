"""Binning of the histogram trees against searchsorted and the quantile edges' definition."""

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from hyperplane.tree._bin_kernels import (BLOCK, bin_column, bin_ranges, bin_ranges_parallel,
                                          bin_rows, bin_rows_parallel, codes_by_column)
from hyperplane.tree._encode import quantile_edges


@given(arrays(np.float64, st.tuples(st.integers(1, 50), st.integers(1, 4)),
              elements=st.one_of(st.floats(-3, 3), st.just(np.nan), st.just(np.inf))),
       st.lists(st.integers(0, 300), min_size=4, max_size=4), st.integers(0, 2**32 - 1))
def test_bin_rows_is_searchsorted(X, n_edges, seed):
    """Counted codes (up to 256 edges), binary search beyond, both = searchsorted."""
    rng = np.random.default_rng(seed)
    p = X.shape[1]
    edges_list = [np.unique(np.round(rng.uniform(-3, 3, n_edges[j]), 2)) for j in range(p)]
    for j in range(p):  # some values exactly on an edge
        X[:: 3, j] = edges_list[j][0] if edges_list[j].size else X[:: 3, j]
    width = max(max(e.size for e in edges_list), 1)
    edges = np.full((p, width), np.nan)
    for j, e in enumerate(edges_list):
        edges[j, :e.size] = e
    out = np.empty(X.shape, dtype=np.int16)
    bin_rows_parallel(X, np.arange(p), np.arange(p), edges,
             np.array([e.size for e in edges_list], dtype=np.int64), out)
    for j, e in enumerate(edges_list):
        np.testing.assert_array_equal(out[:, j], bin_column(X[:, j], e))
    small = [j for j in range(p) if edges_list[j].size <= 256]
    out_small = np.empty((X.shape[0], len(small)), dtype=np.int16)
    bin_rows_parallel(X, np.array(small, dtype=np.int64), np.arange(len(small)), edges[small],
             np.array([edges_list[j].size for j in small], dtype=np.int64), out_small)
    for t, j in enumerate(small):
        np.testing.assert_array_equal(out_small[:, t], bin_column(X[:, j], edges_list[j]))


@settings(deadline=None, max_examples=40)
@given(arrays(np.float64, st.tuples(st.integers(1, 40), st.integers(1, 4)),
              elements=st.one_of(st.floats(-3, 3).map(lambda v: round(v, 1)), st.just(np.nan),
                                 st.just(-0.0))),
       st.integers(0, 2**32 - 1))
def test_small_fits_bin_by_numpy_as_the_parallel_kernels(X, seed):
    """Up to ``TRANSPOSE_ROWS`` rows ``bin_rows`` and ``bin_ranges`` run NumPy
    (no parallel kernel compiled): the codes and bin ranges of the compiled
    kernels, columns and slots permuted."""
    rng = np.random.default_rng(seed)
    p = X.shape[1]
    n_edges = np.zeros(p, dtype=np.int64)
    edges = np.full((p, 6), np.nan)
    for t in range(p):
        values = np.unique(np.round(rng.uniform(-3, 3, rng.integers(0, 7)), 1))
        edges[t, :values.size] = values
        n_edges[t] = values.size
    columns, slots = rng.permutation(p), rng.permutation(p)
    by_numpy, compiled = np.empty(X.shape, dtype=np.int8), np.empty(X.shape, dtype=np.int8)
    bin_rows(X, columns, slots, edges, n_edges, by_numpy)
    bin_rows_parallel(X, columns, slots, edges, n_edges, compiled)
    np.testing.assert_array_equal(by_numpy, compiled)
    codes_T = np.ascontiguousarray(compiled.T, dtype=np.int32)
    np.testing.assert_array_equal(bin_ranges(X, columns, codes_T, slots, 7),
                                  bin_ranges_parallel(X, columns, codes_T, slots, 7))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_counted_codes_are_searchsorted(seed):
    """From BLOCK**2 rows, columns of at most BLOCK**2 edges are coded by
    counting in the +inf-padded edge table (``blocked_edges``, ``count_below``):
    the same codes as searchsorted, values on an edge and NaN included."""
    rng = np.random.default_rng(seed)
    edges_list = [np.unique(np.round(rng.uniform(-3, 3, k), 2)) for k in (1, 40, 400)]
    edges_list[2] = edges_list[2][:BLOCK * BLOCK]
    X = rng.uniform(-4, 4, (BLOCK * BLOCK + 50, 3))
    X[::7, 1] = np.nan
    X[::5, 2] = edges_list[2][3]
    edges = np.full((3, max(e.size for e in edges_list)), np.nan)
    for j, e in enumerate(edges_list):
        edges[j, :e.size] = e
    out = np.empty(X.shape, dtype=np.int16)
    bin_rows_parallel(X, np.arange(3), np.arange(3), edges,
             np.array([e.size for e in edges_list], dtype=np.int64), out)
    for j, e in enumerate(edges_list):
        np.testing.assert_array_equal(out[:, j], bin_column(X[:, j], e))


@given(st.integers(0, 9000), st.integers(0, 7), st.sampled_from([np.int8, np.int16, np.int32]))
def test_codes_by_column_is_the_transpose(n, p, dtype):
    codes = np.random.default_rng(n * 8 + p).integers(-1, 100, (n, p)).astype(dtype)
    out = codes_by_column(codes)
    assert out.dtype == np.int32 and out.flags.c_contiguous
    np.testing.assert_array_equal(out, codes.T)


def reference_quantile_edges(x, max_bins, w):
    """The bin edges from their definition, one distinct value at a time: every
    known value's total weight; every midpoint when there are at most
    ``max_bins`` values, else the midpoint above the first value whose
    cumulative weight reaches ``W i / max_bins`` (i = 1 .. max_bins - 1), none
    above the largest value."""
    weight_of = {}
    for v, wi in zip(x.tolist(), w.tolist()):
        if not np.isnan(v):
            weight_of[v] = weight_of.get(v, 0.0) + wi
    values = sorted(weight_of)
    if len(values) <= max_bins:
        chosen = range(len(values) - 1)
    else:
        cumulative = np.cumsum([weight_of[v] for v in values])
        chosen = []
        for i in range(1, max_bins):
            level = cumulative[-1] * i / max_bins
            k = next(k for k, c in enumerate(cumulative) if c >= level)
            if k < len(values) - 1 and k not in chosen:
                chosen.append(k)
    return np.array([values[k] + (values[k + 1] - values[k]) / 2.0 for k in chosen])


@settings(deadline=None)
@given(arrays(np.float64, st.integers(0, 600),
              elements=st.sampled_from([np.nan, -0.0, 0.0, 1.5, -2.25, 3.0, 1e300, -7.0, 0.1])
              | st.floats(-1e3, 1e3)),
       st.integers(2, 40), st.booleans(), st.integers(0, 2**32 - 1))
@example(np.arange(12.0), 4, False, 0)     # levels 3, 6, 9 fall on cumulative counts
def test_quantile_edges_follow_their_definition(x, max_bins, weighted, seed):
    """numpy.sort (unit weights) and the stable argsort (integer weights, which
    must give the edges of repeated rows) against the value-by-value reference."""
    w = np.random.default_rng(seed).integers(1, 4, x.size).astype(float) if weighted \
        else np.ones(x.size)
    np.testing.assert_array_equal(quantile_edges(x, max_bins, w),
                                  reference_quantile_edges(x, max_bins, w))
    repeated = np.repeat(x, w.astype(int))
    np.testing.assert_array_equal(quantile_edges(x, max_bins, w),
                                  quantile_edges(repeated, max_bins))
