"""Mistakes in the user's terms: one line on stderr, non-zero exit, no traceback."""

import numpy as np
import pytest
from typer.testing import CliRunner

from hyperplane.cli import _models, app
from hyperplane.cli._models import UserError, resolve_model
from hyperplane.cli._params import parse_params, parse_value

LINEAR = "sklearn.linear_model:Perceptron"


def assert_refused(result, *words):
    assert result.returncode != 0
    assert "Traceback" not in result.stderr + result.stdout
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    for word in words:
        assert word in lines[0], lines[0]


class _InProcess:
    """``cli(...)`` without a subprocess, for the many small refusals."""

    def __call__(self, *args, cwd=None):
        import os

        old = os.getcwd()
        try:
            if cwd is not None:
                os.chdir(cwd)
            return CliRunner().invoke(app, [str(a) for a in args])
        finally:
            os.chdir(old)


def assert_refused_in_process(result, *words):
    assert result.exit_code != 0 and result.exception is None or \
        isinstance(result.exception, SystemExit), result.exception
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for word in words:
        assert word in lines[0], lines[0]


@pytest.mark.parametrize("args, words", [
    # the four kinds the user meets most, end to end in a subprocess
    (["fit", LINEAR, "watermelon-3.0", "--target", "甜度", "--out", "m"],
     ["unknown column", "甜度", "好瓜"]),
    (["fit", "percepton", "watermelon-3.0", "--target", "好瓜", "--out", "m"],
     ["unknown model", "percepton", "perceptron"]),
    (["fit", LINEAR, "watermelon-3.0", "--target", "好瓜", "--out", "m", "-p", "etta=1"],
     ["unknown parameter", "etta", "eta0"]),
    (["predict", "missing.hyperplane", "watermelon-3.0"], ["no such model file"]),
])
def test_mistakes_in_a_subprocess(cli, tmp_path, args, words):
    assert_refused(cli(*args, cwd=tmp_path), *words)


@pytest.mark.parametrize("args, words", [
    (["fit", "no.such.module:Model", "watermelon-3.0", "--target", "好瓜", "--out", "m"],
     ["unavailable", "no.such.module"]),
    (["fit", LINEAR, "watermelon-3.0", "--target", "好瓜", "--out", "m", "-p", "etta=1"],
     ["unknown parameter", "etta", "eta0"]),
    (["fit", LINEAR, "watermelon-3.0", "--target", "好瓜", "--out", "m", "-p", "eta0=-1"],
     ["eta0"]),
    (["fit", LINEAR, "watermelon-3.0", "--target", "好瓜", "--out", "m", "-p", "eta0"],
     ["KEY=VALUE"]),
    (["fit", LINEAR, "missing.csv", "--target", "好瓜", "--out", "m"], ["no such file",
                                                                        "missing.csv"]),
    (["fit", LINEAR, "watermelon-3.0", "--target", "好瓜", "--index", "号", "--out", "m"],
     ["--index", "号"]),
])
def test_fit_mistakes(tmp_path, args, words):
    assert_refused_in_process(_InProcess()(*args, cwd=tmp_path), *words)


def test_non_utf8_and_empty_csv(tmp_path):
    cli = _InProcess()
    gbk = tmp_path / "gbk.csv"
    gbk.write_bytes("色泽,好瓜\n青绿,是\n".encode("gbk"))
    assert_refused_in_process(cli("fit", LINEAR, gbk, "--target", "好瓜", "--out", "m"),
                              "UTF-8")
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    assert_refused_in_process(cli("fit", LINEAR, empty, "--target", "好瓜", "--out", "m"),
                              "empty")


def test_foreign_model_file(tmp_path):
    cli = _InProcess()
    foreign = tmp_path / "data.csv"
    foreign.write_text("a,b\n1,2\n", encoding="utf-8")
    assert_refused_in_process(cli("predict", foreign, foreign), "not a hyperplane model file",
                              str(foreign))
    assert_refused_in_process(cli("show", foreign), "not a hyperplane model file")
    assert_refused_in_process(cli("show", tmp_path / "nowhere.hyperplane"),
                              "no such model file")


def test_predict_data_lacking_a_training_column(tmp_path, model_file):
    data = tmp_path / "partial.csv"
    data.write_text("色泽,根蒂\n青绿,蜷缩\n", encoding="utf-8")
    assert_refused_in_process(_InProcess()("predict", model_file, data), "lacks column", "敲声")


def test_show_plot_without_data_for_a_linear_model(tmp_path, model_file):
    assert_refused_in_process(_InProcess()("show", model_file, "--plot", tmp_path / "x.png"),
                              "no picture")


def test_parse_value_types():
    assert parse_value("10") == 10 and isinstance(parse_value("10"), int)
    assert parse_value("0.25") == 0.25 and parse_value("1e-3") == 1e-3
    assert parse_value("true") is True and parse_value("False") is False
    assert parse_value("None") is None and parse_value("null") is None
    assert parse_value("inf") == float("inf")
    assert parse_value("(10, 5)") == (10, 5)
    assert parse_value("rbf") == "rbf" and parse_value("'rbf'") == "rbf"
    assert parse_value("__import__('os').system('x')") == "__import__('os').system('x')"


