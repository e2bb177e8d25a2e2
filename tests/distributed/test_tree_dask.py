"""DecisionTreeClassifier on Dask: the same tree as in memory, grown from chunk tables."""

import numpy as np
import pandas as pd
import pytest
import dask.array as da
import dask.dataframe as dd

from hyperplane.datasets import load_watermelon
from hyperplane.tree._dask._route_kernels import route_to_frontier
from hyperplane.tree._state import TreeArrays
from hyperplane.tree import DecisionTreeClassifier, export_text
from hyperplane.tree import _encode


def watermelon_rows(version, copies, seed, flip=0.08):
    """The book's data replicated, with a fraction of values and labels redrawn."""
    X, y = load_watermelon(version)
    X = pd.concat([X] * copies, ignore_index=True)
    y = pd.concat([y] * copies, ignore_index=True)
    rng = np.random.default_rng(seed)
    for name in X.columns:
        if X[name].dtype == object:
            values = X[name].dropna().unique()
            redraw = rng.random(len(X)) < flip
            X.loc[redraw, name] = rng.choice(values, size=int(redraw.sum()))
        else:
            X[name] = X[name] + rng.normal(scale=0.02, size=len(X)).round(3)
    redraw = rng.random(len(y)) < flip
    y[redraw] = rng.choice(["是", "否"], size=int(redraw.sum()))
    return X, y


def on_dask(X, y, npartitions=4):
    return dd.from_pandas(X, npartitions=npartitions), dd.from_pandas(y, npartitions=npartitions)


def assert_same_tree(local, dist, X):
    assert export_text(dist, show_weights=True) == export_text(local, show_weights=True)
    a, b = local.tree_, dist.tree_
    np.testing.assert_array_equal(b.feature, a.feature)
    np.testing.assert_array_equal(b.threshold, a.threshold)     # NaN == NaN here
    np.testing.assert_allclose(b.value, a.value, rtol=1e-10, atol=1e-9)
    np.testing.assert_allclose(b.branch_r, a.branch_r, rtol=1e-10)
    np.testing.assert_allclose(dist.predict_proba(X), local.predict_proba(X), rtol=1e-10,
                               atol=1e-12)
    np.testing.assert_array_equal(dist.classes_, local.classes_)
    np.testing.assert_array_equal(dist._preference, local._preference)
    assert dist._spec.categories == local._spec.categories


@pytest.mark.parametrize("version", ["2.0", "2.0alpha"])
@pytest.mark.parametrize("criterion", ["info_gain", "gain_ratio", "gini"])
def test_categorical_trees_identical_to_in_memory(dask_client, version, criterion):
    X, y = watermelon_rows(version, copies=200, seed=1)      # 3400 rows
    local = DecisionTreeClassifier(criterion=criterion).fit(X, y)
    dist = DecisionTreeClassifier(criterion=criterion).fit(*on_dask(X, y))
    assert local.n_leaves_ > 9          # the perturbation makes a real tree
    assert_same_tree(local, dist, X)


def test_book_tree_from_the_unperturbed_data(dask_client):
    X, y = load_watermelon("2.0")
    dist = DecisionTreeClassifier().fit(*on_dask(X, y, npartitions=3))
    assert export_text(dist) == export_text(DecisionTreeClassifier().fit(X, y))
    assert export_text(dist).splitlines()[0] == "纹理 = 清晰"


@pytest.mark.parametrize("pruning", ["pessimistic", "cost_complexity"])
def test_pruned_trees_identical(dask_client, pruning):
    X, y = watermelon_rows("2.0alpha", copies=100, seed=2, flip=0.15)
    kw = dict(criterion="gain_ratio", pruning=pruning, ccp_alpha=0.005, min_samples_leaf=3,
              subtree_raising=False)
    local = DecisionTreeClassifier(**kw).fit(X, y)
    dist = DecisionTreeClassifier(**kw).fit(*on_dask(X, y))
    unpruned = DecisionTreeClassifier(criterion="gain_ratio", min_samples_leaf=3).fit(X, y)
    assert local.n_leaves_ < unpruned.n_leaves_
    assert_same_tree(local, dist, X)


