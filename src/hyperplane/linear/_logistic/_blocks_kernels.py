"""Sums over the row blocks of a parallel pass, serial and in block order.

numba would turn an array sum inside a parallel function into a reduction
split over the threads, whose rounding then depends on their number; the
passes of :mod:`._gradient_kernels`, :mod:`._hessian_kernels` and
:mod:`._tron_sparse_kernels` therefore give every block a buffer of its own
and add the buffers here, in block order. A buffer that a pass may leave out
(the Hessian's diagonal of an L-BFGS pass) is None, told apart when numba
compiles the pass.
"""

from __future__ import annotations

import numpy as np

from ..._lowered import zeros
from ..._numba import by_none, jit_fast


@jit_fast
def block_total(values):
    """``Σ_b values[b]``, in block order."""
    total = 0.0
    for b in range(values.shape[0]):
        total += values[b]
    return total


@jit_fast
def block_totals(parts):
    """``Σ_b parts[b]`` (shape ``parts.shape[1:]``), in block order."""
    flat = parts.reshape(parts.shape[0], -1)
    out = zeros(flat.shape[1], np.float64)
    for b in range(flat.shape[0]):
        for j in range(flat.shape[1]):
            out[j] += flat[b, j]
    return out.reshape(parts.shape[1:])


@jit_fast
def no_buffers(wanted, parts):
    """None: no buffers are wanted."""
    return None


@jit_fast
def zeroed_buffers(wanted, parts):
    """Zeroed block buffers shaped like ``parts``."""
    return zeros(parts.shape, parts.dtype)


@jit_fast
def no_buffer(buffers, blk):
    """None: there are no buffers."""
    return None


@jit_fast
def block_buffer(buffers, blk):
    """Block ``blk``'s buffer."""
    return buffers[blk]


@jit_fast
def no_totals(buffers):
    """None: there are no buffers."""
    return None


#: zeroed block buffers shaped like ``parts``, or None when ``wanted`` is None;
#: block ``blk``'s buffer (or None); the buffers' :func:`block_totals` (or
#: None). Chosen when numba types the first argument: an ``if x is None``
#: would compile both branches for an array and make every result Optional
buffers_like = by_none(no_buffers, zeroed_buffers)
buffer_of = by_none(no_buffer, block_buffer)
block_totals_of = by_none(no_totals, block_totals)
