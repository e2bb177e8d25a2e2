"""Loading and showing a kernel SVM's model file imports no compiled kernel:
the SVMs import their kernel modules (the SMO solver, the probability and seed
steps, the distances of ``kernels/_gram.py``) where a fit or a prediction first
calls them, so ``hyperplane show`` pays for neither numba's import nor theirs."""

import subprocess
import sys

import numpy as np
import pytest

from hyperplane.io import save
from hyperplane.svm import SVC, NuSVR, OneClassSVM

PROBE = """
import sys
from hyperplane.cli import main
sys.argv = ["hyperplane", "show", sys.argv[1]]
try:
    main()
except SystemExit as stop:
    assert stop.code in (0, None), stop.code
print("LOADED:" + ",".join(sorted(sys.modules)))
"""


def _shown_modules(path):
    result = subprocess.run([sys.executable, "-c", PROBE, str(path)], capture_output=True,
                            text=True, encoding="utf-8", timeout=300)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().splitlines()[-1].removeprefix("LOADED:").split(",")


@pytest.mark.parametrize("model", [SVC(probability=True, random_state=0), NuSVR(),
                                   OneClassSVM()], ids=lambda m: type(m).__name__)
def test_showing_a_kernel_svm_imports_neither_numba_nor_a_compiled_kernel(model, tmp_path):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 3))
    y = np.where(X[:, 0] > 0, 1, -1) if isinstance(model, SVC) else X[:, 0]
    model.fit(X, y) if not isinstance(model, OneClassSVM) else model.fit(X)
    path = tmp_path / "m.hyperplane"
    save(model, path)
    modules = _shown_modules(path)
    assert f"hyperplane.svm.{type(model).__module__.rsplit('.', 1)[1]}" in modules
    assert [m for m in modules if m == "numba" or m.startswith("numba.")] == []
    compiled = [m for m in modules if m.startswith("hyperplane.") and m.endswith("_kernels")
                and m != "hyperplane.kernels._kernels"]     # the kernel classes, no compiled code
    assert compiled == []
    assert "hyperplane.kernels._gram" not in modules
