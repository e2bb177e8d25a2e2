"""Only the ratios of the sample weights shape a tree (issue #30, finding 4):
uniform weights of any positive scale grow the unweighted tree, and ``w`` and
``c·w`` grow the same tree, for every criterion and pruning. Weights 1e100
made the gain-ratio tree (and pessimistic pruning) one leaf, 1e200 made gini
grow 34 leaves instead of 7."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import load_iris

from hyperplane.datasets import load_watermelon
from hyperplane.tree import DecisionTreeClassifier
from hyperplane.tree._inspect._export import export_text

X_IRIS, Y_IRIS = load_iris(return_X_y=True)
SETTINGS = [dict(criterion="gini"), dict(criterion="info_gain"), dict(criterion="gain_ratio"),
            dict(criterion="gain_ratio", pruning="pessimistic"),
            dict(criterion="gain_ratio", pruning="pessimistic", min_samples_leaf=2),
            dict(criterion="gini", pruning="cost_complexity", ccp_alpha=0.01),
            dict(criterion="info_gain", pruning="post", random_state=0),
            dict(criterion="info_gain", pruning="pre", random_state=0),
            dict(criterion="gini", splitter="hist", max_bins=16)]
NAMES = [",".join(f"{k}={v}" for k, v in s.items()) for s in SETTINGS]
TREE_ARRAYS = ("feature", "threshold", "children", "value", "weight")


def assert_same_tree(a, b):
    for name in TREE_ARRAYS:
        np.testing.assert_array_equal(getattr(a.tree_, name), getattr(b.tree_, name),
                                      err_msg=name)


@pytest.mark.parametrize("params", SETTINGS, ids=NAMES)
@pytest.mark.parametrize("c", [1e-300, 1e-100, 0.1, 3.0, 1e100, 1e200, 1e300])
def test_uniform_weights_of_any_scale_grow_the_unweighted_tree(params, c):
    plain = DecisionTreeClassifier(**params).fit(X_IRIS, Y_IRIS)
    weighted = DecisionTreeClassifier(**params).fit(X_IRIS, Y_IRIS,
                                                    sample_weight=np.full(len(Y_IRIS), c))
    assert_same_tree(weighted, plain)


@pytest.mark.parametrize("c", [1e-100, 1e100, 1e200])
def test_uniform_weights_on_categorical_data(c):
    X, y = load_watermelon("3.0")
    for params in SETTINGS[:5]:
        plain = DecisionTreeClassifier(**params).fit(X, y)
        weighted = DecisionTreeClassifier(**params).fit(X, y, sample_weight=np.full(len(y), c))
        assert export_text(weighted) == export_text(plain)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), k=st.integers(-996, 996),
       params=st.sampled_from(SETTINGS), missing=st.booleans())
def test_scaled_weights_grow_the_same_tree(seed, k, params, missing):
    """tree(X, y, w) == tree(X, y, c·w) for c = 2^k from 1e-300 to 1e300 (a
    power of two scales exactly, so the trees agree bit for bit)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(80, 3)).round(1)
    y = (X[:, 0] + 0.5 * X[:, 1] + rng.normal(scale=0.7, size=80) > 0).astype(int)
    if missing and params.get("splitter") != "hist":
        X[rng.random(X.shape) < 0.1] = np.nan
    w = rng.choice([0.5, 1.0, 1.5, 4.0], size=80) * rng.uniform(0.5, 2.0)
    a = DecisionTreeClassifier(**params).fit(X, y, sample_weight=w)
    b = DecisionTreeClassifier(**params).fit(X, y, sample_weight=np.ldexp(w, k))
    assert_same_tree(a, b)


def test_integer_weights_with_a_one_are_repeated_rows_in_the_c45_mode():
    """Pessimistic pruning counts weight as rows: integer weights (the lightest
    1) prune as the repeated rows do."""
    X, y = load_watermelon("3.0")
    weights = np.arange(len(y)) % 3 + 1
    params = dict(criterion="gain_ratio", pruning="pessimistic", min_samples_leaf=2)
    a = DecisionTreeClassifier(**params).fit(X, y, sample_weight=weights)
    b = DecisionTreeClassifier(**params).fit(X.loc[X.index.repeat(weights)],
                                             y.loc[y.index.repeat(weights)])
    assert export_text(a) == export_text(b)


def test_weights_spanning_more_than_1e100_are_refused_naming_sample_weight():
    w = np.ones(len(Y_IRIS))
    w[0] = 1e-120
    with pytest.raises(ValueError, match="sample_weight spans 1e\\+120"):
        DecisionTreeClassifier().fit(X_IRIS, Y_IRIS, sample_weight=w)
