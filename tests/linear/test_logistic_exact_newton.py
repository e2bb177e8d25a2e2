"""Newton's method on the explicit logistic Hessian (solver="newton"): the
Hessian blocks vs a NumPy reference and vs finite differences of the
gradient, the BFGS update's secant condition, the nested-subsample path and
the fitted objective vs scikit-learn's to 1e-8."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.linear_model import LogisticRegression as SkLogisticRegression

from hyperplane.linear import LogisticRegression
from hyperplane.linear._logistic import _newton_problem as LH
from hyperplane.linear._logistic import logistic_loss_grad
from hyperplane._optimize._newton import bfgs_update, minimize_newton, newton_direction

from ._helpers import blobs
from .test_logistic_newton import hessian_reference, penalised


def problem_of(X, y, k, C=0.7):
    return LH.NestedNewtonProblem(np.ascontiguousarray(X), y, k, C, logistic_loss_grad)


@pytest.mark.parametrize("k", [2, 3, 4])
def test_hessian_matches_numpy_reference(k):
    X, y = blobs(60, 4, k, seed=k, spread=1.0)
    problem = problem_of(X, y, k, C=0.7)
    W = np.random.default_rng(k).normal(size=problem.shape)
    H = problem.hessian(W.ravel())
    pen = np.ones(W.shape)
    pen[:, -1] = 0.0
    expected = np.diag(pen.ravel()) + 0.7 * hessian_reference(X, y, W)
    if k > 2:       # γ uuᵀ on the intercepts (u: the softmax's flat direction)
        flat = pen.ravel() == 0.0
        gamma = np.mean(np.diag(expected)[flat])
        expected[np.ix_(flat, flat)] += gamma
    np.testing.assert_allclose(H, expected, rtol=1e-10, atol=1e-10)
    np.linalg.cholesky(H)                      # positive definite


@pytest.mark.parametrize("k", [2, 3])
def test_gradient_and_hessian_match_finite_differences(k):
    X, y = blobs(50, 3, k, seed=k, spread=1.0)
    problem = problem_of(X, y, k, C=0.7)
    theta = np.random.default_rng(1).normal(size=problem.penalised.size)
    f, g = problem.evaluate(theta)
    assert f == pytest.approx(penalised(X, y, *split(theta, problem), 0.7), rel=1e-12)
    h, basis = 1e-6, np.eye(theta.size)
    numeric_g = [(problem.evaluate(theta + h * e)[0] - problem.evaluate(theta - h * e)[0])
                 / (2 * h) for e in basis]
    np.testing.assert_allclose(g, numeric_g, rtol=1e-6, atol=1e-6)
    numeric_H = np.array([(problem.evaluate(theta + h * e)[1] - problem.evaluate(theta - h * e)[1])
                          / (2 * h) for e in basis])
    H = problem.hessian(theta)
    if k > 2:       # the added γ uuᵀ is no part of the objective's Hessian
        flat = problem.penalised == 0.0
        H[np.ix_(flat, flat)] -= np.mean(np.diag(H)[flat]) - np.mean(np.diag(numeric_H)[flat])
    np.testing.assert_allclose(H, numeric_H, rtol=1e-5, atol=1e-5)


def split(theta, problem):
    W = theta.reshape(problem.shape)
    return W[:, :-1], W[:, -1]


def test_newton_step_ignores_the_flat_direction():
    """With γuuᵀ added, the step solves the singular system on u's complement."""
    X, y = blobs(80, 3, 3, seed=5, spread=1.0)
    problem = problem_of(X, y, 3)
    theta = np.random.default_rng(0).normal(size=problem.penalised.size) * 0.1
    _, g = problem.evaluate(theta)
    s = newton_direction(problem.hessian(theta), g)
    flat = problem.penalised == 0.0
    assert abs(s[flat].sum()) <= 1e-10 * np.abs(s).max()
    H_true = np.diag(problem.penalised) + 0.7 * hessian_reference(X, y, theta.reshape(3, -1))
    np.testing.assert_allclose(H_true @ s, -g, atol=1e-9 * np.abs(g).max())


def test_bfgs_update_meets_the_secant_condition():
    rng = np.random.default_rng(0)
    A = rng.normal(size=(5, 5))
    B = A @ A.T + np.eye(5)
    s, y = rng.normal(size=5), rng.normal(size=5)
    y = y if y @ s > 0 else -y
    B1 = bfgs_update(B, s, y)
    np.testing.assert_allclose(B1 @ s, y, atol=1e-10)
    np.testing.assert_allclose(B1, B1.T, atol=1e-12)
    np.linalg.cholesky(B1)
    assert bfgs_update(B, s, -y) is B          # curvature condition fails: unchanged


def test_minimize_newton_on_a_quadratic_takes_one_step():
    rng = np.random.default_rng(1)
    A = rng.normal(size=(4, 4))
    H, b = A @ A.T + np.eye(4), rng.normal(size=4)

    class Quadratic:
        def evaluate(self, x):
            return 0.5 * x @ H @ x - b @ x, H @ x - b

        def hessian(self, x):
            return H

    x, n_iter, done = minimize_newton(Quadratic(), np.zeros(4), max_iter=10,
                                      converged=lambda g: np.abs(g).max() <= 1e-12)
    assert done and n_iter == 1
    np.testing.assert_allclose(x, np.linalg.solve(H, b))


