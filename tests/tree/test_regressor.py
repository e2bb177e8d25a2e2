"""DecisionTreeRegressor: CART's least-squares tree (李航《统计学习方法》§5.5.1, 算法5.5)
against the book's exercise, NumPy references and scikit-learn's regressor."""

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from hypothesis import example, given, settings
from hypothesis import strategies as st
from sklearn.datasets import load_diabetes
from sklearn.tree import DecisionTreeRegressor as SkRegressor
from sklearn.utils.estimator_checks import check_estimator

from hyperplane.tree import DecisionTreeRegressor, export_graphviz, export_text
from hyperplane.tree._scan._regression_kernels import OrderedValues, best_regression_cut
from hyperplane.tree._scan._split_kernels import SQUARED_ERROR

#: 李航 习题5.2
BOOK_X = np.arange(1.0, 11.0)
BOOK_Y = np.array([4.50, 4.75, 4.91, 5.34, 5.80, 7.05, 7.90, 8.23, 8.70, 9.00])


def squared_errors(x, y):
    """m(s) = Σ_{x≤s}(y − c1)² + Σ_{x>s}(y − c2)² for every cut s between adjacent
    values of x (李航 式5.21), by hand: ``{s: m(s)}``."""
    out = {}
    values = np.unique(x)
    for a, b in zip(values[:-1], values[1:]):
        left, right = y[x <= a], y[x > a]
        out[(a + b) / 2] = (((left - left.mean()) ** 2).sum()
                            + ((right - right.mean()) ** 2).sum())
    return out


def test_exercise_5_2_root_cut_and_region_means():
    m = squared_errors(BOOK_X, BOOK_Y)
    s = min(m, key=m.get)
    assert s == 5.5                                        # the book's cut x <= 5
    c1, c2 = BOOK_Y[BOOK_X <= 5].mean(), BOOK_Y[BOOK_X > 5].mean()
    assert (round(c1, 2), round(c2, 2)) == (5.06, 8.18)   # the book's ĉ1, ĉ2
    stump = DecisionTreeRegressor(max_depth=1).fit(BOOK_X[:, None], BOOK_Y)
    assert stump.tree_.feature[0] == 0 and stump.tree_.threshold[0] == 5.5
    assert np.allclose(stump.predict(BOOK_X[:, None]), np.where(BOOK_X <= 5, c1, c2))


def test_exercise_5_2_second_level_cuts_by_hand():
    tree = DecisionTreeRegressor(max_depth=2).fit(BOOK_X[:, None], BOOK_Y)
    expected = []
    for region in (BOOK_X <= 5, BOOK_X > 5):
        m = squared_errors(BOOK_X[region], BOOK_Y[region])
        s = min(m, key=m.get)
        x, y = BOOK_X[region], BOOK_Y[region]
        expected.append((s, y[x <= s].mean(), y[x > s].mean()))
    t = tree.tree_
    left, right = t.kids(0)
    for node, (s, c1, c2) in zip((left, right), expected):
        assert t.threshold[node] == s
        a, b = t.kids(node)
        assert np.isclose(t.value[a, 1] / t.value[a, 0], c1)
        assert np.isclose(t.value[b, 1] / t.value[b, 0], c2)
    assert [e[0] for e in expected] == [3.5, 7.5]


def test_root_trace_is_the_table_of_squared_errors():
    tree = DecisionTreeRegressor(max_depth=1, record_trace=True).fit(BOOK_X[:, None], BOOK_Y)
    table = tree.trace_[0].split_table
    m = squared_errors(BOOK_X, BOOK_Y)
    n = BOOK_Y.size
    mse = BOOK_Y.var()
    assert table.loc["0", "threshold"] == 5.5
    assert np.isclose(table.loc["0", "mse_after"], m[5.5] / n)
    assert np.isclose(table.loc["0", "mse_decrease"], mse - m[5.5] / n)
    assert tree.trace_[1].leaf_reason == "at max_depth"


