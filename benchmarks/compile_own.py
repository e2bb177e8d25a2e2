"""Where one compiled function's own compilation goes, with figures a loaded machine does not blur.

Usage (from the repository root)::

    PYTHONPATH=src python benchmarks/compile_own.py tree watermelon-2.0
    PYTHONPATH=src python benchmarks/compile_own.py --repeats 3 \\
        --function hyperplane.tree._grow._store_kernels:graft tree watermelon-3.0 -p splitter=hist

It runs ``hyperplane fit ARGS`` once in this process with an empty numba cache,
so that every function the fit needs is compiled, then compiles a fresh copy of
``--function`` for each signature the fit compiled: its callees are compiled
already, so what it costs is its own (typing, numba's lowering, and LLVM's
optimisation and code generation of its library, which links the IR of the
internal kernels it calls). Per signature it prints the CPU seconds of each
phase and two counts that do not depend on the machine's load: the Python
calls numba makes while compiling it (typing and lowering work) and the lines
of LLVM IR it lowers before optimisation, and the instructions of the final
module LLVM optimises and generates code for. The phase clocks wrap numba's
methods in this process only.

``--entries`` lists instead the fit's entry points, the compiled functions
Python calls (with numba's CPython wrapper): each one's final module is its
whole call tree linked and optimised again, so what two entry points both
reach is optimised twice. Per entry point: the instructions of its final
module and its own compile CPU seconds, and the total over every final
module LLVM optimised, and three whole-fit counts that do not depend on the
machine's load: the functions compiled (numba's outermost and nested
compilations), the Python calls made inside its outermost compilations (the
typing and lowering work of them all, counted by ``cProfile``) and the lines of
LLVM IR lowered::

    PYTHONPATH=src python benchmarks/compile_own.py --entries tree watermelon-2.0
"""

from __future__ import annotations

import argparse
import cProfile
import collections
import importlib
import io
import os
import pstats
import sys
import tempfile
import time


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--function", default="hyperplane.tree._grow._subtree_kernels:grow_subtree",
                        help="module:name of the compiled function")
    parser.add_argument("--repeats", type=int, default=1, help="timed compilations (all shown)")
    parser.add_argument("--entries", action="store_true",
                        help="list the fit's Python-called compiled functions instead")
    parser.add_argument("fit", nargs=argparse.REMAINDER,
                        help="the arguments of hyperplane fit (after the options above)")
    args = parser.parse_args()
    os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp()
    if args.entries:
        _entries(args.fit)
        return
    from hyperplane.cli import main as cli
    out = os.path.join(tempfile.mkdtemp(), "model.skops")
    sys.argv = ["hyperplane", "fit", *args.fit, "-o", out]
    try:
        cli()
    except SystemExit as stop:
        if stop.code not in (0, None):
            raise
    module, name = args.function.split(":")
    kernel = getattr(importlib.import_module(module), name)
    phases = _phase_clocks()
    for sig in list(kernel.overloads):
        for _ in range(args.repeats):
            phases.clear()
            start = time.process_time()
            _fresh(kernel).compile(sig)
            total = time.process_time() - start
            parts = ", ".join(f"{k} {v:.2f}" for k, v in phases.items())
            print(f"{name}: {total:.2f} CPU s ({parts})")
        calls, lines, instructions = _counts(kernel, sig)
        print(f"{name}: {calls} Python calls, {lines} lines of LLVM IR lowered, "
              f"{instructions} instructions in the final module")


