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


SKOPS_PROBE = """
import json, sys
from pathlib import Path
from hyperplane.io import _skops
if len(sys.argv) > 1:
    _skops._estimator_names_file = lambda: Path(sys.argv[1])
    _skops._public_type_names_file = lambda: Path(sys.argv[2])
    sio = _skops.skops_io()
else:
    import scipy.special  # as skops_io does first
    import skops.io
from skops.io import _trusted_types
from skops.io._utils import get_public_type_names
assert _trusted_types.get_public_type_names is get_public_type_names  # skops' own again
print(json.dumps([_trusted_types.SKLEARN_ESTIMATOR_TYPE_NAMES,
                  _trusted_types.SCIPY_UFUNC_TYPE_NAMES, _trusted_types.NUMPY_UFUNC_TYPE_NAMES,
                  "sklearn.gaussian_process" in sys.modules]))
"""


def skops_names(*args):
    import json

    done = subprocess.run([sys.executable, "-c", SKOPS_PROBE, *map(str, args)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_skops_trusts_the_same_estimators_from_the_kept_names(tmp_path):
    """The first import keeps the names skops listed; the next one hands them
    to skops instead of importing every scikit-learn module and looking each
    ufunc up in every loaded module, and skops' lists of default-trusted
    estimators and ufuncs are the ones its own walks make."""
    kept, kept_ufuncs = tmp_path / "names.json", tmp_path / "ufuncs.json"
    *walked, walked_all = skops_names()
    *first, _ = skops_names(kept, kept_ufuncs)
    assert kept.is_file() and kept_ufuncs.is_file()
    *second, second_walked_all = skops_names(kept, kept_ufuncs)
    assert walked == first == second
    estimators, scipy_ufuncs, numpy_ufuncs = second
    assert "sklearn.svm._classes.SVC" in estimators
    assert any(name.endswith(".expit") for name in scipy_ufuncs) and "numpy.add" in numpy_ufuncs
    assert walked_all and not second_walked_all


def test_a_damaged_names_file_is_not_read(tmp_path, monkeypatch):
    from hyperplane.io import _skops

    kept = tmp_path / "names.json"
    monkeypatch.setattr(_skops, "_estimator_names_file", lambda: kept)
    assert _skops.trusted_estimator_names() is None
    for text in ("{not json", "{}", "[]"):
        kept.write_text(text)
        assert _skops.trusted_estimator_names() is None
    kept.write_text('["sklearn.svm._classes.SVC", "os.system", 3]')
    assert _skops.trusted_estimator_names() == ["sklearn.svm._classes.SVC"]


def test_a_damaged_ufunc_names_file_is_not_read(tmp_path, monkeypatch):
    from hyperplane.io import _skops

    kept = tmp_path / "ufuncs.json"
    monkeypatch.setattr(_skops, "_public_type_names_file", lambda: kept)
    assert _skops.kept_public_type_names() is None
    for text in ("{not json", "{}", "[]", '{"numpy numpy.ufunc": 3}',
                 '{"numpy numpy.ufunc": ["os.system"]}'):
        kept.write_text(text)
        assert _skops.kept_public_type_names() is None, text
    kept.write_text('{"scipy.special numpy.ufunc": ["scipy.special._ufuncs.expit", "os.system", 3]}')
    assert _skops.kept_public_type_names() == {
        "scipy.special numpy.ufunc": ["scipy.special._ufuncs.expit"]}


def test_ufunc_names_are_kept_only_when_scipy_special_is_imported_first(tmp_path):
    """Loaded before (after scikit-learn, which names some ufuncs in its own
    modules), skops' lookup depends on the process: nothing is kept."""
    kept, kept_ufuncs = tmp_path / "names.json", tmp_path / "ufuncs.json"
    code = ("import sys; from pathlib import Path; import sklearn.base; "
            "from hyperplane.io import _skops; "
            "_skops._estimator_names_file = lambda: Path(sys.argv[1]); "
            "_skops._public_type_names_file = lambda: Path(sys.argv[2]); _skops.skops_io()")
    done = subprocess.run([sys.executable, "-c", code, str(kept), str(kept_ufuncs)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert kept.is_file() and not kept_ufuncs.is_file()
