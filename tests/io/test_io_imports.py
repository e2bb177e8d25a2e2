"""Judging the types a model file names imports no more than loading it
does: a perceptron's file does not import the kernel modules (and numba's
compiled kernels of the SVMs) to ask whether its classes are kernels."""

import subprocess
import sys

from hyperplane.io._files import KERNEL_MODULE
from hyperplane.kernels import Kernel

PROBE = """
import sys
from hyperplane.io._files import is_trusted_name
verdicts = [is_trusted_name(name) for name in sys.argv[1:]]
print(verdicts, sorted(m for m in sys.modules if m.startswith("hyperplane.kernels")))
"""


def judged(*names):
    done = subprocess.run([sys.executable, "-c", PROBE, *names], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


def test_the_kernel_base_lives_where_the_trust_check_looks():
    assert Kernel.__module__ == KERNEL_MODULE


def test_judging_a_perceptron_imports_no_kernel_module():
    assert judged("hyperplane.linear._perceptron.Perceptron") == "[True] []"


def test_a_kernel_is_trusted_after_its_module_is_imported():
    verdicts, modules = judged("hyperplane.kernels._kernels.RBF",
                               "hyperplane.kernels._resolve.NotPSDWarning").split("] ", 1)
    assert verdicts == "[True, False"
    assert KERNEL_MODULE in modules
