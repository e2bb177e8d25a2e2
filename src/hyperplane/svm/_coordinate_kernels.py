"""The epochs of LIBLINEAR's coordinate-descent solvers with shrinking that
stop on the summed violation relative to the first epoch's: the dual of linear
SVR (Ho & Lin, JMLR 2012, Algorithm 4; ``solve_l2r_l1l2_svr``) and CDN for the
L1-regularised SVM (Yuan, Chang, Hsieh & Lin, JMLR 2010, §4.1.2;
``solve_l1r_l2_svc``).

One epoch visits the active variables in a random order; a variable that the
shrinking test removes trades places with the last active one, which is
visited next. What a step does is the solver's own (``svr_visit`` of
:mod:`._linear_svr_kernels`, ``cdn_visit`` of :mod:`._l1_svc_kernels`), chosen
when numba types the problem (an ``SVRProblem`` or an ``L1Problem``), so each
solver compiles its own epoch with its step in place.
"""

from __future__ import annotations

from .._numba import by_first_type, jit
from ._l1_svc_kernels import cdn_threshold, cdn_visit
from ._linear_svc_kernels import GO_ON, WITHIN_TOL, shuffle_prefix
from ._linear_svr_kernels import SVRProblem, svr_threshold, svr_visit


def _is_svr(problem_type):
    return problem_type.instance_class is SVRProblem


#: one step of an epoch, ``(problem, state, k, n_active, threshold) -> (shrink,
#: violation)``, and an epoch's shrinking threshold from the last one's
#: largest violation, by the solver of ``problem``
visit = by_first_type(lambda t: svr_visit if _is_svr(t) else cdn_visit, "visit")
shrink_threshold = by_first_type(
    lambda t: svr_threshold if _is_svr(t) else cdn_threshold, "shrink_threshold")


@jit
def coordinate_epoch(problem, state, n_active, Gmax_old):
    """One pass over ``state.active[:n_active]``, first shuffled (Fisher-Yates
    with the generator ``state.rng``, as LIBLINEAR shuffles with ``rand()``).
    Returns ``(n_active, Gmax, Gnorm1)``: the active count left, the largest
    and the summed violation of the variables visited."""
    active = state.active
    threshold = shrink_threshold(problem, state, Gmax_old)
    shuffle_prefix(active, n_active, state.rng)
    Gmax = 0.0
    Gnorm1 = 0.0
    k = 0
    while k < n_active:
        shrink, violation = visit(problem, state, k, n_active, threshold)
        if shrink:
            n_active -= 1
            active[k], active[n_active] = active[n_active], active[k]
            continue
        Gmax = max(Gmax, violation)
        Gnorm1 += violation
        k += 1
    return n_active, Gmax, Gnorm1


@jit
def within_relative_tol(Gnorm1, Gnorm1_init, tol):
    """LIBLINEAR's stopping test of its SVR dual and L1 primal solvers: the
    summed violation of an epoch is at most ``tol`` times that of the first
    epoch (Ho & Lin 2012, section 5; Yuan et al. 2010, §6; on a shrunk set it
    makes every variable active again, on the whole problem it stops the
    solver)."""
    return Gnorm1 <= tol * Gnorm1_init


@jit
def after_epoch(outcome, bounds, tol):
    """Keep an epoch's ``outcome = (n_active, Gmax, Gnorm1)`` in ``bounds`` =
    [n_active, Gmax_old, Gnorm1_init (negative before the first epoch)], the
    state one epoch leaves for the next; returns whether the epoch was
    :func:`within_relative_tol` (then the caller unshrinks or stops, and
    ``Gmax_old`` stays). LIBLINEAR's outer loop of its SVR dual and L1 primal
    solvers."""
    n_active, Gmax, Gnorm1 = outcome
    bounds[0] = n_active
    if bounds[2] < 0.0:
        bounds[2] = Gnorm1
    if within_relative_tol(Gnorm1, bounds[2], tol):
        return True
    bounds[1] = Gmax
    return False


@jit
def coordinate_epochs(problem, state, bounds, limits):
    """Up to ``limits.max_epochs`` epochs of :func:`coordinate_epoch`, each
    followed by :func:`after_epoch`. Returns ``(epochs run, event)`` after the
    first epoch within tol (:data:`~._linear_svc_kernels.WITHIN_TOL`), else
    ``(max_epochs, GO_ON)``."""
    for epoch in range(1, limits.max_epochs + 1):
        if after_epoch(coordinate_epoch(problem, state, int(bounds[0]), bounds[1]), bounds,
                       limits.tol):
            return epoch, WITHIN_TOL
    return limits.max_epochs, GO_ON
