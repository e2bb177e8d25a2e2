"""DecisionTreeRegressor on Dask: the in-memory hist tree, grown from summed moment tables."""

import dataclasses

import numpy as np
import pandas as pd
import pytest
import dask.array as da
import dask.dataframe as dd
import distributed
from hypothesis import given, settings, strategies as st

from hyperplane.tree import DecisionTreeRegressor, export_text
from hyperplane.tree._grow._builder import Tree
from hyperplane.tree._scan._regression_kernels import (BinMoments, OrderedValues, best_regression_cut,
                                                 ordered_regression_cut)
from hyperplane.tree._scan._split_kernels import SQUARED_ERROR
from hyperplane.tree._scan._table_kernels import level_moment_tables


@pytest.fixture(scope="module")
def client():
    """One in-process worker (the machine is shared): the chunks still go
    through the scheduler's tasks and the tree reduction."""
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                       dashboard_address=":0")
    with distributed.Client(cluster) as client:
        yield client
    cluster.close()


#: the fitted tree's arrays, read off its class: a fit here ran at collection, in every
#: xdist worker, and compiled the regressor's kernels there (104 functions, 18.5 CPU s cold)
TREE_ARRAYS = [f.name for f in dataclasses.fields(Tree)]


def assert_same_tree(local, dist, X, exact, atol=1e-9):
    a, b = local.tree_, dist.tree_
    for name in ["feature", "is_numeric", "child_start", "n_child", "children", "depth"]:
        np.testing.assert_array_equal(getattr(b, name), getattr(a, name), err_msg=name)
    np.testing.assert_array_equal(b.threshold, a.threshold)     # NaN == NaN here
    if exact:               # sums of small integers: every order gives the same bits
        for name in TREE_ARRAYS:
            np.testing.assert_array_equal(getattr(b, name), getattr(a, name), err_msg=name)
        np.testing.assert_array_equal(dist.predict(X), local.predict(X))
    else:
        for name in ["value", "weight", "impurity", "branch_r"]:
            np.testing.assert_allclose(getattr(b, name), getattr(a, name), rtol=1e-9,
                                       atol=atol, err_msg=name)
        np.testing.assert_allclose(dist.predict(X), local.predict(X), rtol=1e-9, atol=atol)
    assert dist.n_features_in_ == local.n_features_in_


