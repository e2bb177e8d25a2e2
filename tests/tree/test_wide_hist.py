"""A hist tree on few rows and many columns (issue #30, finding 15: 3 rows x
1e6 columns took 85 s in per-column Python tasks and a 2 GB table of padded
edges). The vectorised edges of few rows and the binary-search codes are the
edges and codes of the column-by-column rules; the speed is measured in
benchmarks/tree_wide_hist.py, not here."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from hyperplane.tree import DecisionTreeClassifier
from hyperplane.tree._bin_kernels import BLOCK, bin_rows_parallel
from hyperplane.tree._grow._layout import every_midpoint
from hyperplane.tree._bin_kernels import bin_column
from hyperplane.tree._encode import quantile_edges

VALUES = st.sampled_from([np.nan, -0.0, 0.0, 1.5, -2.25, 3.0, 1e300, -7.0, 0.1]) | \
    st.floats(-1e3, 1e3)


@settings(deadline=None, max_examples=60)
@given(arrays(np.float64, st.tuples(st.integers(1, 12), st.integers(1, 30)), elements=VALUES))
def test_every_midpoint_is_quantile_edges_of_each_column(X):
    edges, n_edges = every_midpoint(X)
    for j in range(X.shape[1]):
        expected = quantile_edges(np.ascontiguousarray(X[:, j]), X.shape[0])
        assert n_edges[j] == expected.size
        np.testing.assert_array_equal(edges[j, :n_edges[j]], expected)
        assert np.all(np.isnan(edges[j, n_edges[j]:]))


@settings(deadline=None, max_examples=30)
@given(arrays(np.float64, st.tuples(st.integers(1, 2 * BLOCK * BLOCK), st.integers(1, 6)),
              elements=VALUES), st.integers(2, 300))
def test_bin_rows_gives_bin_column_codes_with_and_without_the_padded_table(X, max_bins):
    """Below ``BLOCK**2`` rows the codes come from the binary search, above
    from the padded count: both are ``bin_column``'s."""
    edge_list = [quantile_edges(np.ascontiguousarray(X[:, j]), max_bins)
                 for j in range(X.shape[1])]
    n_edges = np.array([e.size for e in edge_list], dtype=np.int64)
    edges = np.full((X.shape[1], max(int(n_edges.max()), 1)), np.nan)
    for j, e in enumerate(edge_list):
        edges[j, :e.size] = e
    out = np.empty(X.shape, dtype=np.int16)
    columns = np.arange(X.shape[1], dtype=np.int64)
    bin_rows_parallel(X, columns, columns, edges, n_edges, out)
    for j, e in enumerate(edge_list):
        np.testing.assert_array_equal(out[:, j], bin_column(X[:, j], e))


def test_hist_tree_on_few_rows_and_many_columns_is_the_exact_tree():
    """At most ``max_bins`` rows: every midpoint of the root's values is an
    edge, so the hist tree makes the exact tree's partitions (its thresholds
    are edges of all rows, which may differ below the root)."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(7, 20_000)).round(2)
    X[rng.random(X.shape) < 0.1] = np.nan
    y = np.array([0, 1, 0, 1, 1, 0, 2])
    for criterion in ("gini", "info_gain"):
        hist = DecisionTreeClassifier(criterion=criterion, splitter="hist").fit(X, y)
        exact = DecisionTreeClassifier(criterion=criterion).fit(X, y)
        for name in ("feature", "children", "value"):
            np.testing.assert_array_equal(getattr(hist.tree_, name), getattr(exact.tree_, name))
        np.testing.assert_array_equal(hist.tree_.threshold[0], exact.tree_.threshold[0])
        np.testing.assert_array_equal(hist.predict_proba(X), exact.predict_proba(X))
