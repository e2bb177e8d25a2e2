"""Compiled epochs of dual coordinate descent for linear support vector
regression (Ho & Lin, "Large-scale linear support vector regression", JMLR 13,
2012, Algorithm 4; LIBLINEAR's ``solve_l2r_l1l2_svr``, ``-s 12`` and ``-s 13``).

With the bias an extra feature of constant value ``B`` (regularised as the
other weights, as LIBLINEAR), the dual in the variables
``beta_i = alpha_i^+ - alpha_i^-`` is (Ho & Lin 2012, eq. 18)::

    min_beta 1/2 beta' Q beta - y' beta + p |beta|_1 + 1/2 sum_i lambda_i beta_i^2,
    -U_i <= beta_i <= U_i,    Q[i, j] = x_i . x_j + B^2,

with ``lambda_i = 0``, ``U_i = C_i`` for the epsilon-insensitive (L1) loss and
``lambda_i = 1 / (2 C_i)``, ``U_i = inf`` for its square (L2), ``p`` the
width epsilon of the tube. Keeping ``w = sum_i beta_i [x_i, B]`` makes one
coordinate step cost O(nonzeros of x_i): the gradient of the smooth part is
``G = w . [x_i, B] - y_i + lambda_i beta_i`` and :func:`beta_step` takes the
one-variable Newton step of the non-smooth function, clipped to the box.

The samples are dense rows or CSR rows (a :class:`~hyperplane._csr_rows.CSRRows`);
the epoch reads them only through the seed's ``row_dot`` / ``row_axpy``
(:func:`~._linear_svc_kernels.by_layout`), which sum in feature order with
strict arithmetic, so both layouts give the same model bit for bit.

The pass, :func:`svr_epoch`, and the L1 SVM's :func:`~._l1_svc_kernels.cdn_epoch`
keep LIBLINEAR's shrinking bookkeeping through the same two functions: an
epoch starts by shuffling the active prefix (:func:`start_pass`), and each
visited variable is either shrunk, trading places with the last active one,
or adds its violation to the epoch's largest and summed
(:func:`tally_visit`). Both are inlined: the step of each problem stays in
its own pass, since a step called through the problem's record costs
numba's reference counts on the record's arrays in every step (1.26-1.60x
the time, ``benchmarks/linear_svc_versions.py``).
"""

from __future__ import annotations

from collections import namedtuple


from .._numba import jit, jit_inline, jit_internal, jit_twin
from ._linear_svc_kernels import GO_ON, PG_ZERO, WITHIN_TOL, prefetch_ahead, shuffle_prefix
from .._row_kernels import row_axpy, row_dot

#: What an epoch reads: samples ``X`` (n, d; or CSR rows), targets ``y``,
#: ``lam`` (lambda_i), the bounds ``U`` (|beta_i| <= U_i), the bias feature's
#: value ``B``, the diagonal ``QD_i = |x_i|^2 + B^2`` of Q and the tube's
#: half-width ``p`` (epsilon).
SVRProblem = namedtuple("SVRProblem", "X y lam U B QD p")
#: What an epoch updates: ``beta``, ``w = sum_i beta_i [x_i, B]``, ``active``
#: (the coordinates; the active set is a prefix) and ``rng``, the state of the
#: shuffle's generator (one nonzero uint64).
SVRState = namedtuple("SVRState", "beta w active rng")
#: How long one call of :func:`svr_epochs` may run: the stopping tolerance
#: ``tol`` (relative to the first epoch's violation) and at most
#: ``max_epochs`` epochs.
SVRLimits = namedtuple("SVRLimits", "tol max_epochs")
#: What an epoch found (of the SVR dual and of the L1 primal, :func:`record_outcome`
#: reads it): the size of the active set after it, the largest and the
#: summed violation of the variables it visited.
EpochOutcome = namedtuple("EpochOutcome", "n_active Gmax Gnorm1")


@jit_inline
def start_pass(active, n_active, rng):
    """The start of one pass of LIBLINEAR's shrinking solvers: the active
    prefix ``active[:n_active]`` shuffled in place (Fisher-Yates with the
    generator ``rng``, as LIBLINEAR shuffles with ``rand()``), nothing
    tallied yet. Returns the pass's :data:`EpochOutcome` so far."""
    shuffle_prefix(active, n_active, rng)
    return EpochOutcome(n_active, 0.0, 0.0)


@jit_inline
def tally_visit(active, k, outcome, shrink, violation):
    """LIBLINEAR's shrinking bookkeeping of the variable ``active[k]`` a pass
    visited (Ho & Lin 2012, Algorithm 4; Yuan et al. 2010, §6): a shrunk one
    trades places with the last active one, which is visited next, and the
    active prefix loses it; another adds its ``violation`` to the pass's
    largest and summed. Returns the updated :data:`EpochOutcome`."""
    if shrink:
        n_active = outcome.n_active - 1
        active[k], active[n_active] = active[n_active], active[k]
        return EpochOutcome(n_active, outcome.Gmax, outcome.Gnorm1)
    return EpochOutcome(outcome.n_active, max(outcome.Gmax, violation),
                        outcome.Gnorm1 + violation)


