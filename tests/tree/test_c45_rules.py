"""The tree on real data: one class, declared categorical domains, the target's declared
order for ties, C4.5 release 8's threshold and tolerances, sparse input, small hold-outs.

Each rule against a NumPy statement of it or a hand-checked example; the whole of
J48 is compared in ``test_weka_j48_arff.py``.
"""

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from hyperplane.tree import DecisionTreeClassifier
from hyperplane.tree._grow._expand_kernels import training_value_cut
from hyperplane.tree._prune._kinds import collapse


def test_a_single_class_gives_one_leaf():
    X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 2.0]])
    tree = DecisionTreeClassifier().fit(X, ["a", "a", "a"])
    assert (tree.n_leaves_, tree.depth_, tree.classes_.tolist()) == (1, 0, ["a"])
    assert tree.predict([[5.0, 5.0]]).tolist() == ["a"]
    assert tree.predict_proba(X).tolist() == [[1.0]] * 3
    for pruning in ("pessimistic", "cost_complexity"):
        assert DecisionTreeClassifier(criterion="gain_ratio", pruning=pruning).fit(
            X, [1, 1, 1]).n_leaves_ == 1


def test_declared_categories_give_empty_branches_labelled_by_the_parent():
    """周志华 algorithm 4.2 lines 12-14: a declared value no row takes is a leaf
    labelled with the parent's majority class."""
    colour = pd.Categorical(["red", "red", "red", "blue", "blue"],
                            categories=["green", "red", "blue"])
    X = pd.DataFrame({"colour": colour})
    y = np.array(["yes", "yes", "yes", "no", "no"])
    tree = DecisionTreeClassifier().fit(X, y)
    assert tree._spec.categories[0] == ["green", "red", "blue"]  # declared order
    kids = tree.tree_.kids(0)
    assert kids.size == 3 and tree.tree_.weight[kids[0]] == 0.0
    green = pd.DataFrame({"colour": pd.Categorical(["green"], categories=["green", "red",
                                                                          "blue"])})
    assert tree.predict(green).tolist() == ["yes"]  # the parent's majority
    plain = DecisionTreeClassifier().fit(pd.DataFrame({"colour": colour.astype(object)}), y)
    assert plain.tree_.kids(0).size == 2  # values seen in training only


def test_a_tie_follows_the_declared_order_of_a_categorical_target():
    X = np.zeros((4, 1))
    y = ["a", "b", "b", "a"]
    assert DecisionTreeClassifier().fit(X, y).predict(X[:1]).tolist() == ["a"]  # first seen
    declared = pd.Series(pd.Categorical(y, categories=["b", "a"]))
    assert DecisionTreeClassifier().fit(X, declared).predict(X[:1]).tolist() == ["b"]


def training_value_cut_reference(x, midpoint):
    """Weka's C45Split.setSplitPoint in NumPy-free Python: rows in order, tolerance 1e-6."""
    best = -np.finfo(float).max
    for v in x:
        if not np.isnan(v) and v - best > 1e-6 and v - midpoint < 1e-6:
            best = v
    return best


@settings(max_examples=60)
@given(st.lists(st.sampled_from([0.0, 0.5, 0.5 + 4e-7, 0.5 - 4e-7, 1.0, 2.0, np.nan]) |
                st.floats(-3, 3), min_size=1, max_size=30),
       st.sampled_from([0.5, 0.75, 1.5, -5.0]) | st.floats(-3, 3))
def test_training_value_cut_equals_the_reference(values, midpoint):
    x = np.array(values, dtype=float)
    assert training_value_cut(x, midpoint) == training_value_cut_reference(x, midpoint)


