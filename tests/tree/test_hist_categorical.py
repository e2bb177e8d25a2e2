"""splitter="hist" on a categorical column with more categories than bins.

A categorical attribute splits multiway with one branch per value under both
splitters (周志华 4.1); ``"hist"`` only bins numeric attributes, so on a
column of thousands of categories, with numeric attributes of at most
``max_bins`` distinct values, it must grow the ``"best"`` splitter's tree.
The compiled growth grows the many small children of such a split as
separate subtrees; each must not pay for tables as wide as the column.
"""

import numpy as np
import pandas as pd
import pytest

import hyperplane.tree._grow._builder as builder
import hyperplane.tree._grow._subtree as subtree
from hyperplane.tree import DecisionTreeClassifier


def wide_categorical(n=6000, n_categories=1500, seed=0):
    """Two numeric attributes of 12 values, a 4-value and an ``n_categories``-value
    categorical attribute (the label leans to each category's class), 3% missing."""
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 12, size=(n, 2)).astype(float)
    code = rng.integers(0, n_categories, n)
    lean = rng.integers(0, 3, n_categories)
    y = np.where(rng.random(n) < 0.6, lean[code], (x[:, 0] + x[:, 1]) % 3).astype(int)
    X = pd.DataFrame(x, columns=["x0", "x1"])
    X["small"] = pd.Categorical.from_codes(rng.integers(0, 4, n), list("abcd"))
    X["wide"] = pd.Categorical.from_codes(code, [f"c{c}" for c in range(n_categories)])
    X = X.mask(rng.random(X.shape) < 0.03)
    return X, y


STRUCTURE = ("feature", "is_numeric", "child_start", "n_child", "children", "depth")


@pytest.mark.parametrize("criterion", ["info_gain", "gini", "gain_ratio"])
def test_hist_grows_the_best_splitters_tree_on_a_wide_categorical_column(criterion):
    """(The binned cuts obey C4.5's numeric rules too, so gain_ratio's tree is also the same.)"""
    X, y = wide_categorical(n=3000, n_categories=800)
    best = DecisionTreeClassifier(criterion=criterion).fit(X, y)
    hist = DecisionTreeClassifier(criterion=criterion, splitter="hist", max_bins=16).fit(X, y)
    assert best.tree_.n_nodes > 300
    assert best.tree_.feature[0] == 3 or np.any(best.tree_.feature == 3)
    for name in STRUCTURE:
        np.testing.assert_array_equal(getattr(hist.tree_, name), getattr(best.tree_, name),
                                      err_msg=name)
    np.testing.assert_allclose(hist.tree_.value, best.tree_.value, rtol=1e-12)
    np.testing.assert_array_equal(hist.predict(X), best.predict(X))
    np.testing.assert_allclose(hist.predict_proba(X), best.predict_proba(X), rtol=1e-12)


@pytest.mark.parametrize("criterion", ["info_gain", "gini"])
def test_many_small_subtrees_of_a_wide_split_grow_as_in_python(monkeypatch, criterion):
    """Small subtrees grown one by one (``SUBTREE_ROWS``) from an 800-way split, some
    large enough to use the scratch tables: the Python loop's tree, bit for bit."""
    X, y = wide_categorical(n=4000, n_categories=800)
    params = dict(criterion=criterion, splitter="hist", max_bins=16)
    with monkeypatch.context() as m:
        m.setattr(builder, "compiled_growth_applies", lambda data, pre_pruner: False)
        reference = DecisionTreeClassifier(**params).fit(X, y)
    with monkeypatch.context() as m:
        m.setattr(subtree, "SUBTREE_ROWS", 1000)
        m.setattr(subtree, "SORT_ROWS", 4)
        model = DecisionTreeClassifier(**params).fit(X, y)
    for name in STRUCTURE + ("threshold", "branch_r", "value", "weight"):
        np.testing.assert_array_equal(getattr(model.tree_, name), getattr(reference.tree_, name),
                                      err_msg=name)
