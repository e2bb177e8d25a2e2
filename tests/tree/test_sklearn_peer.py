"""Against scikit-learn's DecisionTreeClassifier on numeric data (the peer)."""

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.tree import DecisionTreeClassifier as SkTree

from hyperplane.tree import DecisionTreeClassifier

PAIRS = [("gini", "gini"), ("info_gain", "entropy")]


def _sk_preorder(sk):
    """scikit-learn's node arrays are already in preorder (left child first)."""
    t = sk.tree_
    return t.feature.clip(min=-1), np.where(t.feature >= 0, t.threshold, np.nan)


@pytest.mark.parametrize("ours, theirs", PAIRS)
def test_fully_grown_trees_agree(ours, theirs):
    X, y = make_classification(1500, 8, n_informative=5, random_state=3)
    X = X.astype(np.float32).astype(np.float64)  # sklearn computes on float32
    sk = SkTree(criterion=theirs, random_state=0).fit(X, y)
    hp = DecisionTreeClassifier(criterion=ours).fit(X, y)
    assert np.array_equal(hp.predict(X), sk.predict(X))
    assert hp.n_leaves_ == pytest.approx(sk.get_n_leaves(), rel=0.05)
    # the top of the tree (large nodes, no ties) is the same test for test
    feature, threshold = _sk_preorder(sk)
    assert hp.tree_.feature[0] == feature[0]
    assert hp.tree_.threshold[0] == pytest.approx(threshold[0], rel=1e-6)


@pytest.mark.parametrize("ours, theirs", PAIRS)
def test_depth_limited_trees_identical(ours, theirs):
    X, y = make_classification(3000, 10, n_informative=6, n_classes=3, random_state=7)
    X = X.astype(np.float32).astype(np.float64)
    sk = SkTree(criterion=theirs, max_depth=4, random_state=0).fit(X, y)
    hp = DecisionTreeClassifier(criterion=ours, max_depth=4).fit(X, y)
    feature, threshold = _sk_preorder(sk)
    assert np.array_equal(hp.tree_.feature, feature)
    assert np.allclose(hp.tree_.threshold, threshold, rtol=1e-6, equal_nan=True)
    X_test, _ = make_classification(2000, 10, n_informative=6, n_classes=3, random_state=8)
    assert np.array_equal(hp.predict(X_test), sk.predict(X_test))
    assert np.allclose(hp.predict_proba(X_test), sk.predict_proba(X_test))
    assert np.allclose(hp.feature_importances_, sk.feature_importances_)


def _one_feature_data():
    """Noisy labels on one feature: a deep tree, no attribute ties."""
    rng = np.random.default_rng(5)
    x = rng.permutation(400).astype(np.float64)[:, None] / 7.0
    y = ((x[:, 0] % 10 > 5) ^ (rng.random(400) < 0.2)).astype(int)
    return x, y


@pytest.mark.parametrize("ours, theirs", PAIRS)
def test_cost_complexity_path_matches_sklearn(ours, theirs):
    X, y = _one_feature_data()
    sk = SkTree(criterion=theirs, random_state=0)
    hp = DecisionTreeClassifier(criterion=ours)
    assert np.array_equal(hp.fit(X, y).tree_.feature, _sk_preorder(sk.fit(X, y))[0])
    ours_path = hp.cost_complexity_pruning_path(X, y)
    theirs_path = sk.cost_complexity_pruning_path(X, y)
    assert np.allclose(ours_path.ccp_alphas, theirs_path.ccp_alphas, atol=1e-12)
    assert np.allclose(ours_path.impurities, theirs_path.impurities, atol=1e-12)
    distinct = np.unique(theirs_path.ccp_alphas)
    # midway between consecutive alphas: immune to last-bit differences in g(t)
    for alpha in ((distinct[:-1] + distinct[1:]) / 2)[::5]:
        a = DecisionTreeClassifier(criterion=ours, pruning="cost_complexity",
                                   ccp_alpha=alpha).fit(X, y)
        b = SkTree(criterion=theirs, ccp_alpha=alpha, random_state=0).fit(X, y)
        assert a.n_leaves_ == b.get_n_leaves()
        assert np.array_equal(a.predict(X), b.predict(X))


def test_hist_splitter_close_to_exact_on_large_data():
    X, y = make_classification(20000, 10, n_informative=6, random_state=0)
    X_test, y_test = make_classification(5000, 10, n_informative=6, random_state=0,
                                         shuffle=False)
    exact = DecisionTreeClassifier(criterion="gini", max_depth=8).fit(X, y)
    hist = DecisionTreeClassifier(criterion="gini", splitter="hist", max_depth=8).fit(X, y)
    assert abs(exact.score(X, y) - hist.score(X, y)) < 0.01


def test_ccp_alpha_alone_prunes_as_in_scikit_learn_and_is_said_unused_otherwise():
    """ccp_alpha > 0 with pruning=None is scikit-learn's pruned tree (it was
    silently ignored); with another pruning it is unused, and a warning says so."""
    from sklearn.datasets import load_breast_cancer
    from sklearn.tree import DecisionTreeClassifier as SklearnTree

    from hyperplane.tree import DecisionTreeClassifier

    X, y = load_breast_cancer(return_X_y=True)
    alpha = 0.01
    ours = DecisionTreeClassifier(criterion="gini", ccp_alpha=alpha).fit(X, y)
    explicit = DecisionTreeClassifier(criterion="gini", pruning="cost_complexity",
                                      ccp_alpha=alpha).fit(X, y)
    peer = SklearnTree(criterion="gini", ccp_alpha=alpha, random_state=0).fit(X, y)
    assert ours.get_n_leaves() == explicit.get_n_leaves() == peer.get_n_leaves()
    assert (ours.predict(X) == peer.predict(X)).all()
    with pytest.warns(UserWarning, match="ccp_alpha=0.01 is not used: pruning='pessimistic'"):
        DecisionTreeClassifier(pruning="pessimistic", ccp_alpha=alpha).fit(X, y)
