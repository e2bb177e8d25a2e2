"""The compile policy's arithmetic: maxnum/minnum reductions against NumPy, a
fence against fastmath's rewriting, strict callees inside exact parallel kernels,
and a fastmath twin's flags."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from numba import prange

from hyperplane._numba import jit, jit_fast, jit_parallel_exact
from hyperplane._lowered import fence, maxnum, minnum


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


@jit_fast
def _added_then_taken_away(a, b):
    return (a + b) - a


@jit_fast
def _fenced_sum_taken_away(a, b):
    return fence(a + b) - a


def test_a_fenced_value_is_rounded_before_fastmath_sees_the_rest():
    """fastmath may rewrite ``(a + b) - a`` as ``b``; behind a fence ``a + b`` is
    rounded first (1e16 + 1 is 1e16 in float64), as a call would round it."""
    assert _added_then_taken_away(1e16, 1.0) == 1.0
    assert _fenced_sum_taken_away(1e16, 1.0) == 0.0


@jit
def _strict_sum(x):
    s = 0.0
    for v in x:
        s += v * 1.0000001
    return s


@jit_parallel_exact
def _rows_summed_in_parallel(X):
    out = np.empty(X.shape[0])
    for i in prange(X.shape[0]):
        out[i] = _strict_sum(X[i])
    return out


def test_a_strict_callee_stays_strict_inside_an_exact_parallel_kernel():
    """Reached first from the parallel kernel (as here: nothing else calls
    it), the strict function must still add in order: with ``jit_parallel``
    (fastmath) numba would compile it reassociated, 516.919397632563 instead
    of 516.9193976325623 on these numbers."""
    X = np.random.default_rng(0).random((4, 1001))
    sequential = []
    for row in X:
        s = 0.0
        for v in row.tolist():
            s += v * 1.0000001
        sequential.append(s)
    assert _rows_summed_in_parallel(X).tolist() == sequential


def _summed(x):
    s = 0.0
    for v in x:
        s += v
    return s


def test_a_fast_twin_compiles_both_twins_with_fastmath():
    """``jit_fast_twin``: the compilation Python calls and the twin compiled
    callers link have the same fastmath flags (so the same sums) and only the
    twin is without wrappers."""
    from hyperplane._numba import FASTMATH_FLAGS, TwinDispatcher, jit_fast_twin

    twin = jit_fast_twin(_summed)
    assert isinstance(twin, TwinDispatcher)
    for dispatcher in (twin, twin.internal):
        assert dispatcher.targetoptions["fastmath"] == set(FASTMATH_FLAGS)
    assert twin.internal.targetoptions["no_cpython_wrapper"]
    assert not twin.targetoptions.get("no_cpython_wrapper", False)
    assert twin(np.arange(4.0)) == 6.0