@jit_internal
def violation_test(G, beta, U, p, Gmax_old):
    """The optimality and shrinking test of one variable of
    ``G beta + p |beta|`` (plus a smooth part) on ``[-U, U]`` (Ho & Lin 2012,
    Algorithm 4; Yuan, Chang, Hsieh & Lin 2010, §4.1.2 for U = inf, p = 1).

    ``G`` is the derivative of the smooth part at ``beta``. Returns
    ``(shrink, violation)``: ``shrink`` when beta sits at 0 or a bound and
    its one-sided derivatives ``G + p``, ``G - p`` point out of the box by
    more than ``Gmax_old`` (the variable then leaves the active set), else
    the violation of the optimality condition (0 at the optimum).
    """
    Gp = G + p
    Gn = G - p
    if beta == 0.0:
        if Gp < 0.0:
            return False, -Gp
        if Gn > 0.0:
            return False, Gn
        if Gp > Gmax_old and Gn < -Gmax_old:
            return True, 0.0
        return False, 0.0
    if beta >= U:
        if Gp > 0.0:
            return False, Gp
        return Gp < -Gmax_old, 0.0
    if beta <= -U:
        if Gn < 0.0:
            return False, -Gn
        return Gn > Gmax_old, 0.0
    return False, abs(Gp) if beta > 0.0 else abs(Gn)


@jit_twin
def soft_newton_step(G, H, beta, p):
    """The minimiser ``d`` of ``G d + H d^2 / 2 + p |beta + d|``: the Newton
    step of the smooth part soft-thresholded by ``p`` (Yuan et al. 2010,
    eq. 29; Ho & Lin 2012, eq. 21)."""
    Gp = G + p
    Gn = G - p
    if Gp < H * beta:
        return -Gp / H
    if Gn > H * beta:
        return -Gn / H
    return -beta


@jit_twin
def beta_step(G, beta, H, U, p, Gmax_old):
    """One coordinate of the SVR dual (Ho & Lin 2012, Algorithm 4; LIBLINEAR's
    ``solve_l2r_l1l2_svr``): :func:`violation_test`, then
    :func:`soft_newton_step` clipped to ``[-U, U]`` (``H = QD_i + lambda_i``).
    Returns ``(shrink, violation, new_beta)``; beta itself when the step is
    below 1e-12."""
    shrink, violation = violation_test(G, beta, U, p, Gmax_old)
    if shrink:
        return True, 0.0, beta
    d = soft_newton_step(G, H, beta, p)
    if abs(d) < PG_ZERO:
        return False, violation, beta
    return False, violation, min(max(beta + d, -U), U)


@jit
def svr_epoch(problem, state, n_active, Gmax_old):
    """One pass over ``state.active[:n_active]``, first shuffled (Fisher-Yates
    with the generator ``state.rng``, as LIBLINEAR shuffles with ``rand()``),
    on dense or CSR samples. A shrunk variable trades places with the last
    active one, which is visited next. Returns the :data:`EpochOutcome`:
    the active set's size, the largest and the summed violation of the
    variables visited."""
    X, y, B, QD = problem.X, problem.y, problem.B, problem.QD
    lam, U, p = problem.lam, problem.U, problem.p
    beta, w, active, rng = state.beta, state.w, state.active, state.rng
    d = w.shape[0] - 1
    outcome = start_pass(active, n_active, rng)
    k = 0
    while k < outcome.n_active:
        prefetch_ahead(X, active, k, outcome.n_active, w, 1)
        i = active[k]
        G = row_dot(X, i, w, w[d] * B) - y[i] + lam[i] * beta[i]
        shrink, violation, new = beta_step(G, beta[i], QD[i] + lam[i], U[i], p, Gmax_old)
        outcome = tally_visit(active, k, outcome, shrink, violation)
        if shrink:
            continue
        if new != beta[i]:
            delta = new - beta[i]
            row_axpy(X, i, w, delta)
            w[d] += delta * B
            beta[i] = new
        k += 1
    return outcome


@jit_internal
def within_relative_tol(Gnorm1, Gnorm1_init, tol):
    """LIBLINEAR's stopping test of its SVR dual and L1 primal solvers: the
    summed violation of an epoch is at most ``tol`` times that of the first
    epoch (Ho & Lin 2012, section 5; Yuan et al. 2010, §6; on a shrunk set it
    makes every variable active again, on the whole problem it stops the
    solver)."""
    return Gnorm1 <= tol * Gnorm1_init


@jit_internal
def record_outcome(outcome, bounds, tol):
    """Keep an epoch's :data:`EpochOutcome` in ``bounds`` =
    [n_active, Gmax_old, Gnorm1_init (negative before the first epoch)], the
    state one epoch leaves for the next; returns whether the epoch was
    :func:`within_relative_tol` (then the caller unshrinks or stops, and
    ``Gmax_old`` stays). LIBLINEAR's outer loop of its SVR dual and L1 primal
    solvers."""
    n_active, Gmax, Gnorm1 = outcome.n_active, outcome.Gmax, outcome.Gnorm1
    bounds[0] = n_active
    if bounds[2] < 0.0:
        bounds[2] = Gnorm1
    if within_relative_tol(Gnorm1, bounds[2], tol):
        return True
    bounds[1] = Gmax
    return False


@jit
def svr_epochs(problem, state, bounds, limits):
    """Up to ``limits.max_epochs`` epochs of :func:`svr_epoch`, each followed
    by :func:`record_outcome`. Returns ``(epochs run, event)`` after the first
    epoch within tol (:data:`WITHIN_TOL`), else ``(max_epochs, GO_ON)``."""
    for epoch in range(1, limits.max_epochs + 1):
        if record_outcome(svr_epoch(problem, state, int(bounds[0]), bounds[1]), bounds, limits.tol):
            return epoch, WITHIN_TOL
    return limits.max_epochs, GO_ON
