"""Logistic regression laid out by stage (Bishop, PRML §4.3.2-4.3.4; Yuan,
Ho & Lin 2012 for the L1 penalty).

* :mod:`._estimator`: :class:`LogisticRegression` (parameters, input,
  weights, the choice of solver, fitted attributes) and the objective it
  hands the solvers (:func:`logistic_loss_grad`, :func:`penalised_objective`);
* :mod:`._rules_kernels`: the rules of one row (loss, residual, curvature,
  softmax), each once, for every pass;
* :mod:`._layout`: how a pass splits the rows into blocks and the columns of
  sparse rows into chunks;
* :mod:`._lbfgs_kernels`: the loss-and-gradient pass that L-BFGS calls, over
  dense or CSR rows;
* :mod:`._tron_problem`, :mod:`._tron_dense_kernels`,
  :mod:`._tron_sparse_kernels`: the objective as a problem for TRON, its
  gradient and Hessian-vector passes over dense rows and over CSR rows and
  their columns;
* :mod:`._newton_problem`: the objective with its explicit Hessian for
  Newton's method on nested row subsamples;
* :mod:`._l1`, :mod:`._l1_kernels`: the L1 problem by newGLMNET.

The solvers themselves (TRON, Newton, L-BFGS) know no model:
:mod:`hyperplane._optimize`.
"""

from ._estimator import (
    SOLVERS,
    LogisticRegression,
    logistic_loss_grad,
    loss_targets,
    penalised_objective,
)

#: model files name the class by this package (as before it held the stages),
#: so that files written by earlier versions load
LogisticRegression.__module__ = __name__

__all__ = ["LogisticRegression", "SOLVERS", "logistic_loss_grad", "loss_targets",
           "penalised_objective"]
