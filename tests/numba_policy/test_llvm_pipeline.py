"""numba's per-function LLVM round runs at hyperplane's level, the final module's at numba's
(``hyperplane/_llvm_pipeline.py``)."""

from __future__ import annotations

import numba
import numpy as np
import pytest
from numba.core import codegen, config
from numba.core.registry import cpu_target

import hyperplane._numba  # noqa: F401  (installs the policy)
from hyperplane._llvm_pipeline import FUNCTION_OPT, LOWERS_FUNCTION_PASSES


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