def test_cut_point_is_the_midpoint_except_in_the_c45_mode():
    X = np.array([[0.0], [1.0], [4.0], [5.0], [2.5]])
    y = np.array([0, 0, 1, 1, 1])
    rows = slice(0, 4)  # 2.5 is a training value between the cut's neighbours 1 and 4
    X_fit = np.r_[X[rows], [[2.5]], [[2.5]]]
    y_fit = np.r_[y[rows], [0, 0]]
    book = DecisionTreeClassifier(criterion="gain_ratio", min_samples_leaf=2).fit(X_fit, y_fit)
    c45 = DecisionTreeClassifier(criterion="gain_ratio", pruning="pessimistic",
                                 min_samples_leaf=2, confidence=0.5).fit(X_fit, y_fit)
    assert book.tree_.threshold[0] == 3.25  # midpoint of 2.5 and 4 (周志华 eq. 4.7)
    assert c45.tree_.threshold[0] == 2.5  # the largest training value ≤ 3.25
    forced = DecisionTreeClassifier(criterion="gain_ratio", cut_point="training_value",
                                    min_samples_leaf=2).fit(X_fit, y_fit)
    assert forced.tree_.threshold[0] == 2.5
    with pytest.raises(ValueError, match="cut_point"):
        DecisionTreeClassifier(cut_point="median").fit(X_fit, y_fit)


def test_c45_treats_values_closer_than_1e5_as_one():
    """No cut between two values 1e-6 apart (C4.5 release 8); the book cuts there."""
    x = np.r_[np.zeros(6), np.full(6, 1e-6), np.full(6, 1.0)]
    y = np.r_[np.zeros(6), np.ones(12)].astype(int)
    X = x.reshape(-1, 1)
    c45 = DecisionTreeClassifier(criterion="gain_ratio", min_samples_leaf=2).fit(X, y)
    book = DecisionTreeClassifier(criterion="info_gain").fit(X, y)
    assert book.tree_.threshold[0] == pytest.approx(5e-7)
    assert c45.tree_.threshold[0] == pytest.approx((1e-6 + 1.0) / 2)  # the only C4.5 cut


def collapsed_size_reference(tree):
    """Nodes left by Weka's collapse, top down in plain Python: a subtree whose training
    errors (weight − majority weight, summed over its leaves) are ≥ its root's − 1e-3
    becomes a leaf."""
    def errors(t):
        return tree.weight[t] - tree.value[t].max() if tree.weight[t] > 0 else 0.0

    def subtree_errors(t):
        if tree.feature[t] < 0:
            return errors(t)
        return sum(subtree_errors(k) for k in tree.kids(t))

    def size(t):
        if tree.feature[t] < 0 or subtree_errors(t) >= errors(t) - 1e-3:
            return 1
        return 1 + sum(size(k) for k in tree.kids(t))
    return size(0)


def test_collapse_equals_the_reference():
    shrunk = 0
    for seed in range(6):
        rng = np.random.default_rng(seed)
        X = rng.integers(0, 3, size=(60, 4)).astype(float)
        y = (X[:, 0] + rng.integers(0, 2, 60) > 1).astype(int)
        tree = DecisionTreeClassifier(max_depth=4).fit(X, y).tree_
        collapsed = collapse(tree, 0)
        assert collapsed.n_nodes == collapsed_size_reference(tree), seed
        shrunk += collapsed.n_nodes < tree.n_nodes
    assert shrunk >= 1  # some of these noisy trees do collapse


def test_sparse_input_gives_the_dense_tree():
    rng = np.random.default_rng(0)
    X = rng.random((150, 12))
    X[X < 0.7] = 0.0
    y = (X[:, 0] + X[:, 3] > 0.4).astype(int)
    dense = DecisionTreeClassifier(criterion="gain_ratio", pruning="pessimistic").fit(X, y)
    for fmt in (sp.csc_matrix, sp.csr_matrix, sp.coo_matrix):
        sparse = DecisionTreeClassifier(criterion="gain_ratio",
                                        pruning="pessimistic").fit(fmt(X), y)
        np.testing.assert_array_equal(sparse.tree_.feature, dense.tree_.feature)
        np.testing.assert_array_equal(sparse.tree_.threshold, dense.tree_.threshold)
        np.testing.assert_array_equal(sparse.predict(sp.csr_matrix(X)), dense.predict(X))


def test_pre_pruning_hold_out_names_the_samples_it_needs():
    with pytest.raises(ValueError, match="at least 3 samples; got 2"):
        DecisionTreeClassifier(pruning="pre").fit([[0.0], [1.0]], [0, 1])
    assert DecisionTreeClassifier(pruning="pre").fit([[0.0], [1.0], [2.0]], [0, 1, 1])
