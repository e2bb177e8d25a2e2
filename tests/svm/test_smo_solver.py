"""The SMO driver's bookkeeping: gradient, memory bound, generic kernels."""

import numpy as np
import pytest

from hyperplane.kernels import RBF, Linear, Polynomial
from hyperplane.svm._smo import SMOSolver


def svr_problem(n, rng):
    z = rng.normal(size=n)
    kidx = np.concatenate([np.arange(n), np.arange(n)])
    y = np.concatenate([np.ones(n), -np.ones(n)])
    p = np.concatenate([0.1 - z, 0.1 + z])
    return kidx, y, p


@pytest.mark.parametrize("kernel", [RBF(sigma=1.5), Linear(), RBF(sigma=1.0) + Polynomial(2)])
@pytest.mark.parametrize("problem", ["svc", "svr"])
def test_gradient_after_shrinking_and_reconstruction_is_q_alpha_plus_p(kernel, problem):
    rng = np.random.default_rng(3)
    n = 300
    X = rng.normal(size=(n, 4))
    if problem == "svc":
        kidx, y, p = np.arange(n), np.where(X[:, 0] + rng.normal(size=n) > 0, 1.0, -1.0), -np.ones(n)
    else:
        kidx, y, p = svr_problem(n, rng)
    C = np.full(len(kidx), 0.7)
    solver = SMOSolver(kernel, X, kidx, y, p, C, tol=1e-4, cache_size=0.05)
    solution = solver.solve()
    K = kernel(X)[np.ix_(kidx, kidx)]
    Q = (y[:, None] * y[None, :]) * K
    np.testing.assert_allclose(solution.gradient, Q @ solution.alpha + p, atol=1e-4)
    assert solution.objective == pytest.approx(
        0.5 * solution.alpha @ Q @ solution.alpha + p @ solution.alpha, rel=1e-5)
    assert abs(solution.alpha @ y) <= 1e-9 * max(1.0, solution.alpha.sum())


def test_cache_never_exceeds_cache_size():
    rng = np.random.default_rng(0)
    n = 3000
    X = rng.normal(size=(n, 3))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    solver = SMOSolver(RBF(), X, np.arange(n), y, -np.ones(n), np.ones(n), cache_size=1.0)
    rows = solver.cache.rows
    assert rows.nbytes <= 2 ** 20 and rows.shape == (87, n)   # 1 MiB / (4 n bytes)
    assert solver.solve().converged
