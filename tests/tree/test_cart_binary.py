"""CART's binary tests on categorical attributes (李航 §5.5.2, 算法5.6, 例5.4)."""

import numpy as np
import pandas as pd
import pytest

from hyperplane.datasets import load_loan
from hyperplane.tree import split_table


def test_split_table_gives_example_5_4s_gini_indices_and_root():
    X, y = load_loan()
    table = split_table(X, y, criterion="gini", categorical_split="binary")
    gini = table["gini_index"]
    # 例5.4, the book's values (A1 年龄 1 青年 2 中年 3 老年; A2 有工作 1 是; A3 有自己的房子 1 是;
    # A4 信贷情况 1 非常好 2 好 3 一般), rounded as the book rounds them
    book = {("年龄", "青年"): 0.44, ("年龄", "中年"): 0.48, ("年龄", "老年"): 0.44,
            ("有工作", "是"): 0.32, ("有自己的房子", "是"): 0.27,
            ("信贷情况", "非常好"): 0.36, ("信贷情况", "好"): 0.47, ("信贷情况", "一般"): 0.32}
    for key, value in book.items():
        assert round(float(gini[key]), 2) == value, key
    best = gini.idxmin()
    assert best[0] == "有自己的房子"       # root A3 = 1 (the complement test is the same split)
    assert table["gini_gain"].idxmax()[0] == "有自己的房子"


def _gini(labels, weights):
    if weights.sum() == 0:
        return 0.0
    p = np.array([weights[labels == k].sum() for k in np.unique(labels)]) / weights.sum()
    return 1.0 - np.sum(p ** 2)


def test_binary_rows_equal_a_numpy_reference_with_missing_values_and_weights():
    rng = np.random.default_rng(3)
    n = 60
    a = rng.choice(["x", "y", "z", None], n)
    y = rng.choice(["p", "q", "r"], n)
    w = rng.integers(1, 4, n).astype(float)
    X = pd.DataFrame({"a": pd.Series(a, dtype=object), "num": rng.normal(size=n)})
    table = split_table(X, y, criterion="gini", categorical_split="binary", sample_weight=w)
    known = pd.notna(a)
    rho = w[known].sum() / w.sum()
    base = _gini(y[known], w[known])
    for value in ["x", "y", "z"]:
        d1 = known & (a == value)
        d2 = known & (a != value)
        after = (w[d1].sum() * _gini(y[d1], w[d1]) + w[d2].sum() * _gini(y[d2], w[d2])) \
            / w[known].sum()
        assert table.loc[("a", value), "gini_index"] == pytest.approx(after, abs=1e-12)
        assert table.loc[("a", value), "gini_gain"] == pytest.approx(rho * (base - after),
                                                                      abs=1e-12)
    # the numeric attribute keeps its one best cut, as in the multiway table
    multiway = split_table(X, y, criterion="gini", sample_weight=w)
    numeric = table.xs("num", level="attribute")
    assert len(numeric) == 1
    assert numeric["threshold"].iloc[0] == multiway.loc["num", "threshold"]
    assert numeric["gini_gain"].iloc[0] == multiway.loc["num", "gini_gain"]


def test_multiway_stays_the_default_and_bad_modes_are_refused():
    X, y = load_loan()
    assert split_table(X, y, criterion="gini").index.tolist() == list(X.columns)
    with pytest.raises(ValueError, match="categorical_split"):
        split_table(X, y, categorical_split="two")
    with pytest.raises(ValueError, match="gain_ratio"):
        split_table(X, y, criterion="gain_ratio", categorical_split="binary")