# ------------------------------------------------------------ the compiled scan
def reference_cut(x, y, w, min_leaf):
    """The best cut by brute force: every midpoint, weighted squared errors."""
    known = ~np.isnan(x)
    xk, yk, wk = x[known], y[known], w[known]
    best = None
    values = np.unique(xk)
    for a, b in zip(values[:-1], values[1:]):
        left = xk <= a
        if left.sum() < min_leaf or (~left).sum() < min_leaf:
            continue
        err = 0.0
        for side in (left, ~left):
            c = np.average(yk[side], weights=wk[side])
            err += (wk[side] * (yk[side] - c) ** 2).sum()
        if best is None or err < best[0] - 1e-9 * abs(best[0]):
            best = (err, a + (b - a) / 2)
    if best is None:
        return None
    mse = lambda m: np.average((yk - np.average(yk, weights=wk)) ** 2, weights=wk)  # noqa: E731
    rho = wk.sum() / w.sum()
    return best[1], rho * (mse(None) - best[0] / wk.sum())


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.integers(2, 30).flatmap(lambda n: st.tuples(
    st.lists(st.one_of(st.integers(0, 6).map(float), st.just(np.nan)), min_size=n, max_size=n),
    st.lists(st.integers(-20, 20).map(float), min_size=n, max_size=n),
    st.lists(st.sampled_from([1.0, 0.5, 2.0, 3.0]), min_size=n, max_size=n),
    st.integers(1, 3))))
def test_best_squared_cut_equals_brute_force(case):
    x, y, w, min_leaf = (np.array(case[0]), np.array(case[1]), np.array(case[2]), case[3])
    order = np.argsort(x, kind="stable").astype(np.int32)
    column = OrderedValues(order, x[order], x[order], np.empty(0, dtype=np.int64))
    score, _, _, rho, threshold, _, valid = best_regression_cut(column, y, w, min_leaf,
                                                                SQUARED_ERROR)
    expected = reference_cut(x, y, w, min_leaf)
    assert valid == (expected is not None)
    if valid:
        assert threshold == expected[0]
        assert np.isclose(score, expected[1], rtol=1e-9, atol=1e-9)
        assert np.isclose(rho, w[~np.isnan(x)].sum() / w.sum())


# ------------------------------------------------------------------- scikit-learn
def diabetes():
    X, y = load_diabetes(return_X_y=True)
    return X.astype(np.float32).astype(np.float64), y     # scikit-learn's trees use float32


def california_like(n=8000, seed=0):
    """Columns shaped like the California housing data (income with 4 decimals, integer
    ages and populations, coordinates with 2 decimals: many repeated values) and a target
    with 3 decimals capped at 5.00001, as in that data set; float32-exact."""
    rng = np.random.default_rng(seed)
    income = np.round(rng.lognormal(1.3, 0.5, n), 4)
    age = rng.integers(1, 53, n).astype(float)
    rooms = np.round(rng.gamma(6, 0.9, n), 3)
    bedrooms = np.round(rooms * rng.uniform(0.15, 0.25, n), 3)
    population = rng.integers(3, 5000, n).astype(float)
    occupancy = np.round(rng.gamma(3, 1.0, n), 3)
    lat = np.round(rng.uniform(32.5, 42, n), 2)
    lon = np.round(rng.uniform(-124.3, -114.3, n), 2)
    X = np.column_stack([income, age, rooms, bedrooms, population, occupancy, lat, lon])
    y = (0.45 * income + 0.01 * age - 0.3 * np.abs(lat - 36) + 0.2 * np.sin(lon)
         + rng.normal(0, 0.5, n))
    return X.astype(np.float32).astype(np.float64), np.clip(np.round(y, 3), 0.15, 5.00001)


def squared_error(y, w=None):
    """Σw(y − ȳ)² by hand."""
    w = np.ones_like(y) if w is None else w
    return float((w * (y - np.average(y, weights=w)) ** 2).sum()) if y.size else 0.0


