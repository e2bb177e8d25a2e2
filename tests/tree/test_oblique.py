"""ObliqueTreeClassifier: oblique boundaries, sklearn API, export, bad input."""

import re

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.datasets import load_iris
from sklearn.exceptions import NotFittedError
from sklearn.model_selection import train_test_split
from sklearn.utils.estimator_checks import check_estimator

from hyperplane.tree import ObliqueTreeClassifier

from hyperplane.tree import DecisionTreeClassifier as AxisTree

def rotated_square(n, seed, angle=np.pi / 4):
    """Uniform points, label = side of a line through 0 at ``angle``."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, size=(n, 2))
    normal = np.array([np.cos(angle), np.sin(angle)])
    return X, (X @ normal > 0).astype(int)


def rotated_blobs(n, seed, d=4):
    """Two elongated Gaussian classes with a margin, rotated by 30 degrees in
    the first two coordinates, plus ``d - 2`` noise attributes."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    X = rng.normal(size=(n, d)) * np.r_[3.0, 0.2, np.ones(d - 2)]
    X[:, 1] = np.clip(X[:, 1], -0.5, 0.5) + np.where(y == 1, 1.0, -1.0)
    c, s = np.cos(np.pi / 6), np.sin(np.pi / 6)
    X[:, :2] = X[:, :2] @ np.array([[c, -s], [s, c]]).T
    return X, y


@pytest.mark.parametrize("criterion", ["gini", "info_gain"])
@pytest.mark.parametrize("make", [rotated_square, rotated_blobs])
def test_oblique_boundary_needs_far_fewer_leaves(make, criterion):
    X, y = make(1200, seed=3)
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.5, random_state=0)
    oblique = ObliqueTreeClassifier(criterion=criterion, random_state=0).fit(Xtr, ytr)
    axis = AxisTree(criterion=criterion).fit(Xtr, ytr)  # the same names, the same impurity
    assert oblique.n_leaves_ <= 3
    assert axis.n_leaves_ >= 4 * oblique.n_leaves_
    assert oblique.score(Xte, yte) >= axis.score(Xte, yte)
    assert oblique.score(Xte, yte) >= 0.98


def test_entropy_is_another_name_of_info_gain():
    X, y = rotated_blobs(300, seed=1)
    named = ObliqueTreeClassifier(criterion="info_gain", random_state=0).fit(X, y)
    alias = ObliqueTreeClassifier(criterion="entropy", random_state=0).fit(X, y)
    for name in ("coef_", "threshold_", "children_left_", "children_right_", "value_"):
        np.testing.assert_array_equal(getattr(alias, name), getattr(named, name))


def test_iris_is_fitted_exactly_and_generalises():
    X, y = load_iris(return_X_y=True)
    tree = ObliqueTreeClassifier().fit(X, y)
    assert tree.score(X, y) == 1.0  # no two iris rows with equal x differ in y
    Xtr, Xte, ytr, yte = train_test_split(X, y, stratify=y, random_state=0)
    assert ObliqueTreeClassifier().fit(Xtr, ytr).score(Xte, yte) >= 0.9


def test_root_of_a_diagonal_split_is_the_diagonal():
    X, y = rotated_square(400, seed=0)
    tree = ObliqueTreeClassifier().fit(X, y)
    w = tree.coef_[0]
    assert abs(abs(w[0]) - abs(w[1])) < 0.05 and w[0] * w[1] > 0
    assert np.linalg.norm(w) == pytest.approx(1.0)


def test_tree_arrays_are_consistent():
    X, y = load_iris(return_X_y=True)
    tree = ObliqueTreeClassifier(max_depth=3).fit(X, y)
    left, right = tree.children_left_, tree.children_right_
    leaves = left == -1
    assert np.array_equal(leaves, right == -1)
    assert tree.n_leaves_ == leaves.sum() == len(tree.value_) - (~leaves).sum()
    internal = np.flatnonzero(~leaves)
    # a parent's class counts are the sum of its children's
    assert np.allclose(tree.value_[internal],
                       tree.value_[left[internal]] + tree.value_[right[internal]])
    assert np.allclose(tree.value_[0], np.bincount(y))
    assert tree.depth_ <= 3
    assert np.all(tree.coef_[leaves] == 0)


