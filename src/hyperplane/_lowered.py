"""Functions lowered in their caller's IR, compiled as no unit of their own.

LLVM's intrinsics that numba does not expose (:data:`maxnum`, :data:`minnum`:
IEEE 754's maxNum/minNum, one instruction where ``max``/``min`` branch;
:data:`fence`, a compiler barrier that keeps LLVM from reassociating a sum
across it; :data:`prefetch`, a cache-line hint) and numba's own allocation
code (:data:`empty`, :data:`zeros`: ``np.empty`` and ``np.zeros`` without
numba's units per shape and dtype type). The decorators that set how kernels
compile are :mod:`hyperplane._numba`'s.
"""

from __future__ import annotations

import hyperplane._numba  # noqa: F401  (the wait policy is set before numba loads)

from typing import Callable, NamedTuple  # noqa: E402

from numba.core import types  # noqa: E402

__all__ = ["empty", "fence", "maxnum", "minnum", "prefetch", "zeros"]


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


def _llvm_fence():
    """``fence(x)``: ``x`` (a float64), behind LLVM's ``llvm.arithmetic.fence``."""
    from llvmlite import ir
    from numba.core import types
    from numba.extending import intrinsic

    @intrinsic
    def call(typingctx, x):
        if x != types.float64:
            return None

        def codegen(context, builder, signature, args):
            double = ir.DoubleType()
            fn = builder.module.declare_intrinsic("llvm.arithmetic.fence", [double],
                                                  ir.FunctionType(double, [double]))
            return builder.call(fn, args)
        return types.float64(types.float64), codegen
    return call


#: ``fence(x)``: the value ``x``, which fastmath may not reassociate with the
#: arithmetic around it (LLVM's ``llvm.arithmetic.fence``; C's parentheses
#: under ``-fprotect-parens``). A short rule inlined into its callers
#: (:data:`jit_fast_inline`) fences the value it returns, so that it is
#: rounded as the rule rounds it, whatever the caller does with it: the
#: softmax's log-sum, added to the loss.
fence = _llvm_fence()


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


class Allocators(NamedTuple):
    """The allocating functions compiled code calls (:data:`empty`, :data:`zeros`)."""

    empty: Callable
    zeros: Callable


def _allocation():
    """``empty(shape, dtype)`` and ``zeros(shape, dtype)`` (see :data:`empty`):
    lowered in place where numba has the private allocation code they call
    (``numba.np.arrayobj``'s ``_parse_empty_args`` and ``_empty_nd_impl``,
    numba 0.61-0.68), else :func:`_allocation_by_overload`."""
    import numpy as np
    try:
        from numba.core import cgutils
        from numba.core.imputils import impl_ret_new_ref, lower_builtin
        from numba.core.typing.npydecl import parse_dtype, parse_shape
        from numba.core.typing.templates import AbstractTemplate, infer_global, signature
        from numba.np.arrayobj import _empty_nd_impl, _parse_empty_args
    except ImportError:
        return _allocation_by_overload()

    def empty(shape, dtype):
        """A new C-ordered array of ``shape`` (an integer or a tuple of them) and
        ``dtype``, uninitialised: ``np.empty(shape, dtype)``, lowered in place in
        compiled code (:data:`empty`).

        Examples
        --------
        >>> import numba, numpy as np
        >>> from hyperplane._lowered import empty
        >>> numba.njit(lambda n: empty((n, 2), np.int8).shape)(3), empty(2, np.float64).dtype
        ((3, 2), dtype('float64'))
        """
        return np.empty(shape, dtype=dtype)

    def zeros(shape, dtype):
        """A new C-ordered array of ``shape`` and ``dtype``, every byte zero:
        ``np.zeros(shape, dtype)``, lowered in place in compiled code (:data:`zeros`).

        Examples
        --------
        >>> import numba, numpy as np
        >>> from hyperplane._lowered import zeros
        >>> numba.njit(lambda n: zeros((n, 2), np.int8).sum())(3), zeros(2, np.float64)
        (0, array([0., 0.]))
        """
        return np.zeros(shape, dtype=dtype)

    def typed(function):
        """Type ``function(shape, dtype)`` as ``np.empty`` types it: a C-ordered array."""
        class Typing(AbstractTemplate):
            key = function

            def generic(self, args, kws):
                if kws or len(args) != 2:
                    return None
                ndim, dtype = parse_shape(args[0]), parse_dtype(args[1])
                if ndim is None or dtype is None:
                    return None
                return signature(types.Array(dtype, ndim, "C"), *args)

        infer_global(function, types.Function(Typing))

    def allocated(context, builder, sig, args):
        """numba's ``np.empty`` code: the shape's checks, then the NRT allocation."""
        arrtype, shapes = _parse_empty_args(context, builder, sig, args)
        return _empty_nd_impl(context, builder, arrtype, shapes)

    typed(empty)
    typed(zeros)

    @lower_builtin(empty, types.Any, types.Any)
    def _allocate(context, builder, sig, args):
        array = allocated(context, builder, sig, args)
        return impl_ret_new_ref(context, builder, sig.return_type, array._getvalue())

    @lower_builtin(zeros, types.Any, types.Any)
    def _allocate_zeroed(context, builder, sig, args):
        # numba's np.zeros: np.empty, then its _zero_fill (one memset of the data)
        array = allocated(context, builder, sig, args)
        cgutils.memset(builder, array.data, builder.mul(array.itemsize, array.nitems), 0)
        return impl_ret_new_ref(context, builder, sig.return_type, array._getvalue())

    return Allocators(empty, zeros)


def _allocation_by_overload():
    """``empty`` and ``zeros`` as functions numba compiles from their Python source
    (``register_jitable``): ``np.empty`` / ``np.zeros``, with numba's unit per shape
    and dtype type, for a numba without the private code :func:`_allocation` lowers."""
    import numpy as np
    from numba.extending import register_jitable

    @register_jitable
    def empty(shape, dtype):
        """``np.empty(shape, dtype)`` (:data:`empty`, compiled as numba's ``np.empty``)."""
        return np.empty(shape, dtype=dtype)

    @register_jitable
    def zeros(shape, dtype):
        """``np.zeros(shape, dtype)`` (:data:`zeros`, compiled as numba's ``np.zeros``)."""
        return np.zeros(shape, dtype=dtype)

    return Allocators(empty, zeros)


_ALLOCATORS = _allocation()

#: ``empty(shape, dtype)``: ``np.empty(shape, dtype)`` (the dtype named, positionally)
#: lowered in place. numba compiles its ``np.empty`` as a function of its own for
#: each shape type and each type of the dtype argument (``class(float64)``,
#: ``class(int64)``, ``dtype(int8)``, ...), five compiled units of a classification
#: tree's first fit; this one is numba's own allocation code (the same checks: a
#: negative dimension or an oversized array raises ``ValueError``) in its caller's
#: IR, no unit of its own. Called from Python it is ``np.empty``. Under a numba
#: release without that (private) code it is ``np.empty`` compiled, a unit per type
#: again (:func:`_allocation_by_overload`).
empty = _ALLOCATORS.empty
#: ``zeros(shape, dtype)``: ``np.zeros(shape, dtype)`` lowered in place as
#: :data:`empty` is: numba's allocation code, then its zero fill (one memset), where
#: numba's ``np.zeros`` compiles itself, an ``np.empty`` and the array's
#: ``_zero_fill``, each per type.
zeros = _ALLOCATORS.zeros
