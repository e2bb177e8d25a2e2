"""Compiled passes of newGLMNET for L1-regularised logistic regression
(Yuan, Ho & Lin, "An improved GLMNET for L1-regularized logistic regression",
JMLR 13, 2012; LIBLINEAR's ``-s 6``).

The problem, with labels ``y_i = ±1`` and per-sample costs ``C_i``::

    min_w  F(w) = ‖w‖₁ + L(w),   L(w) = Σ_i C_i log(1 + exp(−y_i w·x_i)),

the intercept, when there is one, a last coordinate left out of ‖w‖₁.
Each outer (Newton) iteration minimises, by coordinate descent, the
quadratic model of ``F`` around ``w``::

    q(d) = ∇L·d + ½ dᵀ(XᵀDX + ν I)d + ‖w + d‖₁ − ‖w‖₁,
    D_ii = C_i p_i (1 − p_i),  p_i = 1 / (1 + exp(−y_i w·x_i)),

and then takes the largest step ``λ = βᵏ`` along ``d`` that passes Armijo's
test ``F(w + λd) − F(w) ≤ σλ(∇L·d + ‖w + d‖₁ − ‖w‖₁)``.

A coordinate step of ``q`` needs column ``j`` of ``X``; the columns are
handed over as the rows of ``Xᵀ`` (a C-ordered dense array, or the CSR rows
of ``Xᵀ``, i.e. ``X``'s CSC arrays), read through :data:`column_dot`,
:data:`column_axpy` and the two weighted sums of the package's row layer
(:mod:`hyperplane._row_kernels`), which numba resolves to the layout's
function when it types ``XT`` (one function per rule, both layouts). ``Xd = X d`` and ``z = y ∘ Xw`` are kept per sample, so no pass
needs the rows of ``X``.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ..._lowered import empty
from ..._numba import jit, jit_internal
from ..._row_kernels import row_axpy as column_axpy
from ..._row_kernels import row_dot as column_dot
from ..._row_kernels import row_weighted_dot as column_weighted_dot
from ..._row_kernels import row_weighted_square as column_weighted_square
from ...svm._l1_svc_kernels import prefetch_columns
from ...svm._linear_svr_kernels import soft_newton_step


class QuadraticModel(NamedTuple):
    """What the quadratic model reads: the columns ``XT`` (rows of ``Xᵀ``),
    the Hessian weights ``D``, the gradient ``grad`` of ``L`` at ``w``, the
    Hessian's diagonal ``hess`` (with ``ν`` added) and ``penalised[j]``
    (False for the intercept)."""
    XT: object
    D: np.ndarray
    grad: np.ndarray
    hess: np.ndarray
    penalised: np.ndarray


class Direction(NamedTuple):
    """The Newton direction being built: ``d``, ``Xd = X d`` per sample, and
    ``w`` (read only: ``|w + d|`` is the coordinate's L1 term)."""
    d: np.ndarray
    Xd: np.ndarray
    w: np.ndarray


@jit_internal
def l1_violation(g, v):
    """The minimum-norm subgradient of ``g·v + |v|`` in ``v`` (0 at the
    optimum): ``g ± 1`` off zero, the soft threshold of ``g`` at zero."""
    if v > 0.0:
        return g + 1.0
    if v < 0.0:
        return g - 1.0
    if g + 1.0 < 0.0:
        return g + 1.0
    if g - 1.0 > 0.0:
        return g - 1.0
    return 0.0


@jit
def coordinate_violations(grad, w, penalised):
    """``|∂F(w)_j|`` for every coordinate: :func:`l1_violation` of a penalised
    one, ``|g|`` of the intercept."""
    out = empty(grad.shape[0], np.float64)
    for j in range(grad.shape[0]):
        out[j] = abs(l1_violation(grad[j], w[j])) if penalised[j] else abs(grad[j])
    return out


class Sweep(NamedTuple):
    """After one pass: the coordinates still in the pass's active prefix, the
    sum and the largest of their violations of ``q``'s optimality."""
    n_active: int
    violation: float
    worst: float


@jit
def quadratic_sweep(cols, state, order, n_active, nu, margin):
    """One coordinate-descent pass over ``order[:n_active]`` of the quadratic
    model ``q(d)``; updates ``d`` and ``Xd`` and returns a :class:`Sweep` of
    the violations measured before each step.

    Coordinate j: ``g = ∇L_j + Σ_i X_ij D_i (Xd)_i + ν d_j``, ``h = hess_j``;
    a penalised coordinate takes the soft-thresholded Newton step at
    ``w_j + d_j`` (:func:`~hyperplane.svm._linear_svr_kernels.soft_newton_step`
    with threshold 1, the one-variable rule LinearSVR and L1 LinearSVC share),
    the intercept the plain Newton step ``−g/h``. LIBLINEAR's inner shrinking:
    a penalised coordinate at ``w_j + d_j = 0`` with ``g`` inside
    ``(−1 + margin, 1 − margin)`` is moved behind the prefix.
    """
    violation, worst = 0.0, 0.0
    k = 0
    while k < n_active:
        prefetch_columns(cols.XT, order, k, n_active, state.Xd, 1)   # CSR: the column ahead
        j = order[k]
        g = cols.grad[j] + column_weighted_dot(cols.XT, j, cols.D, state.Xd) + nu * state.d[j]
        h = cols.hess[j]
        if cols.penalised[j]:
            v = state.w[j] + state.d[j]
            if v == 0.0 and g + 1.0 > margin and g - 1.0 < -margin:
                n_active -= 1
                order[k], order[n_active] = order[n_active], order[k]
                continue
            size = abs(l1_violation(g, v))
            z = min(max(soft_newton_step(g, h, v, 1.0), -10.0), 10.0)
            # a step onto zero sets d_j = -w_j exactly, so that w + d is 0 there
            new = -state.w[j] if v + z == 0.0 else state.d[j] + z
        else:
            size = abs(g)
            new = state.d[j] + min(max(-g / h, -10.0), 10.0)
        violation += size
        worst = max(worst, size)
        k += 1
        z = new - state.d[j]
        if abs(z) < 1e-12:
            continue
        state.d[j] = new
        column_axpy(cols.XT, j, state.Xd, z)
    return Sweep(n_active, violation, worst)


@jit_internal
def log1p_exp(t):
    """``log(1 + exp(t))`` without overflow."""
    if t > 0.0:
        return t + math.log1p(math.exp(-t))
    return math.log1p(math.exp(t))


@jit
def margin_logistic_loss(z, C):
    """``L = Σ_i C_i log(1 + exp(−z_i))``, ``z_i = y_i w·x_i``."""
    total = 0.0
    for i in range(z.shape[0]):
        total += C[i] * log1p_exp(-z[i])
    return total


@jit
def loss_change(z, yXd, C, step):
    """``L(w + step·d) − L(w)`` from ``z`` and ``yXd = y ∘ Xd``: Armijo's
    trial, summed as per-sample differences (as LIBLINEAR does), so that a
    decrease far below the loss's own round-off is still seen."""
    total = 0.0
    for i in range(z.shape[0]):
        total += C[i] * (log1p_exp(-(z[i] + step * yXd[i])) - log1p_exp(-z[i]))
    return total


@jit
def hessian_weights(z, y, C, D, coef):
    """Per sample, with ``p_i = σ(z_i)``, ``z_i = y_i w·x_i``: the Hessian
    weight ``D_i = C_i p_i (1 − p_i)`` and the gradient coefficient
    ``coef_i = −C_i y_i (1 − p_i)``, so that ``∇L = Xᵀ coef``."""
    for i in range(z.shape[0]):
        if z[i] >= 0.0:
            e = math.exp(-z[i])
            p = 1.0 / (1.0 + e)
            q = e / (1.0 + e)
        else:
            e = math.exp(z[i])
            p = e / (1.0 + e)
            q = 1.0 / (1.0 + e)
        D[i] = C[i] * p * q
        coef[i] = -C[i] * y[i] * q


@jit
def gradient_and_diagonal(XT, coef, D, grad, hess, active, nu):
    """``grad_j = Σ_i X_ij coef_i`` (``coef`` already carrying ``y``) and
    ``hess_j = Σ_i D_i X_ij² + ν`` for the columns ``active``."""
    for j in active:
        grad[j] = column_dot(XT, j, coef, 0.0)
        hess[j] = column_weighted_square(XT, j, D) + nu
