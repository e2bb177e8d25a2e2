"""The one place that sets how hyperplane compiles its kernels.

Every compiled function in the package is decorated with one of the four
decorators below; no module calls :func:`numba.njit` directly.

* :data:`jit` -- strict IEEE arithmetic. Used where the order of floating
  point operations is part of the algorithm's contract (an update happens on
  ``y (w.x + b) <= 0``, so the dot product must be the one a reader expects).
* :data:`jit_fast` -- ``fastmath`` without the flags that change NaN/inf
  semantics: reassociation (lets LLVM vectorise reductions), contraction
  (fused multiply-add), reciprocal and approximate functions. Used for sums
  whose order carries no meaning (histograms, gradients, kernel rows).
* :data:`jit_parallel` -- :data:`jit_fast` plus ``parallel=True``. Allowed
  only for loops whose iterations are independent (row-wise predictions,
  Gram blocks); never inside an epoch whose steps depend on each other.
* :data:`jit_parallel_exact` -- ``parallel=True`` with strict arithmetic.
  Required for a parallel kernel that calls :data:`jit` functions or makes
  decisions on floating-point comparisons: numba compiles a callee first
  reached from a parallel region with the region's fastmath flags and then
  reuses that compilation for every caller, so a fastmath region would
  change the strict functions' results for the whole process
  (``tests/test_numba_policy.py`` shows it).

All four use ``cache=True`` so that a kernel is compiled once per machine,
and ``nogil=True`` so that Dask and thread pools can run them concurrently.

Threads that wait for the next parallel region sleep instead of spinning
(``OMP_WAIT_POLICY=PASSIVE``, the OpenMP API specification's wait policy,
set before numba's OpenMP pool starts, unless the user set it): with
spinning workers a machine whose cores are all busy runs each region at the
pace of a worker that has to win a core back, which made the SMO solver,
one region per kernel row, 7-9x slower on two threads than on one on a
loaded two-core machine; with sleeping workers it is as fast as on one.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numba  # noqa: E402  (after the wait policy: libgomp reads it when it loads)

FASTMATH_FLAGS = frozenset({"reassoc", "contract", "arcp", "afn", "nsz"})

jit = numba.njit(cache=True, nogil=True)
jit_fast = numba.njit(cache=True, nogil=True, fastmath=set(FASTMATH_FLAGS))
jit_parallel = numba.njit(
    cache=True, nogil=True, fastmath=set(FASTMATH_FLAGS), parallel=True
)
jit_parallel_exact = numba.njit(cache=True, nogil=True, parallel=True)

__all__ = ["jit", "jit_fast", "jit_parallel", "jit_parallel_exact", "FASTMATH_FLAGS", "by_none",
           "maxnum", "minnum", "prefetch"]


def by_none(when_none, otherwise):
    """A function for compiled code, ``call(arg, *args)``, that runs
    ``when_none(arg, *args)`` when ``arg`` is None and ``otherwise(arg, *args)``
    when it is anything else.

    numba makes the choice when it types ``arg``, so a caller is compiled with
    the chosen function only: a kernel that serves two kinds of input (a tree
    with and without exact numeric attributes) compiles just the one its call
    needs, which keeps the first fit's compilation short. (An ``if arg is None``
    inside a kernel drops only the other branch of a None argument.) Called
    from Python it raises :class:`NotImplementedError`.

    Examples
    --------
    Functions defined in a session cannot be cached, so this example compiles
    them without the package's ``cache=True``:

    >>> import numba
    >>> from hyperplane._numba import by_none
    >>> nothing = numba.njit(lambda x, y: y)
    >>> added = numba.njit(lambda x, y: x + y)
    >>> plus = by_none(nothing, added)
    >>> use = numba.njit(lambda x, y: plus(x, y))
    >>> use(None, 2), use(3, 2)
    (2, 5)
    """
    from numba.core import types
    from numba.extending import overload

    def call(arg, *args):
        raise NotImplementedError(f"{when_none.__name__} / {otherwise.__name__}: "
                                  "compiled code only")

    @overload(call)
    def _chosen(arg, *args):
        chosen = when_none if isinstance(arg, types.NoneType) else otherwise
        return lambda arg, *args: chosen(arg, *args)

    return call


def _llvm_binary(name):
    """A float64 intrinsic ``name(a, b)`` callable from compiled code."""
    from llvmlite import ir
    from numba.core import types
    from numba.extending import intrinsic

    @intrinsic
    def call(typingctx, a, b):
        def codegen(context, builder, signature, args):
            double = ir.DoubleType()
            fn = builder.module.declare_intrinsic(name, [double],
                                                  ir.FunctionType(double, [double, double]))
            return builder.call(fn, args)
        return types.float64(types.float64, types.float64), codegen
    return call


#: ``maxnum(a, b)``: the larger of two floats (the other one if one is NaN).
#: Unlike ``max(a, b)``, a running ``m = maxnum(m, x[t])`` is a reduction LLVM
#: vectorises (without the ``nnan`` flag this module leaves off).
maxnum = _llvm_binary("llvm.maxnum")
#: ``minnum(a, b)``: the smaller of two floats; see :data:`maxnum`.
minnum = _llvm_binary("llvm.minnum")


def _llvm_prefetch():
    """``prefetch(array, i)``: ask the cache for the line of the element at flat
    position ``i`` of a C-ordered ``array`` (a hint that never faults)."""
    from llvmlite import ir
    from numba.core import types
    from numba.extending import intrinsic

    @intrinsic
    def call(typingctx, array, i):
        if not isinstance(array, types.Array) or not isinstance(i, types.Integer):
            return None

        def codegen(context, builder, signature, args):
            data = context.make_array(signature.args[0])(context, builder, args[0]).data
            byte = ir.IntType(8).as_pointer()
            i32 = ir.IntType(32)
            fn = builder.module.declare_intrinsic(
                "llvm.prefetch", fnty=ir.FunctionType(ir.VoidType(), [byte, i32, i32, i32]))
            address = builder.bitcast(builder.gep(data, [args[1]]), byte)
            # read access, high temporal locality, data cache
            builder.call(fn, [address, i32(0), i32(3), i32(1)])
            return context.get_dummy_value()
        return types.none(array, i), codegen
    return call


#: ``prefetch(array, i)``: start loading the cache line of ``array[i]`` without
#: waiting for it. Loops that visit rows in a random order (coordinate descent)
#: call it for a row a few steps ahead, so that its memory latency overlaps the
#: work on the current row.
prefetch = _llvm_prefetch()
