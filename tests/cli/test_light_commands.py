"""The commands import only what they use: ``hyperplane models`` and ``--help``
import neither scikit-learn nor numba (together 1.5 s of a 2-core laptop's start),
fitting one model imports no other family's modules, and a command that writes
no model file does not import skops (its import walks every scikit-learn
estimator: 0.8 s)."""

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
print("MODULES:" + ",".join(sys.modules))  # in the order of their imports
"""


def imported(*args):
    """``(heavy modules, every module)`` that ``hyperplane ARGS`` left imported;
    the second is a list in the order of the imports."""
    result = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True,
                            encoding="utf-8", timeout=300)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    return lines[-2].removeprefix("HEAVY:"), lines[-1].removeprefix("MODULES:").split(",")


#: the model families, each of which imports numba and scikit-learn
FAMILIES = ("hyperplane.linear", "hyperplane.svm", "hyperplane.tree", "hyperplane.neural",
            "hyperplane.kernels", "hyperplane.distributed", "hyperplane.playground")


@pytest.mark.parametrize("args", [["models"], ["--help"], ["fit", "--help"]])
def test_command_imports_no_heavy_module(args):
    heavy, modules = imported(*args)
    assert heavy == ""
    assert sorted(m for m in modules if m.startswith(FAMILIES)) == []


def test_a_missing_model_file_is_refused_before_the_heavy_imports(tmp_path):
    """``show``/``predict`` read the file's header before they import skops
    (and with it every scikit-learn module) to load it."""
    for args in (["show", str(tmp_path / "none.hyperplane")],
                 ["predict", str(tmp_path / "none.hyperplane"), "heart_scale"]):
        heavy, modules = imported(*args)
        assert heavy == "", args
        assert "hyperplane.io._files" in modules
        assert [m for m in modules if m.endswith("_kernels")] == [], args


def test_showing_a_model_without_kernels_imports_neither_numba_nor_a_kernel_module(model_file):
    """A model file of scikit-learn's Perceptron (the ``model_file`` fixture):
    loading and judging its types needs no compiled kernel."""
    heavy, modules = imported("show", str(model_file))
    assert "numba" not in heavy.split(",")
    assert [m for m in modules if m.endswith("_kernels") or m.startswith(FAMILIES)] == []


def test_fit_imports_the_model_file_writer_before_numba(tmp_path):
    """skops' import looks each SciPy ufunc up in every module loaded so far,
    so ``fit`` (which always writes a file) imports it before numba's modules."""
    _, modules = imported("fit", "svc", "heart_scale", "-o", str(tmp_path / "m.hyperplane"), "-q")
    assert modules.index("skops.io") < modules.index("numba")


#: modules of the families and readers an SVC fit on heart_scale does not use
OTHER_MODELS = ("hyperplane.linear", "hyperplane.tree", "hyperplane.neural",
                "hyperplane.svm._linear_svc", "hyperplane.svm._nu", "hyperplane.svm._svr",
                "hyperplane.svm._one_class", "hyperplane.datasets._arff", "hyperplane.plot")


def test_fitting_an_svc_imports_no_other_model(tmp_path):
    _, modules = imported("fit", "svc", "heart_scale", "-o", str(tmp_path / "m.hyperplane"), "-q")
    assert "hyperplane.svm._svc" in modules
    assert sorted(set(modules) & set(OTHER_MODELS)) == []


#: what a fit of an SVC on heart_scale never uses: plotting, the playground's
#: server, dask, the other commands' modules (its floor, scikit-learn with
#: SciPy and pandas, skops and numba, it cannot do without)
NOT_FITTING = ("matplotlib", "PIL", "dask", "distributed", "http.server", "hyperplane.plot",
               "hyperplane.playground", "hyperplane.evaluation", "hyperplane.cli._evaluate",
               "hyperplane.cli._grid", "hyperplane.cli._show", "hyperplane.cli._tour")