@pytest.mark.parametrize("k", [2, 3, 5])
@pytest.mark.parametrize("C", [0.01, 1.0, 100.0])
def test_objective_agrees_with_sklearn_to_1e8(k, C):
    X, y = blobs(300, 6, k, seed=3 * k, spread=1.0)
    ours = LogisticRegression(C=C, solver="newton", tol=1e-9).fit(X, y)
    ref = SkLogisticRegression(C=C, tol=1e-12, max_iter=10000).fit(X, y)
    f_ours = penalised(X, y, ours.coef_, ours.intercept_, C)
    f_ref = penalised(X, y, ref.coef_, ref.intercept_, C)
    assert ours.converged_
    assert abs(f_ours - f_ref) <= 1e-8 * abs(f_ref)
    ref_b = ref.intercept_ - (ref.intercept_.mean() if k > 2 else 0.0)
    np.testing.assert_allclose(ours.coef_, ref.coef_, atol=1e-5 * np.abs(ref.coef_).max())
    np.testing.assert_allclose(ours.intercept_, ref_b, atol=1e-5 * np.abs(ref.coef_).max())


@pytest.mark.parametrize("k", [2, 3])
def test_nested_subsamples_reach_sklearns_minimum(k, monkeypatch):
    """Three nested levels (20k → 2k → 200 rows): only the smallest forms its
    Hessian every step, the others run BFGS from it; the minimum is sklearn's."""
    monkeypatch.setattr(LH, "SUBSAMPLE_MIN_ROWS", 200)
    X, y = blobs(20_000, 5, k, seed=1, spread=0.5)
    problem = problem_of(X, y, k, C=1.0)
    assert problem.smaller() is not None and problem.smaller().smaller() is not None
    ours = LogisticRegression(solver="newton", tol=1e-9).fit(X, y)
    ref = SkLogisticRegression(tol=1e-12, max_iter=10000).fit(X, y)
    f_ours = penalised(X, y, ours.coef_, ours.intercept_, 1.0)
    f_ref = penalised(X, y, ref.coef_, ref.intercept_, 1.0)
    assert ours.converged_ and abs(f_ours - f_ref) <= 1e-8 * abs(f_ref)


def test_subsample_rows_rule():
    assert LH.subsample_rows(19_999, 51) is None             # under twice the 10k floor
    assert LH.subsample_rows(50_000, 51).size == 10_000       # a tenth, raised to the floor
    rows = LH.subsample_rows(300_000, 51)
    assert rows.size == 30_000 and np.all(np.diff(rows) > 0)
    assert LH.subsample_rows(300_000, 15_001) is None         # floor: ten rows per parameter
    assert LH.subsample_rows(200_000, 5_001).size == 50_010   # ten per parameter above 10k


def test_auto_picks_newton_for_small_dense_lbfgs_for_large_and_tron_for_sparse(monkeypatch):
    X, y = blobs(200, 4, 2, seed=0)
    calls = []
    for name in ("_fit_newton", "_fit_tron", "_fit_lbfgs"):
        original = getattr(LogisticRegression, name)
        monkeypatch.setattr(LogisticRegression, name,
                            lambda self, X, y, weight=None, _o=original, _n=name:
                            calls.append(_n) or _o(self, X, y, weight))
    LogisticRegression().fit(X, y)
    LogisticRegression().fit(sp.csr_matrix(X), y)
    LogisticRegression().fit(np.hstack([X] * 23), y)          # 93² > NEWTON_MAX_HESSIAN_WORK
    LogisticRegression().fit(np.hstack([X] * 22), y)          # 89² = 7921: still Newton
    LogisticRegression().fit(sp.csr_matrix(X), np.arange(200) % 3)    # sparse multinomial
    LogisticRegression(tol=1e-10).fit(sp.csr_matrix(X), np.arange(200) % 3)
    assert calls == ["_fit_newton", "_fit_tron", "_fit_lbfgs", "_fit_newton", "_fit_tron",
                     "_fit_lbfgs"]
    assert LH.hessian_work(3, 50) == 3 * 51 ** 2 <= LH.NEWTON_MAX_HESSIAN_WORK


def test_newton_refuses_sparse_x_by_name():
    X, y = blobs(40, 3, 2)
    with pytest.raises(ValueError, match="solver='newton' needs dense X"):
        LogisticRegression(solver="newton").fit(sp.csr_matrix(X), y)


def test_separable_data_stay_finite():
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    clf = LogisticRegression(solver="newton", C=1e6, max_iter=200).fit(X, [0, 0, 1, 1])
    assert np.all(np.isfinite(clf.coef_)) and clf.score(X, [0, 0, 1, 1]) == 1.0


def test_binary_log_loss_matches_numpy_at_every_scale():
    from scipy.special import expit

    from hyperplane._math_kernels import binary_log_loss
    for z in [-800.0, -40.0, -1.5, -1e-9, 0.0, 1e-9, 0.3, 40.0, 800.0]:
        for y in (0.0, 1.0):
            ell, p = binary_log_loss(z, y)
            exact = np.logaddexp(0.0, -z) if y else np.logaddexp(0.0, z)   # log(1 + e^{∓z})
            assert ell == pytest.approx(exact, rel=1e-13, abs=1e-15 * max(1.0, abs(z)))
            assert p == pytest.approx(expit(z), rel=1e-13, abs=1e-300)
