"""What numba compiles under the policy: one specialisation per plain type (not
per literal constant), ``by_none``'s direct call, overload implementations keyed
by the flags that change their code, and one spelling of a float64 allocation."""

import numpy as np
import pytest

from hyperplane._numba import by_none, jit


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


def test_the_trees_kernels_name_the_float64_dtype():
    """numba compiles its ``np.empty`` for each type of the dtype argument: ``np.empty(n)``
    (omitted), ``np.zeros(n)`` (numba's own ``np.empty(n, float)``) and ``np.full(n, x)``
    / ``np.empty(n, dtype=np.float64)`` (``class(float64)``) were three compilations of
    one allocation in a tree's first fit; the kernels (all but the oblique tree's) spell
    it the one way."""
    import pathlib

    import hyperplane.tree as tree

    root = pathlib.Path(tree.__file__).parent
    others = {"_oblique_kernels.py"}
    kernels = [p for p in root.rglob("*_kernels.py") if p.name not in others]
    assert len(kernels) > 10
    assert {str(p.relative_to(root)): _allocations_without_dtype(p.read_text())
            for p in kernels} == {str(p.relative_to(root)): [] for p in kernels}
    # and they allocate by hyperplane._lowered.empty, which compiles no np.empty per dtype
    assert {str(p.relative_to(root)): [line for line in p.read_text().splitlines()
                                       if "np.empty(" in line and ">>>" not in line]
            for p in kernels} == {str(p.relative_to(root)): [] for p in kernels}
    assert _allocations_without_dtype("np.zeros((n, 2)) + np.empty(3, np.int8)") == [
        "np.zeros((n, 2))"]


def test_empty_is_lowered_in_place():
    """``hyperplane._lowered.empty`` allocates as ``np.empty`` (shape, dtype, its
    errors) and compiles no function of its own, whatever the dtype's type
    (numba's ``np.empty`` compiles one per type of its dtype argument)."""
    import numba
    from numba.core import event

    from hyperplane._lowered import empty

    @numba.njit
    def alloc(n):
        codes = empty((n, 2), np.int8)
        return empty(n, np.float64).shape[0] + empty(n, codes.dtype).shape[0] + codes.shape[1]

    compiled = []

    class Compiles(event.Listener):
        def on_start(self, ev):
            compiled.append(getattr(ev.data["dispatcher"], "py_func", None))

        def on_end(self, ev):
            pass

    with event.install_listener("numba:compile", Compiles()):
        assert alloc(3) == 3 + 3 + 2
    # alloc itself, and numba's allocator once per process (np.empty calls it too)
    assert [f.__qualname__ for f in compiled if f is not alloc.py_func] in (
        [], ["_ol_array_allocate.<locals>.impl"]), compiled
    with pytest.raises(ValueError, match="negative dimensions"):
        alloc(-1)
    assert empty((2, 3), np.int64).dtype == np.int64 and empty(4, np.float64).shape == (4,)
