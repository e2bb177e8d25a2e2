"""李航《统计学习方法》第5章 on 表5.1 (the loan table): 例5.2, 例5.3 and 例5.4 by the book's numbers."""

import numpy as np
import pytest

from hyperplane.datasets import load_loan
from hyperplane.tree import DecisionTreeClassifier, split_table
from hyperplane.tree._inspect._export import tree_as_dict

ID3_TREE = ("有自己的房子", {"否": ("有工作", {"否": "否", "是": "是"}), "是": "是"})


def _entropy(counts):
    p = np.asarray(counts, dtype=float) / sum(counts)
    return -(p * np.log2(p)).sum()


def test_example_5_2_information_gains():
    """例5.2: H(D) = 0.971; g(D,A1) = 0.083, g(D,A2) = 0.324, g(D,A3) = 0.420, g(D,A4) = 0.363."""
    X, y = load_loan()
    table = split_table(X, y, criterion="info_gain")
    assert table.attrs["impurity"] == pytest.approx(0.971, abs=5e-4)
    book = {"年龄": 0.083, "有工作": 0.324, "有自己的房子": 0.420, "信贷情况": 0.363}
    for attribute, gain in book.items():
        assert table.loc[attribute, "info_gain"] == pytest.approx(gain, abs=5e-4), attribute
    # g(D,A3) by hand: 有自己的房子 = 是 holds 6 applicants, all 是; 否 holds 9, 3 是 and 6 否
    assert table.loc["有自己的房子", "info_gain"] == pytest.approx(
        _entropy([9, 6]) - 9 / 15 * _entropy([3, 6]))


def test_example_5_3_id3_tree():
    """例5.3: ID3 splits on A3 (有自己的房子), then A2 (有工作) on its 否 branch; 例5.3's C4.5 remark:
    the gain ratio gives the same tree on these data."""
    X, y = load_loan()
    assert tree_as_dict(DecisionTreeClassifier(criterion="info_gain").fit(X, y)) == ID3_TREE
    assert tree_as_dict(DecisionTreeClassifier(criterion="gain_ratio").fit(X, y)) == ID3_TREE


def test_example_5_4_gini_of_the_binary_attributes():
    """例5.4: Gini(D, A2=1) = 0.32 and Gini(D, A3=1) = 0.27, the smallest: 有自己的房子 is chosen.
    For a two-valued attribute the book's binary CART split and 周志华's multiway Gini_index
    (式4.6) coincide, so split_table's gini_index is the book's number for A2 and A3."""
    X, y = load_loan()
    table = split_table(X, y, criterion="gini")
    assert table.loc["有工作", "gini_index"] == pytest.approx(0.32, abs=5e-3)
    assert table.loc["有自己的房子", "gini_index"] == pytest.approx(0.27, abs=5e-3)
    assert table["gini_index"].idxmin() == "有自己的房子"
