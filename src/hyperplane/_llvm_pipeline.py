"""The LLVM optimisation levels numba compiles hyperplane's kernels at.

numba (0.68, ``numba.core.codegen.CPUCodeLibrary``) optimises a library in two
rounds, both at ``NUMBA_OPT`` (3 unless the user sets it): as each lowered module
is added, LLVM's function pipeline runs over each of its functions
(``_optimize_functions``); once the library has linked in its callees' modules,
LLVM's module pipeline runs over the whole final module (``_optimize_final_module``,
after a cheap -O0 round for numba's reference-count pruner). The module pipeline
runs the function simplification passes again over every function it holds (LLVM's
new pass manager, ``PassBuilder::buildPerModuleDefaultPipeline``: the function
simplification pipeline inside the inliner's CGSCC walk), so most of the first
round's -O3 work (SROA, instcombine, GVN, correlated value propagation, jump
threading) is done twice, on functions the final round rewrites after inlining.

:data:`FUNCTION_OPT` sets the first round's level: -O1 still promotes the
allocas numba's lowering makes (SROA), folds and simplifies (instcombine, early
CSE, simplify CFG) and prunes references, so the modules stay small for linking,
and the final module is optimised at numba's level as before: final modules of
the same size (an SVC's first fit 13.26k → 13.33k IR instructions, a
classification tree's 39.23k → 39.23k) and every fit bit for bit the same.
Measured with ``benchmarks/llvm_passes.py`` (numba's ``NUMBA_LLVM_PASS_TIMINGS``):
the SVC's first fit spends 2.8 → 1.9 CPU s in the function passes, the tree's
3.0 → 2.3; the final round (2.7-2.9 s, 6.3-6.6 s) and the machine code (1.2 s,
2.8 s) stay as they were.

The final round stays at numba's level. At -O2 (LLVM's -O3 pipeline without its
higher inlining threshold, argument promotion, call-site splitting and
non-trivial loop unswitching) a tree's final modules are ~8% smaller (37.9k →
34.7k instructions) and every fit is bit for bit the same, but a first fit does
not compile faster (``benchmarks/cold_start.py``, both orders: the trees and the
SVC within ±0.7 CPU s, the histogram tree 0.6-0.7 s slower); without the loop
vectorizer it compiles less but changes the sums that fastmath lets LLVM reorder
(the LIBLINEAR-family and logistic fits' last bits).

:func:`install` applies it to numba's codegen (:data:`LOWERS_FUNCTION_PASSES`);
a level the user set lower (``NUMBA_OPT``) is kept.
"""

from __future__ import annotations

__all__ = ["FUNCTION_OPT", "LOWERS_FUNCTION_PASSES", "install"]

#: LLVM's optimisation level of numba's per-function round
FUNCTION_OPT = 1


def install():
    """Make numba's function pass managers run at :data:`FUNCTION_OPT` (or at
    ``numba.core.config.OPT`` where that is lower); False where numba's codegen
    has no ``_function_pass_manager`` taking ``opt`` (then numba's own pipeline
    stays)."""
    from numba.core import codegen, config

    numbas = getattr(codegen.CPUCodegen, "_function_pass_manager", None)
    if numbas is None or not hasattr(codegen.CPUCodegen, "_pass_builder"):
        return False
    if getattr(numbas, "_hyperplane_opt", None) is not None:
        return True

    def _function_pass_manager(self, **kwargs):
        kwargs.setdefault("opt", min(FUNCTION_OPT, int(config.OPT)))
        return numbas(self, **kwargs)

    _function_pass_manager._hyperplane_opt = FUNCTION_OPT
    _function_pass_manager.__doc__ = numbas.__doc__
    codegen.CPUCodegen._function_pass_manager = _function_pass_manager
    return True


#: whether numba's per-function round runs at :data:`FUNCTION_OPT`
LOWERS_FUNCTION_PASSES = install()