def integer_data(n=3000, p=4, seed=0, levels=20):
    """Targets, weights and values that are small integers (exact sums)."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, levels, size=(n, p)).astype(float)
    y = (3 * (X[:, 0] > 8) + X[:, 1] % 5 + rng.integers(-3, 4, size=n)).astype(float)
    w = rng.integers(0, 4, size=n).astype(float)
    return X, y, w


def real_data(n=3000, p=4, seed=1, missing=0.05):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    y = np.sin(2 * X[:, 0]) + 0.5 * X[:, 1] ** 2 + 0.2 * rng.normal(size=n)
    X[rng.random(X.shape) < missing] = np.nan
    w = rng.uniform(0.5, 3.0, size=n)
    return X, y, w


@pytest.mark.parametrize("max_depth", [None, 5])
@pytest.mark.parametrize("weighted", [False, True])
def test_dask_fit_is_the_in_memory_hist_fit_bit_for_bit(client, max_depth, weighted):
    X, y, w = integer_data()                          # 20 distinct values <= max_bins
    sw = w if weighted else None
    kw = dict(splitter="hist", max_bins=32, max_depth=max_depth, min_samples_leaf=3)
    local = DecisionTreeRegressor(**kw).fit(X, y, sample_weight=sw)
    dist = DecisionTreeRegressor(**kw).fit(
        da.from_array(X, chunks=(700, 2)), da.from_array(y, chunks=500),
        sample_weight=None if sw is None else da.from_array(w, chunks=900))
    assert local.n_leaves_ > 20
    assert_same_tree(local, dist, X, exact=True)
    lazy = dist.predict(da.from_array(X, chunks=(1000, 4)))
    assert isinstance(lazy, da.Array)
    np.testing.assert_array_equal(lazy.compute(), local.predict(X))


@pytest.mark.parametrize("kw", [dict(max_bins=16, max_depth=6, min_samples_leaf=5),
                                dict(max_bins=64, min_samples_split=40,
                                     min_impurity_decrease=1e-3),
                                dict(max_bins=16, ccp_alpha=2e-3)])
def test_fewer_bins_missing_values_and_real_weights(client, kw):
    X, y, w = real_data()
    local = DecisionTreeRegressor(splitter="hist", **kw).fit(X, y, sample_weight=w)
    dist = DecisionTreeRegressor(splitter="hist", **kw).fit(
        da.from_array(X, chunks=(400, 4)), da.from_array(y, chunks=400),
        sample_weight=da.from_array(w, chunks=400))
    assert local.n_leaves_ > 8
    assert_same_tree(local, dist, X, exact=False)


def test_dask_dataframe_input(client):
    X, y, _ = integer_data(n=1200, p=3, seed=4)
    frame = pd.DataFrame(X, columns=["密度", "含糖率", "c"])
    target = pd.Series(y, name="y")
    kw = dict(splitter="hist", max_depth=4)
    local = DecisionTreeRegressor(**kw).fit(frame, target)
    dist = DecisionTreeRegressor(**kw).fit(dd.from_pandas(frame, npartitions=3),
                                           dd.from_pandas(target, npartitions=3))
    assert_same_tree(local, dist, frame, exact=True)
    np.testing.assert_array_equal(dist.feature_names_in_, local.feature_names_in_)


@pytest.mark.parametrize("weighted, missing", [(False, False), (True, False), (True, True)])
def test_categorical_columns_are_the_in_memory_indicator_fit(client, weighted, missing):
    """A string column becomes one 0/1 column per value (CART's tests A = a,
    李航 §5.5.2) on Dask as in memory: the same tree, bit for bit on integer
    targets and weights, its tests shown as ``A = a``; a value only the last
    partition holds included. Missing values split rows into fractional weights
    (周志华 §4.4.2), whose sums depend on their order: equal up to round-off."""
    rng = np.random.default_rng(5)
    n = 1500
    colour = rng.choice(["青绿", "乌黑", "浅白"], size=n).astype(object)
    colour[-40:] = "墨绿"                                  # seen in the last partition only
    if missing:
        colour[rng.random(n) < 0.05] = None
    density = rng.integers(0, 15, size=n).astype(float)
    y = (4.0 * (colour == "乌黑") - 3.0 * (colour == "墨绿") + (density > 6)
         + rng.integers(-2, 3, size=n))
    w = rng.integers(0, 4, size=n).astype(float) if weighted else None
    frame = pd.DataFrame({"密度": density, "色泽": colour})
    target = pd.Series(y, name="y")
    kw = dict(splitter="hist", max_bins=32, min_samples_leaf=3)
    local = DecisionTreeRegressor(**kw).fit(frame, target, sample_weight=w)
    dist = DecisionTreeRegressor(**kw).fit(
        dd.from_pandas(frame, npartitions=4), dd.from_pandas(target, npartitions=4),
        sample_weight=None if w is None else dd.from_pandas(pd.Series(w), npartitions=4))
    assert local.n_leaves_ > 8
    assert len(set(local.tree_.feature[local.tree_.feature >= 1])) >= 2    # tests A = a
    assert_same_tree(local, dist, frame, exact=not missing)
    assert dist._spec.names == local._spec.names
    np.testing.assert_array_equal(dist._source, local._source)
    np.testing.assert_array_equal(dist.feature_names_in_, local.feature_names_in_)
    lazy = dist.predict(dd.from_pandas(frame, npartitions=3))
    np.testing.assert_allclose(lazy.compute(), local.predict(frame), rtol=1e-12)
    assert export_text(dist) == export_text(local)
    assert "色泽 = 墨绿" in export_text(dist)


def test_constant_targets_make_a_leaf_where_round_off_would_not(client):
    """Targets of 1000.1 have moments whose mean squared error is not 0 in floating
    point; the node's smallest and largest target still make it a leaf, as in memory."""
    rng = np.random.default_rng(2)
    X = rng.integers(0, 10, size=(900, 2)).astype(float)
    y = np.where(X[:, 0] < 5, 1000.1, rng.normal(size=900))
    kw = dict(splitter="hist")
    local = DecisionTreeRegressor(**kw).fit(X, y)
    dist = DecisionTreeRegressor(**kw).fit(da.from_array(X, chunks=(200, 2)),
                                           da.from_array(y, chunks=200))
    assert local.n_leaves_ > 5
    # a constant leaf's impurity is round-off of 1000.1² (~1e-8) in both fits
    assert_same_tree(local, dist, X, exact=False, atol=1e-6)
    leaves = local.tree_.feature < 0
    assert np.any(np.isclose(local.tree_.value[leaves, 1] / local.tree_.value[leaves, 0],
                             1000.1, rtol=0, atol=1e-9))