@pytest.mark.parametrize("pruning", ["pre", "post"])
def test_reduced_error_pruning_with_validation_data_in_memory(dask_client, pruning):
    X, y = watermelon_rows("2.0alpha", copies=100, seed=3, flip=0.2)
    X_val, y_val = watermelon_rows("2.0alpha", copies=20, seed=4, flip=0.2)
    kw = dict(criterion="info_gain", pruning=pruning)
    local = DecisionTreeClassifier(**kw).fit(X, y, validation_data=(X_val, y_val))
    dist = DecisionTreeClassifier(**kw).fit(*on_dask(X, y), validation_data=(X_val, y_val))
    assert local.n_leaves_ < DecisionTreeClassifier().fit(X, y).n_leaves_
    assert_same_tree(local, dist, X)


def numeric_data(n=3000, p=4, seed=0, missing=0.05):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    X[:, 1] = np.round(X[:, 1], 1)                 # few distinct values: exact bins
    y = (X[:, 0] + 0.5 * X[:, 1] ** 2 + 0.3 * rng.normal(size=n) > 0.4).astype(int)
    y[X[:, 2] > 1.5] = 2
    X[rng.random(X.shape) < missing] = np.nan
    return X, y


@pytest.mark.parametrize("criterion", ["gini", "info_gain"])
def test_hist_trees_identical_to_in_memory_hist(dask_client, criterion):
    X, y = numeric_data()
    w = np.random.default_rng(5).integers(0, 3, size=len(y)).astype(float)
    kw = dict(criterion=criterion, splitter="hist", max_bins=32, max_depth=6,
              min_samples_leaf=5)
    local = DecisionTreeClassifier(**kw).fit(X, y, sample_weight=w)
    dist = DecisionTreeClassifier(**kw).fit(da.from_array(X, chunks=(700, 2)),
                                            da.from_array(y, chunks=500),
                                            sample_weight=da.from_array(w, chunks=900))
    assert local.n_leaves_ > 10 and dist.depth_ == local.depth_
    assert_same_tree(local, dist, X)


def test_hist_edges_from_the_same_sample_above_the_cap(dask_client, monkeypatch):
    monkeypatch.setattr(_encode, "BIN_SAMPLE_ROWS", 500)
    X, y = numeric_data(n=2000, p=3, seed=3)
    kw = dict(splitter="hist", max_bins=16, max_depth=4, random_state=7)
    local = DecisionTreeClassifier(**kw).fit(X, y)
    dist = DecisionTreeClassifier(**kw).fit(da.from_array(X, chunks=(300, 3)),
                                            da.from_array(y, chunks=300))
    assert_same_tree(local, dist, X)
    other = DecisionTreeClassifier(**{**kw, "random_state": 8}).fit(X, y)
    assert not np.array_equal(other.tree_.threshold, local.tree_.threshold, equal_nan=True)


def test_bin_sample_rows_rule():
    assert _encode.bin_sample_rows(10, random_state=0, cap=10) is None
    rows = _encode.bin_sample_rows(1000, random_state=3, cap=100)
    assert rows.size == 100 and np.all(np.diff(rows) > 0)
    np.testing.assert_array_equal(rows, _encode.bin_sample_rows(1000, random_state=3, cap=100))
    np.testing.assert_array_equal(_encode.bin_sample_rows(1000, cap=100),
                                  _encode.bin_sample_rows(1000, random_state=0, cap=100))


