"""Tables in, model inputs out: CSV reading, categorical handling, the model registry."""

import numpy as np
import pandas as pd
import pytest
from sklearn.linear_model import Perceptron
from sklearn.pipeline import Pipeline

from hyperplane.cli._data import build_model, read_table, split_target
from hyperplane.cli._models import UserError
from hyperplane.cli._readers import Table
from hyperplane.datasets import load_watermelon


def test_csv_with_bom_and_chinese_headers(tmp_path):
    path = tmp_path / "瓜.csv"
    path.write_text("编号,色泽,密度,好瓜\n1,青绿,0.697,是\n2,乌黑,0.774,否\n",
                    encoding="utf-8-sig")
    table = read_table(path, index="编号")
    frame = table.frame
    assert list(frame.columns) == ["色泽", "密度", "好瓜"]
    assert frame.index.name == "编号" and frame.loc[2, "色泽"] == "乌黑"
    X, y = split_target(table, "好瓜", path)
    assert list(X.columns) == ["色泽", "密度"] and y.tolist() == ["是", "否"]


def test_shipped_dataset_names_load_the_book_tables():
    table = read_table("watermelon-2.0")
    frame = table.frame
    assert table.default_target == "好瓜"
    X, y = load_watermelon("2.0")
    pd.testing.assert_frame_equal(frame.drop(columns="好瓜"), X)
    assert frame["好瓜"].tolist() == y.tolist()


def test_missing_target_values_are_reported(tmp_path):
    frame = pd.DataFrame({"x": [1.0, 2.0, 3.0], "y": ["a", None, "b"]})
    with pytest.raises(UserError, match="missing values"):
        split_target(Table(frame, "csv"), "y", "t.csv")


def test_csv_needs_a_target():
    frame = pd.DataFrame({"x": [1.0, 2.0], "y": ["a", "b"]})
    with pytest.raises(UserError, match="--target is required.*x, y"):
        split_target(Table(frame, "csv"), None, "t.csv")


def test_numeric_models_get_one_hot_encoding_in_a_pipeline():
    X, y = load_watermelon("3.0")
    model = build_model(Perceptron(), X)
    assert isinstance(model, Pipeline)
    model.fit(X, y)
    names = list(model[:-1].get_feature_names_out())
    assert "纹理_清晰" in names and "密度" in names and len(names) == 19
    # a value never seen in training is ignored, not a crash
    unseen = X.iloc[:2].copy()
    unseen["纹理"] = "光滑"
    assert len(model.predict(unseen)) == 2


def test_trees_and_numeric_data_get_the_estimator_itself():
    from hyperplane.tree import DecisionTreeClassifier

    X, _ = load_watermelon("3.0")
    tree = DecisionTreeClassifier()
    assert build_model(tree, X) is tree          # by its tags, however the model was named
    estimator = Perceptron()
    numeric, _ = load_watermelon("3.0alpha")
    assert build_model(estimator, numeric) is estimator


def test_categorical_tag_is_honoured():
    class TakesCategories(Perceptron):
        def __sklearn_tags__(self):
            tags = super().__sklearn_tags__()
            tags.input_tags.categorical = True
            return tags

    X, _ = load_watermelon("2.0")
    estimator = TakesCategories()
    assert build_model(estimator, X) is estimator


def test_bool_columns_count_as_categorical():
    from hyperplane.cli._data import categorical_columns

    frame = pd.DataFrame({"a": [True, False], "b": [1.0, 2.0], "c": ["x", "y"],
                          "d": np.array([1, 2])})
    assert categorical_columns(frame) == ["a", "c"]
