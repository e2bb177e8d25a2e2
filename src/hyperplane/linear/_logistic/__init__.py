"""Logistic regression laid out by stage (Bishop, PRML §4.3.2-4.3.4; Yuan,
Ho & Lin 2012 for the L1 penalty).

* :mod:`._estimator`: :class:`LogisticRegression` (parameters, input,
  weights, the choice of solver, fitted attributes);
* :mod:`._objective`: what it hands the solvers, the summed log-loss and its
  gradient over the rows (:func:`logistic_loss_grad`) and the penalised,
  normalised objective (:func:`penalised_objective`);
* :mod:`._rules_kernels`: the rules of one row (weight, loss, residual,
  curvature, softmax), each once, for every pass;
* :mod:`._gradient_kernels`: the one loss-and-gradient pass over dense or
  CSR rows, binary and multinomial (L-BFGS's, and TRON's over dense rows,
  which also keeps the curvature); :mod:`._blocks_kernels`: its sums over
  row blocks;
* :mod:`._layout`: canonical CSR rows, row blocks and column chunks;
* :mod:`._tron_problem`: the objective as a problem for TRON, with its
  Hessian-vector passes over dense rows (:mod:`._hessian_kernels`) and the
  two-phase passes over CSR rows and their columns
  (:mod:`._tron_sparse_kernels`);
* :mod:`._newton_problem`: the objective with its explicit Hessian for
  Newton's method on nested row subsamples;
* :mod:`._l1`, :mod:`._l1_kernels`: the L1 problem by newGLMNET.

The solvers themselves (TRON, Newton, L-BFGS) know no model:
:mod:`hyperplane._optimize`.
"""

from ._estimator import SOLVERS, LogisticRegression
from ._objective import logistic_loss_grad, loss_targets, penalised_objective

#: model files name the class by this package (as before it held the stages),
#: so that files written by earlier versions load
LogisticRegression.__module__ = __name__

__all__ = ["LogisticRegression", "SOLVERS", "logistic_loss_grad", "loss_targets",
           "penalised_objective"]
