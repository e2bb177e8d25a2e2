"""Reductions computed on the calling thread, in an order fixed by the data.

A fit's values must not depend on the number of threads it runs on. BLAS
splits a dot product of more than about 10^4 entries over its threads (so
the last bits of ``a @ b`` depend on the thread count), and the workers it
wakes spin for tens of milliseconds after the call, on a busy machine taking
a core from the caller: a 200k-entry ``a @ b`` on two threads cost 2 ms plus
15-70 ms of a spinning worker, against 0.2 ms on the calling thread
(benchmarks/RESULTS.md). Short reductions are therefore summed here, by
numpy's own loops, which run on the calling thread.
"""

from __future__ import annotations

import numpy as np


def serial_dot(a, b):
    """``sum_t a_t b_t`` of two 1-d arrays, summed on the calling thread.

    Examples
    --------
    >>> import numpy as np
    >>> serial_dot(np.array([1.0, 2.0, 3.0]), np.array([4.0, 5.0, 6.0]))
    32.0
    """
    return float(np.einsum("i,i->", a, b))
