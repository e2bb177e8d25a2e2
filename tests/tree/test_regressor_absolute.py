"""DecisionTreeRegressor(criterion="absolute_error"): the least-absolute-deviation tree
(Breiman et al. 1984, §8.11) against brute-force NumPy references and scikit-learn's
``criterion="absolute_error"`` tree."""

import numba
import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from sklearn.tree import DecisionTreeRegressor as SkRegressor

from hyperplane.tree import DecisionTreeRegressor, export_text
from hyperplane.tree._scan._median_kernels import absolute_error_profile, ranks_of
from hyperplane.tree._scan._regression_kernels import OrderedValues, best_regression_cut
from hyperplane.tree._scan._split_kernels import ABSOLUTE_ERROR

from tests._compile_events import RECORD_COMPILATIONS

from .test_regressor import assert_same_partitions, diabetes


def absolute_error(y, w=None):
    """min_c Σw|y − c| by hand: the minimum of a piecewise-linear function is at one of
    the targets, so every target is tried."""
    w = np.ones_like(y) if w is None else w
    if y.size == 0:
        return 0.0
    return float(min((w * np.abs(y - c)).sum() for c in y))


def weighted_median(y, w):
    """scikit-learn's weighted median by hand: the smallest sorted target whose
    cumulative weight exceeds half the total, or the mid-point of the two targets
    either side of a cumulative weight of exactly half."""
    order = np.argsort(y, kind="stable")
    ys, cum = y[order], np.cumsum(w[order])
    half = cum[-1] / 2
    exact = np.flatnonzero(cum == half)
    if exact.size:
        return (ys[exact[0]] + ys[exact[0] + 1]) / 2
    return ys[np.searchsorted(cum, half, side="right")]


# ``ranks_of`` is called from compiled code only; one compiled caller serves every example
compiled_ranks_of = numba.njit(lambda t: ranks_of(t))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([-1.5, -0.0, 0.0, 0.25, 2.0, 7.0]), max_size=140))
def test_ranks_are_numpy_stable_argsort(values):
    """The profile's own merge sort ranks as ``numpy.argsort(kind="stable")``: equal
    targets (and -0.0 / 0.0) in their order, over several runs and merges."""
    y = np.array(values, dtype=float)
    sorted_y, ranks = compiled_ranks_of(y)
    order = np.argsort(y, kind="stable")
    expected = np.empty(y.size, dtype=np.int64)
    expected[order] = np.arange(y.size)
    np.testing.assert_array_equal(ranks, expected)
    np.testing.assert_array_equal(np.signbit(sorted_y), np.signbit(y[order]))
    np.testing.assert_array_equal(sorted_y, y[order])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.integers(1, 3)), min_size=1, max_size=25))
def test_profile_is_every_prefix_and_suffix_by_hand(rows):
    y = np.array([r[0] for r in rows], dtype=float)
    w = np.array([r[1] for r in rows], dtype=float)
    profile = absolute_error_profile(y, w)
    for p in range(y.size):
        assert profile.left[p] == pytest.approx(absolute_error(y[:p + 1], w[:p + 1]))
        assert profile.right[p] == pytest.approx(absolute_error(y[p:], w[p:]))
        assert profile.right_median[p] == weighted_median(y[p:], w[p:])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 9), st.integers(1, 3)),
                min_size=2, max_size=25), st.integers(1, 3))
@example([(0, 0, 1), (0, 0, 3), (0, 1, 1), (0, 2, 2), (0, 3, 3), (0, 8, 2), (0, 8, 3), (0, 9, 2),
          (1, 3, 2), (2, 3, 1)], 1)
def test_best_cut_is_the_least_absolute_error_by_hand(rows, min_leaf):
    x = np.array([r[0] for r in rows], dtype=float)
    y = np.array([r[1] for r in rows], dtype=float)
    w = np.array([r[2] for r in rows], dtype=float)
    order = np.argsort(x, kind="stable")
    column = OrderedValues(order, x[order], x[order], np.empty(0, dtype=np.int64))
    cut = best_regression_cut(column, y, w, min_leaf, ABSOLUTE_ERROR)
    values = np.unique(x)
    errors = {(a + b) / 2: absolute_error(y[x <= a], w[x <= a]) + absolute_error(y[x > a],
                                                                               w[x > a])
              for a, b in zip(values[:-1], values[1:])
              if (x <= a).sum() >= min_leaf and (x > a).sum() >= min_leaf}
    assert cut.valid == bool(errors)
    if not errors:
        return
    best = min(errors.values())
    # the chosen cut has the least error; between cuts of exactly equal error round-off
    # decides (cut_tie: no tie margin for absolute errors, as scikit-learn's), so the test
    # does not ask for the smaller threshold (x=0,1,2 with 53 = 53 picked 1.5 over 0.5)
    assert errors[cut.threshold] == pytest.approx(best)
    before = absolute_error(y, w) / w.sum()
    assert cut.after == pytest.approx(best / w.sum())
    assert cut.score == pytest.approx(before - best / w.sum())


