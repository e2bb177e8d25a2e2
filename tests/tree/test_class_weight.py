"""DecisionTreeClassifier's class_weight: scikit-learn's meaning (weights the
class counts; 周志华 §3.6 rescaling), against scikit-learn's tree with the
same weights and against repeated rows."""

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.tree import DecisionTreeClassifier as SkTree

from hyperplane.datasets import load_watermelon
from hyperplane.tree import DecisionTreeClassifier


@pytest.mark.parametrize("class_weight", ["balanced", {0: 0.4, 2: 2.5}])
@pytest.mark.parametrize("ours, theirs", [("gini", "gini"), ("info_gain", "entropy")])
def test_depth_limited_weighted_trees_are_sklearns(class_weight, ours, theirs):
    X, y = make_classification(3000, 10, n_informative=6, n_classes=3, weights=[0.6, 0.3],
                               random_state=7)
    X = X.astype(np.float32).astype(np.float64)     # sklearn computes on float32
    sk = SkTree(criterion=theirs, max_depth=4, class_weight=class_weight,
                random_state=0).fit(X, y)
    hp = DecisionTreeClassifier(criterion=ours, max_depth=4, class_weight=class_weight).fit(X, y)
    t = sk.tree_
    np.testing.assert_array_equal(hp.tree_.feature, t.feature.clip(min=-1))
    np.testing.assert_allclose(hp.tree_.threshold,
                               np.where(t.feature >= 0, t.threshold, np.nan),
                               rtol=1e-6, equal_nan=True)
    np.testing.assert_allclose(hp.predict_proba(X), sk.predict_proba(X))
    np.testing.assert_array_equal(hp.predict(X), sk.predict(X))
    np.testing.assert_allclose(hp.class_weight_,
                               [1.0 if c not in class_weight else class_weight[c]
                                for c in range(3)] if isinstance(class_weight, dict)
                               else 3000 / (3 * np.bincount(y)))


@pytest.mark.parametrize("criterion", ["info_gain", "gain_ratio", "gini"])
def test_integer_class_weight_is_repeated_rows(criterion):
    """Categorical data (西瓜数据集2.0): weight 3 on 坏瓜 grows the tree of the
    data with every 坏瓜 row written three times."""
    X, y = load_watermelon("2.0")
    weighted = DecisionTreeClassifier(criterion=criterion, class_weight={"否": 3}).fit(X, y)
    rows = np.repeat(np.arange(len(y)), np.where(y == "否", 3, 1))
    repeated = DecisionTreeClassifier(criterion=criterion).fit(X.iloc[rows], y.iloc[rows])
    np.testing.assert_array_equal(weighted.tree_.feature, repeated.tree_.feature)
    np.testing.assert_allclose(weighted.tree_.value, repeated.tree_.value)
    np.testing.assert_allclose(weighted.predict_proba(X), repeated.predict_proba(X))


def test_rescaling_moves_the_leaf_decision():
    """周志华 §3.6: a leaf of 3 positives and 7 negatives votes negative; with
    w_k = 1/m_k (positive prior 1/4) the rescaled counts 3/10 vs 7/30 vote
    positive."""
    X = np.zeros((40, 1))
    y = np.r_[np.ones(10, dtype=int), np.zeros(30, dtype=int)]
    # one leaf (a single constant attribute): 10 positives, 30 negatives
    plain = DecisionTreeClassifier().fit(X, y)
    assert plain.predict([[0.0]])[0] == 0
    rescaled = DecisionTreeClassifier(class_weight={1: 1 / 10, 0: 1 / 30}).fit(X, y)
    np.testing.assert_allclose(rescaled.predict_proba([[0.0]]), [[0.5, 0.5]])
    tilted = DecisionTreeClassifier(class_weight={1: 1 / 9, 0: 1 / 30}).fit(X, y)
    assert tilted.predict([[0.0]])[0] == 1


def test_class_weight_errors_name_the_parameter():
    X, y = np.eye(4), [0, 1, 0, 1]
    with pytest.raises(ValueError, match="class_weight"):
        DecisionTreeClassifier(class_weight={7: 1.0}).fit(X, y)
    with pytest.raises((TypeError, ValueError), match="class_weight"):
        DecisionTreeClassifier(class_weight=[1, 2]).fit(X, y)


def test_class_weight_with_dask_input_is_refused_clearly():
    da = pytest.importorskip("dask.array")
    X = da.from_array(np.eye(4), chunks=2)
    y = da.from_array(np.array([0, 1, 0, 1]), chunks=2)
    with pytest.raises(ValueError, match="class_weight is not supported with Dask"):
        DecisionTreeClassifier(class_weight="balanced").fit(X, y)
