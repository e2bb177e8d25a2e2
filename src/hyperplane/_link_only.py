"""Kernels without machine code of their own: numba's compiler for a kernel
that only compiled code calls (:class:`hyperplane._numba.InternalDispatcher`).

A compiled caller links its callees' optimised IR into its own library and
generates their machine code there; a callee without numba's wrappers is
never called otherwise, so its own machine code would never run. The compiler
here (:class:`_InternalCompiler`) gives such a kernel's lowering a
:class:`_LinkOnlyLibrary`, which numba finalises without generating it.
Where numba finalises a library otherwise (:func:`_link_only_library_works`),
:data:`INTERNAL_COMPILER` is numba's own compiler and internal kernels
compile as any other.
"""

from __future__ import annotations

import weakref

import llvmlite.binding as ll
from numba.core.codegen import CPUCodeLibrary, JITCodeLibrary, JITCPUCodegen, RuntimeLinker
from numba.core.compiler import Compiler
from numba.core.compiler_machinery import LoweringPass, register_pass
from numba.core.typed_passes import AnnotateTypes

__all__ = ["INTERNAL_COMPILER"]


class _LinkOnlyLibrary(JITCodeLibrary):
    """numba's JIT code library of a kernel that only compiled code calls
    (:class:`hyperplane._numba.InternalDispatcher`), whose functions numba never generates machine
    code for.

    A compiled caller links a callee's optimised IR into its own library (numba's
    ``add_linking_library``) and generates machine code for it there; the
    callee's own machine code would only serve a call through its wrappers,
    which such a kernel does not have. numba nevertheless generates it when the
    library is finalised (``finalize_object``), ~half of each such
    compilation. This library hands the execution engine a module of its
    global variables only (the environment pointers numba's ``set_env`` fills
    in), so that no function of it is generated; the IR callers link is the
    optimised module as before, and numba's cache stores the IR and the
    globals' object code (a cached library is loaded as any other).
    """

    #: whether the module passes run (set by :class:`_LinkOnlyLowering`)
    optimise = True

    def _optimize_final_module(self):
        if self.optimise:
            super()._optimize_final_module()

    def _finalize_final_module(self):
        module = self._final_module
        names = [gv.name for gv in module.global_variables]
        if any(name.startswith(RuntimeLinker.PREFIX) or name.startswith("numba.dynamic.globals")
               for name in names):
            # recursion or dynamic globals: numba resolves them in the engine
            return super()._finalize_final_module()
        self._finalize_dynamic_globals()
        self._verify_declare_only_symbols()
        envs = [name for name in names if name.startswith("_ZN08NumbaEnv")]
        globals_only = ll.parse_assembly("".join(
            f'@"{name}" = common global i8* null\n' for name in envs))
        globals_only.name = module.name
        globals_only.triple = module.triple
        globals_only.data_layout = module.data_layout
        # the object cache hooks find the library through this attribute
        setattr(globals_only, "_CPUCodeLibrary__library", weakref.proxy(self))
        setattr(module, "_CPUCodeLibrary__library", weakref.proxy(self))
        self._codegen._add_module(globals_only)
        self._finalize_specific()
        self._finalized = True


def _link_only_library_works():
    """Whether this numba finalises a library as :class:`_LinkOnlyLibrary` expects
    (else an :class:`hyperplane._numba.InternalDispatcher` compiles as any kernel, machine code
    included)."""
    expected = {"_finalize_dynamic_globals", "_verify_declare_only_symbols",
                "_add_module", "_finalize_specific", "_finalized"}
    code = CPUCodeLibrary._finalize_final_module.__code__
    return (expected <= set(code.co_names) and "_CPUCodeLibrary__library" in code.co_names
            and JITCPUCodegen._library_class is JITCodeLibrary)


@register_pass(mutates_CFG=False, analysis_only=False)
class _LinkOnlyLowering(LoweringPass):
    """Give the lowering a :class:`_LinkOnlyLibrary` (numba's lowering makes a
    plain library only when the state has none)."""

    _name = "hyperplane_link_only_library"

    def __init__(self):
        LoweringPass.__init__(self)

    def run_pass(self, state):
        codegen = state.targetctx.codegen()
        if state.library is None and type(codegen) is JITCPUCodegen:
            state.library = _LinkOnlyLibrary(codegen, state.func_id.func_qualname)
            # a strict kernel's IR is optimised in its callers' libraries, whose module
            # passes run over it anyway; a fastmath kernel's is optimised here first, as
            # before (its rounding follows the order the passes meet its sums in)
            state.library.optimise = bool(state.flags.fastmath)
            state.library.enable_object_caching()
        return False


class _InternalCompiler(Compiler):
    """numba's compiler, whose nopython lowering makes a :class:`_LinkOnlyLibrary`."""

    def define_pipelines(self):
        pipelines = super().define_pipelines()
        for pipeline in pipelines:
            if any(pss is AnnotateTypes for pss, _ in pipeline.passes):
                pipeline.add_pass_after(_LinkOnlyLowering, AnnotateTypes)
                pipeline.finalize()
        return pipelines


#: the compiler of :class:`hyperplane._numba.InternalDispatcher` (numba's own where this numba
#: finalises its libraries otherwise)
INTERNAL_COMPILER = _InternalCompiler if _link_only_library_works() else Compiler