@pytest.fixture(scope="module")
def fit_modules(tmp_path_factory):
    """Every module ``hyperplane fit svc heart_scale`` leaves imported, in
    the order of their imports."""
    out = tmp_path_factory.mktemp("fit") / "m.hyperplane"
    return imported("fit", "svc", "heart_scale", "-o", str(out), "-q")[1]


def test_fitting_an_svc_imports_nothing_another_command_needs(fit_modules):
    assert sorted(m for m in fit_modules
                  if any(m == name or m.startswith(name + ".") for name in NOT_FITTING)) == []


def test_fit_loads_scipy_special_before_scikit_learn(fit_modules):
    """skops' import names each SciPy ufunc by the first module in
    ``sys.modules`` that holds it (``pickle.whichmodule``; a module goes there
    when its import ends): with scipy.special loaded before scikit-learn the
    walk passes none of scikit-learn's modules."""
    before = fit_modules[:fit_modules.index("scipy.special")]
    assert [m for m in before if m.split(".")[0] == "sklearn"] == []


#: modules numba imports only to compile (its typing and lowering registries:
#: typed containers, random generators, polynomials, cffi), none of which a
#: kernel loaded from numba's cache needs (``_numba_cache.py``)
COMPILING_ONLY = ("numba.typed.typeddict", "numba.np.random.legacy",
                  "numba.np.polynomial.polynomial_functions", "numba.misc.cffiimpl", "cffi")


def test_a_warm_fit_loads_its_kernels_without_numbas_compiling_modules(tmp_path):
    """The first fit may compile (and then imports them); the second loads
    every kernel from numba's cache."""
    fit = ["fit", "svc", "heart_scale", "-o", str(tmp_path / "m.hyperplane"), "-q"]
    imported(*fit)
    _, modules = imported(*fit)
    assert "hyperplane.svm._smo" in modules
    assert sorted(set(modules) & set(COMPILING_ONLY)) == []


def test_cross_validation_imports_no_model_file_machinery():
    """``evaluate MODEL DATA`` writes no model file: no skops; a numeric table
    needs no one-hot encoding pipeline (sklearn.compose)."""
    _, modules = imported("evaluate", "svc", "heart_scale", "--folds", "2")
    assert "hyperplane.evaluation" in modules
    assert sorted(set(modules) & {"skops", "skops.io", "sklearn.compose", *OTHER_MODELS}) == []


def test_models_lists_a_model_whose_module_is_missing_as_unavailable(monkeypatch):
    from hyperplane.cli import _models

    monkeypatch.setitem(_models.MODELS, "ghost", "hyperplane_ghost.sub:Ghost")
    assert _models.availability()["ghost"] == ("hyperplane_ghost.sub:Ghost", False)
    assert _models.availability()["perceptron"][1]


GC_PROBE = """
import gc, sys
from hyperplane.cli import main
full = []
gc.callbacks.append(lambda phase, info: full.append(phase) if info["generation"] == 2 else None)
sys.argv = ["hyperplane"] + sys.argv[1:]
try:
    main()
except SystemExit:
    pass
print(f"GC:{gc.isenabled()},{gc.get_freeze_count() > 0}")
"""


@pytest.mark.parametrize("command", ["fit", "predict", "show", "evaluate"])
def test_a_command_freezes_what_it_loaded_and_collects_again(command, tmp_path):
    """Modules and classes are never garbage: the commands load them with the
    cyclic collector paused, freeze them out of every later collection and
    resume it for their own work (``cli/_heap.py: loading``)."""
    model = tmp_path / "m.hyperplane"
    fit = ["fit", "svc", "heart_scale", "-o", str(model), "-q"]
    args = {"fit": fit, "predict": ["predict", str(model), "heart_scale", "-o",
                                     str(tmp_path / "p.csv")],
            "show": ["show", str(model)], "evaluate": ["evaluate", "svc", "heart_scale",
                                                       "--folds", "2"]}[command]
    if command in ("predict", "show"):
        subprocess.run([sys.executable, "-c", GC_PROBE, *fit], check=True, capture_output=True)
    result = subprocess.run([sys.executable, "-c", GC_PROBE, *args], capture_output=True,
                            text=True, encoding="utf-8", timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "GC:True,True"
