"""The command line never destroys an input, reads the encodings users have,
and answers --help without importing the learners."""

import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from hyperplane.cli import app

from .conftest import SRC
from .test_cli_errors import LINEAR, assert_refused_in_process

WATERMELON = "色泽,密度,好瓜\n青绿,0.697,是\n乌黑,0.774,是\n浅白,0.245,否\n青绿,0.343,否\n"


def invoke(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


@pytest.fixture
def csv(tmp_path):
    path = tmp_path / "melon.csv"
    path.write_text(WATERMELON, encoding="utf-8")
    return path


def same_file_spellings(path):
    """The path itself, a symlink to it, a hard link to it, and a ../ detour."""
    link = path.with_name("link.csv")
    link.symlink_to(path)
    hard = path.with_name("hard.csv")
    os.link(path, hard)
    detour = path.parent / ".." / path.parent.name / path.name
    return [path, link, hard, detour]


def test_fit_refuses_out_that_is_its_data_file(csv):
    before = csv.read_bytes()
    for spelling in same_file_spellings(csv):
        result = invoke("fit", LINEAR, csv, "-t", "好瓜", "-o", spelling)
        assert_refused_in_process(result, "--out", "data file")
        assert csv.read_bytes() == before


def test_predict_and_show_refuse_out_that_is_an_input(tmp_path, csv):
    model = tmp_path / "m.hyperplane"
    assert invoke("fit", LINEAR, csv, "-t", "好瓜", "-o", model).exit_code == 0
    model_bytes, data_bytes = model.read_bytes(), csv.read_bytes()
    link = tmp_path / "m-link.hyperplane"
    link.symlink_to(model)
    assert_refused_in_process(invoke("predict", model, csv, "-o", link), "model file")
    assert_refused_in_process(invoke("predict", model, csv, "-o", csv), "data file")
    assert_refused_in_process(invoke("show", model, "--plot", model), "model file")
    assert model.read_bytes() == model_bytes and csv.read_bytes() == data_bytes


def test_predict_out_is_written_atomically_and_completely(tmp_path, csv):
    model = tmp_path / "m.hyperplane"
    assert invoke("fit", LINEAR, csv, "-t", "好瓜", "-o", model).exit_code == 0
    out = tmp_path / "predicted.csv"
    result = invoke("predict", model, csv, "-o", out)
    assert result.exit_code == 0, result.stderr
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "色泽,密度,好瓜,predicted_好瓜" and len(lines) == 5
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_no_arguments_prints_the_usage():
    result = invoke()
    assert "Usage" in result.output and "fit" in result.output


def test_unseen_category_warns_and_still_predicts(tmp_path, csv):
    model = tmp_path / "m.hyperplane"
    assert invoke("fit", LINEAR, csv, "-t", "好瓜", "-o", model).exit_code == 0
    new = tmp_path / "new.csv"
    new.write_text("色泽,密度\n紫色,0.5\n青绿,0.6\n紫色,0.7\n", encoding="utf-8")
    result = invoke("predict", model, new)
    assert result.exit_code == 0, result.stderr
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1
    assert "'色泽'" in warnings[0] and "'紫色'" in warnings[0] and "rows 0, 2" in warnings[0]
    rows = result.stdout.splitlines()
    assert rows[0] == "色泽,密度,predicted_好瓜" and len(rows) == 4
    assert all(row.split(",")[-1] in ("是", "否") for row in rows[1:])


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig"])
def test_utf8_with_or_without_bom(tmp_path, encoding):
    path = tmp_path / "melon.csv"
    path.write_text(WATERMELON, encoding=encoding)
    result = invoke("fit", LINEAR, path, "-t", "好瓜", "-o", tmp_path / "m.hyperplane")
    assert result.exit_code == 0, result.stderr


@pytest.mark.parametrize("encoding", ["gbk", "gb18030"])
def test_chinese_spreadsheet_encoding_is_named_with_the_fix(tmp_path, encoding):
    path = tmp_path / "melon.csv"
    path.write_bytes(WATERMELON.encode(encoding))
    result = invoke("fit", LINEAR, path, "-t", "好瓜", "-o", tmp_path / "m.hyperplane")
    assert_refused_in_process(result, "not UTF-8", "GB18030", "--encoding gb18030", "iconv")
    assert not (tmp_path / "m.hyperplane").exists()
    result = invoke("fit", LINEAR, path, "-t", "好瓜", "-o", tmp_path / "m.hyperplane",
                    "--encoding", "gb18030")
    assert result.exit_code == 0, result.stderr


def test_latin1_file_is_refused_without_a_chinese_guess(tmp_path):
    path = tmp_path / "latin.csv"
    path.write_bytes("name,y\ncafé,a\nnaïve,b\n".encode("latin-1"))
    result = invoke("fit", LINEAR, path, "-t", "y", "-o", tmp_path / "m.hyperplane")
    assert_refused_in_process(result, "not UTF-8", "--encoding")


HEAVY = ("numba", "sklearn", "scipy", "pandas", "numpy", "matplotlib", "skops",
         "hyperplane.linear", "hyperplane.tree", "hyperplane.svm", "hyperplane.neural")


@pytest.mark.parametrize("args", [["--help"], ["fit", "--help"], ["predict", "--help"],
                                  ["tour", "--help"], []])
def test_help_imports_no_learner_and_no_numeric_library(args):
    code = ("import sys\nfrom hyperplane.cli import main\nsys.argv = ['hyperplane'] + "
            f"{args!r}\ntry:\n    main()\nexcept SystemExit:\n    pass\n"
            f"print('HEAVY', sorted(m for m in {HEAVY!r} if m in sys.modules))")
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=300)
    assert "Usage" in done.stdout
    assert done.stdout.strip().splitlines()[-1] == "HEAVY []"


def test_show_reports_the_class_of_the_object_and_refuses_a_false_header(tmp_path, csv):
    """``show`` names the class of the loaded object; a file whose header names
    another class is refused, naming both (the check lives in ``load``)."""
    from tests.io.test_io_atomic import rewrite_header

    model = tmp_path / "m.hyperplane"
    fitted = invoke("fit", "tree", csv, "--target", "好瓜", "--out", model, "-q")
    assert fitted.exit_code == 0, fitted.stderr
    shown = invoke("show", model)
    heading = " ".join(shown.stdout.split())[:300]      # rich wraps the first line
    assert shown.exit_code == 0 and "DecisionTreeClassifier" in heading
    rewrite_header(model, model="hyperplane.svm._svc.SVC")
    refused = invoke("show", model)
    assert refused.exit_code != 0
    message = " ".join(refused.stderr.split())
    assert "hyperplane.svm._svc.SVC" in message and "DecisionTreeClassifier" in message
