"""周志华《机器学习》chapter 4 worked examples, reproduced.

Expected numbers come from the book (3 decimals) and were re-derived by hand
where noted; none is computed by the code under test.
"""

import numpy as np
import pytest

from hyperplane.datasets import load_watermelon
from hyperplane.tree import DecisionTreeClassifier, export_text, split_table
from hyperplane.tree._inspect._export import tree_as_dict

TRAIN_42 = [1, 2, 3, 6, 7, 10, 14, 15, 16, 17]  # 表4.2 training 编号
VALID_42 = [4, 5, 8, 9, 11, 12, 13]  # 表4.2 validation 编号


def test_watermelon20_root_gains_match_book():
    X, y = load_watermelon("2.0")
    table = split_table(X, y)
    assert table.attrs["impurity"] == pytest.approx(0.998, abs=5e-4)
    book = {"色泽": 0.108, "根蒂": 0.143, "敲声": 0.141, "纹理": 0.381, "脐部": 0.289,
            "触感": 0.006}
    for attribute, gain in book.items():
        assert table.loc[attribute, "info_gain"] == pytest.approx(gain, abs=5e-4), attribute
    assert list(table.index) == list(X.columns)
    assert table["threshold"].isna().all()
    assert (table["rho"] == 1.0).all()


def test_watermelon20_id3_tree_is_figure_4_4():
    X, y = load_watermelon("2.0")
    tree = DecisionTreeClassifier(criterion="info_gain").fit(X, y)
    figure_4_4 = ("纹理", {
        "清晰": ("根蒂", {"蜷缩": "是",
                        "稍蜷": ("色泽", {"青绿": "是",
                                        "乌黑": ("触感", {"硬滑": "是", "软粘": "否"}),
                                        "浅白": "是"}),
                        "硬挺": "否"}),
        "稍糊": ("触感", {"硬滑": "否", "软粘": "是"}),
        "模糊": "否"})
    assert tree_as_dict(tree) == figure_4_4
    assert tree.n_leaves_ == 9 and tree.depth_ == 4
    assert tree.score(X, y) == 1.0
    text = export_text(tree)
    assert text.splitlines()[0] == "纹理 = 清晰"
    assert "|   |   |   触感 = 软粘: 否" in text


def _table_4_2():
    X, y = load_watermelon("2.0")
    # 色泽 and 脐部 tie exactly on the 表4.2 training set (both 0.276; same partition
    # shape 3:1 / 2:2 / 0:2); the book picks 脐部. Our tie rule takes the first column,
    # so 脐部 is put first; the other columns keep the book's order.
    X = X[["脐部", "色泽", "根蒂", "敲声", "纹理", "触感"]]
    return X.loc[TRAIN_42], y.loc[TRAIN_42], X.loc[VALID_42], y.loc[VALID_42]


def test_table_4_2_unpruned_is_figure_4_5():
    X_tr, y_tr, X_va, y_va = _table_4_2()
    # by hand: Ent(D) = 1 (5:5); 脐部 branches 3:1, 2:2, 0:2 -> 1 - 0.4 H(3/4) - 0.4 = 0.2755
    h34 = -(0.75 * np.log2(0.75) + 0.25 * np.log2(0.25))
    table = split_table(X_tr, y_tr)
    assert table.loc["脐部", "info_gain"] == pytest.approx(1 - 0.4 * h34 - 0.4)
    assert table.loc["色泽", "info_gain"] == pytest.approx(table.loc["脐部", "info_gain"])
    tree = DecisionTreeClassifier().fit(X_tr, y_tr)
    figure_4_5 = ("脐部", {
        "凹陷": ("色泽", {"青绿": "是", "乌黑": "是", "浅白": "否"}),
        "稍凹": ("根蒂", {"蜷缩": "否",
                        "稍蜷": ("色泽", {"青绿": "是",
                                        "乌黑": ("纹理", {"清晰": "否", "稍糊": "是", "模糊": "是"}),
                                        "浅白": "是"}),
                        "硬挺": "是"}),
        "平坦": "否"})
    assert tree_as_dict(tree) == figure_4_5
    assert tree.score(X_va, y_va) == pytest.approx(3 / 7)  # book: 42.9%


