"""Trust-region Newton method with preconditioned conjugate gradients (TRON).

Lin, Weng & Keerthi, "Trust region Newton method for large-scale logistic
regression", JMLR 9 (2008), algorithms 1-2, with the diagonal preconditioner
of Hsia, Chiang & Lin, "Preconditioned conjugate gradient methods in
truncated Newton frameworks for large-scale linear classification", ACML
2018. Each iteration approximately minimises the quadratic model
``q(s) = gᵀs + ½ sᵀHs`` inside the trust region ``‖s‖_M ≤ Δ`` by conjugate
gradients that only need Hessian-vector products ``Hv``, then accepts the
step if the objective fell by a fair share of what the model predicted and
resizes ``Δ`` by how well the model predicted it.

The solver sees a *problem* with three methods:

* ``evaluate(theta, path=None) -> point`` where ``point.f``, ``point.grad``
  and ``point.diag`` (the Hessian's diagonal) are set; the point also keeps
  whatever the Hessian-vector product at ``theta`` needs. With ``path``
  (the step's record below), ``theta`` is the path's point plus its step;
* ``path(point)`` -> a record of the step that conjugate gradients build
  from ``point``, whose ``moved(alpha)`` is called each time the step grows
  by ``alpha`` times the last direction multiplied by the Hessian (a linear
  model can keep the step's image ``X̃s`` from the directions' images ``X̃d``
  that the products computed, and score the trial point without reading
  the data);
* ``hessian_vector(point, v, path=None) -> H v`` at an evaluated point.
"""

from __future__ import annotations

import numpy as np

from ._minimum import Minimum


#: step acceptance and radius update of Lin, Weng & Keerthi (2008), §2.1
ETA0, ETA1, ETA2 = 1e-4, 0.25, 0.75
SIGMA1, SIGMA2, SIGMA3 = 0.25, 0.5, 4.0
#: conjugate gradients stop when ‖r‖_{M⁻¹} ≤ XI_CG ‖g‖_{M⁻¹}, or when step i
#: lowered the quadratic model by less than ``min(Q_CG, √‖g‖_{M⁻¹}) · |q(s_i)| / i``
#: (Nash & Sofer 1990's rule with the forcing term of LIBLINEAR's Newton solver,
#: which tightens it as the gradient vanishes; Galli & Lin, "A study on
#: truncated Newton methods for linear classification", IEEE TNNLS 2022).
#: LIBLINEAR's Q_CG is 0.5; 0.25 took fewer Newton iterations and 3-28% less
#: pass time on each of six sparse sets (benchmarks/RESULTS.md, "Sparse TRON").
XI_CG = 0.1
Q_CG = 0.25
#: weight of the Hessian's diagonal in the preconditioner (1 − a) I + a diag(H)
PRECONDITIONER_WEIGHT = 0.01


def preconditioner(diag):
    """The diagonal preconditioner ``M = (1 − a) I + a diag(H)`` (Hsia et al. 2018)."""
    return (1.0 - PRECONDITIONER_WEIGHT) + PRECONDITIONER_WEIGHT * diag


def to_boundary(s, d, M, delta):
    """The ``τ ≥ 0`` with ``‖s + τ d‖_M = Δ`` (``‖s‖_M ≤ Δ``)."""
    std = np.dot(s * M, d)
    sts = np.dot(s * M, s)
    dtd = np.dot(d * M, d)
    rad = np.sqrt(max(std * std + dtd * (delta * delta - sts), 0.0))
    if std >= 0:
        return (delta * delta - sts) / (std + rad)
    return (rad - std) / dtd


