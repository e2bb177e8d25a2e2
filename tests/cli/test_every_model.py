"""Every model the command line fits: listed by ``models``, shown by ``show``,
dense-fitted and sparse-fitted (a LIBSVM file) alike."""

import importlib

import pytest
from sklearn.base import BaseEstimator
from typer.testing import CliRunner

from hyperplane.cli import app
from hyperplane.cli._models import MODELS

FAMILIES = ("hyperplane.linear", "hyperplane.tree", "hyperplane.svm", "hyperplane.neural")
#: models whose fit needs a parameter on these small tables
PARAMS = {"dual-perceptron": ["-p", "max_iter=20"], "perceptron": ["-p", "max_iter=20"],
          "mlp": ["-p", "max_iter=20"], "mlp-regressor": ["-p", "max_iter=20"],
          "adaline": ["-p", "max_iter=20"]}
REGRESSORS = {"svr", "linear-svr", "nusvr", "mlp-regressor", "adaline", "tree-regressor"}


def public_estimators():
    """Every public estimator: classifiers, regressors and the outlier detector
    (OneClassSVM, whose fit ignores the target column)."""
    found = set()
    for name in FAMILIES:
        module = importlib.import_module(name)
        for attr in module.__all__:
            obj = getattr(module, attr)
            if isinstance(obj, type) and issubclass(obj, BaseEstimator):
                found.add(f"{name}:{attr}")
    return found


def test_models_lists_every_public_estimator():
    assert set(MODELS.values()) == public_estimators()
    listed = CliRunner().invoke(app, ["models"], terminal_width=200)
    assert listed.exit_code == 0
    for name, target in MODELS.items():
        assert name in listed.output and target in listed.output


@pytest.mark.parametrize("data", ["heart_scale", "watermelon-3.0alpha"])
@pytest.mark.parametrize("model", sorted(MODELS))
def test_show_works_on_every_model_the_cli_fits(tmp_path, model, data):
    if model in REGRESSORS and data != "heart_scale":
        pytest.skip("a regressor needs a numeric target (heart_scale's ±1)")
    out = tmp_path / "m.hyperplane"
    fitted = CliRunner().invoke(app, ["fit", model, data, "-o", str(out), "-q",
                                      *PARAMS.get(model, [])])
    assert fitted.exit_code == 0, fitted.output
    shown = CliRunner().invoke(app, ["show", str(out)], terminal_width=120)
    assert shown.exit_code == 0, shown.output
    assert "error" not in shown.output.lower().split("\n")[0]
