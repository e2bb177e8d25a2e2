"""A kernel run by Python through :func:`hyperplane._in_python.in_python` gives the compiled
kernel's results and compiles nothing (each test has kernels of its own, so that no other
test has compiled them)."""

import numba
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from hyperplane._in_python import in_python


def _largest(v):
    best = -np.inf
    for x in v:
        best = max(best, x)
    return best


largest_a, largest_b, largest_c = (numba.njit(_largest) for _ in range(3))


@numba.njit
def spread_a(v, floor):
    return largest_a(v) - floor


@numba.njit
def spread_b(v, floor):
    return largest_b(v) - floor


@numba.njit
def spread_c(v, floor):
    return largest_c(v) - floor


def test_the_callees_named_run_in_python_and_nothing_is_compiled():
    assert in_python(spread_a, largest_a=_largest)(np.array([1.0, 4.0, 2.0]), 1.0) == 3.0
    assert spread_a.signatures == [] and largest_a.signatures == []


def test_a_callee_not_named_stays_the_compiled_one():
    assert in_python(spread_b)(np.array([1.0, 4.0]), 0.5) == 3.5
    assert largest_b.signatures != [] and spread_b.signatures == []


@settings(max_examples=40, deadline=None)
@given(arrays(np.float64, st.integers(1, 20), elements=st.floats(-1e6, 1e6)),
       st.floats(-1e6, 1e6))
def test_python_and_compiled_agree(v, floor):
    assert in_python(spread_c, largest_c=largest_c.py_func)(v, floor) == spread_c(v, floor)
