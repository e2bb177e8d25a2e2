"""The compiled CSR loss-and-gradient pass of L-BFGS: against a slow NumPy
reference and finite differences, the same sum on 1 and 2 threads, and the
sparse fits against scikit-learn's objective."""

import numba
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import logsumexp
from sklearn.linear_model import LogisticRegression as SkLogisticRegression

import hyperplane.linear._logistic._gradient_kernels as LK
import hyperplane.linear._logistic._layout as LS
import hyperplane.linear._logistic._objective as LO
from hyperplane.linear import LogisticRegression
from hyperplane.linear._logistic import loss_targets
from hyperplane.linear._logistic._tron_problem import LogisticProblem

from ._helpers import blobs


def reference_loss_grad(X, y_index, coef, intercept):
    """Σ_n ℓ_n and its gradient by dense NumPy: Z = X Wᵀ + b, ℓ from the
    log-sum-exp (binary: classes 0 and z), gradient (P − Y)ᵀ X̃."""
    X = X.toarray()
    Z = X @ coef.T + intercept
    if coef.shape[0] == 1:
        z, t = Z[:, 0], (y_index == 1).astype(float)
        loss = np.sum(np.logaddexp(0.0, z) - t * z)
        R = (1.0 / (1.0 + np.exp(-z)) - t)[:, None]
    else:
        loss = np.sum(logsumexp(Z, axis=1) - Z[np.arange(len(y_index)), y_index])
        R = np.exp(Z - logsumexp(Z, axis=1, keepdims=True))
        R[np.arange(len(y_index)), y_index] -= 1.0
    return loss, R.T @ X, R.sum(axis=0)


def random_problem(seed, n, d, k, density):
    rng = np.random.default_rng(seed)
    X = sp.random(n, d, density=density, format="csr", random_state=seed,
                  data_rvs=lambda m: rng.normal(scale=2.0, size=m))
    y = rng.integers(0, k, n)
    rows = 1 if k == 2 else k
    return X, y, rng.normal(size=(rows, d)), rng.normal(size=rows)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(1, 60), d=st.integers(1, 30),
       k=st.sampled_from([2, 3, 5]), density=st.floats(0.0, 1.0))
