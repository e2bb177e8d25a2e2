"""A tree fit's steps around the compiled growth: layouts, importances, input copies."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hyperplane.tree import DecisionTreeClassifier
from hyperplane.tree._bin_kernels import column_ranges, columns_by_row


@given(st.integers(0, 9000), st.integers(0, 7), st.booleans(), st.integers(0, 2**32 - 1))
def test_columns_by_row_is_the_transpose_of_the_selected_columns(n, p, fortran, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    X[rng.random((n, p)) < 0.1] = np.nan
    X = np.asfortranarray(X) if fortran else X
    columns = np.sort(rng.choice(p, rng.integers(0, p + 1), replace=False)).astype(np.int64)
    out = columns_by_row(X, columns)
    assert out.dtype == np.float64 and out.flags.c_contiguous
    assert out.shape == (columns.size, n)
    np.testing.assert_array_equal(out, X[:, columns].T)


def reference_importances(tree, n_features):
    """The weighted impurity decrease node by node (an obvious loop)."""
    imp = np.zeros(n_features)
    for t in range(tree.n_nodes):
        if tree.feature[t] < 0:
            continue
        kids = tree.children[tree.child_start[t]:tree.child_start[t] + tree.n_child[t]]
        children = 0.0
        for c in kids:
            children += tree.weight[c] * tree.impurity[c]
        imp[tree.feature[t]] += max(tree.weight[t] * tree.impurity[t] - children, 0.0)
    total = imp.sum()
    return imp / total if total > 0 else imp


def mixed_frame(rng, n):
    """Two numeric columns (with missing values) and a four-valued categorical one."""
    frame = pd.DataFrame({"a": rng.normal(size=n), "b": rng.integers(0, 5, n).astype(float),
                          "c": pd.Categorical(rng.choice(list("pqrs"), n))})
    frame.loc[rng.random(n) < 0.1, "a"] = np.nan
    y = (frame["a"].fillna(0) + (frame["c"] == "q") + rng.normal(0, 0.5, n) > 0.5).astype(int)
    return frame, y


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["gini", "info_gain", "gain_ratio"]),
       st.sampled_from([None, "cost_complexity", "pessimistic"]))
def test_importances_equal_the_node_by_node_sum(seed, criterion, pruning):
    rng = np.random.default_rng(seed)
    X, y = mixed_frame(rng, int(rng.integers(20, 300)))
    tree = DecisionTreeClassifier(criterion=criterion, pruning=pruning, ccp_alpha=0.01,
                                  random_state=0).fit(X, y)
    np.testing.assert_array_equal(tree.feature_importances_,
                                  reference_importances(tree.tree_, X.shape[1]))


def test_importances_of_a_single_leaf_are_zero():
    tree = DecisionTreeClassifier().fit(np.ones((5, 3)), np.zeros(5))
    np.testing.assert_array_equal(tree.feature_importances_, np.zeros(3))


@pytest.mark.parametrize("splitter", ["best", "hist"])
def test_fit_leaves_X_alone_and_takes_read_only_arrays(splitter):
    rng = np.random.default_rng(3)
    X = rng.normal(size=(400, 4))
    X[rng.random(X.shape) < 0.05] = np.nan
    y = (np.nan_to_num(X[:, 0]) > 0).astype(int)
    before = X.copy()
    reference = DecisionTreeClassifier(splitter=splitter).fit(X, y)
    np.testing.assert_array_equal(X, before)
    X.flags.writeable = False
    frozen = DecisionTreeClassifier(splitter=splitter).fit(X, y)
    for name in ("feature", "threshold", "children", "value"):
        np.testing.assert_array_equal(getattr(frozen.tree_, name),
                                      getattr(reference.tree_, name))


@given(st.integers(0, 9000), st.integers(0, 6), st.integers(0, 2**32 - 1))
def test_column_ranges_skip_missing_values(n, p, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p)) * 10.0 ** rng.integers(-6, 6, p)
    X[rng.random((n, p)) < rng.choice([0.0, 0.3, 1.0])] = np.nan
    if p:
        X[:, -1] = np.nan  # a column without a known value
    low, high = column_ranges(X)
    with np.errstate(invalid="ignore"):
        np.testing.assert_array_equal(low, np.fmin.reduce(X, axis=0) if n else np.full(p, np.nan))
        np.testing.assert_array_equal(high, np.fmax.reduce(X, axis=0) if n else np.full(p, np.nan))
