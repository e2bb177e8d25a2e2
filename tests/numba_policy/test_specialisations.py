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


def _fresh_process_run(code, tmp_path):
    """The JSON object the last line of ``code`` prints, run as a script in a
    fresh interpreter with an empty numba cache of its own."""
    import json
    import os
    import subprocess
    import sys

    import hyperplane

    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=os.path.dirname(os.path.dirname(hyperplane.__file__)))
    script = tmp_path / "run.py"
    script.write_text(code)
    done = subprocess.run([sys.executable, str(script)], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


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
    run = _fresh_process_run(_OVERLOAD_RUN, tmp_path)
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


def _compiled_allocations(source):
    """The NumPy allocations (``np.empty``, ``np.zeros``, their ``_like`` and the
    ``np.ones`` / ``np.full`` families) called in the compiled functions of
    ``source``: those decorated by one of :mod:`hyperplane._numba`'s ``jit*``."""
    import ast

    def name(decorator):
        decorator = decorator.func if isinstance(decorator, ast.Call) else decorator
        return decorator.id if isinstance(decorator, ast.Name) else getattr(decorator, "attr", "")

    numpy_allocations = {"empty", "zeros", "ones", "full", "empty_like", "zeros_like",
                         "ones_like", "full_like"}
    found = []
    for function in ast.walk(ast.parse(source)):
        if isinstance(function, ast.FunctionDef) and any(
                name(d).startswith("jit") for d in function.decorator_list):
            found += [f"{function.name}: {ast.unparse(call)}" for call in ast.walk(function)
                      if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                      and isinstance(call.func.value, ast.Name) and call.func.value.id == "np"
                      and call.func.attr in numpy_allocations]
    return found


def test_the_svm_neural_and_linear_kernels_allocate_in_place():
    """The SVMs', the MLP's and the linear models' compiled functions allocate by
    :data:`hyperplane._lowered.empty` / :data:`~hyperplane._lowered.zeros`, as the
    trees' do: numba's ``np.empty``, ``np.zeros`` (and their zero fill),
    ``np.empty_like`` and ``np.ones`` compiled a unit per shape and dtype type
    (the MLP's first fit 17 -> 15 functions, a LinearSVC's 23 -> 20). The SMO
    solver's shrinking, row cache and gradient reconstruction keep numba's:
    lowered in place, inlined into ``smo_iterate``, they made a dense 10000 x 100
    SVC fit 0.5-2% slower (``benchmarks/svm_versions.py``)."""
    import pathlib

    import hyperplane

    root = pathlib.Path(hyperplane.__file__).parent
    smo_solver = {"_shrinking_kernels.py", "_row_cache_kernels.py", "_reconstruct_kernels.py"}
    kernels = [p for package in ("svm", "neural", "linear") for p in (root / package).rglob("*.py")
               if p.name not in smo_solver]
    assert len(kernels) > 30
    assert {str(p.relative_to(root)): _compiled_allocations(p.read_text()) for p in kernels} == {
        str(p.relative_to(root)): [] for p in kernels}
    assert _compiled_allocations(
        "@jit_fast\ndef f(n):\n    return np.zeros(n) + empty(n, np.float64)\n"
        "def g(n):\n    return np.empty(n)\n") == ["f: np.zeros(n)"]


def test_empty_is_lowered_in_place():
    """``hyperplane._lowered.empty`` and ``zeros`` allocate as ``np.empty`` and
    ``np.zeros`` (shape, dtype, zero bytes, their errors) and compile no function
    of their own, whatever the dtype's type (numba's ``np.empty`` compiles one per
    type of its dtype argument, ``np.zeros`` one more and its zero fill)."""
    import numba
    from numba.core import event

    from hyperplane._lowered import empty, zeros

    @numba.njit
    def alloc(n):
        codes = empty((n, 2), np.int8)
        zeroed = zeros((n, 3), codes.dtype)
        return (empty(n, np.float64).shape[0] + empty(n, codes.dtype).shape[0] + codes.shape[1]
                + zeroed.shape[1] + zeroed[n - 1, 2] + zeros(n, np.float64)[n - 1])

    compiled = []

    class Compiles(event.Listener):
        def on_start(self, ev):
            compiled.append(getattr(ev.data["dispatcher"], "py_func", None))

        def on_end(self, ev):
            pass

    with event.install_listener("numba:compile", Compiles()):
        assert alloc(3) == 3 + 3 + 2 + 3
    # alloc itself, and numba's allocator once per process (np.empty calls it too)
    assert [f.__qualname__ for f in compiled if f is not alloc.py_func] in (
        [], ["_ol_array_allocate.<locals>.impl"]), compiled
    with pytest.raises(ValueError, match="negative dimensions"):
        alloc(-1)
    assert empty((2, 3), np.int64).dtype == np.int64 and empty(4, np.float64).shape == (4,)
    assert numba.njit(lambda n: zeros((n, 2), np.float32))(2).tolist() == [[0.0, 0.0]] * 2
    with pytest.raises(ValueError, match="negative dimensions"):
        numba.njit(lambda n: zeros(n, np.int8))(-1)


_FALLBACK_RUN = r'''
import json, sys, types

import hyperplane._numba  # noqa: F401  (the wait policy, then numba)
import numba.np.arrayobj as arrayobj

# a numba release without the private allocation code hyperplane._lowered lowers:
# the names hidden from the module it imports them from while it loads (numba's
# own modules import them when they load, later, from the real module)
hidden = types.ModuleType(arrayobj.__name__)
hidden.__dict__.update({k: v for k, v in vars(arrayobj).items()
                        if k not in ("_empty_nd_impl", "_parse_empty_args")})
sys.modules[arrayobj.__name__] = hidden
import hyperplane._lowered as lowered  # noqa: E402
sys.modules[arrayobj.__name__] = arrayobj

import numpy as np  # noqa: E402
from numba.core import event  # noqa: E402

from hyperplane._numba import jit  # noqa: E402
from hyperplane.svm._seed_kernels import squared_norms  # noqa: E402
from hyperplane.svm._sparse_rows_kernels import csr_columns  # noqa: E402

compiled = []


class Compiles(event.Listener):
    def on_start(self, ev):
        compiled.append(getattr(ev.data["dispatcher"], "py_func", None).__qualname__)

    def on_end(self, ev):
        pass


@jit
def alloc(n):
    codes = lowered.zeros((n, 2), np.int8)
    values = lowered.empty(n, np.float64)
    for i in range(n):
        values[i] = i
    return codes, values


with event.install_listener("numba:compile", Compiles()):
    codes, values = alloc(3)
X = np.array([[1.0, 2.0], [0.0, 3.0], [4.0, 0.5]])
col_data, col_rows, col_ptr = csr_columns(np.array([1.0, 2.0, 3.0], dtype=np.float32),
                                          np.array([0, 1, 1]), np.array([0, 2, 2, 3]), 2)
print(json.dumps({"codes": codes.tolist(), "codes_dtype": str(codes.dtype),
                  "values": values.tolist(), "compiled": compiled,
                  "norms": squared_norms(X).tolist(),
                  "columns": [col_data.tolist(), col_rows.tolist(), col_ptr.tolist(),
                              str(col_data.dtype), str(col_rows.dtype)]}))
'''


def test_empty_and_zeros_fall_back_to_numpys_without_numbas_private_code(tmp_path):
    """Under a numba without ``numba.np.arrayobj``'s ``_empty_nd_impl`` and
    ``_parse_empty_args`` (numba's private allocation code), ``hyperplane._lowered``
    still imports and its ``empty`` / ``zeros`` are numba's ``np.empty`` /
    ``np.zeros`` compiled (a unit per type again): kernels that call them compile
    and give the same arrays."""
    run = _fresh_process_run(_FALLBACK_RUN, tmp_path)
    assert run["codes"] == [[0, 0]] * 3 and run["codes_dtype"] == "int8"
    assert run["values"] == [0.0, 1.0, 2.0]
    # numba's own np.zeros / np.empty, not the lowered ones
    assert "ol_np_zeros.<locals>.impl" in run["compiled"], run["compiled"]
    assert "ol_np_empty.<locals>.impl" in run["compiled"], run["compiled"]
    assert run["norms"] == [5.0, 9.0, 16.25]
    assert run["columns"] == [[1.0, 2.0, 3.0], [0, 0, 2], [0, 1, 3], "float32", "int32"]