def test_mixed_dataframe_and_lazy_predict(dask_client):
    X, y = watermelon_rows("3.0", copies=60, seed=4)
    kw = dict(criterion="gain_ratio", splitter="hist", max_bins=20, max_depth=5)
    local = DecisionTreeClassifier(**kw).fit(X, y)
    Xd, yd = on_dask(X, y, npartitions=5)
    dist = DecisionTreeClassifier(**kw).fit(Xd, yd)
    assert list(dist.feature_names_in_) == list(X.columns)
    assert dist._spec.categorical.tolist() == [True] * 6 + [False] * 2
    assert_same_tree(local, dist, X)
    y_in_memory = DecisionTreeClassifier(**kw).fit(Xd, y)       # y a pandas Series
    assert export_text(y_in_memory) == export_text(local)
    lazy = dist.predict(Xd)
    proba = dist.predict_proba(Xd)
    assert hasattr(lazy, "dask") and hasattr(proba, "dask")    # still lazy
    np.testing.assert_array_equal(lazy.compute(), local.predict(X))
    np.testing.assert_allclose(proba.compute(), local.predict_proba(X), atol=1e-12)


def test_routing_to_the_frontier_matches_a_python_walk():
    """One categorical test at the root (3 leaves in the frontier), missing values fan out."""
    rng = np.random.default_rng(0)
    n = 300
    codes = np.stack([rng.integers(-1, 3, size=n), rng.integers(-1, 2, size=n)],
                     axis=1).astype(np.int16)
    w = rng.random(n) + 0.1
    r = np.array([1.0, 0.5, 0.3, 0.2])            # branch_r of nodes 0..3
    tree = TreeArrays(np.array([0, -1, -1, -1]), np.zeros(4, bool), np.full(4, -1.0),
                      np.array([0, 3, 3, 3]), np.array([3, 0, 0, 0]), np.array([1, 2, 3]), r)
    got = route_to_frontier(codes, w, tree, np.array([-1, 0, 1, 2]), 4)
    expected = []
    for i in range(n):
        if codes[i, 0] < 0:
            expected += [(i, v, w[i] * r[v + 1]) for v in range(3)]
        else:
            expected.append((i, int(codes[i, 0]), w[i]))
    assert sorted(zip(*(part.tolist() for part in got))) == sorted(expected)


def test_bad_input_gives_clear_errors(dask_client):
    X, y = numeric_data(n=200, p=3)
    Xd, yd = da.from_array(X, chunks=(50, 3)), da.from_array(y, chunks=50)
    with pytest.raises(ValueError, match="splitter='hist'"):
        DecisionTreeClassifier().fit(Xd, yd)
    with pytest.raises(ValueError, match="validation_data"):
        DecisionTreeClassifier(splitter="hist", pruning="post").fit(Xd, yd)
    with pytest.raises(ValueError, match="in memory"):
        DecisionTreeClassifier(splitter="hist", pruning="pre").fit(Xd, yd,
                                                                   validation_data=(Xd, yd))
    with pytest.raises(ValueError, match="one class"):
        DecisionTreeClassifier(splitter="hist").fit(Xd, da.zeros(200, chunks=50))
    with pytest.raises(ValueError, match="non-negative"):
        DecisionTreeClassifier(splitter="hist").fit(Xd, yd, sample_weight=-np.ones(200))
    with pytest.raises(ValueError, match="criterion"):
        DecisionTreeClassifier(criterion="entropy", splitter="hist").fit(Xd, yd)
    Xinf = X.copy()
    Xinf[3, 1] = np.inf
    with pytest.raises(ValueError, match="inf"):
        DecisionTreeClassifier(splitter="hist").fit(da.from_array(Xinf, chunks=(50, 3)), yd)
    with pytest.raises(TypeError, match="dask.dataframe"):
        text = da.from_array(np.array([["a"], ["b"]], dtype=object), chunks=1)
        DecisionTreeClassifier().fit(text, da.from_array(np.array([0, 1])))


