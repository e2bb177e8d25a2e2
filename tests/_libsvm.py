"""LIBSVM's own svm-train (Debian's libsvm-tools) on the shipped heart_scale."""

import shutil
import subprocess
from importlib import resources

import pytest


def svm_train_header(tmp_path, *options):
    """Run ``svm-train OPTIONS heart_scale`` in ``tmp_path``; the model file's
    header lines as ``{key: text}`` (skips the test without svm-train)."""
    svm_train = shutil.which("svm-train")
    if svm_train is None:
        pytest.skip("svm-train (Debian's libsvm-tools) is not installed")
    data = tmp_path / "heart_scale"
    data.write_text(resources.files("hyperplane.datasets").joinpath("data", "heart_scale")
                    .read_text())
    model = tmp_path / "libsvm.model"
    subprocess.run([svm_train, *options, "-q", str(data), str(model)], check=True)
    return dict(line.split(" ", 1)
                for line in model.read_text().split("SV\n")[0].strip().splitlines())
