"""Newton's method with a backtracking line search on an explicit Hessian.

Each iteration solves ``H s = −g`` by a Cholesky factorisation and moves
along ``s`` by the first step length ``α ∈ {1, ½, ¼, …}`` that satisfies the
Armijo condition ``f(θ + αs) ≤ f(θ) + c α gᵀs`` (Nocedal & Wright,
*Numerical Optimization*, 2nd ed., Algorithm 3.1 with the Newton direction of
§3.3; Boyd & Vandenberghe, *Convex Optimization*, §9.5). Close to the
minimum the full step is taken and the convergence is quadratic (linear with
a small rate when ``H`` is estimated from a subsample of the data), so a
smooth convex problem of a few hundred parameters needs a handful of passes.

The solver sees a *problem* with two methods:

* ``evaluate(theta) -> (f, grad)``;
* ``hessian(theta) -> H``, a symmetric positive definite matrix (an exact
  Hessian, or an estimate of it, made definite along any direction in which
  both ``f`` is flat and the gradient is zero).
"""

from __future__ import annotations

import numpy as np
import scipy.linalg

from ._minimum import Minimum
from ._tron import negligible, smaller


#: Armijo's sufficient-decrease constant (Nocedal & Wright, §3.1: 1e-4)
ARMIJO = 1e-4
#: step halvings before the line search gives up
MAX_HALVINGS = 30


def newton_direction(H, g):
    """The solution of ``H s = −g`` by Cholesky; least squares if ``H`` is
    numerically not positive definite."""
    try:
        return scipy.linalg.cho_solve(scipy.linalg.cho_factor(H, check_finite=False), -g,
                                      check_finite=False)
    except scipy.linalg.LinAlgError:
        return np.linalg.lstsq(H, -g, rcond=None)[0]


def backtrack(evaluate, theta, f, g, s):
    """The first ``θ + αs``, ``α = 1, ½, ¼, …``, meeting Armijo's condition.

    A step whose decrease is at the rounding level of ``f`` (the objective
    cannot rank the two points) is accepted when it lowers the largest
    gradient entry. Returns ``(theta, f, g, accepted)``.
    """
    slope = float(np.dot(g, s))
    alpha = 1.0
    for _ in range(MAX_HALVINGS):
        trial = theta + alpha * s
        f_trial, g_trial = evaluate(trial)
        decrease, predicted = f - f_trial, -ARMIJO * alpha * slope
        if decrease >= predicted:
            return trial, f_trial, g_trial, True
        if negligible(f, decrease, predicted):
            if smaller(g_trial, g):
                return trial, f_trial, g_trial, True
            break
        alpha *= 0.5
    return theta, f, g, False


def bfgs_update(B, s, y):
    """``B`` after the BFGS update for the step ``s`` and gradient change ``y``
    (Nocedal & Wright eq. 6.19); unchanged when ``yᵀs ≤ 0`` (the update would
    lose positive definiteness)."""
    ys = np.dot(y, s)
    if not ys > 0:
        return B
    Bs = B @ s
    return B - np.outer(Bs, Bs) / np.dot(s, Bs) + np.outer(y, y) / ys


def minimize_newton(problem, theta0, *, max_iter, converged, on_step=None, hessian0=None):
    """Minimise ``problem``'s objective from ``theta0`` by Newton's method.

    Parameters
    ----------
    problem : object
        With ``evaluate`` and ``hessian`` (see the module docstring).
    theta0 : ndarray
    max_iter : int
        Maximum number of Newton iterations.
    converged : callable ``grad -> bool``
        The stopping test on the gradient.
    on_step : callable ``f -> None``, optional
        Called after each accepted step (progress reporting).
    hessian0 : ndarray, optional
        An estimate of the Hessian near ``theta0``: instead of calling
        ``hessian``, start from it and correct it by BFGS updates from the
        exact gradients (quasi-Newton started from a Hessian, Nocedal &
        Wright §6.1): superlinear convergence, one ``evaluate`` per iteration.

    Returns
    -------
    Minimum
    """
    theta = np.array(theta0, dtype=np.float64)
    f, g = problem.evaluate(theta)
    secant = hessian0 is not None
    B = hessian0
    for n_iter in range(1, max_iter + 1):
        if converged(g):
            return Minimum(theta, n_iter - 1, True)
        if not secant:
            B = problem.hessian(theta)
        s = newton_direction(B, g)
        theta_next, f, g_next, accepted = backtrack(problem.evaluate, theta, f, g, s)
        if not accepted:
            break
        if secant:
            B = bfgs_update(B, theta_next - theta, g_next - g)
        theta, g = theta_next, g_next
        if on_step is not None:
            on_step(f)
    return Minimum(theta, n_iter, bool(converged(g)))


__all__ = ["minimize_newton", "newton_direction", "backtrack", "bfgs_update"]