def test_csr_pass_matches_numpy_reference(seed, n, d, k, density):
    X, y, coef, b = random_problem(seed, n, d, k, density)
    loss, g, g0 = LO.csr_loss_grad(LS.canonical_csr(X), loss_targets(y, k == 2), coef, b)
    loss_ref, g_ref, g0_ref = reference_loss_grad(X, y, coef, b)
    assert loss == pytest.approx(loss_ref, rel=1e-10, abs=1e-10)
    np.testing.assert_allclose(g, g_ref, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(g0, g0_ref, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("k", [2, 3])
def test_csr_gradient_matches_finite_differences(k):
    X, y, coef, b = random_problem(1, 40, 7, k, 0.4)
    X, t = LS.canonical_csr(X), loss_targets(y, k == 2)
    _, g, g0 = LO.csr_loss_grad(X, t, coef, b)
    h = 1e-6
    for idx in np.ndindex(coef.shape):
        step = np.zeros_like(coef)
        step[idx] = h
        up = LO.csr_loss_grad(X, t, coef + step, b)[0]
        down = LO.csr_loss_grad(X, t, coef - step, b)[0]
        assert g[idx] == pytest.approx((up - down) / (2 * h), rel=1e-5, abs=1e-6)
    for c in range(b.shape[0]):
        step = np.zeros_like(b)
        step[c] = h
        up = LO.csr_loss_grad(X, t, coef, b + step)[0]
        down = LO.csr_loss_grad(X, t, coef, b - step)[0]
        assert g0[c] == pytest.approx((up - down) / (2 * h), rel=1e-5, abs=1e-6)


def test_duplicate_entries_are_summed_before_the_pass():
    """The paired scatter needs distinct indices per row: a CSR matrix with
    duplicates is made canonical on a copy, and gives the summed matrix's result."""
    data, indices, indptr = np.array([1.0, 2.0, 3.0, 4.0]), np.array([0, 0, 1, 1]), \
        np.array([0, 3, 4])
    X = sp.csr_matrix((data, indices, indptr), shape=(2, 2))
    assert not X.has_canonical_format
    C = LS.canonical_csr(X)
    assert C.has_canonical_format and C.nnz == 3 and X.nnz == 4
    coef, b = np.array([[0.5, -1.0]]), np.array([0.2])
    y = np.array([1, 0])
    got = LO.csr_loss_grad(C, loss_targets(y, True), coef, b)
    ref = reference_loss_grad(sp.csr_matrix(X.toarray()), y, coef, b)
    for a, c in zip(got, ref):
        np.testing.assert_allclose(a, c, rtol=1e-12)


@pytest.mark.parametrize("k", [2, 3])
def test_fixed_row_blocks_give_the_same_sum_on_1_and_2_threads(k, monkeypatch):
    """Blocks and row chunks are fixed by the data's size, so the sums are
    bit-identical whatever the number of numba threads (the L-BFGS pass and
    TRON's passes)."""
    monkeypatch.setattr(LK, "BLOCK_ENTRIES", 64)
    monkeypatch.setattr(LS, "ENTRIES_PER_BUFFER_ENTRY", 1)
    monkeypatch.setattr(LS, "CHUNK_BYTES", 4096)
    X, y, coef, b = random_problem(3, 2000, 40, k, 0.1)
    X, t = LS.canonical_csr(X), loss_targets(y, k == 2)
    assert LS.csr_row_block_count(X.nnz, coef.size + b.size) > 2
    theta = np.column_stack([coef, b]).ravel()
    results = []
    before = numba.get_num_threads()
    try:
        for threads in (1, min(2, numba.config.NUMBA_NUM_THREADS)):
            numba.set_num_threads(threads)
            problem = LogisticProblem(X, y, k, 1.0)
            assert problem.rows.blocks > 2
            assert problem.rows.cols.indptr.shape[0] > 2
            point = problem.evaluate(theta)
            results.append((*LO.csr_loss_grad(X, t, coef, b), point.f, point.grad,
                            problem.hessian_vector(point, theta)))
    finally:
        numba.set_num_threads(before)
    for a, c in zip(*results):
        np.testing.assert_array_equal(a, c)


def test_row_blocks_depend_on_the_data_only():
    assert LS.csr_row_block_count(10, 5) == 1
    assert LS.csr_row_block_count(4_000_000, 20_001) == 4_000_000 // (8 * 20_001)
    assert LS.csr_row_block_count(10**9, 10) == LS.MAX_BLOCKS


def penalised(X, y, coef, intercept, C):
    loss, _, _ = reference_loss_grad(sp.csr_matrix(X), y, coef, intercept)
    return 0.5 * np.sum(coef ** 2) + C * loss


@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("C", [0.1, 1.0])
def test_sparse_lbfgs_reaches_sklearns_objective(k, C):
    X, y = blobs(300, 12, k, seed=k, spread=1.0)
    X[np.random.default_rng(k).random(X.shape) < 0.7] = 0.0
    Xs = sp.csr_matrix(X)
    ours = LogisticRegression(C=C, solver="lbfgs", tol=1e-10, max_iter=5000).fit(Xs, y)
    ref = SkLogisticRegression(C=C, tol=1e-12, max_iter=10000).fit(Xs, y)
    f_ours = penalised(X, y, ours.coef_, ours.intercept_, C)
    f_ref = penalised(X, y, ref.coef_, ref.intercept_, C)
    assert ours.converged_
    assert abs(f_ours - f_ref) <= 1e-8 * abs(f_ref)


@pytest.mark.parametrize("k, tol, solver", [(2, 1e-6, "tron"), (3, 1e-6, "tron"),
                                            (3, 1e-10, "lbfgs")])
def test_auto_on_sparse_data(k, tol, solver):
    X, y = blobs(200, 6, k, seed=5, spread=1.0)
    X[X < 0] = 0.0
    Xs = sp.csr_matrix(X)
    auto = LogisticRegression(tol=tol, max_iter=2000).fit(Xs, y)
    chosen = LogisticRegression(solver=solver, tol=tol, max_iter=2000).fit(Xs, y)
    assert auto.n_iter_ == chosen.n_iter_
    np.testing.assert_array_equal(auto.coef_, chosen.coef_)
