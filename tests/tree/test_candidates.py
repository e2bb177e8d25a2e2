"""Candidate cuts of a continuous attribute (周志华 4.4.1) and the branch weights
r̃_v of a tree grown with missing values (周志华 4.4.2)."""

import numpy as np
import pandas as pd
import pytest

from hyperplane.datasets import load_watermelon
from hyperplane.tree import (DecisionTreeClassifier, branches, candidate_thresholds,
                             node_weights, split_table)


def _entropy(w_by_class):
    p = w_by_class[w_by_class > 0] / w_by_class.sum()
    return float(-(p * np.log2(p)).sum())


def _gini(w_by_class):
    p = w_by_class / w_by_class.sum()
    return float(1.0 - (p * p).sum())


def _reference(x, y, w, impurity):
    """Slow and obvious: every midpoint of adjacent distinct known values,
    scored ρ·(I(D̃) − Σ r_v I(D̃_v))."""
    known = ~np.isnan(x) & (w > 0)
    classes = np.unique(y)

    def table(mask):
        return np.array([w[mask & (y == k)].sum() for k in classes])

    rho = w[known].sum() / w[w > 0].sum()
    values = np.unique(x[known])
    out = []
    for a, b in zip(values[:-1], values[1:]):
        t = (a + b) / 2
        left, right = known & (x <= t), known & (x > t)
        r_l = w[left].sum() / w[known].sum()
        after = r_l * impurity(table(left)) + (1 - r_l) * impurity(table(right))
        out.append((t, rho * (impurity(table(known)) - after)))
    return np.array(out)


def test_watermelon_3_root_candidates_match_the_book():
    X, y = load_watermelon("3.0")
    density = candidate_thresholds(X, y, "密度")
    sugar = candidate_thresholds(X, y, "含糖率")
    assert len(density) == len(sugar) == 16  # 17 distinct values each
    best_d = density[density["chosen"]].iloc[0]
    best_s = sugar[sugar["chosen"]].iloc[0]
    # 周志华 p.85: T = 0.381 (0.3815) with Gain 0.262; 含糖率 0.126 with Gain 0.349
    assert best_d["threshold"] == pytest.approx(0.3815)
    assert best_d["info_gain"] == pytest.approx(0.262, abs=5e-4)
    assert best_s["threshold"] == pytest.approx(0.126)
    assert best_s["info_gain"] == pytest.approx(0.349, abs=5e-4)
    assert density["chosen"].sum() == sugar["chosen"].sum() == 1


@pytest.mark.parametrize("criterion, impurity, column", [
    ("info_gain", _entropy, "info_gain"), ("gini", _gini, "gini_gain")])
@pytest.mark.parametrize("seed", range(6))
def test_candidates_match_a_numpy_reference(criterion, impurity, column, seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(5, 40))
    x = np.round(rng.normal(size=n), 1)  # ties on purpose
    x[rng.random(n) < 0.2] = np.nan
    x[:2] = [0.0, 1.0]
    y = rng.integers(0, 3, n)
    w = rng.uniform(0.2, 2.0, n) * (rng.random(n) > 0.1)
    w[:2] = 1.0
    X = np.column_stack([rng.normal(size=n), x])
    cuts = candidate_thresholds(X, y, 1, criterion=criterion, sample_weight=w)
    ref = _reference(x, y, w, impurity)
    np.testing.assert_allclose(cuts["threshold"], ref[:, 0], rtol=0, atol=1e-12)
    np.testing.assert_allclose(cuts[column], ref[:, 1], rtol=1e-9, atol=1e-12)
    # the tree's own scan takes the first of the best candidates
    best = ref[:, 1].max()
    first = ref[np.flatnonzero(ref[:, 1] >= best - 1e-9 * max(1.0, abs(best)))[0], 0]
    assert cuts.loc[cuts["chosen"], "threshold"].tolist() == [pytest.approx(first)]
    assert split_table(X, y, criterion=criterion, sample_weight=w).iloc[1][column] == \
        pytest.approx(best)


def test_candidates_reject_a_categorical_or_unknown_attribute():
    X, y = load_watermelon("3.0")
    with pytest.raises(ValueError, match="色泽.*categorical"):
        candidate_thresholds(X, y, "色泽")
    with pytest.raises(ValueError, match="甜度.*not a column"):
        candidate_thresholds(X, y, "甜度")
    with pytest.raises(ValueError, match="criterion"):
        candidate_thresholds(X, y, "密度", criterion="gain_ratio")
    with pytest.raises(ValueError, match="sample_weight"):
        candidate_thresholds(X, y, "密度", sample_weight=np.zeros(len(y)))


@pytest.mark.parametrize("x", [[1.0, 1.0, 1.0], [np.nan, np.nan, 2.0]])
def test_an_attribute_with_one_known_value_has_no_candidates(x):
    cuts = candidate_thresholds(np.array(x)[:, None], [0, 1, 0], 0)
    assert cuts.empty and list(cuts.columns) == ["threshold", "info_gain", "after", "chosen"]


def test_watermelon_2_alpha_root_branch_weights_match_the_book():
    X, y = load_watermelon("2.0alpha")
    model = DecisionTreeClassifier().fit(X, y)
    root = branches(model, 0)
    # 周志华 4.4.2: 纹理 known on 15 of 17 rows (samples 8 and 10 are missing it),
    # r̃ = 7/15 清晰, 5/15 稍糊, 3/15 模糊; a missing row enters each with that weight
    assert root["r_v"].to_dict() == pytest.approx(
        {"纹理 = 清晰": 7 / 15, "纹理 = 稍糊": 5 / 15, "纹理 = 模糊": 3 / 15})
    assert root["weight"].tolist() == pytest.approx(
        [7 + 2 * 7 / 15, 5 + 2 * 5 / 15, 3 + 2 * 3 / 15])
    known = X["纹理"].notna()
    assert known.sum() / len(X) == pytest.approx(15 / 17)
    counts = X.loc[known, "纹理"].value_counts()  # independent of the tree
    expected = {f"纹理 = {v}": c / 15 for v, c in counts.items()}
    assert expected == pytest.approx(root["r_v"].to_dict())


def test_node_weights_are_the_tree_s_node_weights():
    X, y = load_watermelon("2.0alpha")
    model = DecisionTreeClassifier().fit(X, y)
    W = node_weights(model, X)
    np.testing.assert_allclose(W.sum(axis=1), model.tree_.weight)
    classes = np.asarray(model.classes_)
    value = np.stack([W[:, np.asarray(y) == k].sum(axis=1) for k in classes], axis=1)
    grown = model.tree_.weight > 0  # an empty branch holds its parent's distribution (4.2)
    np.testing.assert_allclose(value[grown], model.tree_.value[grown])
    # a row missing 纹理 (sample 8) is in every root branch with weight r̃_v
    kids = model.tree_.kids(0)
    np.testing.assert_allclose(W[kids, 7], [7 / 15, 5 / 15, 3 / 15])


def test_branches_of_a_leaf_is_an_error():
    X, y = load_watermelon("2.0")
    model = DecisionTreeClassifier().fit(X, y)
    leaf = int(np.flatnonzero(model.tree_.n_child == 0)[0])
    with pytest.raises(ValueError, match="leaf"):
        branches(model, leaf)
    assert isinstance(branches(model, 0), pd.DataFrame)
