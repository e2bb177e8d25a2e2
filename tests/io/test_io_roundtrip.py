"""save/load round-trips: every hyperplane estimator, pipelines, kernels, frames."""

import dataclasses

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone, is_classifier, is_regressor
from sklearn.datasets import make_classification, make_regression
from sklearn.utils import get_tags

from hyperplane.datasets import load_watermelon
from hyperplane.io import FORMAT_VERSION, load, read_header, save
from hyperplane.utils import all_estimators

X_CLS, Y_CLS = make_classification(n_samples=40, n_features=4, n_informative=3,
                                   n_redundant=0, random_state=0)
X_REG, Y_REG = make_regression(n_samples=40, n_features=4, noise=0.5, random_state=0)

OUTPUTS = ("predict", "decision_function", "predict_proba", "transform")

#: a perceptron's trace is one row per update, each with its weight vector: 1,000 epochs
#: of X_CLS, which they do not separate, are 19,314 rows, and skops saves every array
#: as a file of its own, looking each name up in the zip's whole name list (quadratic:
#: 100 s of the Perceptron's round trip, 21 s of the DualPerceptron's). Five epochs are
#: 99 rows, still a DataFrame trace with an array in every row.
TRACED_EPOCHS = {"Perceptron": 5, "DualPerceptron": 5}


def _fit_for_test(estimator):
    """Fit on data the estimator's kind accepts; return (model, X to predict)."""
    params = estimator.get_params()
    if "record_trace" in params:  # also cover the DataFrame attribute trace_
        estimator.set_params(record_trace=True)
    if type(estimator).__name__ in TRACED_EPOCHS:
        estimator.set_params(max_iter=TRACED_EPOCHS[type(estimator).__name__])
    if "random_state" in params:
        estimator.set_params(random_state=0)
    if get_tags(estimator).input_tags.categorical and not is_regressor(estimator):
        X, y = load_watermelon("2.0")
        return estimator.fit(X, y), X
    if is_regressor(estimator):
        return estimator.fit(X_REG, Y_REG), X_REG
    return estimator.fit(X_CLS, Y_CLS), X_CLS


def _assert_same_records(loaded, original):
    """A list of dataclass records (a tree's ``trace_``), field by field."""
    assert len(loaded) == len(original)
    for got, want in zip(loaded, original):
        assert type(got) is type(want)
        for field in dataclasses.fields(want):
            a, b = getattr(got, field.name), getattr(want, field.name)
            if isinstance(b, pd.DataFrame):
                pd.testing.assert_frame_equal(a, b)
            else:
                np.testing.assert_array_equal(a, b)


def _assert_same_model(original, loaded, X):
    assert type(loaded) is type(original)
    assert loaded.get_params().keys() == original.get_params().keys()
    compared = 0
    for method in OUTPUTS:
        if hasattr(original, method):
            np.testing.assert_array_equal(getattr(loaded, method)(X), getattr(original, method)(X))
            compared += 1
    assert compared > 0
    for name in ("trace_", "loss_curve_"):
        if hasattr(original, name):
            value = getattr(original, name)
            if isinstance(value, pd.DataFrame):
                pd.testing.assert_frame_equal(getattr(loaded, name), value)
            elif isinstance(value, list) and value and dataclasses.is_dataclass(value[0]):
                _assert_same_records(getattr(loaded, name), value)
            else:
                np.testing.assert_array_equal(getattr(loaded, name), value)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("name, cls", all_estimators() or [pytest.param(
    None, None, marks=pytest.mark.skip(reason="no hyperplane estimator merged yet"))])
def test_every_hyperplane_estimator_round_trips(tmp_path, name, cls):
    model, X = _fit_for_test(cls())
    path = tmp_path / f"{name}.hyperplane"
    save(model, path)
    _assert_same_model(model, load(path), X)
    assert read_header(path)["model"].endswith(name)


def _standins():
    """scikit-learn models in the shapes the CLI writes (pipelines, frames, kernels)."""
    from sklearn.compose import ColumnTransformer
    from sklearn.linear_model import LogisticRegression, Perceptron
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import OneHotEncoder
    from sklearn.svm import SVC

    from hyperplane.kernels import RBF, Polynomial

    X3, y3 = load_watermelon("3.0")
    categorical = list(X3.columns[:6])
    encode = ColumnTransformer(
        [("onehot", OneHotEncoder(handle_unknown="ignore", sparse_output=False), categorical)],
        remainder="passthrough", verbose_feature_names_out=False).set_output(transform="pandas")
    pipeline = Pipeline([("encode", encode), ("model", LogisticRegression())]).fit(X3, y3)
    kernel_svc = SVC(kernel=2.0 * RBF(sigma=1.5) + Polynomial(degree=2)).fit(X_CLS, Y_CLS)
    traced = Perceptron(random_state=0).fit(X_CLS, Y_CLS)
    traced.trace_ = pd.DataFrame({"step": [1, 2], "sample": [0, 2],
                                  "w": [np.array([3.0, 3.0]), np.array([2.0, 2.0])],
                                  "b": [1.0, 0.0]})
    return {"pipeline-onehot": (pipeline, X3), "svc-hyperplane-kernel": (kernel_svc, X_CLS),
            "trace-dataframe": (traced, X_CLS)}


