"""Small array tests, fills, sums and comparisons as loops, inlined into their compiled callers.

``np.all``, ``np.any``, ``np.full``, ``np.ones``, ``np.zeros`` (with its zero
fill), ``ndarray.sum`` and the builtins ``min`` / ``max`` each compile a function
of numba's own per type of their arguments, one library more in every first fit
that calls them, linked into each caller and optimised again there. These loops
give the same results and are inlined into their callers' IR before typing
(numba's untyped inlining, :data:`~hyperplane._numba.jit_inline`), so nothing of
their own is compiled: a zeroed array is ``filled(empty(n, dtype), 0)``
(:data:`~hyperplane._lowered.empty`, an allocation lowered in place).
"""

from __future__ import annotations

from ..._numba import jit_inline


@jit_inline
def any_set(flags):
    """``np.any(flags)`` of a boolean vector: whether some flag is set."""
    for i in range(flags.shape[0]):
        if flags[i]:
            return True
    return False


@jit_inline
def all_unit(w):
    """``np.all(w == 1.0)``: whether every weight in ``w`` is 1 (their class weights are
    then integer counts)."""
    for i in range(w.shape[0]):
        if w[i] != 1.0:
            return False
    return True


@jit_inline
def filled(a, value):
    """``a`` with every entry ``value`` (``np.full`` into a new :data:`~hyperplane._lowered.empty`)."""
    for i in range(a.shape[0]):
        a[i] = value
    return a


@jit_inline
def filled_rows(a, value):
    """``a`` (2-d) with every entry ``value``: :func:`filled` by rows."""
    for i in range(a.shape[0]):
        for k in range(a.shape[1]):
            a[i, k] = value
    return a


@jit_inline
def sum_in_order(a):
    """``a.sum()`` of a float vector as numba adds it: from 0.0, one entry after the other."""
    total = 0.0
    for i in range(a.shape[0]):
        total += a[i]
    return total


@jit_inline
def pick_max(a, b):
    """``max(a, b)`` as numba selects it: ``b`` when ``b > a``, else ``a``."""
    return b if b > a else a


@jit_inline
def pick_min(a, b):
    """``min(a, b)`` as numba selects it: ``b`` when ``b < a``, else ``a``."""
    return b if b < a else a
