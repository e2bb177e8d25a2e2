"""Generic optimisers that any family may drive with a problem of its own.

* :func:`minimize_tron` (:mod:`._tron`): trust-region Newton with truncated,
  preconditioned conjugate gradients on Hessian-vector products (Lin, Weng &
  Keerthi 2008);
* :func:`minimize_newton` (:mod:`._newton`): Newton's method with a
  backtracking line search on an explicit Hessian, or BFGS started from one
  (Nocedal & Wright, Algorithm 3.1, §6.1);
* :func:`minimize_lbfgs` (:mod:`._lbfgs`): L-BFGS on a ``(f, grad)`` callable
  (Nocedal & Wright §7.2).

Each solver sees the problem through a few methods (their modules say
which), never its data, stops on a test on the gradient that the caller
passes in and returns a :class:`Minimum`.
"""

from ._lbfgs import minimize_lbfgs
from ._minimum import Minimum
from ._newton import minimize_newton
from ._tron import minimize_tron

__all__ = ["Minimum", "minimize_lbfgs", "minimize_newton", "minimize_tron"]
