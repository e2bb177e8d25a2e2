"""Kernels compiled without Python wrappers (``jit_internal`` and its fastmath,
parallel and twin forms): called from compiled code, cached, refused from Python,
linked into their callers without machine code of their own; and every decorator
compiles without numba's C-function wrapper."""

import numpy as np

from .test_arithmetic import _strict_sum  # only its py_func and options: never called here


#: a module of kernels compiled without wrappers (``jit_internal`` and its
#: fastmath and parallel forms) and their compiled callers, run in fresh
#: processes so that numba's cache (``cache=True``) is the one the test chose
_INTERNAL_MODULE = '''
import numpy as np
from numba import prange
from hyperplane._numba import (by_none, jit, jit_fast, jit_fast_internal, jit_internal,
                               jit_parallel_internal, jit_twin)


@jit_internal
def scaled_sum(x, factor):
    s = 0.0
    for v in x:
        s += v * factor
    return s


@jit_fast_internal
def fast_sum(x):
    s = 0.0
    for v in x:
        s += v
    return s


@jit_fast_internal
def inner_fast_sum(x):
    return fast_sum(x) + scaled_sum(x, 0.5)


@jit_parallel_internal
def doubled(x, out):
    for i in prange(x.shape[0]):
        out[i] = 2.0 * x[i]


@jit_internal
def first(arg, x):
    return x[0]


@jit_internal
def first_plus(arg, x):
    return x[0] + arg


chosen = by_none(first, first_plus)


@jit
def caller(x):
    out = np.empty_like(x)
    doubled(x, out)
    return scaled_sum(x, 2) + out[1] + chosen(None, x) + chosen(1.0, x)


@jit_fast
def fast_caller(x):
    return fast_sum(x) + scaled_sum(x, 3)


@jit
def nested_caller(x):
    return inner_fast_sum(x) + scaled_sum(x, 2.0)


@jit_twin
def twin_sum(x):
    s = 0.0
    for v in x:
        s += v
    return s


@jit
def twin_caller(x):
    return twin_sum(x) + 1.0


@jit_internal
def zeros_inside(n):
    return np.zeros(n)


@jit
def zeros_outside(n):
    return np.zeros(n) + zeros_inside(n)
'''


_INTERNAL_RUN = '''
import json, sys
import numpy as np
from numba.core import event

compiled = []


class Listener(event.Listener):
    def on_start(self, ev):
        func = ev.data["dispatcher"].py_func
        compiled.append(func.__qualname__ if func.__module__ == "internal_kernels"
                        else f"{func.__module__}.{func.__qualname__}")

    def on_end(self, ev):
        pass


event.register("numba:compile", Listener())
import internal_kernels as k

x = np.arange(5.0)
values = [k.caller(x), k.fast_caller(x), k.twin_caller(x), k.twin_sum(x),
          k.zeros_outside(3).tolist(), k.nested_caller(x)]
refused = []
for name, args in [("scaled_sum", (x, 2)), ("fast_sum", (x,)), ("doubled", (x, x.copy())),
                   ("inner_fast_sum", (x,))]:
    try:
        getattr(k, name)(*args)
    except TypeError as error:
        refused.append(str(error))
# whether each compilation has machine code of its own: its function's symbol
# in the object code numba made of its library (and caches)
machine_code = {name: [cres.fndesc.llvm_func_name.encode() in cres.library._get_compiled_object()
                       for cres in getattr(k, name).overloads.values()]
                for name in ("scaled_sum", "fast_sum", "inner_fast_sum")}
print(json.dumps({"values": values, "compiled": compiled, "refused": refused,
                  "machine_code": machine_code}))
'''


