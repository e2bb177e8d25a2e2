"""newGLMNET for L1-regularised logistic regression (Yuan, Ho & Lin, JMLR 13,
2012, Algorithm 3; LIBLINEAR's ``-s 6``): Newton iterations whose direction
minimises a quadratic model of the objective by coordinate descent, then a
backtracking line search. The passes are :mod:`._l1_kernels`.

Here it minimises ``‖w‖₁ + Σ_i C_i log(1 + exp(−y_i w·x_i))`` with the
intercept, when one is fitted, a last column of ones left out of ``‖w‖₁``
(scikit-learn's convention for the other solvers; LIBLINEAR penalises its
bias feature). It stops when the minimum-norm subgradient's L1 norm has
fallen below ``tol`` times its value at ``w = 0`` (LIBLINEAR's test).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import scipy.sparse

from ..._csr_rows import CSRRows
from ._l1_kernels import (
    QuadraticModel,
    coordinate_violations,
    Direction,
    gradient_and_diagonal,
    hessian_weights,
    margin_logistic_loss,
    loss_change,
    quadratic_sweep,
)


class GLMNETOptions(NamedTuple):
    """The solver's constants: ``tol`` (relative subgradient norm), the
    Newton iterations ``max_iter``, coordinate-descent passes per direction
    ``max_inner``, the Hessian shift ``nu``, Armijo's ``sigma`` and the
    backtracking factor ``beta`` with at most ``max_steps`` trials (the
    values of Yuan, Ho & Lin 2012, §6, and LIBLINEAR)."""
    tol: float = 1e-6
    max_iter: int = 100
    max_inner: int = 1000
    nu: float = 1e-12
    sigma: float = 0.01
    beta: float = 0.5
    max_steps: int = 20


class L1Solution(NamedTuple):
    """``w`` (the intercept last when fitted), the Newton iterations made,
    whether the stopping test passed, and the objective at ``w``."""
    w: np.ndarray
    n_iter: int
    converged: bool
    objective: float


def columns_of(X, fit_intercept):
    """``Xᵀ`` as the solver reads it (C-ordered dense rows or CSR rows of
    ``Xᵀ``), a column of ones appended when ``fit_intercept``."""
    if scipy.sparse.issparse(X):
        X = scipy.sparse.csr_matrix(X, dtype=np.float64)
        if fit_intercept:
            X = scipy.sparse.hstack([X, np.ones((X.shape[0], 1))], format="csr")
        XT = X.T.tocsr()
        XT.sort_indices()
        return CSRRows(XT.data, XT.indices.astype(np.int64), XT.indptr.astype(np.int64))
    X = np.asarray(X, dtype=np.float64)
    if fit_intercept:
        X = np.hstack([X, np.ones((X.shape[0], 1))])
    return np.ascontiguousarray(X.T)


def l1_norm(w, penalised):
    """``‖w‖₁`` over the penalised coordinates."""
    return float(np.abs(w[penalised]).sum())


def newglmnet(XT, y, C, penalised, options, rng):
    """Minimise ``‖w_penalised‖₁ + Σ_i C_i log(1 + exp(−y_i w·x_i))``.

    Parameters
    ----------
    XT : ndarray or CSRRows
        :func:`columns_of` the samples.
    y : ndarray of ±1.0
    C : ndarray
        Per-sample costs ``C_i`` (``C`` times the sample's weight).
    penalised : ndarray of bool
        ``False`` for the intercept's column.
    options : GLMNETOptions
    rng : numpy.random.Generator
        Shuffles the coordinates of every pass (LIBLINEAR shuffles them too).

    Returns
    -------
    L1Solution
    """
    n_samples, n = y.shape[0], penalised.shape[0]
    w, z = np.zeros(n), np.zeros(n_samples)
    D, coef = np.empty(n_samples), np.empty(n_samples)
    grad, hess = np.zeros(n), np.ones(n)
    everything = np.arange(n, dtype=np.int64)
    worst = np.inf
    objective = margin_logistic_loss(z, C)   # F(0): ‖0‖₁ = 0
    inner_tol, initial = 1.0, None
    for k in range(1, options.max_iter + 1):
        hessian_weights(z, y, C, D, coef)
        gradient_and_diagonal(XT, coef, D, grad, hess, everything, options.nu)
        violation = coordinate_violations(grad, w, penalised)
        norm = float(violation.sum())   # a shrunk coordinate's violation is 0
        initial = norm if initial is None else initial
        if norm <= options.tol * initial:
            return L1Solution(w, k - 1, True, objective)
        active = shrunk(everything, grad, w, penalised, worst / n_samples)
        worst = float(violation.max())
        newton = coordinate_descent_direction(QuadraticModel(XT, D, grad, hess, penalised), w,
                                              active, n_samples, options, inner_tol * initial,
                                              rng)
        inner_tol = inner_tol * 0.25 if newton.passes == 1 else inner_tol
        step = armijo_step(newton.direction, z, y, C, grad, w, penalised, objective, options)
        if step is None:   # no decrease along d: the model is as good as round-off allows
            return L1Solution(w, k, False, objective)
        w += step.length * newton.direction.d
        z += step.length * y * newton.direction.Xd
        objective = step.objective
    return L1Solution(w, options.max_iter, False, objective)


def shrunk(active, grad, w, penalised, margin):
    """LIBLINEAR's outer shrinking (Yuan, Ho & Lin 2012, §5.1): a penalised
    coordinate at zero whose gradient lies inside ``(−1 + margin, 1 − margin)``,
    ``margin`` the previous iteration's largest violation over ``l``, is left
    out of this iteration's quadratic model (it would stay at zero; its
    violation is 0, and every gradient is recomputed next iteration)."""
    g, at_zero = grad[active], (w[active] == 0.0) & penalised[active]
    return active[~(at_zero & (g + 1.0 > margin) & (g - 1.0 < -margin))]


class Newton(NamedTuple):
    """A Newton direction and the coordinate-descent passes it took."""
    direction: Direction
    passes: int


def coordinate_descent_direction(cols, w, active, n_samples, options, tol, rng):
    """Coordinate-descent passes over ``q(d)`` on the coordinates ``active``
    until its violation is at most ``tol`` (or ``max_inner`` passes), with
    LIBLINEAR's inner shrinking: the margin of a pass is the previous pass's
    largest violation over ``l``, and the test is passed only on every
    active coordinate (the shrunk ones are visited once more first)."""
    direction = Direction(np.zeros_like(w), np.zeros(n_samples), w)
    order, n_active, margin = active.copy(), active.shape[0], np.inf
    passes = 0
    for passes in range(1, options.max_inner + 1):
        order[:n_active] = rng.permutation(order[:n_active])
        sweep = quadratic_sweep(cols, direction, order, n_active, options.nu, margin)
        if sweep.violation <= tol:
            if sweep.n_active == order.shape[0]:
                break
            n_active, margin = order.shape[0], np.inf
            continue
        n_active, margin = sweep.n_active, sweep.worst / n_samples
    return Newton(direction, passes)


class Step(NamedTuple):
    """The accepted step ``λ`` and ``F(w + λd)``."""
    length: float
    objective: float


def armijo_step(direction, z, y, C, grad, w, penalised, objective, options):
    """The first ``λ = βᵏ`` with ``F(w + λd) − F(w) ≤ σλΔ``,
    ``Δ = ∇L·d + ‖w + d‖₁ − ‖w‖₁``; None when none of ``max_steps`` passes."""
    d = direction.d
    l1 = l1_norm(w, penalised)
    delta = float(grad @ d) + l1_norm(w + d, penalised) - l1
    yXd = y * direction.Xd
    length = 1.0
    for _ in range(options.max_steps):
        change = loss_change(z, yXd, C, length) + l1_norm(w + length * d, penalised) - l1
        if change <= options.sigma * length * delta:
            return Step(length, objective + change)
        length *= options.beta
    return None


class L1Fit(NamedTuple):
    """One-vs-rest L1 models: ``coef`` (one row per binary problem),
    ``intercept`` (zeros without one), the most Newton iterations any problem
    took and whether every problem passed the stopping test."""
    coef: np.ndarray
    intercept: np.ndarray
    n_iter: int
    converged: bool


def fit_one_vs_rest(X, targets, C, fit_intercept, options, seed):
    """newGLMNET on each column of ``targets`` (±1.0; one column for two
    classes, one per class otherwise: LIBLINEAR's one-vs-rest), sharing one
    copy of the columns.

    Parameters
    ----------
    X : ndarray or scipy.sparse matrix of shape (n_samples, n_features)
    targets : ndarray of shape (n_samples, n_problems)
    C : ndarray of shape (n_samples,)
    fit_intercept : bool
    options : GLMNETOptions
    seed : int
        Each problem shuffles its coordinates with a generator of its own
        from this seed, so a class's model is the two-class fit of that class.

    Returns
    -------
    L1Fit
    """
    XT = columns_of(X, fit_intercept)
    n_features = X.shape[1]
    penalised = np.r_[np.ones(n_features, bool), np.zeros(int(fit_intercept), bool)]
    solutions = [newglmnet(XT, np.ascontiguousarray(targets[:, k]), C, penalised, options,
                           np.random.default_rng(seed)) for k in range(targets.shape[1])]
    coef = np.array([s.w[:n_features] for s in solutions])
    intercept = np.array([s.w[n_features] if fit_intercept else 0.0 for s in solutions])
    return L1Fit(coef, intercept, max(s.n_iter for s in solutions),
                 all(s.converged for s in solutions))
