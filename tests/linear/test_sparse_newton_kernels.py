"""TRON's two-phase sparse passes (row phase on CSR rows, column phase on the
columns of row chunks) against dense NumPy on random CSR matrices, including
empty rows, columns and chunks; the column phase does not depend on how the
columns are split among threads."""

import numpy as np
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import expit, logsumexp, softmax

from hyperplane._csr_rows import CSRRows
from hyperplane.linear._logistic import _tron_sparse_kernels as SK
from hyperplane.linear._state import Targets
from hyperplane.linear._logistic._layout import chunked_columns, column_chunk_count


@st.composite
def csr_problems(draw):
    n = draw(st.integers(1, 50))
    d = draw(st.integers(1, 20))
    k = draw(st.sampled_from([1, 2, 3, 4, 5, 7]))   # three classes a read, and 1-2 left
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    X = sp.random(n, d, density=draw(st.floats(0.0, 1.0)), format="csr", random_state=seed,
                  data_rvs=lambda m: rng.normal(scale=2.0, size=m))
    return X, k, rng


def both_layouts(X, n_chunks=1):
    return CSRRows.of(X), chunked_columns(X, n_chunks)


def column_bounds(d, n_blocks):
    """``n_blocks`` column blocks, the first one empty when there are several."""
    return np.array([0] + [b * d // (n_blocks - 1) for b in range(n_blocks)]
                    if n_blocks > 1 else [0, d], dtype=np.int64)


def test_chunked_columns_are_each_chunks_csc_arrays():
    X = sp.random(23, 7, density=0.4, format="csr", random_state=3)
    cols = chunked_columns(X, 3)
    assert cols.indptr.shape == (3, 8)
    for c, (start, stop) in enumerate([(0, 7), (7, 15), (15, 23)]):
        chunk = X[start:stop].tocsc()
        first = cols.indptr[c, 0]
        np.testing.assert_array_equal(cols.indptr[c] - first, chunk.indptr)
        np.testing.assert_array_equal(cols.data[first:first + chunk.nnz], chunk.data)
        np.testing.assert_array_equal(cols.indices[first:first + chunk.nnz],
                                      chunk.indices + start)


def test_chunk_count_keeps_a_chunks_row_values_in_cache_and_its_columns_full():
    assert column_chunk_count(200_000, 20_000, 4_000_000, 1) == 4     # 3.2 MB of row values
    assert column_chunk_count(200_000, 20_000, 4_000_000, 3) == 10    # 9.6 MB
    assert column_chunk_count(20_000, 50_000, 2_000_000, 3) == 1      # 0.96 MB: one chunk
    assert column_chunk_count(200_000, 20_000, 100_000, 3) == 1       # columns too empty
    assert column_chunk_count(5, 3, 0, 2) == 1


@settings(max_examples=60, deadline=None)
@given(csr_problems(), st.sampled_from([1, 3, 7]), st.sampled_from([1, 2, 4]))
def test_column_phase_is_the_transposed_product_whatever_the_blocks(problem, n_blocks,
                                                                    n_chunks):
    X, k, rng = problem
    _, cols = both_layouts(X, n_chunks)
    Xt = np.column_stack([X.toarray(), np.ones(X.shape[0])])
    U = rng.normal(size=(X.shape[0], k))
    d = X.shape[1]
    out = SK.transpose_product(cols, U, U.sum(axis=0), column_bounds(d, n_blocks))
    np.testing.assert_allclose(out, Xt.T @ U, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(out, SK.transpose_product(cols, U, U.sum(axis=0),
                                                            column_bounds(d, 1)))
    RD = rng.random((X.shape[0], 2 * k))
    grad, diag = SK.transpose_gradient(cols, RD, RD.sum(axis=0), column_bounds(d, n_blocks))
    np.testing.assert_allclose(grad, Xt.T @ RD[:, :k], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(diag, (Xt ** 2).T @ RD[:, k:], rtol=1e-12, atol=1e-12)
    one_block = SK.transpose_gradient(cols, RD, RD.sum(axis=0), column_bounds(d, 1))
    np.testing.assert_array_equal(grad, one_block[0])
    np.testing.assert_array_equal(diag, one_block[1])


@settings(max_examples=60, deadline=None)
@given(csr_problems(), st.sampled_from([1, 3, 7]))
def test_row_phase_matches_numpy(problem, n_blocks):
    X, k, rng = problem
    rows, _ = both_layouts(X)
    n = X.shape[0]
    Xt = np.column_stack([X.toarray(), np.ones(n)])
    if k == 1:
        y = rng.integers(0, 2, n).astype(float)
        w = rng.normal(size=X.shape[1] + 1)
        z = np.empty(n)
        SK.binary_score_blocks(rows, w, z, n_blocks)
        np.testing.assert_allclose(z, Xt @ w, rtol=1e-10, atol=1e-12)
        RD, D = np.empty((n, 2)), np.empty(n)
        loss, sums = SK.binary_terms_blocks(Targets(y, None), z, RD, D, n_blocks)
        p = expit(z)
        assert np.isclose(loss, np.sum(np.logaddexp(0.0, z) - y * z), rtol=1e-10, atol=1e-10)
        np.testing.assert_allclose(RD, np.column_stack([p - y, p * (1 - p)]), atol=1e-12)
        np.testing.assert_array_equal(D, RD[:, 1])
        v = rng.normal(size=w.size)
        U, XV = np.empty((n, 1)), np.empty(n)
        total = SK.binary_curvature_blocks(rows, D, v, XV, U, n_blocks)
        np.testing.assert_allclose(XV, Xt @ v, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(U[:, 0], D * (Xt @ v), rtol=1e-10, atol=1e-12)
    else:
        y = rng.integers(0, k, n)
        W = rng.normal(size=(X.shape[1] + 1, k))          # feature-major
        Z = np.empty((n, k))
        SK.multinomial_score_blocks(rows, W, Z, n_blocks)
        np.testing.assert_allclose(Z, Xt @ W, rtol=1e-10, atol=1e-12)
        RD, P = np.empty((n, 2 * k)), np.empty((n, k))
        loss, sums = SK.multinomial_terms_blocks(Targets(y, None), Z, RD, P, n_blocks)
        expected_P = softmax(Z, axis=1)
        assert np.isclose(loss, np.sum(logsumexp(Z, axis=1) - Z[np.arange(n), y]),
                          rtol=1e-10, atol=1e-10)
        np.testing.assert_allclose(P, expected_P, atol=1e-12)
        R = expected_P.copy()
        R[np.arange(n), y] -= 1.0
        np.testing.assert_allclose(RD, np.column_stack([R, P * (1 - P)]), atol=1e-12)
        V = rng.normal(size=W.shape)
        U = np.empty((n, k))
        total = SK.multinomial_curvature_blocks(rows, P, V, None, U, n_blocks)
        Uv = Xt @ V
        expected_U = P * (Uv - np.sum(P * Uv, axis=1, keepdims=True))
        np.testing.assert_allclose(U, expected_U, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(sums, RD.sum(axis=0), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(total, U.sum(axis=0), rtol=1e-12, atol=1e-12)