def test_an_internal_kernel_is_called_from_compiled_code_cached_and_refused_from_python(tmp_path):
    """A kernel compiled without wrappers (``jit_internal``, ``jit_fast_internal``,
    ``jit_parallel_internal``; also as a ``by_none`` choice) returns to its
    compiled callers what a kernel with wrappers would; a second process loads
    the callers from numba's cache without compiling anything; a call from
    Python raises a TypeError naming the kernel (without the wrapper numba's
    own dispatcher would jump to a null pointer), in both processes. A twin
    kernel (``jit_twin``) gives its compiled caller the twin without wrappers
    and Python the one with them; an overload (``np.zeros``) that a kernel with
    wrappers and one without both call is compiled once. An internal kernel
    calling another (strict and fastmath) behaves the same, and no internal
    kernel has machine code of its own: its module is only linked into its
    callers'."""
    import json
    import os
    import subprocess
    import sys

    import hyperplane

    (tmp_path / "internal_kernels.py").write_text(_INTERNAL_MODULE)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=os.pathsep.join([str(tmp_path),
                                           os.path.dirname(os.path.dirname(hyperplane.__file__))]))
    runs = []
    for _ in range(2):
        done = subprocess.run([sys.executable, "-c", _INTERNAL_RUN], env=env, cwd=tmp_path,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        runs.append(json.loads(done.stdout.strip().splitlines()[-1]))
    x = np.arange(5.0)
    expected = [2 * x.sum() + 2 * x[1] + x[0] + (x[0] + 1.0), x.sum() + 3 * x.sum(),
                x.sum() + 1.0, x.sum(), [0.0, 0.0, 0.0], x.sum() + 0.5 * x.sum() + 2 * x.sum()]
    for run in runs:
        assert run["values"] == expected
        assert len(run["refused"]) == 4
        refused_names = ["scaled_sum", "fast_sum", "doubled", "inner_fast_sum"]
        for name, message in zip(refused_names, run["refused"]):
            assert f"internal_kernels.{name} is compiled without a Python wrapper" in message
    assert {"caller", "fast_caller", "scaled_sum", "fast_sum", "doubled", "first",
            "first_plus", "nested_caller", "inner_fast_sum"} <= set(runs[0]["compiled"])
    assert runs[1]["compiled"] == []
    # no compilation of an internal kernel (scaled_sum: an int and a float factor) has machine code
    assert {name: set(found) for name, found in runs[0]["machine_code"].items()} == {
        "scaled_sum": {False}, "fast_sum": {False}, "inner_fast_sum": {False}}
    # a twin kernel: the compiled caller's twin without wrappers, Python's with them
    assert {"twin_caller", "twin_sum__internal", "twin_sum"} <= set(runs[0]["compiled"])
    # np.zeros(int64) of a kernel with wrappers and of one without: one implementation
    assert sum("ol_np_zeros" in name for name in runs[0]["compiled"]) == 1


#: what a process runs to see an internal kernel's library (argv[1] "late": a
#: compiled caller that the first process never compiled)
_LINK_ONLY_RUN = '''
import json, sys
import numpy as np
import numba
import internal_kernels as k

x = np.arange(5.0)
if sys.argv[1] == "late":
    # compiled here (not cached: a lambda), linking the cached internal kernels' IR
    late = numba.njit(lambda x: k.scaled_sum(x, 4) + k.fast_sum(x) + k.zeros_inside(2)[1])
    print(json.dumps({"late": late(x)}))
    sys.exit()
value = k.caller(x) + k.fast_caller(x)
generated = {}
for name in ["scaled_sum", "fast_sum", "doubled", "first", "first_plus"]:
    for cres in getattr(k, name).overloads.values():
        # the object code numba generated for the library (and caches)
        code = cres.library._get_compiled_object()
        generated[name] = [type(cres.library).__name__,
                           cres.fndesc.mangled_name.encode() in code, cres.library.optimise]
print(json.dumps({"value": value, "generated": generated}))
'''


def test_an_internal_kernel_has_no_machine_code_of_its_own(tmp_path):
    """numba generates no machine code for a kernel compiled without wrappers
    (``_link_only._LinkOnlyLibrary``): its compiled callers link its IR and
    generate it there, so the execution engine never defines its function,
    and the caller returns what it would with the kernel's own code; a strict
    kernel's IR is optimised in its callers' libraries only. Its
    library is cached: a later process compiles a new caller against the
    cached IR (fastmath, parallel and overload-calling kernels included)."""
    import json
    import os
    import subprocess
    import sys

    import hyperplane
    from hyperplane._link_only import INTERNAL_COMPILER, _InternalCompiler

    assert INTERNAL_COMPILER is _InternalCompiler  # this numba finalises as expected
    (tmp_path / "internal_kernels.py").write_text(_INTERNAL_MODULE)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=os.pathsep.join([str(tmp_path),
                                           os.path.dirname(os.path.dirname(hyperplane.__file__))]))
    runs = []
    for mode in ["first", "late"]:
        done = subprocess.run([sys.executable, "-c", _LINK_ONLY_RUN, mode], env=env,
                              cwd=tmp_path, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        runs.append(json.loads(done.stdout.strip().splitlines()[-1]))
    x = np.arange(5.0)
    assert runs[0]["value"] == (2 * x.sum() + 2 * x[1] + x[0] + (x[0] + 1.0)
                                + x.sum() + 3 * x.sum())
    # a strict kernel's module passes run in its callers only; a fastmath one's (the
    # parallel `doubled`) here too
    assert runs[0]["generated"] == {name: ["_LinkOnlyLibrary", False,
                                           name in ("fast_sum", "doubled")]
                                    for name in ["scaled_sum", "fast_sum", "doubled", "first",
                                                 "first_plus"]}
    assert runs[1]["late"] == 4 * x.sum() + x.sum()


def test_a_kernel_python_calls_keeps_its_python_wrapper_only():
    """Every decorator compiles without numba's C-function wrapper (a first-class
    function value's entry, which no kernel is): a kernel Python calls gets its
    CPython wrapper and no cfunc wrapper in its library, and still answers Python."""
    from hyperplane import _numba

    for name in ["jit", "jit_fast", "jit_inline", "jit_parallel", "jit_parallel_exact",
                 "jit_internal", "jit_twin", "jit_parallel_exact_internal"]:
        made = getattr(_numba, name)(lambda x: x)
        assert made.targetoptions["no_cfunc_wrapper"], name
    # a fresh copy of `_strict_sum` (no cache: its library is compiled here)
    fresh = type(_strict_sum)(py_func=_strict_sum.py_func, locals={},
                              targetoptions=dict(_strict_sum.targetoptions))
    x = np.array([1.0, 2.0])
    assert fresh(x) == _strict_sum.py_func(x)
    cres = next(iter(fresh.overloads.values()))
    code = cres.library.get_llvm_str()
    assert cres.fndesc.llvm_cpython_wrapper_name in code
    assert cres.fndesc.llvm_cfunc_wrapper_name not in code
