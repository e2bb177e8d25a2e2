"""stdout carries a command's results only: progress bars go to stderr, so
that ``hyperplane predict … > out.csv`` and pipes stay clean."""

import pytest


@pytest.mark.parametrize("model", ["svc", "tree"])
def test_a_verbose_fit_draws_its_progress_on_stderr(cli, tmp_path, model):
    path = tmp_path / "m.hyperplane"
    fitted = cli("fit", model, "heart_scale", "-o", path, "-p", "verbose=True")
    assert fitted.returncode == 0, fitted.stderr
    assert fitted.stdout == ""
    assert "training score" in fitted.stderr


def test_predictions_of_a_verbose_model_are_alone_on_stdout(cli, tmp_path):
    path = tmp_path / "m.hyperplane"
    assert cli("fit", "svc", "heart_scale", "-o", path, "-p", "verbose=True").returncode == 0
    predicted = cli("predict", path, "heart_scale")
    assert predicted.returncode == 0, predicted.stderr
    lines = predicted.stdout.splitlines()
    assert len(lines) == 271  # a header and the 270 rows' labels
    assert all("━" not in line and "%" not in line for line in lines)