def test_refusals_name_the_parameter_and_what_to_use(client):
    X, y, _ = integer_data(n=200, p=2)
    Xd, yd = da.from_array(X, chunks=(50, 2)), da.from_array(y, chunks=50)
    with pytest.raises(ValueError, match="splitter='best'.*use splitter='hist'"):
        DecisionTreeRegressor().fit(Xd, yd)
    with pytest.raises(ValueError, match="criterion='absolute_error'.*median.*"
                                         "criterion='squared_error'"):
        DecisionTreeRegressor(criterion="absolute_error", splitter="hist").fit(Xd, yd)
    with pytest.raises(ValueError, match="record_trace"):
        DecisionTreeRegressor(splitter="hist", record_trace=True).fit(Xd, yd)
    bad = y.copy()
    bad[7] = np.nan
    with pytest.raises(ValueError, match="NaN or infinity"):
        DecisionTreeRegressor(splitter="hist").fit(Xd, da.from_array(bad, chunks=50))
    with pytest.raises(ValueError, match="requires y"):
        DecisionTreeRegressor(splitter="hist").fit(Xd, None)


def test_level_moment_tables_against_numpy():
    rng = np.random.default_rng(3)
    n, p, n_nodes = 300, 3, 4
    codes_count = np.array([5, 3, 7])
    codes_T = np.stack([rng.integers(-1, c, size=n) for c in codes_count]).astype(np.int16)
    y = rng.normal(size=n)
    entry_row = rng.integers(0, n, size=500)
    entry_node = rng.integers(0, n_nodes, size=500)
    entry_w = rng.uniform(0.1, 2.0, size=500)
    tables, n_rows, low, high = level_moment_tables(codes_T, codes_count, y, entry_row,
                                                    entry_node, entry_w, n_nodes)
    for t in range(n_nodes):
        at = entry_node == t
        assert low[t] == y[entry_row[at]].min() and high[t] == y[entry_row[at]].max()
        for c in range(p):
            code = codes_T[c, entry_row]
            slot = np.where(code < 0, codes_count[c], code)
            for b in range(codes_count[c] + 1):
                sel = at & (slot == b)
                yy, ww = y[entry_row[sel]], entry_w[sel]
                np.testing.assert_allclose(tables[t, c, b], [ww.sum(), (ww * yy).sum(),
                                                             (ww * yy * yy).sum()],
                                           rtol=1e-12, atol=1e-12)
                assert n_rows[t, c, b] == sel.sum()


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.integers(-20, 20), st.integers(1, 3)),
                min_size=2, max_size=40),
       st.integers(1, 4))
def test_bin_scan_is_the_row_scan(rows, min_leaf):
    """The scan over bins' summed moments chooses the row scan's cut: the bins
    of a sorted attribute hold the rows of one value each."""
    x = np.array([r[0] for r in rows], dtype=float)
    y = np.array([r[1] for r in rows], dtype=float)
    w = np.array([r[2] for r in rows], dtype=float)
    order = np.argsort(x, kind="stable")
    by_row = best_regression_cut(OrderedValues(order, x[order], x[order],
                                               np.empty(0, dtype=np.int64)),
                                 y, w, min_leaf, SQUARED_ERROR)
    values = np.unique(x)
    moments = np.array([[w[x == v].sum(), (w * y)[x == v].sum(), (w * y * y)[x == v].sum()]
                        for v in values])
    count = np.array([(x == v).sum() for v in values], dtype=np.int64)
    by_bin = ordered_regression_cut(BinMoments(moments, count),
                                    OrderedValues(np.arange(values.size), values, values,
                                                  np.arange(values.size)),
                                    min_leaf, SQUARED_ERROR)
    assert by_bin.valid == by_row.valid
    if by_row.valid:          # integer sums: the same bits
        assert (by_bin.threshold, by_bin.score, by_bin.after, by_bin.rho) == (
            by_row.threshold, by_row.score, by_row.after, by_row.rho)


def test_sparse_chunks_are_the_in_memory_sparse_fit(client):
    import scipy.sparse as sp

    X = sp.random(600, 12, density=0.3, format="csr", random_state=0, dtype=np.float64)
    X.data = np.round(X.data * 8)                   # few distinct values: exact bins and sums
    y = np.asarray(X[:, 0].todense()).ravel() * 3 + np.arange(600) % 7
    kw = dict(splitter="hist", max_bins=16, max_depth=5)
    local = DecisionTreeRegressor(**kw).fit(X, y)
    dist = DecisionTreeRegressor(**kw).fit(
        da.from_array(X, chunks=(90, 12), asarray=False), da.from_array(y, chunks=100))
    assert local.n_leaves_ > 4
    assert_same_tree(local, dist, X.toarray(), exact=True)
