"""The compiled kernel rows of the SMO solver against the formulas in NumPy."""

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given
from hypothesis import strategies as st

from hyperplane._csr_rows import CSRRows
from hyperplane.svm import _dense_rows_kernels as dr
from hyperplane.svm import _kernel_rows as kr
from hyperplane.svm import _kernel_values_kernels as kv
from hyperplane.svm import _sparse_rows_kernels as srk

CODES = {
    kr.LINEAR_KERNEL: lambda d2, dot, g, c0, deg: dot,
    kr.POLY_KERNEL: lambda d2, dot, g, c0, deg: (g * dot + c0) ** deg,
    kr.RBF_KERNEL: lambda d2, dot, g, c0, deg: np.exp(-g * d2),
    kr.LAPLACE_KERNEL: lambda d2, dot, g, c0, deg: np.exp(-g * np.sqrt(d2)),
    kr.SIGMOID_KERNEL: lambda d2, dot, g, c0, deg: np.tanh(g * dot + c0),
}


def reference_row(X, r, code, gamma, coef0, degree):
    """k(x_r, x_c) for every c, straight from the formulas, in float64."""
    dot = X @ X[r]
    d2 = ((X - X[r]) ** 2).sum(axis=1)
    return CODES[code](d2, dot, gamma, coef0, degree)


@given(seed=st.integers(0, 2 ** 31), n=st.integers(1, 40), d=st.integers(1, 12),
       code=st.sampled_from(sorted(CODES)), gamma=st.floats(0.01, 2.0),
       coef0=st.floats(-1.0, 1.0), degree=st.integers(1, 4),
       subset=st.booleans())
def test_kernel_row_matches_numpy(seed, n, d, code, gamma, coef0, degree, subset):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    X32 = X.astype(np.float32)
    r = int(rng.integers(n))
    cols = np.sort(rng.choice(n, size=max(1, n // 2), replace=False)) if subset \
        else np.arange(n)
    out = np.full(n, -7.0, dtype=np.float32)
    kr.kernel_row(kr.make_samples(X32, code, gamma, coef0, degree), r, cols.astype(np.int64),
                  cols.size, out)
    expected = reference_row(X32.astype(np.float64), r, code, gamma, coef0, degree)
    scale = np.maximum(1.0, np.abs(expected[cols]))
    np.testing.assert_array_less(np.abs(out[cols] - expected[cols]) / scale, 2e-5)
    untouched = np.setdiff1d(np.arange(n), cols)
    assert np.all(out[untouched] == -7.0)


@given(seed=st.integers(0, 2 ** 31), n=st.integers(1, 40), d=st.integers(1, 12),
       code=st.sampled_from(sorted(CODES)), gamma=st.floats(0.01, 2.0),
       coef0=st.floats(-1.0, 1.0), degree=st.integers(1, 4))
def test_full_row_from_feature_major_samples_matches_numpy(seed, n, d, code, gamma, coef0,
                                                           degree):
    rng = np.random.default_rng(seed)
    X32 = rng.normal(size=(n, d)).astype(np.float32)
    r = int(rng.integers(n))
    out = np.empty(n, dtype=np.float32)
    kr.kernel_row_full(kr.make_samples(X32, code, gamma, coef0, degree), r, out)
    expected = reference_row(X32.astype(np.float64), r, code, gamma, coef0, degree)
    np.testing.assert_array_less(np.abs(out - expected) / np.maximum(1.0, np.abs(expected)),
                                 2e-5)


@given(values=st.lists(st.floats(-800.0, 0.0), min_size=1, max_size=64))
def test_exp_nonpositive_matches_numpy(values):
    x = np.array(values)
    buf = x.copy()
    bits = np.empty(x.size, dtype=np.int64)
    kv.exp_nonpositive(buf, x.size, bits, bits.view(np.float64))
    expected = np.exp(x)
    big = expected > 1e-300
    np.testing.assert_allclose(buf[big], expected[big], rtol=1e-9)
    assert np.all(buf[~big] < 1e-290)


@given(seed=st.integers(0, 2 ** 31), n=st.integers(1, 40), d=st.integers(1, 13),
       distance=st.booleans(), data=st.data())
def test_feature_major_block_matches_numpy(seed, n, d, distance, data):
    """One block ``lo <= c < hi`` of squared distances or dot products, summed
    in float64 from float32 samples, equals NumPy's and leaves the rest of
    ``buf`` alone."""
    lo = data.draw(st.integers(0, n - 1))
    hi = data.draw(st.integers(lo, n))
    rng = np.random.default_rng(seed)
    X32 = rng.normal(size=(n, d)).astype(np.float32)
    r = int(rng.integers(n))
    code = kr.RBF_KERNEL if distance else kr.LINEAR_KERNEL
    samples = kr.make_samples(X32, code, 1.0, 0.0, 1)
    samples.buf[:] = -7.0
    dr.feature_major_products(samples, r, lo, hi)
    X = X32.astype(np.float64)
    expected = ((X - X[r]) ** 2).sum(axis=1) if distance else X @ X[r]
    np.testing.assert_allclose(samples.buf[lo:hi], expected[lo:hi], rtol=1e-12, atol=1e-12)
    assert np.all(samples.buf[:lo] == -7.0) and np.all(samples.buf[hi:] == -7.0)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("seed", range(3))
def test_csr_squared_norms_are_the_sequential_feature_order_sums(dtype, seed):
    """The CSR rows' squared norms are a strict loop's sums bit for bit: each
    square in float64, added in feature order one at a time (rows past
    ``NORM_POSITIONS`` nonzeros included, and empty rows)."""
    rng = np.random.default_rng(seed)
    X = sp.random(40, 3 * srk.NORM_POSITIONS, density=0.4, format="csr", random_state=seed)
    X = sp.vstack([X, sp.csr_matrix((1, X.shape[1]))]).tocsr()
    X.data = (rng.normal(size=X.data.size) * 10.0 ** rng.uniform(-4, 4, X.data.size)).astype(dtype)
    expected = []
    for t in range(X.shape[0]):
        acc = 0.0
        for v in X.data[X.indptr[t]:X.indptr[t + 1]]:
            acc += float(v) * float(v)
        expected.append(acc)
    got = srk.csr_squared_norms(CSRRows(X.data, X.indices, X.indptr.astype(np.int64)))
    assert got.tobytes() == np.array(expected).tobytes()
