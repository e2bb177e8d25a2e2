"""The per-node trace and split_table against the tree they describe.

For every node of a fitted tree the chosen attribute must be the best row of
the split table recorded at that node, picked here by the book's rule written
out in pandas (not by the library's choice function): the highest ρ·Gain
(ID3), the highest ρ·Gini decrease (CART), or the highest gain ratio among
the attributes of at least average gain (C4.5, with release 8's tolerances);
ties within 1e-9 go to the first column.
"""

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import make_classification

from hyperplane.datasets import load_watermelon
from hyperplane.tree import DecisionTreeClassifier, split_table

TIE = 1e-9
KEY = {"info_gain": "info_gain", "gini": "gini_gain", "gain_ratio": "gain_ratio"}


def mixed_with_missing(seed=0, n=400):
    X, y = make_classification(n, 4, n_informative=3, n_redundant=0, random_state=seed)
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame({"a": X[:, 0].round(1), "b": X[:, 1],
                          "c": pd.Series(rng.integers(0, 4, n)).map("v{}".format),
                          "d": pd.Series((X[:, 2] > 0).astype(int) + rng.integers(0, 2, n))
                          .map("u{}".format)})
    frame.loc[rng.random(n) < 0.15, "a"] = np.nan
    frame.loc[rng.random(n) < 0.15, "c"] = None
    return frame, y


def numeric_with_missing(seed=1, n=300):
    X, y = make_classification(n, 5, n_informative=3, n_classes=3, random_state=seed)
    X[np.random.default_rng(seed).random(X.shape) < 0.1] = np.nan
    return X, y


DATA = {"wm2.0": lambda: load_watermelon("2.0"), "wm2.0alpha": lambda: load_watermelon("2.0alpha"),
        "wm3.0": lambda: load_watermelon("3.0"), "mixed": mixed_with_missing,
        "numeric": numeric_with_missing}


def best_row(table, criterion):
    """The book's choice from a split table (None: no admissible attribute)."""
    valid = table[table["valid"]]
    if valid.empty:
        return None
    if criterion == "gain_ratio":  # C4.5 release 8 (J48): gain ≥ mean − 1e-3, ratio by > 1e-6
        chosen, best = None, 0.0
        candidates = valid[valid["info_gain"] >= valid["info_gain"].mean() - 1e-3]
        for name, ratio in candidates["gain_ratio"].items():
            if ratio - best > 1e-6:
                chosen, best = name, ratio
        return chosen
    key = valid[KEY[criterion]]
    return key.index[np.flatnonzero(key.to_numpy() >= key.max() - TIE)[0]]


@pytest.mark.parametrize("splitter", ["best", "hist"])
@pytest.mark.parametrize("criterion", ["info_gain", "gain_ratio", "gini"])
@pytest.mark.parametrize("name", sorted(DATA))
def test_every_node_splits_on_the_best_row_of_its_table(name, criterion, splitter):
    X, y = DATA[name]()
    tree = DecisionTreeClassifier(criterion=criterion, splitter=splitter, max_bins=16,
                                  record_trace=True).fit(X, y)
    names = list(X.columns) if hasattr(X, "columns") else [str(j) for j in range(X.shape[1])]
    t = tree.tree_
    assert sorted(e.node for e in tree.trace_) == list(range(t.n_nodes))
    n_scored = 0
    for entry in tree.trace_:
        assert entry.depth == t.depth[entry.node]
        assert entry.weight == pytest.approx(t.weight[entry.node], abs=1e-12)
        if entry.attribute is None:
            assert t.feature[entry.node] < 0 and entry.leaf_reason
            if entry.split_table is not None:  # scored, and nothing admissible
                assert best_row(entry.split_table, criterion) is None
            continue
        n_scored += 1
        assert names[t.feature[entry.node]] == entry.attribute
        assert best_row(entry.split_table, criterion) == entry.attribute
        if t.is_numeric[entry.node]:
            assert t.threshold[entry.node] == entry.threshold
            assert entry.split_table.loc[entry.attribute, "threshold"] == entry.threshold
    assert n_scored == np.count_nonzero(t.feature >= 0) > 0


@pytest.mark.parametrize("criterion", ["info_gain", "gain_ratio", "gini"])
@pytest.mark.parametrize("name", ["wm3.0", "mixed", "numeric"])
def test_split_table_is_the_roots_table(name, criterion):
    X, y = DATA[name]()
    for params in ({}, {"min_samples_leaf": 5}, {"splitter": "hist", "max_bins": 8}):
        tree = DecisionTreeClassifier(criterion=criterion, record_trace=True, **params).fit(X, y)
        table = split_table(X, y, criterion=criterion, **params)
        root = tree.trace_[0].split_table
        root.index = table.index  # positional names for arrays
        pd.testing.assert_frame_equal(table, root)


def test_gain_ratio_table_shows_the_c45_numbers_the_tree_compares():
    """On 西瓜3.0 the numeric gains are charged log2(#cuts)/W (C4.5 release 8)."""
    X, y = load_watermelon("3.0")
    plain = split_table(X, y, criterion="info_gain")
    ratio = split_table(X, y, criterion="gain_ratio")
    n_cuts = {"密度": 16, "含糖率": 16}  # 17 distinct values; C4.5: both sides weigh >= 1
    for name, cuts in n_cuts.items():
        assert ratio.loc[name, "info_gain"] == pytest.approx(
            plain.loc[name, "info_gain"] - np.log2(cuts) / 17)
    # categorical attributes are not charged
    assert ratio.loc["纹理", "info_gain"] == pytest.approx(plain.loc["纹理", "info_gain"])


def test_trace_reports_why_nodes_are_leaves():
    X, y = load_watermelon("2.0")
    tree = DecisionTreeClassifier(max_depth=1, record_trace=True).fit(X, y)
    reasons = {e.leaf_reason for e in tree.trace_ if e.attribute is None}
    assert reasons <= {"at max_depth", "all rows of one class"}
    assert "at max_depth" in reasons
    pre = DecisionTreeClassifier(pruning="pre", record_trace=True, random_state=0).fit(X, y)
    assert any(e.leaf_reason == "pre-pruning: no better on validation data" for e in pre.trace_)


def test_no_trace_without_record_trace():
    X, y = load_watermelon("2.0")
    tree = DecisionTreeClassifier(record_trace=True).fit(X, y)
    assert hasattr(tree, "trace_")
    tree.set_params(record_trace=False).fit(X, y)
    assert not hasattr(tree, "trace_")
    with pytest.raises(TypeError, match="record_trace"):
        DecisionTreeClassifier(record_trace="yes").fit(X, y)
