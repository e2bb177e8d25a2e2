"""Small array tests and fills as loops, inlined into their compiled callers.

``np.all``, ``np.any``, ``np.full`` and ``np.ones`` each compile a function of
numba's own, one library more in every first fit that calls them, linked into
each caller and optimised again there. These loops give the same results and
are inlined into their callers' IR before typing (numba's untyped inlining,
:data:`~hyperplane._numba.jit_inline`), so nothing of their own is compiled.
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
    """``a`` with every entry ``value`` (``np.full`` into a new ``np.empty``)."""
    for i in range(a.shape[0]):
        a[i] = value
    return a