def test_leaves_predict_the_weighted_median():
    x = np.array([[0.0], [0.0], [0.0], [1.0], [1.0], [1.0], [1.0]])
    y = np.array([1.0, 2.0, 10.0, 5.0, 6.0, 7.0, 100.0])
    tree = DecisionTreeRegressor(criterion="absolute_error", max_depth=1).fit(x, y)
    assert tree.predict([[0.0], [1.0]]).tolist() == [2.0, 6.5]    # 6.5: two rows either side
    assert tree.tree_.impurity[1] == pytest.approx((1 + 0 + 8) / 3)
    weighted = DecisionTreeRegressor(criterion="absolute_error", max_depth=1).fit(
        x, y, sample_weight=[1, 1, 5, 1, 1, 1, 1])
    assert weighted.predict([[0.0]]).tolist() == [10.0]
    assert export_text(tree) == "0 <= 0.5: 2\n0 > 0.5: 6.5\n"
    assert "weight: 3, mae: 3" in export_text(tree, show_weights=True)


SETTINGS = [{}, {"max_depth": 3}, {"min_samples_leaf": 5},
            {"min_samples_leaf": 10, "max_depth": 8}, {"min_impurity_decrease": 2.0}]


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("params", SETTINGS)
def test_diabetes_trees_part_the_rows_as_scikit_learn_s(params, weighted):
    X, y = diabetes()
    w = np.random.default_rng(0).integers(1, 4, y.size).astype(float) if weighted else None
    ours = DecisionTreeRegressor(criterion="absolute_error", **params).fit(X, y, w)
    theirs = SkRegressor(criterion="absolute_error", random_state=0, **params).fit(X, y, w)
    if assert_same_partitions(ours, theirs, X, y, w, error=absolute_error) == 0:
        assert ours.get_n_leaves() == theirs.get_n_leaves()
        assert np.array_equal(ours.predict(X), theirs.predict(X))
        assert np.allclose(ours.tree_.impurity, theirs.tree_.impurity, rtol=1e-9, atol=1e-9)


