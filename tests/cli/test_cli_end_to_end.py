"""The command line end to end, in a subprocess: fit -> file -> predict -> show."""

import io

import pandas as pd
import pytest

from hyperplane.cli._models import resolve_model

def model_arg(name):
    """The registry name, checked to resolve to an installed hyperplane class."""
    resolve_model(name)
    return name


@pytest.mark.parametrize("command", [[], ["fit"], ["predict"], ["show"], ["models"], ["tour"]])
def test_help_on_every_command(cli, command):
    result = cli(*command, "--help")
    assert result.returncode == 0, result.stderr
    assert "Usage" in result.stdout


@pytest.mark.parametrize("name", ["perceptron", "logistic", "tree"])
def test_fit_predict_show_on_shipped_watermelon(cli, tmp_path, name):
    model_file = tmp_path / "model.hyperplane"
    fitted = cli("fit", model_arg(name), "watermelon-3.0", "--target", "好瓜", "--out", model_file)
    assert fitted.returncode == 0, fitted.stderr
    assert "training score" in fitted.stderr and model_file.is_file()

    predicted = cli("predict", model_file, "watermelon-3.0")
    assert predicted.returncode == 0, predicted.stderr
    table = pd.read_csv(io.StringIO(predicted.stdout), index_col="编号")
    assert len(table) == 17 and set(table["predicted_好瓜"]) <= {"是", "否"}
    assert list(table.columns[:2]) == ["色泽", "根蒂"]

    shown = cli("show", model_file)
    assert shown.returncode == 0, shown.stderr
    assert "好瓜" in shown.stdout and "classes_" in shown.stdout


def _user_csvs(tmp_path):
    train = tmp_path / "训练.csv"
    rows = ["编号,身高,体重,性别",
            "a,180,80,男", "b,175,72,男", "c,160,50,女", "d,158,48,女",
            "e,185,90,男", "f,165,55,女"]
    train.write_text("\n".join(rows) + "\n", encoding="utf-8-sig")  # Excel's BOM
    new = tmp_path / "新.csv"
    new.write_text("编号,体重,身高\nx,85,182\ny,45,155\n", encoding="utf-8")
    return train, new


@pytest.mark.parametrize("name", ["perceptron", "svc"])
def test_user_csv_with_chinese_headers(cli, tmp_path, name):
    train, new = _user_csvs(tmp_path)
    model_file = tmp_path / "性别.hyperplane"
    fitted = cli("fit", model_arg(name), train, "--target", "性别", "--index", "编号",
                 "--out", model_file, "--param", "max_iter=500")
    assert fitted.returncode == 0, fitted.stderr
    out = tmp_path / "预测.csv"
    predicted = cli("predict", model_file, new, "--out", out)
    assert predicted.returncode == 0, predicted.stderr
    table = pd.read_csv(out, encoding="utf-8", index_col="编号")
    assert table.loc["x", "predicted_性别"] == "男" and table.loc["y", "predicted_性别"] == "女"
    shown = cli("show", model_file, "--plot", tmp_path / "m.png", "--data", train)
    assert shown.returncode == 0, shown.stderr
    assert (tmp_path / "m.png").stat().st_size > 1000
    assert "体重" in shown.stdout or "support vectors" in shown.stdout


def test_show_plot_of_a_tree_needs_no_data(cli, tmp_path):
    model_file = tmp_path / "tree.hyperplane"
    assert cli("fit", model_arg("tree"), "watermelon-3.0alpha", "--target", "好瓜",
               "--out", model_file).returncode == 0
    shown = cli("show", model_file, "--plot", tmp_path / "tree.png")
    assert shown.returncode == 0, shown.stderr
    assert (tmp_path / "tree.png").stat().st_size > 1000


def test_models_lists_the_registry(cli):
    result = cli("models")
    assert result.returncode == 0
    for name in ("perceptron", "dual-perceptron", "tree", "svc", "mlp-regressor"):
        assert name in result.stdout
