import numpy as np
import pandas as pd
import pytest

from hyperplane.datasets import load_loan, load_perceptron_example, load_watermelon

ATTRS_20 = ["色泽", "根蒂", "敲声", "纹理", "脐部", "触感"]


@pytest.mark.parametrize("version, columns", [
    ("2.0", ATTRS_20),
    ("2.0alpha", ATTRS_20),
    ("3.0", ATTRS_20 + ["密度", "含糖率"]),
    ("3.0alpha", ["密度", "含糖率"]),
])
def test_watermelon_shape_index_columns(version, columns):
    X, y = load_watermelon(version)
    assert isinstance(X, pd.DataFrame) and isinstance(y, pd.Series)
    assert list(X.columns) == columns
    assert X.index.name == "编号" and X.index.tolist() == list(range(1, 18))
    assert y.name == "好瓜" and set(y) == {"是", "否"}
    assert (y == "是").sum() == 8 and (y == "否").sum() == 9   # 表4.1: 8 good, 9 bad


def test_watermelon_dtypes():
    X, _ = load_watermelon("3.0")
    for column in ATTRS_20:
        assert X[column].dtype == object
        assert all(isinstance(v, str) for v in X[column])
    assert X["密度"].dtype == np.float64 and X["含糖率"].dtype == np.float64
    assert X.loc[1, "密度"] == pytest.approx(0.697)
    assert X.loc[17, "含糖率"] == pytest.approx(0.103)


def test_watermelon_20alpha_has_13_missing_cells():
    X, _ = load_watermelon("2.0alpha")
    assert int(X.isna().sum().sum()) == 13
    X20, _ = load_watermelon("2.0")
    known = X.notna()
    # the α table is 2.0 with cells blanked out, nothing else changed
    assert (X[known] == X20[known]).sum().sum() == known.sum().sum()


def test_loan_table():
    X, y = load_loan()
    assert X.shape == (15, 4) and X.index.name == "ID"
    assert list(X.columns) == ["年龄", "有工作", "有自己的房子", "信贷情况"]
    assert y.name == "类别" and (y == "是").sum() == 9   # 李航 表5.1: 9 yes, 6 no


def test_perceptron_example():
    X, y = load_perceptron_example()
    np.testing.assert_array_equal(X, [[3, 3], [4, 3], [1, 1]])
    np.testing.assert_array_equal(y, [1, 1, -1])


def test_unknown_version_is_named():
    with pytest.raises(ValueError, match="version"):
        load_watermelon("4.0")
