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
  (``tests/numba_policy/test_arithmetic.py`` shows it).

All four use ``cache=True`` so that a kernel is compiled once per machine,
and ``nogil=True`` so that Dask and thread pools can run them concurrently.

Threads that wait for the next parallel region sleep instead of spinning
(``OMP_WAIT_POLICY=PASSIVE``, the OpenMP API specification's wait policy, set before
numba's OpenMP pool starts, unless the user set it): with spinning workers a machine
whose cores are all busy runs each region at the pace of a worker that has to win a core
back, which made the SMO solver, one region per kernel row, 7-9x slower on two threads
than on one on a loaded two-core machine; with sleeping workers it is as fast as on one.
"""

from __future__ import annotations

import types as pytypes

import hyperplane._wait_policy  # noqa: F401  (OMP_WAIT_POLICY=PASSIVE unless the user set it)

import numba  # noqa: E402  (after the wait policy: libgomp reads it when it loads)
from numba.core import errors, types  # noqa: E402
from numba.core.registry import CPUDispatcher  # noqa: E402
from hyperplane._inline_copy import COPIES_SCOPE_ONCE  # noqa: E402,F401  (numba's inliner)
from hyperplane._link_only import INTERNAL_COMPILER  # noqa: E402
from hyperplane._llvm_pipeline import LOWERS_FUNCTION_PASSES  # noqa: E402,F401  (LLVM levels)
from hyperplane._nrt_meminfos import WALKS_MEMINFOS_ONLY  # noqa: E402,F401  (numba's refcounts)
from hyperplane._numba_cache import LOADS_WITHOUT_REFRESH  # noqa: E402,F401  (cache loads)

FASTMATH_FLAGS = frozenset({"reassoc", "contract", "arcp", "afn", "nsz"})


class KernelDispatcher(CPUDispatcher):
    """numba's CPU dispatcher, which compiles a kernel called from compiled
    code for the plain types of its arguments.

    numba types a constant argument (``f(x, 0)``, ``g(x, True)``) as a literal,
    and a dispatcher compiles a separate version of the callee, and of every
    function it calls with that argument, for each literal value and once more
    for the plain type (``int64``, ``bool``) -- the same machine code up to a
    folded constant, several times the compilation of a first fit. This one
    first asks for the plain types; only a kernel that cannot be typed
    without the literal (a constant tuple index) gets the literal version.
    """

    def get_call_template(self, args, kws):
        plain = tuple(types.unliteral(a) for a in args)
        plain_kws = {k: types.unliteral(v) for k, v in kws.items()}
        if self._can_compile and (plain != tuple(args) or plain_kws != kws):
            try:
                return super().get_call_template(plain, plain_kws)
            except errors.TypingError:
                pass
        return super().get_call_template(args, kws)


class InternalDispatcher(KernelDispatcher):
    """A :class:`KernelDispatcher` for a kernel that only compiled code calls:
    numba compiles it without the CPython wrapper (which boxes and unboxes
    its arguments for a call from Python) and without the C-function wrapper
    (for ``cfunc`` pointers), numba's own options ``no_cpython_wrapper`` and
    ``no_cfunc_wrapper``, as it compiles its ``@overload`` implementations.
    Each compiled function otherwise carries both, generated, optimised and
    linked into its own library, whatever calls it.

    A compiled caller calls it as any other kernel (the call is typed and
    linked as a direct call of its native function), and it is cached
    (``cache=True``) like them. A call from Python raises :class:`TypeError`
    naming the kernel: its compilations are kept out of the table that
    numba's dispatcher looks up for a Python call, whose entry would be a
    null function pointer without the wrapper.

    Examples
    --------
    Functions defined in a session cannot be cached, so this example compiles
    without the package's ``cache=True`` (:data:`jit_internal` and its forms
    add it):

    >>> import numba
    >>> from hyperplane._numba import InternalDispatcher
    >>> def twice(x):
    ...     return 2 * x
    >>> inner = InternalDispatcher(py_func=twice, locals={}, targetoptions=dict(
    ...     nopython=True, no_cpython_wrapper=True, no_cfunc_wrapper=True))
    >>> outer = numba.njit(lambda x: inner(x) + 1)
    >>> outer(3)
    7
    >>> inner(3)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: ...twice is compiled without a Python wrapper: call it from a compiled function
    """

    def __init__(self, py_func, locals=None, targetoptions=None, **kwargs):
        kwargs.setdefault("pipeline_class", INTERNAL_COMPILER)
        super().__init__(py_func=py_func, locals=locals or {}, targetoptions=targetoptions,
                         **kwargs)

    def add_overload(self, cres):
        # only self.overloads (what compiled callers are typed and linked
        # against), not the Python call table (``_insert``)
        self.overloads[tuple(cres.signature.args)] = cres

    def _compile_for_args(self, *args, **kws):
        raise TypeError(f"{self.py_func.__module__}.{self.py_func.__qualname__} is "
                        "compiled without a Python wrapper: call it from a compiled "
                        "function")


class TwinDispatcher(KernelDispatcher):
    """A :class:`KernelDispatcher` for a kernel that both Python and compiled
    code call: Python calls this compilation, with numba's wrappers; compiled
    callers are typed and linked against ``internal``, an
    :class:`InternalDispatcher` of the same function without them.

    A kernel with wrappers pays for them in every compilation, also where
    only compiled callers run it (the tree's node expansion, which the
    compiled subtree grower calls and the Python growth loop and the tests
    call as well); with a twin, a process compiles the wrappers only for the
    signatures Python calls. A process that calls a kernel from both compiles
    its body twice (once per twin). The twin caches under the function's name
    with ``__internal`` added (numba names a cache file after the function,
    not after its flags).

    Examples
    --------
    Functions defined in a session cannot be cached, so this example compiles
    without the package's ``cache=True`` (:data:`jit_twin` adds it):

    >>> import numba
    >>> from hyperplane._numba import TwinDispatcher
    >>> def twice(x):
    ...     return 2 * x
    >>> both = TwinDispatcher(py_func=twice, locals={}, targetoptions=dict(nopython=True))
    >>> outer = numba.njit(lambda x: both(x) + 1)
    >>> outer(3), both(3)
    (7, 6)
    >>> [d.py_func.__qualname__ for d in (both, both.internal) if d.overloads]
    ['twice', 'twice__internal']
    """

    def __init__(self, py_func, locals=None, targetoptions=None, **kwargs):
        super().__init__(py_func=py_func, locals=locals or {}, targetoptions=targetoptions,
                         **kwargs)
        twin = pytypes.FunctionType(py_func.__code__, py_func.__globals__, py_func.__name__,
                                    py_func.__defaults__, py_func.__closure__)
        twin.__qualname__ = f"{py_func.__qualname__}__internal"
        twin.__doc__, twin.__kwdefaults__ = py_func.__doc__, py_func.__kwdefaults__
        self.internal = InternalDispatcher(
            py_func=twin, locals=dict(locals or {}),
            targetoptions=dict(targetoptions, no_cpython_wrapper=True, no_cfunc_wrapper=True))

    @property
    def _numba_type_(self):
        # what a compiled caller (and a by_first_type choice) sees
        return types.Dispatcher(self.internal)

    def enable_caching(self):
        super().enable_caching()
        self.internal.enable_caching()


#: the flags of a caller that an overload's implementation inherits (numba's
#: ``CPUTargetOptions.finalize``): the only ones that change its code
INHERITED_FLAGS = ("nrt", "fastmath", "error_model", "forceinline")
#: numba's overloads whose implementations do no floating-point arithmetic
#: (allocation, zero fill, a view): fastmath cannot change their code
ARITHMETIC_FREE_OVERLOADS = frozenset({
    ("numba.np.arrayobj", "ol_np_empty"), ("numba.np.arrayobj", "ol_np_zeros"),
    ("numba.np.arrayobj", "ol_np_empty_like"), ("numba.np.arrayobj", "ol_np_zeros_like"),
    ("numba.np.arrayobj", "ol_array_zero_fill"), ("numba.np.arrayobj", "_ol_array_allocate"),
    ("numba.np.arrayobj", "ol_compatible_view")})


def overload_key(overload_func, flags):
    """What an implementation of numba's overload ``overload_func`` is kept
    under for a caller compiled with ``flags`` (None outside a compilation):
    the values of the flags it inherits (:data:`INHERITED_FLAGS`), fastmath
    left out for an overload that does no floating-point arithmetic
    (:data:`ARITHMETIC_FREE_OVERLOADS`)."""
    if flags is None:
        return None
    free = (getattr(overload_func, "__module__", None),
            getattr(overload_func, "__name__", None)) in ARITHMETIC_FREE_OVERLOADS
    return tuple(None if name == "fastmath" and free
                 else frozenset(flags.fastmath.flags) if name == "fastmath"
                 else getattr(flags, name) for name in INHERITED_FLAGS)


def _share_overload_implementations():
    """Let every kernel that an overload's implementation would be compiled
    the same for use one implementation of numba's overloads (``np.zeros``,
    ``np.any``, ...): kernels with and without wrappers
    (:class:`InternalDispatcher`), inlined or not, parallel or not, and, for
    an overload without floating-point arithmetic, strict and fastmath ones.

    numba keeps an overload's implementation per set of flags of the function
    that calls it, although the implementation only inherits the flags that
    change its code (:data:`INHERITED_FLAGS`): each overload that kernels of
    several kinds call was compiled once per kind in a first fit (``np.empty``
    10 times in an SVM's). The key keeps fastmath otherwise, so a fastmath
    caller and a strict one still get their own implementations of an
    overload that computes (:func:`overload_key`).
    """
    from numba.core import targetconfig
    from numba.core.typing.templates import _OverloadFunctionTemplate

    expected = {"top_or_none", "_impl_cache", "_build_impl"}
    if not expected <= set(_OverloadFunctionTemplate._get_impl.__code__.co_names):
        return  # another numba: its own keys (each overload compiled per caller's flags)

    def _get_impl(self, args, kws):
        flags = overload_key(self._overload_func, targetconfig.ConfigStack.top_or_none())
        cache_key = self.context, tuple(args), tuple(kws.items()), flags
        try:
            return self._impl_cache[cache_key]
        except KeyError:
            pass
        return self._build_impl(cache_key, args, kws)

    _OverloadFunctionTemplate._get_impl = _get_impl


_share_overload_implementations()


def _compiler(dispatcher=KernelDispatcher, **options):
    """A decorator compiling with numba's ``nopython`` mode, ``cache=True``
    and ``options``, into a ``dispatcher`` (:class:`KernelDispatcher`;
    :class:`InternalDispatcher`: no wrappers, for compiled callers only).

    No kernel gets numba's C-function wrapper (``no_cfunc_wrapper``): only a
    first-class function value needs it, which no kernel is, and it was
    optimised in every library of a kernel Python calls (~0.6k of
    ``grow_subtree``'s ~14.7k instructions)."""
    targetoptions = dict(nopython=True, boundscheck=None, no_cfunc_wrapper=True, **options)
    if issubclass(dispatcher, InternalDispatcher):
        targetoptions.update(no_cpython_wrapper=True)

    def decorate(func):
        made = dispatcher(py_func=func, locals={}, targetoptions=dict(targetoptions))
        made.enable_caching()
        return made
    return decorate


jit = _compiler(nogil=True)
jit_fast = _compiler(nogil=True, fastmath=set(FASTMATH_FLAGS))
#: ``jit_fast`` inlined into its callers when numba builds their IR: a call of
#: one compiled function from another is a real call (numba links the callee
#: compiled), which a row rule called once per row pays for every row (the
#: softmax of the multinomial logistic pass: 1.3x). Its arguments are typed
#: in the caller's place, so an ``if x is None`` inside it drops no branch.
jit_fast_inline = _compiler(nogil=True, fastmath=set(FASTMATH_FLAGS), inline="always")
#: :data:`jit` inlined into its callers' IR (strict arithmetic, as its callers'):
#: a step that only compiled code calls, for one or a few call sites, is then
#: no compiled function of its own, whose library numba would link, optimise
#: and generate code for once more in every caller above it (the SMO's row
#: cache, working-set selection and shrinking inside ``smo_iterate``). Called
#: from Python it compiles as :data:`jit` does.
jit_inline = _compiler(nogil=True, inline="always")
jit_parallel = _compiler(nogil=True, fastmath=set(FASTMATH_FLAGS), parallel=True)
jit_parallel_exact = _compiler(nogil=True, parallel=True)
#: :data:`jit`, :data:`jit_fast` and :data:`jit_parallel` for a kernel that only
#: compiled code calls (:class:`InternalDispatcher`): no CPython or C-function
#: wrapper is compiled, which is part of every compiled function's cost (the
#: SMO's internal kernels); a call from Python raises :class:`TypeError`.
jit_internal = _compiler(InternalDispatcher, nogil=True)
jit_fast_internal = _compiler(InternalDispatcher, nogil=True, fastmath=set(FASTMATH_FLAGS))
jit_parallel_internal = _compiler(InternalDispatcher, nogil=True, fastmath=set(FASTMATH_FLAGS),
                                  parallel=True)
#: :data:`jit_parallel_exact` for a kernel that only compiled code calls (the
#: tree's parallel scoring and partition, which call strict functions)
jit_parallel_exact_internal = _compiler(InternalDispatcher, nogil=True, parallel=True)
#: :data:`jit`, :data:`jit_fast` and :data:`jit_parallel_exact` for a kernel that both Python and
#: compiled code call (:class:`TwinDispatcher`): compiled callers get a twin
#: compiled without wrappers, Python calls the compilation with them
jit_twin = _compiler(TwinDispatcher, nogil=True)
jit_fast_twin = _compiler(TwinDispatcher, nogil=True, fastmath=set(FASTMATH_FLAGS))
jit_parallel_exact_twin = _compiler(TwinDispatcher, nogil=True, parallel=True)

__all__ = ["jit", "jit_inline", "jit_fast", "jit_fast_inline", "jit_parallel", "jit_parallel_exact", "FASTMATH_FLAGS",
           "jit_internal", "jit_fast_internal", "jit_parallel_internal",
           "jit_parallel_exact_internal", "jit_twin", "jit_fast_twin", "jit_parallel_exact_twin", "TwinDispatcher",
           "KernelDispatcher", "InternalDispatcher", "by_none", "by_first_type"]


def by_none(when_none, otherwise, pass_first=(True, True)):
    """A function for compiled code, ``call(arg, *args)``, that runs
    ``when_none(arg, *args)`` when ``arg`` is None and ``otherwise(arg, *args)``
    when it is anything else. ``pass_first``: whether each of the two gets
    ``arg`` (False: ``when_none(*args)`` or ``otherwise(*args)``, ``arg`` only
    chooses, so a function that does not need it is called as it is, without
    a forwarding function compiled in between).

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
    >>> doubled = numba.njit(lambda y: 2 * y)
    >>> times = by_none(doubled, added, pass_first=(False, True))
    >>> use_times = numba.njit(lambda x, y: times(x, y))
    >>> use_times(None, 2), use_times(3, 2)
    (4, 5)
    """
    return by_first_type(
        lambda arg: when_none if isinstance(arg, types.NoneType) else otherwise,
        f"{when_none.__name__} / {otherwise.__name__}",
        pass_first=lambda arg: pass_first[0] if isinstance(arg, types.NoneType) else pass_first[1])


def by_first_type(choose, name, choose_in_python=None, pass_first=True):
    """A function for compiled code, ``call(arg, *args)``, that runs
    ``choose(numba type of arg)(arg, *args)`` (``choose(...)(*args)`` where
    ``pass_first``, a bool or a function of the numba type of ``arg``, is
    False: ``arg`` only chooses): numba makes the choice when it
    types ``arg``, so the call costs nothing at run time and the caller is
    compiled with the chosen function only (:func:`by_none`; the row layer's
    ``by_layout``). Called from Python it runs
    ``choose_in_python(arg)(arg, *args)`` (the same choice from the Python
    value), or raises :class:`NotImplementedError` naming ``name`` when
    ``choose_in_python`` is None.

    The call is typed and lowered as a direct call of the chosen function:
    an ``@overload`` would compile a forwarding function of its own, one more
    compiled library, which links, optimises and generates code for the whole
    chosen function once more.

    Examples
    --------
    >>> import numba
    >>> from numba.core import types
    >>> from hyperplane._numba import by_first_type
    >>> as_float = numba.njit(lambda x: float(x))
    >>> halved = numba.njit(lambda x: x / 2)
    >>> number = by_first_type(
    ...     lambda t: as_float if isinstance(t, types.Integer) else halved, "number")
    >>> use = numba.njit(lambda x: number(x))
    >>> use(3), use(3.0)
    (3.0, 1.5)
    """
    from numba.core.imputils import lower_builtin
    from numba.core.typing.templates import AbstractTemplate, infer_global, signature

    def first(arg):
        """The first argument the chosen function gets: 0 (``arg``) or 1."""
        return 0 if (pass_first(arg) if callable(pass_first) else pass_first) else 1

    def call(arg, *args):
        if choose_in_python is None:
            raise NotImplementedError(f"{name}: compiled code only")
        chosen = choose_in_python(arg)
        return chosen(*args) if pass_first is False else chosen(arg, *args)

    def chosen_type(context, arg):
        return context.resolve_value_type(choose(arg))

    class Typing(AbstractTemplate):
        key = call

        def generic(self, args, kws):
            at = first(args[0])
            chosen = chosen_type(self.context, args[0]).get_call_type(
                self.context, args[at:], kws)
            return signature(chosen.return_type, *args[:at], *chosen.args)

    infer_global(call, types.Function(Typing))

    @lower_builtin(call, types.VarArg(types.Any))
    def _call_chosen(context, builder, sig, args):
        typing = context.typing_context
        fnty = chosen_type(typing, sig.args[0])
        at = first(sig.args[0])
        chosen = fnty.get_call_type(typing, sig.args[at:], {})
        return context.get_function(fnty, chosen)(builder, args[at:])

    return call