def test_worker_killed_mid_fit_gives_the_same_tree(refit_with_a_worker_killed):
    """The encoded chunks persisted on a killed worker are recomputed from their lineage."""
    import distributed
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None,
                                  memory_limit="1GiB") as cluster, \
            distributed.Client(cluster) as client:
        rs = da.random.RandomState(11)
        X = rs.normal(size=(200_000, 6), chunks=(20_000, 6))
        y = (X[:, 0] + X[:, 1] ** 2 + 0.5 * rs.normal(size=200_000, chunks=20_000) > 1)

        def fit():
            return DecisionTreeClassifier(splitter="hist", max_bins=32, max_depth=7).fit(X, y)

        fit()                                       # compile on the workers first
        reference, model = refit_with_a_worker_killed(client, fit)
    assert export_text(model, show_weights=True) == export_text(reference, show_weights=True)
    np.testing.assert_allclose(model.tree_.value, reference.tree_.value, rtol=1e-12)


@pytest.mark.parametrize("criterion", ["info_gain", "gain_ratio", "gini"])
def test_dask_trace_is_the_in_memory_trace(criterion):
    """The level grower records the same nodes, split tables and choices as depth first."""
    X, y = watermelon_rows("2.0alpha", 3, seed=4)
    local = DecisionTreeClassifier(criterion=criterion, record_trace=True).fit(X, y)
    dist = DecisionTreeClassifier(criterion=criterion, record_trace=True).fit(*on_dask(X, y))
    assert_same_tree(local, dist, X)
    assert len(dist.trace_) == len(local.trace_)
    for a, b in zip(local.trace_, dist.trace_):
        assert (a.node, a.depth, a.n_rows, a.attribute, a.leaf_reason) == (
            b.node, b.depth, b.n_rows, b.attribute, b.leaf_reason)
        assert a.weight == pytest.approx(b.weight)
        if a.split_table is None:
            assert b.split_table is None
        else:
            pd.testing.assert_frame_equal(a.split_table, b.split_table, rtol=1e-9)


@pytest.mark.parametrize("c", [1e-100, 1e200])
def test_uniform_weights_of_any_scale_grow_the_unweighted_tree(dask_client, c):
    """Issue #30 finding 4 on Dask: the weights are divided by the smallest
    positive one, as in memory."""
    X, y = numeric_data()
    kw = dict(criterion="gain_ratio", splitter="hist", max_bins=32, max_depth=6,
              min_samples_leaf=5)
    local = DecisionTreeClassifier(**kw).fit(X, y)
    w = np.full(len(y), c)
    dist = DecisionTreeClassifier(**kw).fit(da.from_array(X, chunks=(700, 2)),
                                            da.from_array(y, chunks=500),
                                            sample_weight=da.from_array(w, chunks=900))
    assert local.n_leaves_ > 10
    assert_same_tree(local, dist, X)


def test_small_chunks_are_transposed_without_the_parallel_kernel(monkeypatch):
    """A Dask hist fit lays its chunks' codes out by column as the in-memory fit
    does (``transposed_codes``): NumPy for chunks of at most ``TRANSPOSE_ROWS``
    rows, so a small fit compiles no parallel transpose (here it would raise);
    the tree is the in-memory hist tree."""
    from hyperplane.tree import _bin_kernels

    def refused(codes_rows):
        raise AssertionError("codes_by_column called for a small chunk")

    from hyperplane.tree._dask import _passes

    monkeypatch.setattr(_bin_kernels, "codes_by_column", refused)
    monkeypatch.setattr(_passes, "codes_by_column", refused, raising=False)
    X, y = numeric_data(n=600, p=3, seed=11)
    kw = dict(splitter="hist", max_bins=16, max_depth=4)
    local = DecisionTreeClassifier(**kw).fit(X, y)
    dist = DecisionTreeClassifier(**kw).fit(da.from_array(X, chunks=(200, 3)),
                                            da.from_array(y, chunks=200))
    assert_same_tree(local, dist, X)
