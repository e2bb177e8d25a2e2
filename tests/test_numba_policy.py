"""The compile policy's helpers: maxnum/minnum reductions against NumPy."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from numba import prange

from hyperplane._numba import by_none, fence, jit, jit_fast, jit_parallel_exact, maxnum, minnum


@jit_fast
def reduce_both(x):
    hi, lo = -np.inf, np.inf
    for t in range(x.shape[0]):
        hi = maxnum(hi, x[t])
        lo = minnum(lo, x[t])
    return hi, lo


@given(st.lists(st.floats(allow_nan=False), min_size=0, max_size=300))
def test_maxnum_minnum_reductions_match_numpy(values):
    x = np.array(values, dtype=np.float64)
    hi, lo = reduce_both(x)
    assert hi == (x.max() if x.size else -np.inf)
    assert lo == (x.min() if x.size else np.inf)


def test_maxnum_ignores_a_nan_operand():
    assert reduce_both(np.array([np.nan, 2.0, np.nan, -1.0])) == (2.0, -1.0)


@jit_fast
def _added_then_taken_away(a, b):
    return (a + b) - a


@jit_fast
def _fenced_sum_taken_away(a, b):
    return fence(a + b) - a


def test_a_fenced_value_is_rounded_before_fastmath_sees_the_rest():
    """fastmath may rewrite ``(a + b) - a`` as ``b``; behind a fence ``a + b`` is
    rounded first (1e16 + 1 is 1e16 in float64), as a call would round it."""
    assert _added_then_taken_away(1e16, 1.0) == 1.0
    assert _fenced_sum_taken_away(1e16, 1.0) == 0.0


@jit
def _strict_sum(x):
    s = 0.0
    for v in x:
        s += v * 1.0000001
    return s


@jit_parallel_exact
def _rows_summed_in_parallel(X):
    out = np.empty(X.shape[0])
    for i in prange(X.shape[0]):
        out[i] = _strict_sum(X[i])
    return out


def test_a_strict_callee_stays_strict_inside_an_exact_parallel_kernel():
    """Reached first from the parallel kernel (as here: nothing else calls
    it), the strict function must still add in order: with ``jit_parallel``
    (fastmath) numba would compile it reassociated, 516.919397632563 instead
    of 516.9193976325623 on these numbers."""
    X = np.random.default_rng(0).random((4, 1001))
    sequential = []
    for row in X:
        s = 0.0
        for v in row.tolist():
            s += v * 1.0000001
        sequential.append(s)
    assert _rows_summed_in_parallel(X).tolist() == sequential


def test_omp_workers_sleep_unless_the_user_chose_otherwise():
    import os
    import subprocess
    import sys
    code = ("import os, numba, numpy as np; import hyperplane.svm; "
            "numba.njit(parallel=True)(lambda a: a.sum())(np.ones(10)); "
            "print(os.environ['OMP_WAIT_POLICY'])")
    env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    ours = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert ours.stdout.strip() == "PASSIVE", ours.stderr
    env["OMP_WAIT_POLICY"] = "ACTIVE"
    theirs = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert theirs.stdout.strip() == "ACTIVE", theirs.stderr


@jit
def _scaled(x, factor):
    return x * factor


@jit
def _scaled_twice(x):
    return _scaled(x, 2) + _scaled(x, 3)


@jit
def _pick(pair, k):
    return pair[k]


@jit
def _first_of_mixed(x):
    return _pick((x, "label"), 0)


def _compiled_signatures(call):
    """The (dispatcher name, argument types) numba compiles while ``call()`` runs."""
    from numba.core import event

    seen = []

    class Listener(event.Listener):
        def on_start(self, ev):
            seen.append((ev.data["dispatcher"].py_func.__name__, ev.data["args"]))

        def on_end(self, ev):
            pass

    with event.install_listener("numba:compile", Listener()):
        call()
    return seen


def test_a_constant_argument_compiles_the_callee_once_for_its_plain_type():
    """numba types ``_scaled(x, 2)`` with ``Literal[int](2)``; the package's
    dispatcher compiles the callee once, for int64, instead of once per constant."""
    from numba.core import types

    compiled = _compiled_signatures(lambda: _scaled_twice(1.5))
    assert _scaled_twice(1.5) == 1.5 * 2 + 1.5 * 3
    if compiled:  # empty when numba's cache served the caller (a second run)
        assert [tuple(args) for name, args in compiled if name == "_scaled"] == [
            (types.float64, types.int64)]


def test_a_kernel_that_needs_the_literal_still_gets_it():
    """A constant index into a tuple of mixed types types only as a literal."""
    assert _first_of_mixed(2.5) == 2.5


@jit
def _when_none(arg, y):
    return y


@jit
def _when_given(arg, y):
    return arg + y


_chosen = by_none(_when_none, _when_given)


@jit
def _use_chosen(arg, y):
    return _chosen(arg, y)


def test_by_none_calls_the_chosen_function_directly():
    """Only the caller and the chosen function are compiled: no forwarding
    function of its own, and not the other function."""
    compiled = _compiled_signatures(lambda: _use_chosen(None, 2.0))
    if compiled:  # empty when numba's cache served every function
        assert sorted(name for name, _ in compiled) == ["_use_chosen", "_when_none"]
    assert _use_chosen(None, 2.0) == 2.0
    assert _use_chosen(3.0, 2.0) == 5.0


@jit
def _halved(y):
    return y / 2


_chosen_without_arg = by_none(_halved, _when_given, pass_first=(False, True))


@jit
def _use_chosen_without_arg(arg, y):
    return _chosen_without_arg(arg, y)


def test_by_none_passes_the_choosing_argument_only_where_asked():
    """``pass_first=(False, True)``: the function chosen for None is called
    without the argument that chose it (and compiled for ``y`` alone), the
    other one with it."""
    compiled = _compiled_signatures(lambda: _use_chosen_without_arg(None, 3.0))
    if compiled:
        assert sorted(name for name, _ in compiled) == ["_halved", "_use_chosen_without_arg"]
        assert [len(args) for name, args in compiled if name == "_halved"] == [1]
    assert _use_chosen_without_arg(None, 3.0) == 1.5
    assert _use_chosen_without_arg(4.0, 3.0) == 7.0


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


def test_an_overload_is_keyed_by_the_flags_its_implementation_inherits():
    """numba's overload implementations are kept per caller flags that change
    their code only (nrt, fastmath, error model, forceinline): wrappers,
    inlining, parallel and nogil do not split them, and fastmath does not
    split an allocation (no floating-point arithmetic), but it does split an
    overload that computes."""
    from numba.core.compiler import Flags
    from numba.np.arraymath import np_nancumsum
    from numba.np.arrayobj import ol_np_empty

    from hyperplane._numba import overload_key

    def flags(**values):
        made = Flags()
        for name, value in values.items():
            setattr(made, name, value)
        return made

    fast = {"reassoc", "contract"}
    strict = flags()
    others = [flags(no_cpython_wrapper=True, no_cfunc_wrapper=True), flags(inline="always"),
              flags(auto_parallel=True), flags(release_gil=True)]
    for func in (ol_np_empty, np_nancumsum):
        assert {overload_key(func, f) for f in others} == {overload_key(func, strict)}
    assert overload_key(ol_np_empty, flags(fastmath=fast)) == overload_key(ol_np_empty, strict)
    assert overload_key(np_nancumsum, flags(fastmath=fast)) != overload_key(np_nancumsum, strict)
    assert overload_key(np_nancumsum, flags(error_model="numpy")) != overload_key(np_nancumsum, strict)
    assert overload_key(np_nancumsum, None) is None


_OVERLOAD_RUN = '''
import json
import numpy as np
from numba.core import event
from hyperplane._numba import jit, jit_fast, jit_fast_internal, jit_inline

compiled = []


class Listener(event.Listener):
    def on_start(self, ev):
        compiled.append(f"{ev.data['dispatcher'].py_func.__qualname__} {ev.data['args']}")

    def on_end(self, ev):
        pass


event.register("numba:compile", Listener())


@jit_inline
def strict_inlined(x):
    return np.nancumsum(x)[-1] + np.empty(x.shape[0], dtype=np.int16).shape[0]


@jit
def strict(x):
    return np.nancumsum(x)[-1] + np.empty(x.shape[0], dtype=np.int16).shape[0] + strict_inlined(x)


@jit_fast_internal
def fast_internal(x):
    return np.empty(x.shape[0], dtype=np.int16).shape[0]


@jit_fast
def fast(x):
    return np.nancumsum(x)[-1] + fast_internal(x) + np.empty(x.shape[0], dtype=np.int16).shape[0]


x = np.arange(4.0)
print(json.dumps({"values": [strict(x), fast(x)], "compiled": compiled}))
'''


def test_an_allocation_is_compiled_once_for_strict_and_fastmath_kernels(tmp_path):
    """``np.empty`` called by strict, inlined, fastmath and internal kernels
    compiles one implementation; ``np.nancumsum`` of the same array one per
    arithmetic (strict and fastmath)."""
    import json
    import os
    import subprocess
    import sys

    import hyperplane

    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=os.path.dirname(os.path.dirname(hyperplane.__file__)))
    script = tmp_path / "overloads.py"
    script.write_text(_OVERLOAD_RUN)
    done = subprocess.run([sys.executable, str(script)], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    run = json.loads(done.stdout.strip().splitlines()[-1])
    assert run["values"] == [2 * (6.0 + 4), 6.0 + 4 + 4]
    names = run["compiled"]
    assert sum(name.startswith("ol_np_empty.") and "int16" in name for name in names) == 1, names
    assert sum(name.startswith("np_nancumsum.") for name in names) == 2, names


def _summed(x):
    s = 0.0
    for v in x:
        s += v
    return s


def test_a_fast_twin_compiles_both_twins_with_fastmath():
    """``jit_fast_twin``: the compilation Python calls and the twin compiled
    callers link have the same fastmath flags (so the same sums) and only the
    twin is without wrappers."""
    from hyperplane._numba import FASTMATH_FLAGS, TwinDispatcher, jit_fast_twin

    twin = jit_fast_twin(_summed)
    assert isinstance(twin, TwinDispatcher)
    for dispatcher in (twin, twin.internal):
        assert dispatcher.targetoptions["fastmath"] == set(FASTMATH_FLAGS)
    assert twin.internal.targetoptions["no_cpython_wrapper"]
    assert not twin.targetoptions.get("no_cpython_wrapper", False)
    assert twin(np.arange(4.0)) == 6.0


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


def _allocations_without_dtype(source):
    """The ``np.empty(...)`` / ``np.zeros(...)`` calls of ``source`` that name no dtype."""
    import re

    found = []
    for m in re.finditer(r"np\.(empty|zeros)\(", source):
        i, depth, commas = m.end(), 1, 0
        while depth:
            c = source[i]
            depth += (c in "([{") - (c in ")]}")
            commas += c == "," and depth == 1
            i += 1
        line = source[source.rfind("\n", 0, m.start()) + 1:source.find("\n", m.start())]
        doctest = line.lstrip().startswith((">>>", "..."))
        if commas == 0 and "dtype" not in source[m.end():i] and not doctest:
            found.append(source[m.start():i])
    return found


def test_the_classification_trees_kernels_name_the_float64_dtype():
    """numba compiles its ``np.empty`` for each type of the dtype argument: ``np.empty(n)``
    (omitted), ``np.zeros(n)`` (numba's own ``np.empty(n, float)``) and ``np.full(n, x)``
    / ``np.empty(n, dtype=np.float64)`` (``class(float64)``) were three compilations of
    one allocation in a tree's first fit; the kernels spell it the one way."""
    import pathlib

    import hyperplane.tree as tree

    root = pathlib.Path(tree.__file__).parent
    others = {"_regression_kernels.py", "_criterion_kernels.py", "_median_kernels.py",
              "_moments_kernels.py",
              "_oblique_kernels.py"}   # the regressor's and the oblique tree's
    kernels = [p for p in root.rglob("*_kernels.py") if p.name not in others]
    assert len(kernels) > 10
    assert {str(p.relative_to(root)): _allocations_without_dtype(p.read_text())
            for p in kernels} == {str(p.relative_to(root)): [] for p in kernels}
    assert _allocations_without_dtype("np.zeros((n, 2)) + np.empty(3, np.int8)") == [
        "np.zeros((n, 2))"]