@pytest.mark.parametrize("min_leaf", [1, 5, 20])
def test_min_samples_leaf_and_split(min_leaf):
    X, y = rotated_blobs(300, seed=1)
    y[::7] = 1 - y[::7]  # label noise so the tree wants to grow
    tree = ObliqueTreeClassifier(min_samples_leaf=min_leaf, min_samples_split=30).fit(X, y)
    counts = tree.value_.sum(axis=1)
    leaves = tree.children_left_ == -1
    assert counts[leaves].min() >= min_leaf
    assert counts[~leaves].min() >= 30


def test_max_depth_one_is_a_single_linear_test():
    X, y = rotated_square(300, seed=2)
    tree = ObliqueTreeClassifier(max_depth=1).fit(X, y)
    assert tree.depth_ == 1 and tree.n_leaves_ == 2


def test_predict_proba_is_leaf_class_frequency():
    X, y = rotated_blobs(300, seed=4)
    y[::5] = 1 - y[::5]
    tree = ObliqueTreeClassifier(max_depth=2).fit(X, y)
    proba = tree.predict_proba(X)
    assert np.allclose(proba.sum(axis=1), 1)
    leaf = tree.apply(X)
    for node in np.unique(leaf):
        assert np.allclose(proba[leaf == node], np.bincount(y[leaf == node], minlength=2)
                           / np.sum(leaf == node))
    assert np.array_equal(tree.predict(X), tree.classes_[np.argmax(proba, axis=1)])


def test_zero_weight_is_leaving_the_row_out_and_integer_weight_is_repetition():
    X, y = rotated_blobs(200, seed=5)
    y[::6] = 1 - y[::6]
    w = np.tile([0.0, 1.0, 2.0, 1.0], 50)
    weighted = ObliqueTreeClassifier(random_state=0).fit(X, y, sample_weight=w)
    rep = np.repeat(np.arange(200), w.astype(int))
    repeated = ObliqueTreeClassifier(random_state=0).fit(X[rep], y[rep])
    assert weighted.n_leaves_ == repeated.n_leaves_
    assert np.allclose(weighted.predict_proba(X), repeated.predict_proba(X))


def test_class_weight_is_a_weight_on_every_row_of_the_class():
    """class_weight={k: c} is sample_weight c on the rows of class k, and
    "balanced" is scikit-learn's n / (K n_k) (compute_class_weight)."""
    from sklearn.utils.class_weight import compute_class_weight

    X, y = rotated_blobs(200, seed=7)
    y[:150] = 0                                   # imbalanced: 150+ of class 0
    y[::9] = 1 - y[::9]
    by_dict = ObliqueTreeClassifier(random_state=0, class_weight={1: 3.0}).fit(X, y)
    by_rows = ObliqueTreeClassifier(random_state=0).fit(X, y, sample_weight=np.where(y == 1, 3.0, 1.0))
    assert np.array_equal(by_dict.coef_, by_rows.coef_)
    assert np.array_equal(by_dict.value_, by_rows.value_)
    balanced = ObliqueTreeClassifier(random_state=0, class_weight="balanced").fit(X, y)
    expected = compute_class_weight("balanced", classes=np.unique(y), y=y)
    np.testing.assert_allclose(balanced.class_weight_, expected)
    np.testing.assert_allclose(balanced.value_[0], np.bincount(y) * expected)
    with pytest.raises(ValueError, match="class_weight"):
        ObliqueTreeClassifier(class_weight={5: 1.0}).fit(X, y)


def test_string_labels_ties_and_random_state():
    X = np.array([[0.0, 0.0], [0.0, 0.0], [1.0, 1.0], [2.0, 2.0]])
    y = np.array(["是", "否", "是", "是"])
    tree = ObliqueTreeClassifier().fit(X, y)
    # the duplicated point cannot be split: its leaf is tied 1:1 and takes the
    # class that occurs first in y
    assert tree.predict([[0.0, 0.0]])[0] == "是"
    data = rotated_square(300, 6)
    a = ObliqueTreeClassifier(random_state=0).fit(*data)
    b = ObliqueTreeClassifier(random_state=0).fit(*data)
    assert np.array_equal(a.coef_, b.coef_) and np.array_equal(a.threshold_, b.threshold_)
    c = ObliqueTreeClassifier(n_jumps=0, random_state=1).fit(*data)
    d = ObliqueTreeClassifier(n_jumps=0, random_state=2).fit(*data)
    assert np.array_equal(c.coef_, d.coef_) and np.array_equal(c.threshold_, d.threshold_)