def test_table_4_2_pre_pruning_is_figure_4_6():
    X_tr, y_tr, X_va, y_va = _table_4_2()
    tree = DecisionTreeClassifier(pruning="pre").fit(X_tr, y_tr, validation_data=(X_va, y_va))
    assert tree_as_dict(tree) == ("脐部", {"凹陷": "是", "稍凹": "是", "平坦": "否"})
    assert tree.score(X_va, y_va) == pytest.approx(5 / 7)  # book: 71.4%


def test_table_4_2_post_pruning_is_figure_4_7():
    X_tr, y_tr, X_va, y_va = _table_4_2()
    tree = DecisionTreeClassifier(pruning="post").fit(X_tr, y_tr, validation_data=(X_va, y_va))
    figure_4_7 = ("脐部", {
        "凹陷": "是",
        "稍凹": ("根蒂", {"蜷缩": "否",
                        "稍蜷": ("色泽", {"青绿": "是", "乌黑": "是", "浅白": "是"}),
                        "硬挺": "是"}),
        "平坦": "否"})
    assert tree_as_dict(tree) == figure_4_7
    assert tree.score(X_va, y_va) == pytest.approx(5 / 7)  # book: 71.4%


def test_watermelon30_numeric_thresholds_and_figure_4_8():
    X, y = load_watermelon("3.0")
    table = split_table(X, y)
    # book 4.4.1: Gain(D, 密度) = 0.262 at t = 0.381, Gain(D, 含糖率) = 0.349 at t = 0.126.
    # By hand: sorted 密度 ... 0.360 | 0.403 ...: the midpoint is 0.3815 (book prints 0.381);
    # sorted 含糖率 ... 0.103 | 0.149 ...: midpoint 0.126.
    assert table.loc["密度", "info_gain"] == pytest.approx(0.262, abs=5e-4)
    assert table.loc["密度", "threshold"] == pytest.approx((0.360 + 0.403) / 2)
    assert table.loc["含糖率", "info_gain"] == pytest.approx(0.349, abs=5e-4)
    assert table.loc["含糖率", "threshold"] == pytest.approx((0.103 + 0.149) / 2)
    assert table.loc["纹理", "info_gain"] == pytest.approx(0.381, abs=5e-4)
    tree = DecisionTreeClassifier().fit(X, y)
    figure_4_8 = ("纹理", {"清晰": ("密度", {"<= 0.381": "否", "> 0.381": "是"}),
                          "稍糊": ("触感", {"硬滑": "否", "软粘": "是"}),
                          "模糊": "否"})
    got = tree_as_dict(tree)
    # rounding 0.3815 to 3 decimals gives "0.381" or "0.382" depending on its binary value
    clear = got[1]["清晰"]
    assert clear[0] == "密度"
    assert tree.tree_.threshold[tree.tree_.kids(0)[0]] == pytest.approx(0.3815)
    assert list(clear[1].values()) == ["否", "是"]
    assert got[1]["稍糊"] == figure_4_8[1]["稍糊"] and got[1]["模糊"] == "否"


def test_watermelon20alpha_missing_values_book_gains():
    X, y = load_watermelon("2.0alpha")
    table = split_table(X, y)
    # book 4.4.2: ρ(纹理) = 15/17, Gain(D̃, 纹理) = 0.480, Gain(D, 纹理) = 15/17 × 0.480 = 0.423
    assert table.loc["纹理", "rho"] == pytest.approx(15 / 17)
    assert table.loc["纹理", "info_gain"] == pytest.approx(15 / 17 * 0.480, abs=1e-3)
    book = {"色泽": 0.252, "根蒂": 0.171, "敲声": 0.145, "脐部": 0.289, "触感": 0.006}
    for attribute, gain in book.items():
        assert table.loc[attribute, "info_gain"] == pytest.approx(gain, abs=5e-4), attribute
    assert table.loc["色泽", "rho"] == pytest.approx(14 / 17)