def assert_same_partitions(ours, theirs, X, y, w=None, error=squared_error):
    """Node by node, the two trees split the training rows ``X`` alike: the same test
    (thresholds up to the midpoint's rounding), or a tie: another cut of the same
    ``error`` (by default the squared error of 李航 式5.21, by hand), which scikit-learn
    breaks by a random order of the attributes and this tree by column order (below a
    tie the trees are not compared);
    or a node whose targets are all equal, a leaf here (李航 算法5.5 splits while the
    squared error can fall), which scikit-learn may split when the round-off of its
    impurity ``Σy²/n − ȳ²`` exceeds one machine epsilon. Returns the number of ties
    and such nodes."""
    w = np.ones_like(y) if w is None else w
    t, s = ours.tree_, theirs.tree_
    ties = 0
    stack = [(0, 0, np.arange(X.shape[0]))]
    while stack:
        a, b, rows = stack.pop()
        if t.feature[a] < 0 and s.feature[b] >= 0:
            assert np.ptp(y[rows]) == 0, f"node {a} of {rows.size} rows"
            ties += 1
            continue
        assert (t.feature[a] < 0) == (s.feature[b] < 0), f"node {a} of {rows.size} rows"
        if t.feature[a] < 0:
            continue
        left = X[rows, t.feature[a]] <= t.threshold[a]
        their_left = X[rows, s.feature[b]] <= s.threshold[b]
        if t.feature[a] == s.feature[b] and np.array_equal(left, their_left):
            assert t.threshold[a] == pytest.approx(s.threshold[b], rel=1e-6, abs=1e-12)
        if not np.array_equal(left, their_left):
            ties += 1
            errors = [sum(error(y[rows[side]], w[rows[side]]) for side in (cut, ~cut))
                      for cut in (left, their_left)]
            assert errors[0] == pytest.approx(errors[1], rel=1e-9, abs=1e-9)
            continue
        ties += int(t.feature[a] != s.feature[b])
        kids = t.kids(a)
        stack.append((kids[0], s.children_left[b], rows[left]))
        stack.append((kids[1], s.children_right[b], rows[~left]))
    return ties


SETTINGS = [{}, {"max_depth": 3}, {"max_depth": 6}, {"min_samples_leaf": 5},
            {"min_samples_leaf": 3, "max_depth": 8}, {"min_samples_split": 20},
            {"min_impurity_decrease": 20.0}]


@pytest.mark.parametrize("params", SETTINGS)
def test_diabetes_trees_part_the_rows_as_scikit_learn_s(params):
    X, y = diabetes()
    ours = DecisionTreeRegressor(**params).fit(X, y)
    theirs = SkRegressor(random_state=0, **params).fit(X, y)
    if assert_same_partitions(ours, theirs, X, y) == 0:     # no tie: the same tree
        assert ours.get_n_leaves() == theirs.get_n_leaves()
        assert ours.get_depth() == theirs.get_depth()
        assert np.allclose(ours.predict(X), theirs.predict(X), rtol=1e-12)


@pytest.mark.parametrize("params", [{"max_depth": 4}, {"max_depth": 10},
                                    {"min_samples_leaf": 20}, {"min_samples_leaf": 5}])
def test_california_like_trees_part_the_rows_as_scikit_learn_s(params):
    X, y = california_like()
    ours = DecisionTreeRegressor(**params).fit(X, y)
    theirs = SkRegressor(random_state=0, **params).fit(X, y)
    if assert_same_partitions(ours, theirs, X, y) == 0:     # no tie: the same tree
        assert np.allclose(ours.predict(X), theirs.predict(X), rtol=1e-12)


@pytest.mark.parametrize("data, params", [
    (diabetes, {"min_samples_leaf": 10}), (diabetes, {"min_samples_leaf": 10, "max_depth": 8}),
    (california_like, {"max_depth": 4}), (california_like, {"min_samples_leaf": 20})])
