"""The compile policy's helpers: maxnum/minnum reductions against NumPy."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from hyperplane._numba import jit_fast, maxnum, minnum


@jit_fast
def reduce_both(x):
    hi, lo = -np.inf, np.inf
    for t in range(x.shape[0]):
        hi = maxnum(hi, x[t])
        lo = minnum(lo, x[t])
    return hi, lo


@given(st.lists(st.floats(allow_nan=False), min_size=0, max_size=300))
def test_maxnum_minnum_reductions_match_numpy(values):
    x = np.array(values, dtype=np.float64)
    hi, lo = reduce_both(x)
    assert hi == (x.max() if x.size else -np.inf)
    assert lo == (x.min() if x.size else np.inf)


def test_maxnum_ignores_a_nan_operand():
    assert reduce_both(np.array([np.nan, 2.0, np.nan, -1.0])) == (2.0, -1.0)