def test_watermelon20alpha_tree_figure_4_9_top():
    """Figure 4.9: 纹理 at the root, 清晰 → 根蒂, 稍糊 → 敲声.

    Hand computation at 纹理=清晰 (rows 1-6, 15 with weight 1 and rows 8, 10
    missing 纹理 with weight r_清晰 = 7/15): Ent = 0.691; Gain(根蒂) = 0.388
    beats Gain(触感) = 0.874 × 0.398 = 0.348.
    """
    X, y = load_watermelon("2.0alpha")
    tree = DecisionTreeClassifier().fit(X, y)
    got = tree_as_dict(tree)
    assert got[0] == "纹理"
    assert got[1]["清晰"][0] == "根蒂"
    assert got[1]["清晰"][1]["蜷缩"] == "是" and got[1]["清晰"][1]["硬挺"] == "否"
    assert got[1]["稍糊"][0] == "敲声"
    t = tree.tree_
    clear = t.kids(0)[0]
    assert t.branch_r[clear] == pytest.approx(7 / 15)
    assert t.value[clear].sum() == pytest.approx(7 + 2 * 7 / 15)
    # rows 8 and 10 (missing 纹理) went down every branch with weights r_v
    assert t.branch_r[t.kids(0)].tolist() == pytest.approx([7 / 15, 5 / 15, 3 / 15])


def test_watermelon20alpha_prediction_mixes_branches_by_r_v():
    X, y = load_watermelon("2.0alpha")
    tree = DecisionTreeClassifier(max_depth=1).fit(X, y)
    row = X.iloc[[0]].copy()
    row["纹理"] = np.nan
    proba = tree.predict_proba(row)[0]
    t = tree.tree_
    kids = t.kids(0)
    expected = sum(t.branch_r[c] * t.value[c] / t.value[c].sum() for c in kids)
    assert proba == pytest.approx(expected)


def test_watermelon30alpha_numeric_only():
    X, y = load_watermelon("3.0alpha")
    table = split_table(X, y)
    assert table.loc["含糖率", "info_gain"] == pytest.approx(0.349, abs=5e-4)
    assert table.loc["含糖率", "threshold"] == pytest.approx(0.126)
    tree = DecisionTreeClassifier().fit(X, y)
    assert tree.tree_.feature[0] == 1 and tree.tree_.threshold[0] == pytest.approx(0.126)
    assert tree.score(X, y) == 1.0
    # numeric attributes are reused below (4.4.1)
    used = tree.tree_.feature[tree.tree_.feature >= 0]
    assert (used == 1).sum() >= 2


def test_gain_ratio_and_gini_on_watermelon20():
    X, y = load_watermelon("2.0")
    ratio = split_table(X, y, criterion="gain_ratio")
    # IV(触感) = 0.874 (book 4.2.2); gain ratio = 0.006 / 0.874
    assert ratio.loc["触感", "gain_ratio"] == pytest.approx(
        ratio.loc["触感", "info_gain"] / 0.874, rel=2e-3)
    gini = split_table(X, y, criterion="gini")
    # by hand: 纹理 branches 清晰 7:2 (9), 稍糊 1:4 (5), 模糊 0:3 (3)
    by_hand = 9 / 17 * (1 - (7 / 9) ** 2 - (2 / 9) ** 2) + 5 / 17 * (1 - 0.2 ** 2 - 0.8 ** 2)
    assert gini.loc["纹理", "gini_index"] == pytest.approx(by_hand)
    # C4.5 heuristic: only attributes with at least average gain compete
    tree = DecisionTreeClassifier(criterion="gain_ratio").fit(X, y)
    average = ratio["info_gain"].mean()
    eligible = ratio[ratio["info_gain"] >= average]
    assert X.columns[tree.tree_.feature[0]] == eligible["gain_ratio"].idxmax()
