"""numba's per-function LLVM round runs at hyperplane's level, the final module's at numba's,
and the libraries of the kernels ``WITHOUT_LOOP_VECTORIZER`` names compile without LLVM's
loop vectorizer (``hyperplane/_llvm_pipeline.py``)."""

from __future__ import annotations

import numba
import numpy as np
import pytest
from numba.core import codegen, config
from numba.core.funcdesc import default_mangler, qualifying_prefix
from numba.core.registry import cpu_target

import hyperplane._numba  # noqa: F401  (installs the policy)
from hyperplane._llvm_pipeline import FUNCTION_OPT, LOWERS_FUNCTION_PASSES, _mangled_prefix


@pytest.fixture
def levels(monkeypatch):
    """The ``opt`` of every pass builder numba's codegen makes."""
    seen = []
    numbas = codegen.CPUCodegen._pass_builder

    def spy(self, **kwargs):
        seen.append(kwargs.get("opt", int(config.OPT)))
        return numbas(self, **kwargs)

    monkeypatch.setattr(codegen.CPUCodegen, "_pass_builder", spy)
    return seen


def test_the_policy_is_in_force():
    assert LOWERS_FUNCTION_PASSES
    assert codegen.CPUCodegen._function_pass_manager._hyperplane_opt == FUNCTION_OPT


def test_function_passes_run_at_the_policy_level_and_the_final_module_at_numbas(levels):
    generator = cpu_target.target_context.codegen()
    generator._function_pass_manager()
    generator._module_pass_manager()
    assert levels == [min(FUNCTION_OPT, int(config.OPT)), int(config.OPT)]


def test_a_lower_level_the_user_set_is_kept(levels, monkeypatch):
    monkeypatch.setattr(config, "OPT", config._OptLevel(0))
    cpu_target.target_context.codegen()._function_pass_manager()
    assert levels == [0]


def test_a_kernel_compiled_under_the_policy_matches_numpy(levels):
    @numba.njit(fastmath={"reassoc", "contract"})
    def dot_rows(X, w):
        out = np.empty(X.shape[0])
        for i in range(X.shape[0]):
            s = 0.0
            for j in range(X.shape[1]):
                s += X[i, j] * w[j]
            out[i] = s
        return out

    rng = np.random.default_rng(0)
    X, w = rng.standard_normal((50, 7)), rng.standard_normal(7)
    np.testing.assert_allclose(dot_rows(X, w), X @ w, rtol=1e-12)
    assert min(FUNCTION_OPT, int(config.OPT)) in levels  # its functions' round


@pytest.fixture
def vectorizers(monkeypatch):
    """The ``(opt, loop_vectorize)`` of every LLVM pass builder numba's codegen makes (numba's
    ``_pass_builder`` hands them to llvmlite's ``create_pass_builder``)."""
    numba.njit(lambda a: a[0])(np.zeros(1))  # numba's own runtime library, compiled once
    seen = []
    numbas = codegen.create_pass_builder

    def spy(tm, **kwargs):
        seen.append((int(kwargs["opt"]), bool(kwargs["loop_vectorize"])))
        return numbas(tm, **kwargs)

    monkeypatch.setattr(codegen, "create_pass_builder", spy)
    return seen


def _compile_fresh(module_name, name="add_rows"):
    """Compile a small kernel ``name`` defined in a module named ``module_name`` (a fresh
    function: numba compiles it now) and check it against NumPy."""
    source = (
        f"def {name}(X, out):\n"
        "    for i in range(X.shape[0]):\n"
        "        for j in range(X.shape[1]):\n"
        "            out[j] += X[i, j]\n")
    namespace = {"__name__": module_name}
    exec(compile(source, f"<{module_name}>", "exec"), namespace)
    kernel = numba.njit(namespace[name])
    X, out = np.arange(12.0).reshape(4, 3), np.zeros(3)
    kernel(X, out)
    np.testing.assert_array_equal(out, X.sum(axis=0))


@pytest.mark.parametrize("module_name", ["hyperplane.tree._scan.some_kernels",
                                         "hyperplane.tree.some_kernels"])
def test_the_registrys_kernels_compile_without_the_loop_vectorizer(vectorizers, module_name):
    _compile_fresh(module_name)
    assert vectorizers and not any(vectorize for _, vectorize in vectorizers)


@pytest.mark.parametrize("module_name", ["hyperplane.svm._smo_kernels", "hyperplane.treelike",
                                         "hyperplane.linear.tree", "somewhere.else"])
def test_other_kernels_keep_it(vectorizers, module_name):
    _compile_fresh(module_name)
    # numba's choice: its cheap round before the reference-count pruner (-O0) never vectorises
    assert vectorizers and all(vectorize == bool(config.LOOP_VECTORIZE)
                               for opt, vectorize in vectorizers if opt > 0)


@pytest.mark.parametrize("name, prefix", [
    ("hyperplane.tree", "_ZN10hyperplane4tree"),
    ("hyperplane.svm._smo_kernels", "_ZN10hyperplane3svm12_smo_kernels")])
def test_a_registry_name_is_the_start_of_numbas_mangled_names(name, prefix):
    assert _mangled_prefix(name) == prefix
    assert default_mangler(qualifying_prefix(name, "f"), (), uid=1).startswith(prefix)

