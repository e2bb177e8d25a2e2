"""The one growth loop (``_builder.grow_frontier``) in either order.

The Dask tree runs the loop in level order (a group of frontier nodes per
pass over the data), the in-memory Python grower depth first. The loop's
claim is that the order changes nothing: every decision (the scan, the
pre-pruning vote, a leaf test) depends on the node alone. Here the in-memory
grower is run in level order too, with groups of several sizes, and must give
the depth-first tree, trace and pruning decisions exactly.
"""

import dataclasses

import numpy as np
import pytest

from hyperplane.tree import DecisionTreeClassifier, DecisionTreeRegressor
from hyperplane.tree._grow import _builder

from .test_trace import mixed_with_missing, numeric_with_missing


def level_order(monkeypatch, batch):
    """Make the in-memory grower take ``batch`` frontier nodes a step, in level
    order; returns the list of the frontiers' group sizes it took."""
    groups = []
    loop = _builder.grow_frontier

    def counted(store, frontier, step, *args, **kw):
        def counting_step(group, store):
            groups.append(len(group))
            return step(group, store)
        return loop(store, frontier, counting_step, *args, **kw, batch=batch)

    monkeypatch.setattr(_builder, "grow_frontier", counted)
    return groups


def assert_same_fit(a, b):
    for field in dataclasses.fields(a.tree_):
        np.testing.assert_array_equal(getattr(b.tree_, field.name), getattr(a.tree_, field.name),
                                      err_msg=field.name)
    assert len(a.trace_) == len(b.trace_)
    for x, y in zip(a.trace_, b.trace_):
        assert (x.node, x.depth, x.n_rows, x.weight, x.attribute, x.leaf_reason) == (
            y.node, y.depth, y.n_rows, y.weight, y.attribute, y.leaf_reason)
        if x.split_table is not None:
            assert x.split_table.equals(y.split_table)


@pytest.mark.parametrize("batch", [1, 3, 1000])
@pytest.mark.parametrize("criterion, splitter", [("info_gain", "best"), ("gain_ratio", "best"),
                                                 ("gini", "hist")])
def test_level_order_grows_the_depth_first_tree(monkeypatch, batch, criterion, splitter):
    X, y = mixed_with_missing(seed=2)
    kw = dict(criterion=criterion, splitter=splitter, record_trace=True, min_samples_leaf=2)
    depth_first = DecisionTreeClassifier(**kw).fit(X, y)
    groups = level_order(monkeypatch, batch)
    assert_same_fit(depth_first, DecisionTreeClassifier(**kw).fit(X, y))
    assert depth_first.n_leaves_ > 10
    assert max(groups) <= batch and (batch == 1 or max(groups) > 1)


@pytest.mark.parametrize("batch", [2, 50])
def test_level_order_makes_the_same_pre_pruning_votes(monkeypatch, batch):
    X, y = numeric_with_missing(seed=3, n=400)
    X_val, y_val = numeric_with_missing(seed=4, n=200)
    kw = dict(pruning="pre", record_trace=True)
    depth_first = DecisionTreeClassifier(**kw).fit(X, y, validation_data=(X_val, y_val))
    groups = level_order(monkeypatch, batch)
    assert_same_fit(depth_first,
                    DecisionTreeClassifier(**kw).fit(X, y, validation_data=(X_val, y_val)))
    unpruned = DecisionTreeClassifier().fit(X, y)
    assert 1 < depth_first.n_leaves_ < unpruned.n_leaves_
    assert max(groups) > 1


def test_level_order_grows_the_depth_first_regression_tree(monkeypatch):
    X, y = numeric_with_missing(seed=5)
    y = y + np.nan_to_num(X[:, 0])
    kw = dict(record_trace=True, max_depth=6)
    depth_first = DecisionTreeRegressor(**kw).fit(X, y)
    groups = level_order(monkeypatch, 4)
    assert_same_fit(depth_first, DecisionTreeRegressor(**kw).fit(X, y))
    assert max(groups) == 4