@pytest.mark.parametrize("case", ["pipeline-onehot", "svc-hyperplane-kernel", "trace-dataframe"])
def test_standin_models_round_trip(tmp_path, case):
    model, X = _standins()[case]
    before = clone(model).get_params(deep=False)
    save(model, tmp_path / "m.hyperplane")
    _assert_same_model(model, load(tmp_path / "m.hyperplane"), X)
    # saving never modifies the user's model (frames are converted on a copy)
    assert clone(model).get_params(deep=False).keys() == before.keys()
    if case == "trace-dataframe":
        assert isinstance(model.trace_, pd.DataFrame)


def test_header_carries_format_versions_and_metadata(tmp_path):
    from sklearn.linear_model import Perceptron

    import hyperplane

    path = tmp_path / "m.hyperplane"
    save(Perceptron().fit(X_CLS, Y_CLS), path, metadata={"target": "好瓜", "features": ["色泽"]})
    header = read_header(path)
    assert header["format"] == "hyperplane-model"
    assert header["format_version"] == FORMAT_VERSION == 2
    assert header["hyperplane_version"] == hyperplane.__version__
    assert header["metadata"] == {"target": "好瓜", "features": ["色泽"]}
    assert header["model"] == "sklearn.linear_model._perceptron.Perceptron"


def test_trusted_types_cover_hyperplane_estimators_and_kernels():
    from hyperplane.io import trusted_types

    trusted = trusted_types()
    assert "hyperplane.kernels._kernels.RBF" in trusted
    assert "hyperplane.io._frames.FrameState" in trusted
    for _, cls in all_estimators():
        assert f"{cls.__module__}.{cls.__qualname__}" in trusted
    assert not any(name.startswith(("os.", "builtins.", "subprocess.")) for name in trusted)


def test_each_name_is_judged_as_the_whole_trusted_list_judges_it():
    """untrusted_in imports only the module a name points into; its verdict
    must still be membership in trusted_types()."""
    from hyperplane.io import trusted_types
    from hyperplane.io._files import is_trusted_name, untrusted_in
    from hyperplane.utils import hyperplane_classes

    trusted = trusted_types()
    names = set(hyperplane_classes()) | trusted | {
        "os.system", "builtins.eval", "subprocess.Popen", "hyperplane.cli._app.app",
        "hyperplane.playground._server.Flask", "hyperplane.no_such.Module",
        "hyperplane.kernels._resolve.NotPSDWarning", "hyperplane.svm._svc.SVC.fit",
        "hyperplane.svm._svc.np", "hyperplane.svm", "hyperplane", "", ".", "hyperplane..SVC"}
    for name in names:
        assert is_trusted_name(name) == (name in trusted), name
    assert untrusted_in(["os.system", "hyperplane.svm._svc.SVC"]) == ["os.system"]


def test_classifier_and_regressor_discovery_is_consistent():
    names = {name for name, _ in all_estimators()}
    classifiers = {name for name, _ in all_estimators("classifier")}
    regressors = {name for name, _ in all_estimators("regressor")}
    assert classifiers <= names and regressors <= names and not classifiers & regressors
    for name, cls in all_estimators("classifier"):
        assert is_classifier(cls())
    with pytest.raises(ValueError, match="type_filter"):
        all_estimators("clusterer")


def test_tree_trace_survives_save_and_the_fitted_tree_is_untouched(tmp_path):
    X, y = load_watermelon("2.0")
    from hyperplane.tree import DecisionTreeClassifier
    tree = DecisionTreeClassifier(record_trace=True).fit(X, y)
    tables = [node.split_table for node in tree.trace_]
    save(tree, tmp_path / "tree.hyperplane")
    # the user's model still holds its own DataFrames (save converts a copy)
    assert all(a is b.split_table for a, b in zip(tables, tree.trace_))
    loaded = load(tmp_path / "tree.hyperplane")
    root = loaded.trace_[0].split_table
    assert isinstance(root, pd.DataFrame)
    assert root["info_gain"].idxmax() == "纹理"
    _assert_same_records(loaded.trace_, tree.trace_)
