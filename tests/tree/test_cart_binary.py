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


def test_binary_tree_on_the_loan_data_is_example_5_4s():
    from hyperplane.tree import DecisionTreeClassifier, export_text
    X, y = load_loan()
    tree = DecisionTreeClassifier(criterion="gini", categorical_split="binary").fit(X, y)
    names = tree._spec.names
    assert names[tree.tree_.feature[0]].startswith("有自己的房子 = ")   # root: A3 = 1 (例5.4)
    # 例5.4: in D2 (A3 ≠ 1) the best test is A2 = 1 (有工作), whose two sides are pure
    assert tree.get_n_leaves() == 3 and tree.get_depth() == 2
    assert np.array_equal(tree.predict(X), np.asarray(y))
    assert tree.feature_importances_.shape == (4,)
    assert set(np.flatnonzero(tree.feature_importances_)) == {1, 2}
    text = export_text(tree)
    # a two-valued attribute's tests A = 是 and A = 否 are one partition; the first value seen wins
    assert text.splitlines()[0].startswith("有自己的房子 ≠ ")
    assert "有自己的房子 = " in text and "有工作 = " in text
    assert "<= 0.5" not in text


def test_binary_tree_predicts_as_scikit_learn_on_one_hot_columns():
    from sklearn.tree import DecisionTreeClassifier as SkTree

    from hyperplane.tree import DecisionTreeClassifier
    rng = np.random.default_rng(0)
    n = 400
    X = pd.DataFrame({"a": rng.choice(list("pqrst"), n), "b": rng.choice(list("uvw"), n),
                      "c": rng.normal(size=n).round(3)})
    y = np.where((X["a"] == "q") | ((X["b"] == "v") & (X["c"] > 0.3)), "yes", "no")
    flip = rng.random(n) < 0.15
    y = np.where(flip, np.where(y == "yes", "no", "yes"), y)
    w = rng.integers(1, 5, n).astype(float)      # weights make ties between tests unlikely
    ours = DecisionTreeClassifier(criterion="gini", categorical_split="binary",
                                  max_depth=4).fit(X, y, sample_weight=w)
    one_hot = pd.get_dummies(X[["a", "b"]]).astype(float)
    Z = np.column_stack([one_hot.to_numpy(), X["c"].to_numpy()])
    sk = SkTree(criterion="gini", max_depth=4, random_state=0).fit(Z, y, sample_weight=w)
    X_new = pd.DataFrame({"a": rng.choice(list("pqrst"), 300), "b": rng.choice(list("uvw"), 300),
                          "c": rng.normal(size=300).round(3)})
    Z_new = np.column_stack([pd.get_dummies(X_new[["a", "b"]]).astype(float).to_numpy(),
                             X_new["c"].to_numpy()])
    assert ours.get_n_leaves() == sk.get_n_leaves()
    assert np.array_equal(ours.predict(X_new), sk.predict(Z_new))
    assert np.array_equal(ours.apply(X_new) >= 0, np.ones(300, bool))


def test_binary_mode_with_hist_missing_values_and_post_pruning():
    from hyperplane.datasets import load_watermelon
    from hyperplane.tree import DecisionTreeClassifier, node_weights
    X, y = load_watermelon("2.0alpha")       # missing values (周志华 表4.4)
    best = DecisionTreeClassifier(criterion="gini", categorical_split="binary").fit(X, y)
    hist = DecisionTreeClassifier(criterion="gini", categorical_split="binary",
                                  splitter="hist").fit(X, y)
    assert np.array_equal(best.tree_.feature, hist.tree_.feature)   # 0/1 columns: a bin per value
    assert np.allclose(best.predict_proba(X), hist.predict_proba(X))
    assert node_weights(best, X)[0].sum() == len(X)
    X3, y3 = load_watermelon("3.0")
    pruned = DecisionTreeClassifier(criterion="gini", categorical_split="binary",
                                    pruning="post").fit(X3.iloc[:12], y3[:12],
                                                        validation_data=(X3.iloc[12:], y3[12:]))
    assert pruned.predict(X3).shape == (17,)


def test_a_binary_tree_survives_its_model_file(tmp_path):
    from hyperplane.io import load, save
    from hyperplane.tree import DecisionTreeClassifier
    X, y = load_loan()
    tree = DecisionTreeClassifier(criterion="gini", categorical_split="binary").fit(X, y)
    save(tree, tmp_path / "cart.hyperplane")
    again = load(tmp_path / "cart.hyperplane")
    assert np.array_equal(again.predict(X), tree.predict(X))
    assert np.array_equal(again.decision_path(X).toarray(), tree.decision_path(X).toarray())


def test_binary_mode_says_it_does_not_take_dask_input_yet():
    import dask.dataframe as dd

    from hyperplane.tree import DecisionTreeClassifier
    X, y = load_loan()
    Xd = dd.from_pandas(X.reset_index(drop=True), npartitions=2)
    yd = dd.from_pandas(pd.Series(np.asarray(y)), npartitions=2)
    with pytest.raises(ValueError, match="categorical_split"):
        DecisionTreeClassifier(categorical_split="binary").fit(Xd, yd)