def test_without_ties_the_trees_are_scikit_learn_s(data, params):
    X, y = data()
    train, test = slice(0, 3 * X.shape[0] // 4), slice(3 * X.shape[0] // 4, None)
    ours = DecisionTreeRegressor(**params).fit(X[train], y[train])
    theirs = SkRegressor(random_state=0, **params).fit(X[train], y[train])
    assert assert_same_partitions(ours, theirs, X[train], y[train]) == 0
    assert np.array_equal(ours.tree_.feature, theirs.tree_.feature.clip(min=-1))
    assert np.allclose(ours.predict(X[test]), theirs.predict(X[test]), rtol=1e-12)
    assert np.array_equal(ours.apply(X[test]), theirs.apply(X[test]))
    assert (ours.decision_path(X[test]) != theirs.decision_path(X[test])).nnz == 0
    assert np.allclose(ours.feature_importances_, theirs.feature_importances_)
    assert np.allclose(ours.tree_.impurity, theirs.tree_.impurity, rtol=1e-9, atol=1e-9)


def test_values_one_float32_step_apart_are_cut_unlike_scikit_learn():
    """Every midpoint between distinct values is a candidate (李航 算法5.5); scikit-learn's
    splitter takes values within 1e-7 (added in float32) for equal and never cuts between
    them, so on such a column it keeps a leaf whose squared error a cut would remove."""
    step = float(np.nextafter(np.float32(1.0), np.float32(2.0)))
    x = np.array([1.0, 1.0, 1.0, step, step, step])[:, None]
    y = np.array([0.0, 0.0, 0.0, 10.0, 10.0, 10.0])
    ours = DecisionTreeRegressor().fit(x, y)
    assert ours.get_n_leaves() == 2 and np.array_equal(ours.predict(x), y)
    assert SkRegressor().fit(x, y).get_n_leaves() == 1


def test_cost_complexity_path_is_scikit_learn_s_on_diabetes():
    X, y = diabetes()
    ours = DecisionTreeRegressor().cost_complexity_pruning_path(X, y)
    theirs = SkRegressor(random_state=0).cost_complexity_pruning_path(X, y)
    assert ours.ccp_alphas.shape == theirs.ccp_alphas.shape
    assert np.allclose(ours.ccp_alphas, theirs.ccp_alphas, rtol=1e-9, atol=1e-9)
    assert np.allclose(ours.impurities, theirs.impurities, rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("step", [3, 15, 30, -3])
def test_pruned_tree_is_scikit_learn_s(step):
    X, y = diabetes()
    alphas = SkRegressor(min_samples_leaf=5).cost_complexity_pruning_path(X, y).ccp_alphas
    alpha = (alphas[step] + alphas[step + 1]) / 2     # between two steps: no round-off edge
    ours = DecisionTreeRegressor(min_samples_leaf=5, ccp_alpha=alpha).fit(X, y)
    theirs = SkRegressor(min_samples_leaf=5, ccp_alpha=alpha, random_state=0).fit(X, y)
    assert ours.get_n_leaves() == theirs.get_n_leaves()
    assert np.allclose(ours.predict(X), theirs.predict(X), rtol=1e-12)


def test_sample_weight_as_scikit_learn_s():
    X, y = diabetes()
    w = np.random.default_rng(0).integers(1, 4, y.size).astype(float)
    ours = DecisionTreeRegressor(min_samples_leaf=5).fit(X, y, sample_weight=w)
    theirs = SkRegressor(min_samples_leaf=5, random_state=0).fit(X, y, sample_weight=w)
    assert assert_same_partitions(ours, theirs, X, y, w) == 0
    assert np.allclose(ours.predict(X), theirs.predict(X), rtol=1e-12)


def test_integer_weights_are_repeated_rows():
    X, y = diabetes()
    w = np.random.default_rng(1).integers(1, 3, y.size)
    weighted = DecisionTreeRegressor(max_depth=5).fit(X, y, sample_weight=w.astype(float))
    repeated = DecisionTreeRegressor(max_depth=5).fit(np.repeat(X, w, axis=0), np.repeat(y, w))
    assert np.array_equal(weighted.tree_.feature, repeated.tree_.feature)
    assert np.allclose(weighted.predict(X), repeated.predict(X), rtol=1e-12)


# ------------------------------------------------------------- other inputs
def test_a_missing_value_mixes_both_branches_by_r():
    x = np.array([1.0, 2.0, 3.0, 4.0, np.nan, 6.0])
    y = np.array([1.0, 1.0, 1.0, 9.0, 5.0, 9.0])
    tree = DecisionTreeRegressor(max_depth=1).fit(x[:, None], y)
    assert tree.tree_.threshold[0] == 3.5
    # the known rows: 3 left, 2 right, so r̃ = (3/5, 2/5); the missing row goes to both
    r_left, r_right = 3 / 5, 2 / 5
    left = (1.0 * 3 + r_left * 5.0) / (3 + r_left)
    right = (9.0 * 2 + r_right * 5.0) / (2 + r_right)
    assert np.allclose(tree.predict([[2.0], [5.0], [np.nan]]),
                       [left, right, r_left * left + r_right * right])
    # the root's score is ρ = 5/6 times the decrease of the known rows' mean squared error
    table = DecisionTreeRegressor(max_depth=1, record_trace=True).fit(
        x[:, None], y).trace_[0].split_table
    known = y[~np.isnan(x)]
    decrease = known.var() - 0.0
    assert np.isclose(table.loc["0", "rho"], 5 / 6)
    assert np.isclose(table.loc["0", "mse_decrease"], 5 / 6 * decrease)


def test_categorical_columns_become_cart_s_tests():
    frame = pd.DataFrame({"colour": pd.Categorical(["red", "green", "blue", "red", "blue",
                                                     "green", "red", "blue"]),
                          "size": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]})
    y = np.array([10.0, 1.0, 5.0, 11.0, 6.0, 2.0, 12.0, 5.0])
    tree = DecisionTreeRegressor(max_depth=2).fit(frame, y)
    onehot = np.column_stack([(frame["colour"] == c).to_numpy(float)
                              for c in frame["colour"].cat.categories] + [frame["size"]])
    same = DecisionTreeRegressor(max_depth=2).fit(onehot, y)
    assert np.array_equal(tree.predict(frame), same.predict(onehot))
    assert "colour = red" in export_text(tree) or "colour ≠ red" in export_text(tree)
    assert tree.feature_importances_.shape == (2,)


def test_sparse_input_is_the_dense_tree():
    X, y = diabetes()
    X[X < 0] = 0.0
    dense = DecisionTreeRegressor(max_depth=6).fit(X, y)
    sparse = DecisionTreeRegressor(max_depth=6).fit(sp.csr_matrix(X), y)
    assert np.array_equal(dense.predict(X), sparse.predict(sp.csr_matrix(X)))


@settings(max_examples=30, deadline=None, derandomize=True)
@given(st.integers(1, 40).flatmap(lambda n: st.tuples(
    st.lists(st.integers(0, 5).map(float), min_size=2 * n, max_size=2 * n),
    st.lists(st.floats(-100, 100), min_size=n, max_size=n),
    st.floats(-1e3, 1e3))))
@example(([0.0, 0.0, 1.0, 1.0], [1e-8, 0.0], 0.0))
def test_a_fully_grown_tree_predicts_the_mean_of_equal_rows(case):
    values, y, shift = case
    y = np.array(y)
    X = np.array(values).reshape(-1, 2)
    tree = DecisionTreeRegressor().fit(X, y)
    _, group = np.unique(X, axis=0, return_inverse=True)
    group = group.ravel()
    means = np.bincount(group, weights=y) / np.bincount(group)
    # a node whose mean squared error is at most EPSILON is a leaf (scikit-learn's rule), so
    # groups whose targets differ by less than sqrt(n EPSILON) ~ 1e-7 may share their mean
    assert np.allclose(tree.predict(X), means[group], rtol=1e-9, atol=1e-7)
    assert tree.predict(X).min() >= y.min() - 1e-9 and tree.predict(X).max() <= y.max() + 1e-9
    # shifting every target shifts every prediction (the cuts depend on deviations only)
    shifted = DecisionTreeRegressor(max_depth=2).fit(X, y + shift)
    base = DecisionTreeRegressor(max_depth=2).fit(X, y)
    assert np.allclose(shifted.predict(X), base.predict(X) + shift, rtol=1e-9, atol=1e-6)


# ------------------------------------------------------------- the estimator contract
def test_check_estimator():
    check_estimator(DecisionTreeRegressor())


@pytest.mark.parametrize("params, message", [
    ({"criterion": "poisson"}, "criterion"), ({"splitter": "random"}, "splitter"),
    ({"max_depth": 0}, "max_depth"), ({"min_samples_split": 1}, "min_samples_split"),
    ({"min_samples_leaf": 0}, "min_samples_leaf"),
    ({"min_impurity_decrease": -1.0}, "min_impurity_decrease"),
    ({"ccp_alpha": -0.1}, "ccp_alpha")])
def test_bad_parameters_are_named(params, message):
    with pytest.raises(ValueError, match=message):
        DecisionTreeRegressor(**params).fit(BOOK_X[:, None], BOOK_Y)


def test_bad_targets_are_named():
    with pytest.raises(ValueError, match="y"):
        DecisionTreeRegressor().fit(BOOK_X[:, None], np.where(BOOK_X > 5, np.nan, BOOK_Y))
    with pytest.raises(ValueError, match="numeric target"):
        DecisionTreeRegressor().fit(BOOK_X[:, None], ["a"] * 10)
    with pytest.raises(ValueError, match="sample_weight"):
        DecisionTreeRegressor().fit(BOOK_X[:, None], BOOK_Y, sample_weight=np.zeros(10))


def test_export_text_shows_the_leaf_means():
    tree = DecisionTreeRegressor(max_depth=1).fit(BOOK_X[:, None], BOOK_Y)
    assert export_text(tree) == "0 <= 5.5: 5.06\n0 > 5.5: 8.176\n"
    assert "8.176 (weight: 5, mse: 0.46)" in export_text(tree, show_weights=True)
    dot = export_graphviz(tree)
    assert dot.startswith("digraph Tree {") and '"5.06\\n[weight: 5, mse: 0.212]"' in dot


def test_a_model_file_restores_the_tree(tmp_path):
    from hyperplane.io import load, save

    frame = pd.DataFrame({"colour": pd.Categorical(["red", "green", "blue"] * 4),
                          "size": np.arange(12.0)})
    frame.loc[3, "size"] = np.nan
    y = np.arange(12.0) ** 2
    tree = DecisionTreeRegressor(record_trace=True).fit(frame, y)
    save(tree, tmp_path / "tree.hyperplane")
    loaded = load(tmp_path / "tree.hyperplane")
    assert np.array_equal(loaded.predict(frame), tree.predict(frame))
    assert export_text(loaded) == export_text(tree)
    assert len(loaded.trace_) == len(tree.trace_)


def test_compiled_growth_is_the_node_by_node_tree():
    """Without a trace the tree grows in compiled subtrees (side by side on every
    thread); with ``record_trace`` node by node in Python: the same tree, bit for bit."""
    X, y = california_like(6000, seed=3)
    X[np.random.default_rng(3).random(X.shape) < 0.05] = np.nan
    w = np.random.default_rng(4).choice([0.5, 1.0, 2.0], y.size)
    compiled = DecisionTreeRegressor(min_samples_leaf=2).fit(X, y, sample_weight=w)
    traced = DecisionTreeRegressor(min_samples_leaf=2, record_trace=True).fit(
        X, y, sample_weight=w)
    for field in ("feature", "threshold", "children", "branch_r", "value", "weight"):
        assert np.array_equal(getattr(compiled.tree_, field), getattr(traced.tree_, field),
                              equal_nan=True), field
    assert len(traced.trace_) == traced.tree_.n_nodes
