"""Compiled sums of class and branch weights in NumPy's own order.

Growth and pruning add short vectors of weights (a node's class weights, the
known weight of its branches) and compare the sums with ``<=``: adding them
in the order ``ndarray.sum`` does keeps the compiled trees bit for bit equal
to their NumPy references.
"""

from __future__ import annotations

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
    # the eight partial sums as scalars: no array allocated
    r0, r1, r2, r3, r4, r5, r6, r7 = a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]
    i = 8
    while i < n - n % 8:
        r0 += a[i]
        r1 += a[i + 1]
        r2 += a[i + 2]
        r3 += a[i + 3]
        r4 += a[i + 4]
        r5 += a[i + 5]
        r6 += a[i + 6]
        r7 += a[i + 7]
        i += 8
    acc = (r0 + r1 + (r2 + r3)) + (r4 + r5 + (r6 + r7))
    while i < n:
        acc += a[i]
        i += 1
    return acc
