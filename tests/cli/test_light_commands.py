"""The commands that need no model stay light: ``hyperplane models`` and ``--help``
import neither scikit-learn nor numba (together 1.5 s of a 2-core laptop's start)."""

import subprocess
import sys

import pytest

PROBE = """
import sys
from hyperplane.cli import main
sys.argv = ["hyperplane"] + sys.argv[1:]
try:
    main()
except SystemExit:
    pass
heavy = sorted(name for name in ("sklearn", "numba", "scipy.stats", "skops") if name in sys.modules)
print("HEAVY:" + ",".join(heavy))
"""


@pytest.mark.parametrize("args", [["models"], ["--help"], ["fit", "--help"]])
def test_command_imports_no_heavy_module(args):
    result = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True,
                            encoding="utf-8", timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "HEAVY:", result.stdout[-500:]


def test_models_lists_a_model_whose_module_is_missing_as_unavailable(monkeypatch):
    from hyperplane.cli import _models

    monkeypatch.setitem(_models.MODELS, "ghost", "hyperplane_ghost.sub:Ghost")
    assert _models.availability()["ghost"] == ("hyperplane_ghost.sub:Ghost", False)
    assert _models.availability()["perceptron"][1]
