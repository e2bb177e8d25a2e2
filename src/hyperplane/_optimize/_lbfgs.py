"""The L-BFGS driver: scipy's L-BFGS-B on a callable returning ``(f, grad)``
(Nocedal & Wright, *Numerical Optimization*, 2nd ed., §7.2), with
scikit-learn's settings, so that a model minimised here stops where
scikit-learn's ``lbfgs`` solver would."""

from __future__ import annotations

import numpy as np
import scipy.optimize

from ._minimum import Minimum



def minimize_lbfgs(objective, theta0, *, max_iter, tol):
    """Minimise ``objective(theta) -> (f, grad)`` with L-BFGS-B.

    Stops when the largest gradient entry is at most ``tol`` (scipy's
    ``gtol``), after ``max_iter`` iterations at the latest (scikit-learn's
    settings: ``maxls=50``, ``ftol = 64 eps``).

    Returns
    -------
    Minimum
    """
    result = scipy.optimize.minimize(
        objective, theta0, method="L-BFGS-B", jac=True,
        options={"maxiter": max_iter, "maxls": 50, "gtol": tol,
                 "ftol": 64 * np.finfo(np.float64).eps})
    return Minimum(result.x, int(result.nit), bool(result.status == 0))


__all__ = ["minimize_lbfgs"]
