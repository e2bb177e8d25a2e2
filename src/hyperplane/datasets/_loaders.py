"""Loaders for the shipped CSV tables (UTF-8, original Chinese headers)."""

from __future__ import annotations

from importlib import resources

import numpy as np
import pandas as pd

_WATERMELON_FILES = {
    "2.0": "watermelon_2.0.csv",
    "2.0alpha": "watermelon_2.0_alpha.csv",
    "3.0": "watermelon_3.0.csv",
    "3.0alpha": "watermelon_3.0_alpha.csv",
}
_NUMERIC_COLUMNS = ("密度", "含糖率")


def _read_table(filename, index, target):
    with resources.files(__package__).joinpath("data", filename).open(
            "r", encoding="utf-8") as handle:
        frame = pd.read_csv(handle, index_col=index, dtype=str,
                            keep_default_na=False, na_values=[""])
    for column in _NUMERIC_COLUMNS:
        if column in frame.columns:
            frame[column] = frame[column].astype(float)
    categorical = [c for c in frame.columns if c not in _NUMERIC_COLUMNS]
    # object dtype with Python str cells and NaN for missing: the documented format
    for column in categorical:
        frame[column] = frame[column].astype(object)
    frame.index = frame.index.astype(np.int64)
    y = frame.pop(target)
    return frame, y


def load_watermelon(version="2.0"):
    """Load a 西瓜数据集 of 周志华《机器学习》chapter 4.

    Parameters
    ----------
    version : {"2.0", "2.0alpha", "3.0", "3.0alpha"}
        ``"2.0"`` is 表4.1 (6 categorical attributes), ``"2.0alpha"`` is
        表4.4 (the same with 13 missing cells), ``"3.0"`` is 表4.3 (2.0 plus
        the continuous 密度 and 含糖率), ``"3.0alpha"`` is 表4.5 (密度 and
        含糖率 only).

    Returns
    -------
    X : pandas.DataFrame
        Index 编号 (1..17); the book's attributes in the book's order,
        categorical values as ``str``, missing as ``NaN``, 密度/含糖率 as float.
    y : pandas.Series
        Named 好瓜, values 是/否.

    Examples
    --------
    >>> X, y = load_watermelon("2.0")
    >>> X.shape, y.name, list(X.columns[:2])
    ((17, 6), '好瓜', ['色泽', '根蒂'])
    """
    if version not in _WATERMELON_FILES:
        raise ValueError(f"version must be one of {sorted(_WATERMELON_FILES)}; "
                         f"got {version!r}")
    return _read_table(_WATERMELON_FILES[version], "编号", "好瓜")


def load_loan():
    """Load 李航《统计学习方法》表5.1, the loan application table.

    Returns
    -------
    X : pandas.DataFrame
        Index ID (1..15); columns 年龄, 有工作, 有自己的房子, 信贷情况.
    y : pandas.Series
        Named 类别, values 是/否.

    Examples
    --------
    >>> X, y = load_loan()
    >>> X.shape, y.name
    ((15, 4), '类别')
    """
    return _read_table("loan_application.csv", "ID", "类别")


def load_perceptron_example():
    """The three points of 李航 例2.1: x1=(3,3), x2=(4,3) positive, x3=(1,1) negative.

    Returns
    -------
    X : ndarray of shape (3, 2), float64
    y : ndarray of shape (3,), int64 with values +1/-1

    Examples
    --------
    >>> X, y = load_perceptron_example()
    >>> X.tolist(), y.tolist()
    ([[3.0, 3.0], [4.0, 3.0], [1.0, 1.0]], [1, 1, -1])
    """
    X = np.array([[3.0, 3.0], [4.0, 3.0], [1.0, 1.0]])
    y = np.array([1, 1, -1], dtype=np.int64)
    return X, y
