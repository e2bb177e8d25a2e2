"""DecisionTreeRegressor(splitter="hist"): the exact scan over bins, so that with one
training value per bin the tree is the ``splitter="best"`` tree, for both criteria."""

import numpy as np
import pytest

from hyperplane.tree import DecisionTreeRegressor
from hyperplane.tree._grow._layout import layout
from hyperplane.tree._scan._regression_kernels import best_regression_cut, binned_values
from hyperplane.tree._scan._split_kernels import ABSOLUTE_ERROR, SQUARED_ERROR


def integer_data(seed, n=600, p=5, values=40, missing=0.0):
    """Random integer columns (at most ``values`` distinct values each), a noisy target."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, values, (n, p)).astype(float)
    y = 0.3 * X[:, 0] + np.sin(X[:, 1]) + rng.normal(size=n)
    if missing:
        X[rng.random(X.shape) < missing] = np.nan
    w = rng.uniform(0.5, 2.0, n) if seed % 2 else None
    return X, y, w


def assert_same_tree(a, b, X):
    assert np.array_equal(a.tree_.feature, b.tree_.feature)
    assert np.array_equal(a.tree_.threshold, b.tree_.threshold, equal_nan=True)
    assert np.array_equal(a.tree_.value, b.tree_.value)
    assert np.array_equal(a.predict(X), b.predict(X))


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("criterion", ["squared_error", "absolute_error"])
@pytest.mark.parametrize("params", [{}, {"min_samples_leaf": 5, "max_depth": 8}])
def test_one_value_per_bin_grows_the_best_tree(seed, criterion, params):
    X, y, w = integer_data(seed, missing=0.05 if seed == 3 else 0.0)
    best = DecisionTreeRegressor(criterion=criterion, **params).fit(X, y, w)
    hist = DecisionTreeRegressor(criterion=criterion, splitter="hist", **params).fit(X, y, w)
    assert_same_tree(best, hist, X)


def test_traced_hist_growth_is_the_compiled_tree():
    X, y, _ = integer_data(7)
    compiled = DecisionTreeRegressor(splitter="hist", min_samples_leaf=3).fit(X, y)
    traced = DecisionTreeRegressor(splitter="hist", min_samples_leaf=3,
                                   record_trace=True).fit(X, y)
    assert_same_tree(compiled, traced, X)
    assert traced.trace_[0].split_table["valid"].all()


def binned_column(x, y, max_bins):
    """``binned_values`` of the one column ``x`` over all rows, as ``layout`` bins it."""
    data = layout(x[:, None], y, np.ones(y.size), np.zeros(1, dtype=bool),
                  np.zeros(1, dtype=np.int64), 3, "hist", max_bins)
    rows = np.arange(y.size)
    return binned_values(data.columns, 0, rows, rows)


def test_binned_values_order_rows_by_bin_stably_missing_last():
    X, y, _ = integer_data(0, n=50, values=6, missing=0.1)
    column = binned_column(X[:, 0], y, 256)
    known = ~np.isnan(X[:, 0])
    expected = np.concatenate([np.flatnonzero(known)[np.argsort(X[known, 0], kind="stable")],
                               np.flatnonzero(~known)])
    assert np.array_equal(column.order, expected)
    assert np.array_equal(column.low[:known.sum()], X[expected[:known.sum()], 0])
    assert np.array_equal(column.high[:known.sum()], X[expected[:known.sum()], 0])
    assert np.isnan(column.high[known.sum():]).all()
    assert (column.code[known.sum():] == -1).all()


@pytest.mark.parametrize("criterion", [SQUARED_ERROR, ABSOLUTE_ERROR])
def test_a_binned_cut_is_the_exact_cut_between_whole_bins(criterion):
    """Bins of several values: the cut is the exact scan's best cut among those that
    keep every bin's rows together, midway between the values either side."""
    rng = np.random.default_rng(3)
    x = np.round(rng.normal(size=300), 3)
    y = np.sign(x) + rng.normal(scale=0.3, size=300)
    column = binned_column(x, y, 8)
    cut = best_regression_cut(column, y, np.ones(300), 1, criterion)
    exact = np.sort(np.unique(x))
    whole = [(a, b) for a, b in zip(exact[:-1], exact[1:])
             if column.code[column.order == np.flatnonzero(x == a)[0]][0]
             != column.code[column.order == np.flatnonzero(x == b)[0]][0]]
    # every candidate lies between two bins; the chosen one is the least error among them
    errors = {}
    for a, b in whole:
        left = x <= a
        if criterion == SQUARED_ERROR:
            errors[(a + b) / 2] = sum(((y[s] - y[s].mean()) ** 2).sum() for s in (left, ~left))
        else:
            errors[(a + b) / 2] = sum(np.abs(y[s] - np.median(y[s])).sum()
                                      for s in (left, ~left))
    assert cut.valid and len(errors) == 7
    assert errors[cut.threshold] == pytest.approx(min(errors.values()))
    assert (x <= cut.threshold).sum() == np.searchsorted(column.code, cut.cut_bin, "right")


def test_bad_max_bins_is_named():
    with pytest.raises(ValueError, match="max_bins"):
        DecisionTreeRegressor(splitter="hist", max_bins=1).fit([[0.0], [1.0]], [0.0, 1.0])


def test_the_command_line_fits_both_new_parameters(tmp_path):
    from typer.testing import CliRunner

    from hyperplane.cli import app

    out = tmp_path / "m.hyperplane"
    fitted = CliRunner().invoke(app, ["fit", "tree-regressor", "heart_scale", "-o", str(out),
                                      "-q", "-p", "criterion=absolute_error", "-p",
                                      "splitter=hist", "-p", "max_bins=16", "-p", "max_depth=3"])
    assert fitted.exit_code == 0, fitted.output
    shown = CliRunner().invoke(app, ["show", str(out)], terminal_width=200)
    assert shown.exit_code == 0, shown.output
    assert "criterion='absolute_error'" in shown.output and "splitter='hist'" in shown.output