def test_parse_params_checks_names():
    from sklearn.linear_model import Perceptron

    assert parse_params(["eta0=0.5", "max_iter=3"], Perceptron(), "p") == {"eta0": 0.5,
                                                                           "max_iter": 3}
    with pytest.raises(UserError, match="unknown parameter 'eta'"):
        parse_params(["eta=1"], Perceptron(), "p")


def test_registered_model_whose_family_is_missing(monkeypatch):
    monkeypatch.setitem(_models.MODELS, "ghost", "hyperplane.ghost:GhostClassifier")
    with pytest.raises(UserError, match="'ghost' is unavailable"):
        resolve_model("ghost")
    assert _models.availability()["ghost"] == ("hyperplane.ghost:GhostClassifier", False)


def test_registry_names_spec_classes():
    expected = {"perceptron": "Perceptron", "dual-perceptron": "DualPerceptron",
                "least-squares": "LeastSquaresClassifier", "fisher": "FisherDiscriminant",
                "logistic": "LogisticRegression", "adaline": "Adaline",
                "tree": "DecisionTreeClassifier", "oblique-tree": "ObliqueTreeClassifier",
                "svc": "SVC", "linear-svc": "LinearSVC", "svr": "SVR", "linear-svr": "LinearSVR",
                "nusvc": "NuSVC", "nusvr": "NuSVR", "mlp": "MLPClassifier",
                "mlp-regressor": "MLPRegressor", "tree-regressor": "DecisionTreeRegressor",
                "one-class-svm": "OneClassSVM"}
    assert {name: target.split(":")[1] for name, target in _models.MODELS.items()} == expected


def test_labels_beyond_int64_are_not_wrapped_into_one_class(tmp_path):
    from tests.cli.conftest import run_cli

    data = tmp_path / "big.svm"
    data.write_text("1e20 1:1\n-1e20 1:2\n1e20 1:3\n-1e20 1:4\n")
    result = run_cli("fit", "perceptron", data, "-o", tmp_path / "m.hyperplane")
    assert "-9223372036854775808" not in result.stderr + result.stdout
    assert "only one class" not in result.stderr


def test_labels_up_to_two_to_the_53_stay_integers():
    from hyperplane.cli._readers import libsvm_table

    table = libsvm_table(None, np.array([2.0 ** 53, -3.0]))
    assert table.frame.iloc[:, 0].tolist() == [2 ** 53, -3]
    assert table.frame.iloc[:, 0].dtype == np.int64


@pytest.mark.parametrize("port", ["99999", "-1", "65536"])
def test_a_port_out_of_range_is_refused(port):
    result = _InProcess()("playground", "--port", port, "--no-browser")
    assert result.exit_code == 2
    message = " ".join(result.output.replace("│", " ").split())
    assert "Invalid value for '--port'" in message
    assert ("less than or equal to 65535" in message
            or "greater than or equal to 0" in message), message


@pytest.mark.parametrize("port, served", [("0", 0), ("1", 1), ("65535", 65535)])
def test_a_port_in_range_reaches_the_server_and_0_asks_for_a_free_one(monkeypatch, port, served):
    import hyperplane.playground

    calls = []
    monkeypatch.setattr(hyperplane.playground, "serve",
                        lambda host, port, **options: calls.append(port))
    result = _InProcess()("playground", "--port", port, "--no-browser")
    assert result.exit_code == 0, result.output
    assert calls == [served]


def test_port_0_serves_on_a_port_the_system_picks():
    # the server's own binding: werkzeug binds port 0 to a free port
    from werkzeug.serving import make_server

    server = make_server("127.0.0.1", 0, lambda environ, start: [])
    try:
        assert 0 < server.server_port <= 65535
    finally:
        server.server_close()


def test_sklearn_linear_svc_fits_a_libsvm_file(tmp_path):
    from tests.cli.conftest import run_cli

    data = tmp_path / "x.svm"
    data.write_text("+1 1:0.5 3:1\n-1 2:1\n+1 1:0.7\n-1 2:0.2 3:0.1\n")
    result = run_cli("fit", "sklearn.svm:LinearSVC", data, "-o", tmp_path / "m.hyperplane")
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("name, content, words", [
    # pandas read the first row's extra field as an index: every value one column left
    ("ragged.csv", "a,b,y\n1,2,3,p\n4,5,6,n\n", ["ragged.csv, line 2: 4 fields", "3 columns"]),
    ("trailing.csv", "a,b,y\n1,2,p,\n4,5,n,\n", ["trailing.csv, line 2: 4 fields"]),
    # pandas renamed the second 'a' to 'a.1'
    ("twice.csv", "a,a,y\n1,2,p\n4,5,n\n", ["twice.csv", "names the column 'a' twice"]),
    ("bad.svm", "+1 1:1\n-1 3:1 2:1\n", ["bad.svm, line 2: feature index 2 follows 3"]),
    ("bad.arff", "@relation r\n@attribute a numeric\n@attribute y {p,n}\n@data\n1,p\n2,q\n",
     ["bad.arff", "line 6, attribute y: 'q' is not one of"]),
])
def test_a_hostile_data_file_is_refused_naming_its_line_or_column(tmp_path, name, content, words):
    (tmp_path / name).write_text(content, encoding="utf-8")
    result = _InProcess()("fit", "perceptron", name, "--out", "m.hyperplane", cwd=tmp_path)
    assert_refused_in_process(result, *words)
    assert not (tmp_path / "m.hyperplane").exists()
