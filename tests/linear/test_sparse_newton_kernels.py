"""TRON's two-phase sparse passes (row phase on CSR rows, column phase on the
CSC columns) against dense NumPy on random CSR matrices, including empty rows
and columns; the column phase does not depend on how the columns are split."""

import numpy as np
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import expit, logsumexp, softmax

from hyperplane._csr_rows import CSRRows
from hyperplane.linear import _sparse_newton_kernels as SK


@st.composite
def csr_problems(draw):
    n = draw(st.integers(1, 50))
    d = draw(st.integers(1, 20))
    k = draw(st.sampled_from([1, 2, 3, 5]))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    X = sp.random(n, d, density=draw(st.floats(0.0, 1.0)), format="csr", random_state=seed,
                  data_rvs=lambda m: rng.normal(scale=2.0, size=m))
    return X, k, rng


def both_layouts(X):
    return CSRRows.of(X), CSRRows.of(X.tocsc())


@settings(max_examples=60, deadline=None)
@given(csr_problems(), st.sampled_from([1, 3, 7]))
def test_column_phase_is_the_transposed_product_whatever_the_blocks(problem, n_blocks):
    X, k, rng = problem
    _, cols = both_layouts(X)
    Xt = np.column_stack([X.toarray(), np.ones(X.shape[0])])
    U = rng.normal(size=(X.shape[0], k))
    out = SK.transpose_product(cols, U, U.sum(axis=0), n_blocks)
    np.testing.assert_allclose(out, Xt.T @ U, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(out, SK.transpose_product(cols, U, U.sum(axis=0), 1))
    RD = rng.random((X.shape[0], 2 * k))
    grad, diag = SK.transpose_gradient(cols, RD, RD.sum(axis=0), n_blocks)
    np.testing.assert_allclose(grad, Xt.T @ RD[:, :k], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(diag, (Xt ** 2).T @ RD[:, k:], rtol=1e-12, atol=1e-12)


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
        RD, D = np.empty((n, 2)), np.empty(n)
        loss, sums = SK.binary_row_blocks(rows, y, w, RD, D, n_blocks)
        z = Xt @ w
        p = expit(z)
        assert np.isclose(loss, np.sum(np.logaddexp(0.0, z) - y * z), rtol=1e-10, atol=1e-10)
        np.testing.assert_allclose(RD, np.column_stack([p - y, p * (1 - p)]), atol=1e-12)
        np.testing.assert_array_equal(D, RD[:, 1])
        v = rng.normal(size=w.size)
        U = np.empty((n, 1))
        total = SK.binary_curvature_blocks(rows, D, v, U, n_blocks)
        np.testing.assert_allclose(U[:, 0], D * (Xt @ v), rtol=1e-10, atol=1e-12)
    else:
        y = rng.integers(0, k, n)
        W = rng.normal(size=(X.shape[1] + 1, k))          # feature-major
        RD, P = np.empty((n, 2 * k)), np.empty((n, k))
        loss, sums = SK.multinomial_row_blocks(rows, y, W, RD, P, n_blocks)
        Z = Xt @ W
        expected_P = softmax(Z, axis=1)
        assert np.isclose(loss, np.sum(logsumexp(Z, axis=1) - Z[np.arange(n), y]),
                          rtol=1e-10, atol=1e-10)
        np.testing.assert_allclose(P, expected_P, atol=1e-12)
        R = expected_P.copy()
        R[np.arange(n), y] -= 1.0
        np.testing.assert_allclose(RD, np.column_stack([R, P * (1 - P)]), atol=1e-12)
        V = rng.normal(size=W.shape)
        U = np.empty((n, k))
        total = SK.multinomial_curvature_blocks(rows, P, V, U, n_blocks)
        Uv = Xt @ V
        expected_U = P * (Uv - np.sum(P * Uv, axis=1, keepdims=True))
        np.testing.assert_allclose(U, expected_U, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(sums, RD.sum(axis=0), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(total, U.sum(axis=0), rtol=1e-12, atol=1e-12)