def random_set(n=600, seed=0):
    """Continuous columns and a heavy-tailed target. The absolute error is piecewise
    linear in a cut, so small nodes (a few rows) often have cuts of two attributes of
    exactly equal error, which scikit-learn breaks by a random order of the attributes:
    the trees compared whole keep a few rows in every leaf (``min_samples_leaf``)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 5)).astype(np.float32).astype(np.float64)
    y = X[:, 0] * 3 + np.abs(X[:, 1]) + rng.standard_t(2, n)
    return X, np.round(y, 6)


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("params", [{"min_samples_leaf": 10}, {"min_samples_leaf": 5,
                                                                "max_depth": 5},
                                    {"min_samples_leaf": 20, "max_depth": 8}])
def test_random_set_predictions_are_scikit_learn_s(params, weighted):
    X, y = random_set()
    w = np.random.default_rng(1).uniform(0.5, 2.0, y.size) if weighted else None
    train, test = slice(0, 450), slice(450, None)
    ours = DecisionTreeRegressor(criterion="absolute_error", **params).fit(
        X[train], y[train], None if w is None else w[train])
    theirs = SkRegressor(criterion="absolute_error", random_state=0, **params).fit(
        X[train], y[train], None if w is None else w[train])
    assert assert_same_partitions(ours, theirs, X[train], y[train],
                                  None if w is None else w[train], error=absolute_error) == 0
    assert np.array_equal(ours.tree_.feature, theirs.tree_.feature.clip(min=-1))
    assert np.allclose(ours.predict(X[test]), theirs.predict(X[test]), rtol=1e-12)
    assert np.allclose(ours.feature_importances_, theirs.feature_importances_)


@pytest.mark.parametrize("params", [{"min_samples_leaf": 5}, {"min_samples_leaf": 4,
                                                               "max_depth": 6}])
def test_cost_complexity_path_is_scikit_learn_s(params):
    X, y = random_set(400, seed=3)
    ours = DecisionTreeRegressor(criterion="absolute_error", **params)
    theirs = SkRegressor(criterion="absolute_error", random_state=0, **params)
    assert assert_same_partitions(ours.fit(X, y), theirs.fit(X, y), X, y,
                                  error=absolute_error) == 0
    a, b = ours.cost_complexity_pruning_path(X, y), theirs.cost_complexity_pruning_path(X, y)
    assert a.ccp_alphas.shape == b.ccp_alphas.shape
    assert np.allclose(a.ccp_alphas, b.ccp_alphas, rtol=1e-9, atol=1e-9)
    assert np.allclose(a.impurities, b.impurities, rtol=1e-9, atol=1e-9)
    alpha = (b.ccp_alphas[3] + b.ccp_alphas[4]) / 2
    pruned = DecisionTreeRegressor(criterion="absolute_error", ccp_alpha=alpha, **params)
    their_pruned = SkRegressor(criterion="absolute_error", ccp_alpha=alpha, random_state=0,
                               **params)
    assert np.array_equal(pruned.fit(X, y).predict(X), their_pruned.fit(X, y).predict(X))


def test_compiled_growth_is_the_node_by_node_tree():
    X, y = diabetes()
    compiled = DecisionTreeRegressor(criterion="absolute_error", min_samples_leaf=3).fit(X, y)
    traced = DecisionTreeRegressor(criterion="absolute_error", min_samples_leaf=3,
                                   record_trace=True).fit(X, y)
    assert np.array_equal(compiled.tree_.feature, traced.tree_.feature)
    assert np.array_equal(compiled.predict(X), traced.predict(X))
    root = traced.trace_[0].split_table
    assert {"mae_after", "mae_decrease", "threshold", "rho", "valid"} <= set(root.columns)
    j = root["mae_decrease"].astype(float).idxmax()
    assert root.loc[j, "mae_decrease"] == pytest.approx(
        np.abs(y - np.median(y)).mean() - root.loc[j, "mae_after"])


def test_a_missing_value_goes_down_both_branches():
    x = np.array([1.0, 2.0, 3.0, 4.0, np.nan, 6.0, 7.0])
    y = np.array([1.0, 2.0, 1.0, 9.0, 5.0, 9.0, 8.0])
    tree = DecisionTreeRegressor(criterion="absolute_error", max_depth=1).fit(x[:, None], y)
    assert tree.tree_.threshold[0] == 3.5
    # r̃ = (3/6, 3/6): the left leaf holds 1, 1, 2 and the missing 5 at weight 1/2
    # (half of 3.5 is passed at the second 1), the right one 5 at 1/2, 8, 9, 9
    assert tree.predict([[2.0], [5.0]]).tolist() == [1.0, 9.0]


def test_integer_weights_are_repeated_rows():
    X, y = random_set(300, seed=5)
    w = np.random.default_rng(2).integers(1, 4, y.size)
    shallow = DecisionTreeRegressor(criterion="absolute_error", max_depth=4)
    a = shallow.fit(X, y, sample_weight=w.astype(float)).predict(X)
    b = shallow.fit(np.repeat(X, w, axis=0), np.repeat(y, w)).predict(X)
    assert np.array_equal(a, b)


def test_check_estimator():
    from sklearn.utils.estimator_checks import check_estimator

    check_estimator(DecisionTreeRegressor(criterion="absolute_error"))


_COMPILED_BY_FITS = RECORD_COMPILATIONS + r'''
import json
import numpy as np
from hyperplane.tree import DecisionTreeRegressor

rng = np.random.default_rng(0)
X, y = rng.normal(size=(40, 2)), rng.normal(size=40)
seen = {}
for criterion in ["squared_error", "absolute_error"]:
    DecisionTreeRegressor(criterion=criterion).fit(X, y)
    seen[criterion] = list(compiled)
    compiled.clear()
print(json.dumps(seen))
'''


def test_a_fit_compiles_its_own_criterion_only(tmp_path):
    """The criterion's code is of a type of its own (``SquaredError``,
    ``AbsoluteError``), and numba chooses the criterion's rules when it types it:
    a first squared-error fit compiles no weighted median, and an absolute-error
    fit after it none of the squared error's rules."""
    import json
    import os
    import subprocess
    import sys

    import hyperplane

    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=os.path.dirname(os.path.dirname(hyperplane.__file__)))
    done = subprocess.run([sys.executable, "-c", _COMPILED_BY_FITS], env=env,
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    squared, absolute = ({name.removesuffix("__internal") for name in seen[criterion]}
                         for criterion in ["squared_error", "absolute_error"])
    median = [f"hyperplane.tree._scan._median_kernels.{name}" for name in
              ["absolute_error_profile", "put_absolute_error", "ranks_of", "fenwick_median"]]
    assert not set(median) & squared
    assert set(median) <= absolute
    squared_rules = {name for name in squared if "_criterion_kernels._squared" in name}
    assert squared_rules and not squared_rules & absolute


def test_a_criterion_of_the_plain_integer_type_is_refused():
    """A code numba types as a plain integer names no criterion's rules: a clear
    error, not the other criterion's arithmetic."""
    column = OrderedValues(np.arange(3), np.arange(3.0), np.arange(3.0),
                           np.empty(0, dtype=np.int64))
    with pytest.raises(TypeError, match="SQUARED_ERROR or ABSOLUTE_ERROR"):
        best_regression_cut(column, np.arange(3.0), np.ones(3), 1, int(ABSOLUTE_ERROR))
