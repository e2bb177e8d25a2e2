"""The dense logistic passes over fixed row blocks: the same bits on one
thread and two, and the block sums equal the formulas in NumPy."""

import numba
import numpy as np
import pytest

from hyperplane.linear import LogisticRegression
from hyperplane.linear._logistic import _gradient_kernels as LK
from hyperplane.linear._logistic import _blocks_kernels as NK
from hyperplane.linear._logistic import logistic_loss_grad
from tests._threads import on_threads

pytestmark = pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2,
                                reason="needs two numba threads")


def problem(k, n=40_000, d=25, seed=0):
    """n x d = 1M entries: 7 row blocks."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    W = rng.normal(size=(k, d))
    y = np.argmax(X @ W.T + rng.gumbel(size=(n, k)), axis=1) if k > 2 else \
        (X @ W[0] + rng.logistic(size=n) > 0).astype(np.int64)
    return X, y


def test_block_count_depends_on_the_size_only():
    assert LK.dense_row_block_count(LK.BLOCK_ENTRIES - 1) == 1
    assert LK.dense_row_block_count(7 * LK.BLOCK_ENTRIES + 5) == 7
    assert LK.dense_row_block_count(10 ** 9) == LK.MAX_BLOCKS


def test_block_sums_add_in_block_order():
    parts = np.array([[1.0, 1e16], [1e16, 1.0], [-1e16, -1e16]])
    np.testing.assert_array_equal(NK.block_totals(parts), [(1.0 + 1e16) - 1e16,
                                                          (1e16 + 1.0) - 1e16])
    assert NK.block_total(parts[:, 0]) == (1.0 + 1e16) - 1e16
    np.testing.assert_array_equal(NK.block_totals(np.ones((3, 2, 2))), np.full((2, 2), 3.0))


@pytest.mark.parametrize("k", [2, 3])
def test_blocked_loss_and_gradient_match_numpy_and_do_not_depend_on_threads(k):
    X, y = problem(k)
    assert LK.dense_row_block_count(X.size) == 7
    rng = np.random.default_rng(1)
    coef, intercept = 0.1 * rng.normal(size=(1 if k == 2 else k, X.shape[1])), \
        0.1 * rng.normal(size=1 if k == 2 else k)
    one, two = [on_threads(t, lambda: logistic_loss_grad(X, y, coef, intercept))
                for t in (1, 2)]
    for a, b in zip(one, two):
        assert np.asarray(a).tobytes() == np.asarray(b).tobytes()
    Z = X @ coef.T + intercept
    if k == 2:
        z = Z[:, 0]
        loss = np.sum(np.logaddexp(0.0, z) - y * z)
        R = (1.0 / (1.0 + np.exp(-z)) - y)[:, None]
    else:
        loss = np.sum(np.log(np.exp(Z).sum(axis=1)) - Z[np.arange(len(y)), y])
        R = np.exp(Z) / np.exp(Z).sum(axis=1, keepdims=True) - np.eye(k)[y]
    np.testing.assert_allclose(one[0], loss, rtol=1e-12)
    np.testing.assert_allclose(one[1], R.T @ X, rtol=1e-10, atol=1e-9)
    np.testing.assert_allclose(one[2], R.sum(axis=0), rtol=1e-10, atol=1e-9)


@pytest.mark.parametrize("solver", ["lbfgs", "newton", "tron"])
@pytest.mark.parametrize("k", [2, 3])
def test_fit_does_not_depend_on_the_thread_count(solver, k):
    X, y = problem(k, seed=2)
    # n_jobs, not numba.set_num_threads: the default leaves out busy cores, so on
    # a loaded machine set_num_threads(2) alone may give the fit one thread
    a, b = [LogisticRegression(solver=solver, C=1.0, n_jobs=t).fit(X, y) for t in (1, 2)]
    assert a.coef_.tobytes() == b.coef_.tobytes()
    assert a.intercept_.tobytes() == b.intercept_.tobytes()


@pytest.mark.parametrize("k", [2, 3])
def test_blocked_tron_gradient_pass_keeps_the_curvature_and_the_diagonal(k):
    """TRON's dense gradient pass is the L-BFGS pass keeping what the Hessian
    reads: over 7 row blocks its curvature and Hessian diagonal equal the
    formulas in NumPy (a pass that left a block's diagonal buffer unread
    returned zeros)."""
    from hyperplane.linear._logistic._tron_problem import RowPasses
    from hyperplane.linear._state import Targets

    X, y = problem(k)
    rng = np.random.default_rng(3)
    W = 0.1 * rng.normal(size=(1 if k == 2 else k, X.shape[1] + 1))
    passes = RowPasses(X, W.shape[0])
    assert passes.blocks == 7
    Xt = np.column_stack([X, np.ones(X.shape[0])])
    Z = Xt @ W.T
    if k == 2:
        D = np.empty(X.shape[0])
        _, grad, diag = passes.binary_gradient(Targets((y == 1).astype(float), None),
                                               np.ascontiguousarray(W[0]), D)
        p = 1.0 / (1.0 + np.exp(-Z[:, 0]))
        np.testing.assert_allclose(D, p * (1 - p), rtol=1e-12)
        np.testing.assert_allclose(diag, (p * (1 - p)) @ Xt ** 2, rtol=1e-10)
    else:
        P = np.empty((X.shape[0], k))
        _, grad, diag = passes.multinomial_gradient(Targets(y, None), W, P)
        expected = np.exp(Z - Z.max(axis=1, keepdims=True))
        expected /= expected.sum(axis=1, keepdims=True)
        np.testing.assert_allclose(P, expected, rtol=1e-12)
        np.testing.assert_allclose(diag, (expected * (1 - expected)).T @ Xt ** 2, rtol=1e-10)
