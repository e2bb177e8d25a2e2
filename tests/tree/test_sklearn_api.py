"""scikit-learn's tree inspection API: get_depth, get_n_leaves, apply, decision_path."""

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.tree import DecisionTreeClassifier as SkTree

from hyperplane.datasets import load_watermelon
from hyperplane.tree import DecisionTreeClassifier


@pytest.mark.parametrize("ours, theirs", [("gini", "gini"), ("info_gain", "entropy")])
def test_the_api_equals_scikit_learn_s_on_the_same_tree(ours, theirs):
    X, y = make_classification(3000, 10, n_informative=6, n_classes=3, random_state=7)
    X = X.astype(np.float32).astype(np.float64)
    sk = SkTree(criterion=theirs, max_depth=4, random_state=0).fit(X, y)
    hp = DecisionTreeClassifier(criterion=ours, max_depth=4).fit(X, y)
    assert np.array_equal(hp.tree_.feature, sk.tree_.feature.clip(min=-1))  # the same tree
    X_test, _ = make_classification(500, 10, n_informative=6, n_classes=3, random_state=8)
    assert hp.get_depth() == sk.get_depth()
    assert hp.get_n_leaves() == sk.get_n_leaves()
    assert np.array_equal(hp.apply(X_test), sk.apply(X_test))
    assert (hp.decision_path(X_test) != sk.decision_path(X_test)).nnz == 0


def test_a_missing_value_goes_down_every_branch_of_its_test():
    X, y = load_watermelon("2.0")
    tree = DecisionTreeClassifier().fit(X, y)
    row = X.iloc[:1].copy()
    root = X.columns[tree.tree_.feature[0]]
    row[root] = np.nan
    path = tree.decision_path(row)
    kids = set(tree.tree_.kids(0).tolist())
    assert kids <= set(path.indices.tolist())        # every branch of the root's test
    assert tree.apply(row)[0] == -1                   # no single leaf
    leaves = [t for t in path.indices if tree.tree_.feature[t] < 0]
    assert len(leaves) >= len(kids)
