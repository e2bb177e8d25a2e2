"""The LLVM optimisation levels numba compiles hyperplane's kernels at, and which kernels
compile without LLVM's loop vectorizer.

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

The decision trees' kernels (:data:`WITHOUT_LOOP_VECTORIZER`) compile without
LLVM's loop vectorizer (LLVM's "Auto-Vectorization in LLVM": it widens a loop
into a vector body, a scalar remainder and run-time checks, all of which the
rest of the pipeline and the code generator then work through), and their fits
are as fast without it. numba's pass builders read ``loop_vectorize`` whenever a
pass manager is made (``CPUCodegen._pass_builder``),
so :func:`install` sets it for the library being optimised, whose own kernel the
module's exported function names say (numba's mangled names start with the
kernel's module, ``numba.core.itanium_mangler``). A tree's first fit: final
modules 37.9k → 36.5k instructions (the histogram tree's 46.9k → 45.1k), LLVM's
final round and code generation 9.0 → 8.3 CPU s (10.8 → 9.6), every tree bit for
bit the same and as fast (``benchmarks/tree_versions.py``, 20k × 10). The SMO
solver's kernels keep it: without it an SVC's dense 10000 × 100 fit ran 2.5x
slower (its kernel rows' fastmath dot products and gradient updates are vector
loops), and without it only in the solver's modules whose loops are not hot (the
iteration, the row cache, shrinking, reconstruction) an SVC's final modules were
the same size (11.6k → 11.5k instructions) and its first fit compiled no faster.

:func:`install` applies both to numba's codegen (:data:`LOWERS_FUNCTION_PASSES`);
a level the user set lower (``NUMBA_OPT``) is kept.
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["FUNCTION_OPT", "LOWERS_FUNCTION_PASSES", "WITHOUT_LOOP_VECTORIZER", "install",
           "loop_vectorizes"]

#: LLVM's optimisation level of numba's per-function round
FUNCTION_OPT = 1

#: hyperplane's packages and modules (dotted names: every module under a package) whose
#: kernels' libraries numba optimises without LLVM's loop vectorizer
WITHOUT_LOOP_VECTORIZER = ("hyperplane.tree",)

#: whether the library numba is optimising now may use the loop vectorizer
_LOOP_VECTORIZE = ContextVar("hyperplane_loop_vectorize", default=True)


def _mangled_prefix(name):
    """The start of the names numba gives the functions under the dotted ``name`` (a package,
    a module, a function): numba's Itanium-style mangling, ``_ZN`` and each part's length
    and characters (``numba.core.itanium_mangler``), so that a package's prefix is one of
    every module's under it and of no other's."""
    from numba.core.itanium_mangler import mangle_identifier

    return "_Z" + mangle_identifier(name + ".f")[:-len("1fE")]


#: the mangled prefixes of :data:`WITHOUT_LOOP_VECTORIZER`
_PREFIXES = None


def loop_vectorizes(module):
    """Whether LLVM's loop vectorizer runs over the llvmlite ``module`` numba optimises: not
    where one of the functions it defines for export (a library's own kernel and numba's
    wrappers of it, ``_ZN7cpython...`` and ``cfunc._ZN...``; its callees' are linked in
    ``linkonce_odr``) is a kernel of :data:`WITHOUT_LOOP_VECTORIZER`."""
    import llvmlite.binding as ll

    global _PREFIXES
    if _PREFIXES is None:
        _PREFIXES = tuple(_mangled_prefix(name) for name in WITHOUT_LOOP_VECTORIZER)
    return not any(
        function.name.removeprefix("cfunc.").replace("_ZN7cpython", "_ZN", 1).startswith(_PREFIXES)
        for function in module.functions
        if not function.is_declaration and function.linkage == ll.Linkage.external)


def install():
    """Make numba's function pass managers run at :data:`FUNCTION_OPT` (or at
    ``numba.core.config.OPT`` where that is lower), and every pass manager of a library
    :func:`loop_vectorizes` denies run without the loop vectorizer; False where numba's
    codegen has no ``_function_pass_manager`` taking ``opt`` or code library optimising in
    ``_optimize_functions`` and ``_optimize_final_module`` (then numba's own pipeline
    stays)."""
    from numba.core import codegen, config

    numbas = getattr(codegen.CPUCodegen, "_function_pass_manager", None)
    builder = getattr(codegen.CPUCodegen, "_pass_builder", None)
    library = codegen.CPUCodeLibrary
    if numbas is None or builder is None or not all(
            hasattr(library, name) for name in ("_optimize_functions", "_optimize_final_module")):
        return False
    if getattr(numbas, "_hyperplane_opt", None) is not None:
        return True

    def _function_pass_manager(self, **kwargs):
        kwargs.setdefault("opt", min(FUNCTION_OPT, int(config.OPT)))
        return numbas(self, **kwargs)

    def _pass_builder(self, **kwargs):
        if not _LOOP_VECTORIZE.get():
            kwargs["loop_vectorize"] = False
        return builder(self, **kwargs)

    def _optimize_functions(self, ll_module):
        with _loop_vectorize(loop_vectorizes(ll_module)):
            return numbas_functions(self, ll_module)

    def _optimize_final_module(self):
        with _loop_vectorize(loop_vectorizes(self._final_module)):
            return numbas_final(self)

    numbas_functions, numbas_final = library._optimize_functions, library._optimize_final_module
    _function_pass_manager._hyperplane_opt = FUNCTION_OPT
    for mine, numbas_method in ((_function_pass_manager, numbas), (_pass_builder, builder),
                                (_optimize_functions, numbas_functions),
                                (_optimize_final_module, numbas_final)):
        mine.__doc__ = numbas_method.__doc__
    codegen.CPUCodegen._function_pass_manager = _function_pass_manager
    codegen.CPUCodegen._pass_builder = _pass_builder
    library._optimize_functions = _optimize_functions
    library._optimize_final_module = _optimize_final_module
    return True


@contextmanager
def _loop_vectorize(allowed):
    """The loop vectorizer allowed (or not) while numba optimises one library's module."""
    token = _LOOP_VECTORIZE.set(allowed)
    try:
        yield
    finally:
        _LOOP_VECTORIZE.reset(token)


#: whether numba's per-function round runs at :data:`FUNCTION_OPT`
LOWERS_FUNCTION_PASSES = install()
