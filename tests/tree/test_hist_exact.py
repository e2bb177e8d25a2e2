"""splitter="hist" with one training value per bin grows the splitter="best" tree.

With at most ``max_bins`` distinct values a numeric attribute's bins hold one
value each, so the binned scan (:func:`ordered_cut`) sees the cuts the exact
scan (:func:`best_numeric_cut`) sees, between the same adjacent values, and
both apply the same rules: 周志华 4.4.1's midpoints and, for
``criterion="gain_ratio"``, C4.5 release 8's numeric rules (Quinlan 1996: the
MINOBJS minimum per side, values within 1e-5 equal, the MDL charge, and the
threshold moved to a training value under pessimistic pruning). The trees must
be the same to the last bit: the same tests at the same thresholds, the same
class weights, the same predictions on values the training set never held.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import load_iris

from hyperplane.datasets import load_watermelon
from hyperplane.tree import DecisionTreeClassifier, export_text
from hyperplane.tree._scan._numeric_cut_kernels import best_numeric_cut, ordered_table_cut
from hyperplane.tree._scan._split_kernels import ENTROPY, GINI, c_log2_c
from hyperplane.tree._state import GatherBuffers, GrowRules, Scan
from hyperplane.tree._scan._table_kernels import category_class_table

TREE_ARRAYS = ("feature", "is_numeric", "threshold", "child_start", "n_child", "children",
               "branch_r", "value", "weight", "impurity", "depth")
CRITERIA = ("gini", "info_gain", "gain_ratio")
PRUNINGS = (None, "pessimistic", "cost_complexity", "post")


@st.composite
def node_values(draw):
    """One attribute at a node: values (few distinct, some missing), classes, weights
    (dyadic, so every sum is exact and both scans' numbers are the same bits)."""
    n = draw(st.integers(2, 60))
    x = np.array(draw(st.lists(st.one_of(st.integers(0, 9).map(float), st.just(np.nan)),
                               min_size=n, max_size=n)))
    y = np.array(draw(st.lists(st.integers(0, 2), min_size=n, max_size=n)), dtype=np.int64)
    unit = draw(st.booleans())
    w = np.ones(n) if unit else np.array(draw(st.lists(st.sampled_from([0.5, 1.0, 2.0]),
                                                       min_size=n, max_size=n)))
    return x, y, w, unit


@settings(max_examples=300, deadline=None)
@given(node_values(), st.sampled_from([ENTROPY, GINI]), st.booleans(),
       st.sampled_from([1.0, 2.0, 3.0]))
def test_binned_scan_is_the_exact_scan(data, criterion, c45, min_leaf):
    """One value per bin: the bin scan returns the exact scan's cut, bit for bit."""
    x, y, w, unit = data
    order = np.argsort(x, kind="stable").astype(np.int32)
    value = np.bincount(y, weights=w, minlength=3)
    rules = GrowRules(criterion, c45 or None, np.inf, 2.0, min_leaf, 0.0)
    clogc = c_log2_c(x.size) if unit else c_log2_c(0)
    exact = best_numeric_cut(x[order], order, y, value, Scan(w, unit, clogc), rules,
                             GatherBuffers(np.empty(0, dtype=np.int32), np.empty(0)))
    values = np.unique(x[~np.isnan(x)])
    codes = np.where(np.isnan(x), -1, np.searchsorted(values, x)).astype(np.int64)
    table, n_rows = category_class_table(codes, y, w, max(values.size, 1), 3)
    bin_range = np.vstack([values, values]) if values.size else np.full((2, 1), np.nan)
    binned = ordered_table_cut(table, n_rows, bin_range, rules, clogc)
    assert binned.valid == exact.valid
    if exact.valid:
        assert binned[:5] == exact[:5]
        assert values[binned.cut_bin] <= exact.threshold < values[binned.cut_bin + 1]


def assert_same_tree(best, hist, X_new):
    for name in TREE_ARRAYS:
        np.testing.assert_array_equal(getattr(hist.tree_, name), getattr(best.tree_, name),
                                      err_msg=name)
    np.testing.assert_array_equal(hist.predict_proba(X_new), best.predict_proba(X_new))


def fit_both(X, y, criterion, pruning, **kw):
    """The "best" and "hist" trees of one configuration."""
    if pruning == "cost_complexity":
        kw["ccp_alpha"] = 0.01
    if pruning == "post":
        kw["random_state"] = 0      # the same hold-out for both
    return [DecisionTreeClassifier(criterion=criterion, pruning=pruning, splitter=splitter,
                                   **kw).fit(X, y) for splitter in ("best", "hist")]


@st.composite
def integer_data(draw):
    """Integer columns of up to 40 distinct values (each its own bin), labels leaning on
    them, a few missing values."""
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    n = draw(st.integers(20, 400))
    p = draw(st.integers(1, 4))
    X = rng.integers(0, draw(st.integers(2, 40)), size=(n, p)).astype(float)
    y = ((X[:, 0] + rng.integers(0, 15, n)) % draw(st.integers(2, 4))).astype(np.int64)
    if draw(st.booleans()):
        X[rng.random(X.shape) < 0.05] = np.nan
    return X, y, rng.uniform(-1, 41, size=(50, p))


@settings(max_examples=30, deadline=None)
@given(integer_data(), st.sampled_from(CRITERIA), st.sampled_from(PRUNINGS),
       st.sampled_from([1, 2, 5]))
def test_hist_grows_the_best_tree_on_integer_data(data, criterion, pruning, min_leaf):
    X, y, X_new = data
    best, hist = fit_both(X, y, criterion, pruning, min_samples_leaf=min_leaf)
    assert_same_tree(best, hist, X_new)


def test_gain_ratio_on_40_values_per_column_has_the_best_trees_leaves():
    """Issue 27's data: 40 distinct integers per column (every value its own bin)."""
    rng = np.random.default_rng(0)
    X = rng.integers(0, 40, size=(2000, 6)).astype(float)
    y = ((X[:, 0] + X[:, 1] + rng.integers(0, 30, 2000)) > 60).astype(int)
    best, hist = fit_both(X, y, "gain_ratio", None)
    assert hist.get_n_leaves() == best.get_n_leaves()
    assert_same_tree(best, hist, rng.uniform(-1, 41, size=(200, 6)))


@pytest.mark.parametrize("criterion", CRITERIA)
@pytest.mark.parametrize("seed", range(4))
def test_hist_grows_the_best_tree_on_random_integer_data_of_fixed_seeds(seed, criterion):
    """Every criterion on the same few seeds (the hypothesis test above draws its own): columns of
    2 to 60 distinct integers, every one its own bin; odd seeds with missing values."""
    rng = np.random.default_rng(seed)
    n, p = 800, 5
    distinct = rng.integers(2, 61, p)
    X = np.column_stack([rng.integers(0, k, n) for k in distinct]).astype(float)
    score = X[:, 0] / distinct[0] + X[:, 1] / distinct[1] + rng.uniform(0, 0.6, n)
    y = np.digitize(score, [0.7, 1.3])
    if seed % 2:
        X[rng.random(X.shape) < 0.05] = np.nan
    best, hist = fit_both(X, y, criterion, None)
    assert best.get_n_leaves() > 10
    assert_same_tree(best, hist, rng.uniform(-1, 61, size=(200, p)))


@pytest.mark.parametrize("criterion", CRITERIA)
@pytest.mark.parametrize("table", ["3.0alpha", "2.0alpha", "loan"])
def test_hist_grows_the_best_tree_on_the_books_other_tables(table, criterion):
    """周志华 西瓜数据集3.0α (numeric), 2.0α (categorical, missing values) and 李航 表5.1."""
    from hyperplane.datasets import load_loan

    X, y = load_loan() if table == "loan" else load_watermelon(table)
    best, hist = fit_both(X, y, criterion, None, min_samples_leaf=1)
    assert_same_tree(best, hist, X)
    assert export_text(hist) == export_text(best)


@pytest.mark.parametrize("criterion", CRITERIA)
@pytest.mark.parametrize("pruning", [None, "pessimistic", "cost_complexity"])
def test_hist_grows_the_best_tree_on_watermelon_3_0(criterion, pruning):
    """周志华 表4.3: 密度 and 含糖率 binned, one value per bin."""
    X, y = load_watermelon("3.0")
    best, hist = fit_both(X, y, criterion, pruning, min_samples_leaf=1)
    assert_same_tree(best, hist, X)
    assert export_text(hist) == export_text(best)


@pytest.mark.parametrize("criterion", CRITERIA)
@pytest.mark.parametrize("pruning", PRUNINGS)
def test_hist_grows_the_best_tree_on_iris(criterion, pruning):
    X, y = load_iris(return_X_y=True)
    best, hist = fit_both(X, y, criterion, pruning)
    rng = np.random.default_rng(0)
    assert_same_tree(best, hist, rng.uniform(0, 8, size=(300, 4)))
