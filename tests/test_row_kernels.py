"""The row layer's span and entry functions and LIBLINEAR's shrinking
bookkeeping, each against a plain Python loop written from its rule."""

import numpy as np
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from hyperplane._csr_rows import CSRRows
from hyperplane._numba import jit
from hyperplane._row_kernels import row_entry, row_span, span_axpy, span_dot
from hyperplane.svm._linear_svr_kernels import start_pass, tally_visit


@jit
def _row_entries(X, t, out_f, out_v):
    start, stop = row_span(X, t)
    n = 0
    for p in range(start, stop):
        f, v = row_entry(X, t, p)
        out_f[n] = f
        out_v[n] = v
        n += 1
    return n


def _matrix(seed, n, d, density):
    rng = np.random.default_rng(seed)
    return sp.random(n, d, density=density, format="csr", random_state=rng,
                     data_rvs=lambda k: rng.normal(size=k))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31), n=st.integers(1, 6), d=st.integers(1, 9),
       density=st.floats(0.0, 1.0), acc=st.floats(-10, 10), delta=st.floats(-5, 5))
def test_span_dot_and_axpy_are_the_row_loops_in_index_order(seed, n, d, density, acc, delta):
    X = _matrix(seed, n, d, density)
    w = np.random.default_rng(seed + 1).normal(size=d)
    for t in range(n):
        start, stop = X.indptr[t], X.indptr[t + 1]
        expected = acc
        for p in range(start, stop):
            expected += w[X.indices[p]] * X.data[p]
        assert span_dot(X.data, X.indices, start, stop, w, acc) == expected
        moved = w.copy()
        span_axpy(X.data, X.indices, start, stop, moved, delta)
        reference = w.copy()
        for p in range(start, stop):
            reference[X.indices[p]] += delta * X.data[p]
        np.testing.assert_array_equal(moved, reference)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**31), n=st.integers(1, 5), d=st.integers(1, 8),
       density=st.floats(0.0, 1.0))
def test_row_entries_are_every_dense_feature_and_every_stored_csr_entry(seed, n, d, density):
    X = _matrix(seed, n, d, density)
    X.data[::3] = 0.0  # explicit stored zeros stay entries of the CSR row
    dense = X.toarray()
    f, v = np.empty(d, dtype=np.uint64), np.empty(d)
    for t in range(n):
        k = _row_entries(dense, t, f, v)
        assert k == d
        np.testing.assert_array_equal(f[:k], np.arange(d))
        np.testing.assert_array_equal(v[:k], dense[t])
        k = _row_entries(CSRRows.of(X), t, f, v)
        start, stop = X.indptr[t], X.indptr[t + 1]
        assert k == stop - start
        np.testing.assert_array_equal(f[:k], X.indices[start:stop])
        np.testing.assert_array_equal(v[:k], X.data[start:stop])


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 12), visits=st.lists(
    st.tuples(st.booleans(), st.floats(0.0, 100.0)), min_size=1, max_size=30))
def test_tally_visit_is_liblinears_shrinking_bookkeeping(n, visits):
    """A shrunk variable trades places with the last active one, which is
    visited next at the same position; another adds its violation to the
    largest and the sum (Ho & Lin 2012, Algorithm 4)."""
    active = np.arange(n, dtype=np.int64)
    outcome = start_pass(active, n, np.array([12345], dtype=np.uint64))
    assert sorted(active.tolist()) == list(range(n))  # the prefix shuffled in place
    reference = active.tolist()
    expected = (n, 0.0, 0.0)
    assert tuple(outcome) == expected
    k = 0
    for shrink, violation in visits:
        if k >= outcome.n_active:
            break
        outcome = tally_visit(active, k, outcome, shrink, violation)
        size, largest, total = expected
        if shrink:
            size -= 1
            reference[k], reference[size] = reference[size], reference[k]
        else:
            largest, total = max(largest, violation), total + violation
            k += 1
        expected = (size, largest, total)
        assert tuple(outcome) == expected
        assert active.tolist() == reference