def truncated_cg(hessian_vector, g, M, delta, max_steps, moved=None):
    """Steihaug's conjugate gradients on ``q(s) = gᵀs + ½ sᵀHs`` inside
    ``‖s‖_M ≤ Δ``, preconditioned by ``M``; stops at the boundary, on a small
    residual or when the last step barely lowered ``q`` (:data:`XI_CG`,
    :data:`Q_CG`). ``moved(alpha)``, if given, is called each time ``s``
    grows by ``alpha`` times the direction last passed to ``hessian_vector``.

    Returns
    -------
    s : ndarray
        The step.
    r : ndarray
        The residual ``−g − Hs``.
    n_steps : int
        Hessian-vector products used.
    hit_boundary : bool
    """
    s = np.zeros_like(g)
    r = -g
    z = r / M
    d = z.copy()
    zr = np.dot(z, r)
    cg_tol = XI_CG * np.sqrt(zr)
    q_tol = min(Q_CG, np.sqrt(np.sqrt(zr)))
    q = 0.0
    for step in range(1, max_steps + 1):
        if np.sqrt(zr) <= cg_tol:
            return s, r, step - 1, False
        Hd = hessian_vector(d)
        dHd = np.dot(d, Hd)
        alpha = zr / dHd if dHd > 0 else np.inf
        s_next = s + alpha * d
        if not dHd > 0 or np.sqrt(np.dot(s_next * M, s_next)) > delta:
            tau = to_boundary(s, d, M, delta)
            if moved is not None:
                moved(tau)
            return s + tau * d, r - tau * Hd, step, True
        s = s_next
        if moved is not None:
            moved(alpha)
        r = r - alpha * Hd
        q_next = 0.5 * (np.dot(g, s) - np.dot(s, r))     # q(s) = gᵀs + ½ sᵀHs
        if q_next > 0 or q_next - q > 0 or step * (q_next - q) >= q_tol * q_next:
            return s, r, step, False
        q = q_next
        z = r / M
        zr_next = np.dot(z, r)
        d = z + (zr_next / zr) * d
        zr = zr_next
    return s, r, max_steps, False


def next_radius(delta, actred, prered, gs, f_step, f, snorm):
    """The trust-region radius after a step (Lin, Weng & Keerthi 2008, eq. 2.3).

    ``α`` minimises the one-dimensional interpolation of the objective along
    ``s``; the ratio ``actred / prered`` of the actual to the predicted
    decrease picks how far the radius may shrink or grow.
    """
    curvature = f_step - f - gs
    alpha = SIGMA3 if curvature <= 0 else max(SIGMA1, -0.5 * gs / curvature)
    if actred < ETA0 * prered:
        return min(max(alpha, SIGMA1) * snorm, SIGMA2 * delta)
    if actred < ETA1 * prered:
        return max(SIGMA1 * delta, min(alpha * snorm, SIGMA2 * delta))
    if actred < ETA2 * prered:
        return max(SIGMA1 * delta, min(alpha * snorm, SIGMA3 * delta))
    return max(delta, min(alpha * snorm, SIGMA3 * delta))


def minimize_tron(problem, theta0, *, max_iter, converged, on_step=None):
    """Minimise ``problem``'s objective from ``theta0`` by TRON.

    Parameters
    ----------
    problem : object
        With ``evaluate`` and ``hessian_vector`` (see the module docstring).
    theta0 : ndarray
    max_iter : int
        Maximum number of Newton iterations (accepted or not).
    converged : callable ``grad -> bool``
        The stopping test on the gradient.
    on_step : callable ``point -> None``, optional
        Called after each accepted step (progress reporting).

    Returns
    -------
    Minimum
    """
    theta = np.array(theta0, dtype=np.float64)
    point = problem.evaluate(theta)
    delta = np.sqrt(np.dot(point.grad, point.grad / preconditioner(point.diag)))
    for n_iter in range(1, max_iter + 1):
        if converged(point.grad):
            return Minimum(theta, n_iter - 1, True)
        M = preconditioner(point.diag)
        path = problem.path(point)
        s, r, _, _ = truncated_cg(lambda v: problem.hessian_vector(point, v, path),
                                  point.grad, M, delta, max_steps=theta.size,
                                  moved=path.moved)
        gs = np.dot(point.grad, s)
        prered = -0.5 * (gs - np.dot(s, r))
        trial = problem.evaluate(theta + s, path)
        actred = point.f - trial.f
        snorm = np.sqrt(np.dot(s * M, s))
        if n_iter == 1:
            delta = min(delta, snorm)
        delta = next_radius(delta, actred, prered, gs, trial.f, point.f, snorm)
        below_rounding = negligible(point.f, actred, prered)
        if actred > ETA0 * prered or (below_rounding and smaller(trial.grad, point.grad)):
            theta, point = theta + s, trial
            if on_step is not None:
                on_step(point)
        elif below_rounding or (actred <= 0 and prered <= 0):
            break
    return Minimum(theta, n_iter, bool(converged(point.grad)))


def negligible(f, actred, prered):
    """Both decreases are at the rounding level of ``f``: the objective can
    no longer tell a good step from a bad one (then the gradient decides)."""
    return abs(actred) <= 1e-12 * abs(f) and abs(prered) <= 1e-12 * abs(f)


def smaller(g_new, g):
    """Whether the largest gradient entry fell."""
    return np.max(np.abs(g_new)) < np.max(np.abs(g))


__all__ = ["minimize_tron", "truncated_cg", "next_radius", "preconditioner"]
