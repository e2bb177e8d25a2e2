"""A compiled kernel's own code run by Python, with its callees' code.

A step that Python calls once per fit (the root's leaf test of a tree, the
KKT violation a traced SMO step reports) would compile a whole entry point of
its own, with numba's wrappers and its callees linked and optimised again,
for one call on one node or one vector. :func:`in_python` runs the kernel's
``py_func`` instead, with the callees it names bound to their own Python
code: the same rule, spelt once, and nothing compiled for the call.
"""

from __future__ import annotations

import types as pytypes

__all__ = ["in_python"]


def in_python(kernel, **callees):
    """The Python function of the numba dispatcher ``kernel`` (its
    ``py_func``), its globals updated with ``callees`` (a name in the kernel's
    module: the Python function to call there instead, e.g. a callee's own
    ``py_func`` or NumPy's ``fmax`` for an LLVM intrinsic).

    Examples
    --------
    >>> import numba
    >>> from hyperplane._in_python import in_python
    >>> square = numba.njit(lambda x: x * x)
    >>> double_square = numba.njit(lambda x: 2 * square(x))
    >>> in_python(double_square, square=square.py_func)(3.0)
    18.0
    >>> square.signatures, double_square.signatures
    ([], [])
    """
    func = kernel.py_func
    return pytypes.FunctionType(func.__code__, {**func.__globals__, **callees}, func.__name__,
                                func.__defaults__, func.__closure__)
