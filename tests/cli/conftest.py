import os
import subprocess
import sys
from pathlib import Path

import pytest

import hyperplane

SRC = str(Path(hyperplane.__file__).resolve().parents[1])


def run_cli(*args, cwd=None):
    """Run ``python -m hyperplane ARGS`` in a subprocess; return CompletedProcess."""
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""),
               MPLBACKEND="Agg", PYTHONIOENCODING="utf-8", COLUMNS="200")
    env.pop("HYPERPLANE_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "hyperplane", *map(str, args)], cwd=cwd,
                          env=env, capture_output=True, text=True, encoding="utf-8",
                          timeout=300)


@pytest.fixture(scope="session")
def cli():
    return run_cli


@pytest.fixture(scope="session")
def model_file(tmp_path_factory):
    """A numeric model (scikit-learn's Perceptron stand-in) fitted on 西瓜数据集3.0."""
    path = tmp_path_factory.mktemp("m") / "m.hyperplane"
    result = run_cli("fit", "sklearn.linear_model:Perceptron", "watermelon-3.0",
                     "--target", "好瓜", "--out", path)
    assert result.returncode == 0, result.stderr
    return path