def _entries(fit):
    """Print the entry points of ``hyperplane fit *fit`` (see the module's docstring)."""
    from numba.core import codegen, event
    own, stack, dispatchers, sizes = collections.Counter(), [], {}, {}
    profile, compiled, lines = cProfile.Profile(), [0], [0]

    class Compiles(event.Listener):
        def on_start(self, ev):
            if not stack:
                profile.enable()
            compiled[0] += 1
            stack.append([time.process_time(), 0.0])
            dispatchers[id(ev.data["dispatcher"])] = ev.data["dispatcher"]

        def on_end(self, ev):
            start, inner = stack.pop()
            spent = time.process_time() - start
            if stack:
                stack[-1][1] += spent
            else:
                profile.disable()
            own[id(ev.data["dispatcher"]), str(ev.data["args"])] += spent - inner

    optimise = codegen.CPUCodeLibrary._optimize_final_module

    def counted(library):
        sizes[id(library)] = sum(1 for f in library._final_module.functions
                                 for b in f.blocks for _ in b.instructions)
        return optimise(library)

    add = codegen.CPUCodeLibrary.add_ir_module

    def counted_add(library, ir_module):
        lines[0] += str(ir_module).count("\n  ")
        return add(library, ir_module)

    codegen.CPUCodeLibrary._optimize_final_module = counted
    codegen.CPUCodeLibrary.add_ir_module = counted_add
    event.register("numba:compile", Compiles())
    from hyperplane.cli import main as cli
    sys.argv = ["hyperplane", "fit", *fit, "-o", os.path.join(tempfile.mkdtemp(), "m")]
    try:
        cli()
    except SystemExit as stop:
        if stop.code not in (0, None):
            raise
    rows = []
    for dispatcher in dispatchers.values():
        func = getattr(dispatcher, "py_func", None)
        options = getattr(dispatcher, "targetoptions", {})
        if func is None or options.get("no_cpython_wrapper", False):
            continue
        for sig, cres in dispatcher.overloads.items():
            rows.append((sizes.get(id(cres.library), 0), own[id(dispatcher), str(sig)],
                         f"{func.__module__}.{func.__qualname__}"))
    for instructions, seconds, name in sorted(rows, reverse=True):
        print(f"{instructions:7d} instructions {seconds:6.2f} own CPU s  {name}")
    print(f"{sum(sizes.values())} instructions in every final module LLVM optimised")
    calls = pstats.Stats(profile, stream=io.StringIO()).total_calls
    print(f"{compiled[0]} functions compiled, {calls} Python calls while compiling, "
          f"{lines[0]} lines of LLVM IR lowered")


def _fresh(kernel):
    """A new dispatcher of ``kernel``'s function and flags, without a cache."""
    return type(kernel)(py_func=kernel.py_func, locals={}, targetoptions=dict(kernel.targetoptions))


def _phase_clocks():
    """CPU seconds of numba's phases, per phase name (filled as they run)."""
    from numba.core import codegen, lowering, typed_passes
    spent = collections.Counter()

    def clock(owner, method, phase):
        inner = getattr(owner, method)

        def timed(*a, **k):
            start = time.process_time()
            try:
                return inner(*a, **k)
            finally:
                spent[phase] += time.process_time() - start
        setattr(owner, method, timed)

    clock(typed_passes.NopythonTypeInference, "run_pass", "typing")
    clock(lowering.Lower, "lower_normal_function", "lowering")
    clock(lowering.Lower, "create_cpython_wrapper", "Python wrapper")
    clock(codegen.CPUCodeLibrary, "add_ir_module", "LLVM function passes")
    clock(codegen.CPUCodeLibrary, "finalize", "LLVM module passes and code")
    return spent


def _counts(kernel, sig):
    """Python calls, lowered IR lines and final-module instructions of one compilation."""
    from numba.core import codegen
    lines, instructions = [0], [0]
    library = codegen.CPUCodeLibrary
    add, optimise = library.add_ir_module, library._optimize_final_module

    def counted_add(library, ir_module):
        lines[0] += str(ir_module).count("\n  ")
        return add(library, ir_module)

    def counted_optimise(library):
        instructions[0] = sum(1 for f in library._final_module.functions
                              for b in f.blocks for _ in b.instructions)
        return optimise(library)
    codegen.CPUCodeLibrary.add_ir_module = counted_add
    codegen.CPUCodeLibrary._optimize_final_module = counted_optimise
    profile = cProfile.Profile()
    try:
        profile.enable()
        _fresh(kernel).compile(sig)
        profile.disable()
    finally:
        codegen.CPUCodeLibrary.add_ir_module = add
        codegen.CPUCodeLibrary._optimize_final_module = optimise
    return pstats.Stats(profile, stream=io.StringIO()).total_calls, lines[0], instructions[0]


if __name__ == "__main__":
    main()