def test_export_text_names_the_linear_tests():
    X, y = rotated_square(300, seed=7)
    frame = pd.DataFrame(X, columns=["密度", "含糖率"])
    tree = ObliqueTreeClassifier().fit(frame, y)
    text = tree.export_text(decimals=2)
    lines = text.splitlines()
    assert len(lines) == 2 * (tree.n_leaves_ - 1) + tree.n_leaves_
    first = re.fullmatch(
        r"\|--- (-?\d\.\d\d)\*密度 ([+-]) (\d\.\d\d)\*含糖率 <= (-?\d+\.\d\d)", lines[0])
    assert first, lines[0]
    w0 = float(first.group(1))
    w1 = float(first.group(3)) * (1 if first.group(2) == "+" else -1)
    assert np.allclose([w0, w1], tree.coef_[0], atol=0.006)
    assert sum(line.strip("| -").startswith("class:") for line in lines) == tree.n_leaves_
    # an axis-parallel test is written as the attribute alone
    Xa = np.column_stack([np.arange(10.0), np.zeros(10)])
    axis = ObliqueTreeClassifier().fit(Xa, np.arange(10) >= 4)
    assert axis.export_text(feature_names=["a", "b"]).splitlines()[0] == "|--- a <= 3.500"
    with pytest.raises(ValueError, match="feature_names has 1 names"):
        axis.export_text(feature_names=["a"])


def test_sklearn_compatibility():
    # the check fits fully grown trees (it would set min_weight_fraction_leaf, which this
    # tree has not): every leaf is pure on its noisy blobs, so no class weight moves a
    # prediction; test_class_weight_is_a_weight_on_every_row_of_the_class checks the weights
    check_estimator(ObliqueTreeClassifier(), expected_failed_checks={
        "check_class_weight_classifiers":
            "a fully grown tree has pure leaves, whatever the class weights"})


def test_clone_and_pipeline_params():
    tree = ObliqueTreeClassifier(criterion="entropy", max_depth=4)
    assert clone(tree).get_params() == tree.get_params()


@pytest.mark.parametrize("params, error, message", [
    ({"criterion": "gain_ratio"}, ValueError, "criterion must be one of"),
    ({"max_depth": 0}, ValueError, "max_depth must be in"),
    ({"max_depth": 2.5}, TypeError, "max_depth must be an integer"),
    ({"min_samples_split": 1}, ValueError, "min_samples_split must be in"),
    ({"min_samples_leaf": 0}, ValueError, "min_samples_leaf must be in"),
    ({"n_jumps": -1}, ValueError, "n_jumps must be in"),
    ({"random_state": "seed"}, ValueError, "seed"),
])
def test_bad_hyper_parameters(params, error, message):
    X, y = rotated_square(50, seed=0)
    with pytest.raises(error, match=message):
        ObliqueTreeClassifier(**params).fit(X, y)


def test_bad_data():
    X, y = rotated_square(50, seed=0)
    Xnan = X.copy()
    Xnan[3, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        ObliqueTreeClassifier().fit(Xnan, y)
    with pytest.raises(ValueError, match="numeric"):
        ObliqueTreeClassifier().fit(pd.DataFrame({"a": ["x"] * 50, "b": X[:, 1]}), y)
    with pytest.raises(ValueError, match="only one class"):
        ObliqueTreeClassifier().fit(X, np.zeros(50))
    with pytest.raises(ValueError, match="sample_weight is zero"):
        ObliqueTreeClassifier().fit(X, y, sample_weight=np.zeros(50))
    with pytest.raises(ValueError, match="non-negative"):
        ObliqueTreeClassifier().fit(X, y, sample_weight=-np.ones(50))
    tree = ObliqueTreeClassifier().fit(X, y)
    with pytest.raises(ValueError, match="3 features"):
        tree.predict(np.zeros((2, 3)))
    with pytest.raises(NotFittedError, match="not fitted"):
        ObliqueTreeClassifier().predict(X)
