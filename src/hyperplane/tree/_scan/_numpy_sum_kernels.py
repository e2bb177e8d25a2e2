"""Compiled sums of class and branch weights in NumPy's own order.

Growth and pruning add short vectors of weights (a node's class weights, the
known weight of its branches) and compare the sums with ``<=``: adding them
in the order ``ndarray.sum`` does keeps the compiled trees bit for bit equal
to their NumPy references.
"""

from __future__ import annotations

import numpy as np

from ..._numba import jit_twin


@jit_twin
def numpy_sum(a):
    """``a.sum()`` of a short contiguous vector, in NumPy's own order (pairwise, 8 lanes).

    NumPy adds fewer than 8 numbers one by one and up to 128 in eight
    interleaved partial sums; following it keeps the compiled pruning
    bit-for-bit equal to the NumPy reference. Longer vectors (more than 128
    classes or branches) are added one by one.
    """
    n = a.shape[0]
    if n < 8 or n > 128:
        acc = 0.0
        for i in range(n):
            acc += a[i]
        return acc
    r = np.empty(8, dtype=np.float64)
    for k in range(8):
        r[k] = a[k]
    i = 8
    while i < n - n % 8:
        for k in range(8):
            r[k] += a[i + k]
        i += 8
    acc = (r[0] + r[1] + (r[2] + r[3])) + (r[4] + r[5] + (r[6] + r[7]))
    while i < n:
        acc += a[i]
        i += 1
    return acc
