"""Logistic regression, binary and multinomial (Bishop, PRML §4.3.2 and
§4.3.4), with scikit-learn's L2 objective so that coefficients are comparable.

Objective: ``½‖W‖² + C · Σ_n ℓ_n`` with the log-loss
``ℓ_n = log(1 + e^{z_n}) − y_n z_n`` (two classes, ``z_n = w·x_n + b``) or
``ℓ_n = log Σ_k e^{z_nk} − z_{n,y_n}`` (K classes); the intercept is not
penalised. Three solvers minimise it, all stopping when the largest entry of
the gradient of the equivalent normalised objective
``(1/N) Σ ℓ_n + ‖W‖² / (2CN)`` is at most ``tol`` (scikit-learn's meaning):

* ``"newton"``: Newton's method on the explicit Hessian, formed by matrix
  products on nested row subsamples (:mod:`._newton_problem`), for dense
  data with few parameters;
* ``"tron"``: the trust-region Newton method of LIBLINEAR (Lin, Weng &
  Keerthi 2008; :mod:`hyperplane._optimize._tron`) on compiled Hessian-vector products
  (:mod:`._tron_problem`), for data in memory, dense or sparse;
* ``"lbfgs"``: L-BFGS on the summed loss and gradient of
  :mod:`._objective` (over the rows in memory, or added over Dask chunks).
"""

from __future__ import annotations

import contextlib

import numpy as np
import scipy.sparse
from scipy.special import expit, softmax
from sklearn.base import BaseEstimator, ClassifierMixin

from ..._base import LinearDecisionMixin, dask_classification_data
from ..._numerics import check_magnitude
from ..._parameters import N_JOBS, keep_parameters
from ..._progress import progress
from ..._threads import one_blas_thread, uses_threads
from ..._validation import (
    CLASS_WEIGHT,
    FLAG,
    NON_NEGATIVE,
    POSITIVE,
    POSITIVE_INT,
    VERBOSE,
    Options,
    check_is_fitted,
    check_sample_weight_vector,
    check_X_y,
    class_weight_vector,
    encode_labels,
    is_dask_collection,
    validate_params,
    warn_not_converged,
)
from ...distributed import add_parts, predict_lazy
from ._l1 import GLMNETOptions, fit_one_vs_rest
from ._newton_problem import (
    NEWTON_MAX_HESSIAN_WORK,
    NestedNewtonProblem,
    hessian_work,
    minimize_nested,
)
from ._tron_problem import LogisticProblem
from ._layout import canonical_csr
from ._objective import (
    csr_loss_grad,
    logistic_loss_grad,
    loss_targets,
    penalised_objective,
    sample_weight_sum,
    without_intercept,
)
from ..._optimize import minimize_lbfgs, minimize_tron

#: the values of ``solver=`` (their methods: :data:`SOLVERS`)
SOLVER_NAMES = ("auto", "newton", "tron", "lbfgs")


#: parameter vectors up to this length never woke BLAS threads in the solvers'
#: vector algebra (measured: 2,000 and 8,000 parameters, the same CPU time with and
#: without a limit; 20,000: 3.7x the CPU time without)
BLAS_THREADED_PARAMETERS = 10_000


def solver_blas_limit(n_parameters):
    """One BLAS thread while TRON or L-BFGS runs on ``n_parameters`` weights.

    Their vector algebra (dot products, scipy's L-BFGS-B updates) is too short
    for BLAS threads, whose spinning between calls cost 2.4x (TRON) to 7x
    (L-BFGS on 2 threads) the CPU time at 200k × 20k sparse
    (benchmarks/RESULTS.md); the passes over the data use numba's threads.
    No limit for at most :data:`BLAS_THREADED_PARAMETERS` weights."""
    if n_parameters <= BLAS_THREADED_PARAMETERS:
        return contextlib.nullcontext()
    return one_blas_thread()


class LogisticRegression(LinearDecisionMixin, ClassifierMixin, BaseEstimator):
    """Regularised logistic regression: L2 (binary and multinomial) or L1.

    Minimises ``½‖W‖² + C · Σ_n ℓ_n`` (log-loss; intercept not penalised),
    the objective of :class:`sklearn.linear_model.LogisticRegression`, so
    coefficients agree; with ``penalty="l1"``, ``‖w‖₁ + C · Σ_n ℓ_n`` by
    newGLMNET (Yuan, Ho & Lin 2012; LIBLINEAR's ``-s 6``), one-vs-rest for
    more than two classes as LIBLINEAR, many coefficients exactly zero. Two classes: ``P(classes_[1] | x) = σ(w·x + b)``;
    more classes: the softmax of ``W x + b`` (natively multinomial, not
    one-vs-rest). ``X`` may be a ``scipy.sparse`` matrix (same model as the
    dense fit). The penalised model depends on the units of ``X``; features
    of a magnitude beyond 1e±100 are refused with an error naming the scale
    (float64 would overflow or underflow in ``x²``).

    Parameters
    ----------
    penalty : {"l2", "l1"}, default="l2"
        ``"l1"``: the L1 norm of the weights (not the intercept), solved by
        newGLMNET whatever ``solver`` says (leave it ``"auto"``): Newton
        iterations whose direction is found by coordinate descent on the
        quadratic model, with LIBLINEAR's shrinking, and a backtracking line
        search; ``tol`` is then LIBLINEAR's test, the L1 norm of the
        minimum-norm subgradient at most ``tol`` times its value at ``w = 0``;
        the coordinates are visited in an order drawn from a fixed seed. In
        memory only (dense or sparse).
    C : float, default=1.0
        Inverse regularisation strength (> 0).
    solver : {"auto", "newton", "tron", "lbfgs"}, default="auto"
        ``"newton"``: Newton's method with a line search on the explicit
        ``n_params × n_params`` Hessian (dense ``X`` only), started from the
        minimiser on nested row subsamples so that only a few iterations read
        all rows (each one pass). ``"tron"``: trust-region Newton with preconditioned conjugate
        gradients on compiled Hessian-vector products (LIBLINEAR's solver,
        Lin, Weng & Keerthi 2008), binary and multinomial; each iteration is
        one gradient pass plus a few Hessian-vector passes over ``X``, and
        few iterations are needed. ``"lbfgs"``: L-BFGS over a compiled
        loss-and-gradient pass (on sparse ``X`` one read of the nonzeros per
        evaluation). ``"auto"``: ``"newton"`` for dense ``X`` whose
        Hessian is small (``(n_features + 1)² ≤ 8000`` for two classes, i.e. up to
        88 features; ``K(K − 1)/2`` times that for K classes), ``"lbfgs"`` for
        other dense ``X``, ``"tron"`` for sparse ``X`` (``"lbfgs"`` for more
        than two classes with ``tol < 1e-9``) and ``"lbfgs"`` for Dask
        collections (whose fit only reduces loss-and-gradient sums over chunks).
    max_iter : int, default=100
        Maximum number of iterations (Newton or L-BFGS); reaching it emits a
        ``ConvergenceWarning`` and sets ``converged_ = False``.
    tol : float, default=1e-6
        Stop when every entry of the gradient of the normalised objective
        ``(1/N)Σℓ_n + ‖W‖²/(2CN)`` is at most ``tol`` in absolute value.
    verbose : bool, default=False
        Show a progress bar of the iterations (L-BFGS: of the loss/gradient
        evaluations, each one a pass over the data or over the Dask chunks)
        with the current objective.
    fit_intercept : bool, default=True
        Fit the unpenalised intercept ``b``; ``False`` fixes ``b = 0``
        (scikit-learn's meaning), minimised by L-BFGS over ``W`` alone
        (``solver="auto"`` or ``"lbfgs"``; the Newton solvers fit ``b``).
    n_jobs : int or None, default=None
        Threads of ``fit`` on data in memory (numba's and BLAS's, for the
        duration of the call): ``None`` uses numba's thread count less the
        cores other processes keep busy when the fit starts, ``-1`` every
        core, ``k`` ``k`` threads. The weights do not depend on it.
    class_weight : dict, "balanced" or None, default=None
        Weight ``w_k`` of every row of class k in the loss (scikit-learn's
        meaning; ``"balanced"``: ``n / (K n_k)``, with ``sample_weight``
        the rows' summed weights for ``n`` and ``n_k``): the rescaling of 周志华
        §3.6 for imbalanced classes. The row weight is ``s_n = w_{y_n}``
        times ``sample_weight``.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    class_weight_ : ndarray of shape (n_classes,)
        The weight of each class (ones without ``class_weight``).
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
    intercept_ : ndarray of shape (1,) or (n_classes,)
        Multinomial intercepts are centred to sum to 0 (the softmax does not
        change; the unpenalised intercepts are otherwise not unique); with
        ``penalty="l1"`` each one-vs-rest problem's own intercept.
    n_iter_ : int
        Iterations of the solver: Newton or TRON steps on the full data,
        L-BFGS iterations, or newGLMNET's Newton iterations (the most of
        its one-vs-rest problems).
    converged_ : bool
        Whether the stopping test on ``tol`` held when the solver stopped.
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    Examples
    --------
    >>> from hyperplane.datasets import load_watermelon
    >>> from hyperplane.linear import LogisticRegression
    >>> X, y = load_watermelon("3.0alpha")
    >>> clf = LogisticRegression(C=100.0).fit(X, y)
    >>> clf.predict_proba(X).shape, clf.converged_
    ((17, 2), True)
    """

    def __init__(self, *, penalty="l2", C=1.0, solver="auto", max_iter=100, tol=1e-6,
                 verbose=False, n_jobs=None, fit_intercept=True, class_weight=None):
        keep_parameters(self, locals())

    _parameter_rules = {"penalty": Options(("l2", "l1")), "C": POSITIVE,
                        "solver": Options(tuple(SOLVER_NAMES)),
                        "max_iter": POSITIVE_INT, "tol": NON_NEGATIVE, "verbose": VERBOSE,
                        "n_jobs": N_JOBS, "fit_intercept": FLAG, "class_weight": CLASS_WEIGHT}

    @uses_threads
    def fit(self, X, y, sample_weight=None):
        """Minimise the penalised log-loss from ``W = 0`` with ``solver``.

        With ``sample_weight`` (and ``class_weight``) the loss is
        ``Σ_n s_n ℓ_n``, ``s_n = w_{y_n} · sample_weight_n``: an integer
        weight counts a row that many times, a zero weight leaves it out
        (scikit-learn's weighted objective); ``tol`` then applies to the
        gradient of ``(Σ s_n ℓ_n + ‖W‖²/(2C)) / Σ s_n``.

        A ``dask.array``/``dask.dataframe`` ``X`` is fitted on the Dask cluster
        by L-BFGS: every loss/gradient evaluation is a sum of per-chunk
        reductions (without weights).
        """
        validate_params(self)
        if self.penalty == "l1" and self.solver != "auto":
            raise ValueError(f"penalty='l1' is solved by newGLMNET; solver={self.solver!r} "
                             "solves the L2 problem: leave solver='auto'")
        if self.penalty == "l1" and is_dask_collection(X):
            raise ValueError("penalty='l1' needs X in memory (newGLMNET reads columns); a Dask "
                             "collection is fitted with penalty='l2'")
        if not self.fit_intercept and self.solver in ("tron", "newton"):
            raise ValueError(f"solver={self.solver!r} fits the intercept; fit_intercept=False "
                             "is fitted with solver='lbfgs' (or 'auto')")
        if is_dask_collection(X):
            if sample_weight is not None or self.class_weight is not None:
                raise ValueError("sample_weight and class_weight need X in memory; a Dask "
                                 "collection is fitted without weights")
            if self.solver in ("tron", "newton"):
                raise ValueError(f"solver={self.solver!r} needs X in memory; a Dask collection is "
                                 "fitted with solver='lbfgs' (or 'auto')")
            chunks = dask_classification_data(self, X, y)

            def summed_over_chunks(coef, intercept):
                return chunks.reduce(logistic_loss_grad, add_parts, coef, intercept)

            return self._fit_loss_grad(summed_over_chunks, chunks.n_samples, chunks.n_features)
        X, y = check_X_y(self, X, y, accept_sparse="csr")
        check_magnitude(self, X)
        self.classes_, y_index = encode_labels(y)
        weight = None if sample_weight is None else \
            check_sample_weight_vector(sample_weight, X.shape[0])
        self.class_weight_ = class_weight_vector(self.class_weight, self.classes_, y_index,
                                                 weight)
        if weight is not None or self.class_weight is not None:
            weight = (check_sample_weight_vector(weight, X.shape[0])
                      * self.class_weight_[y_index])
            if not np.any(weight > 0):
                raise ValueError("sample_weight (or class_weight) is zero for every row")
        if self.penalty == "l1":
            return self._fit_l1(X, y_index, weight)
        return SOLVERS[self.solver if self.fit_intercept else "lbfgs"](self, X, y_index, weight)

    def _fit_l1(self, X, y_index, weight=None):
        """newGLMNET, one problem for two classes (``classes_[1]`` positive),
        one per class against the rest otherwise; row n's loss weighs
        ``C s_n`` (LIBLINEAR's per-instance C)."""
        n_classes = self.classes_.shape[0]
        columns = [1] if n_classes == 2 else range(n_classes)
        targets = np.column_stack([np.where(y_index == k, 1.0, -1.0) for k in columns])
        penalties = np.full(X.shape[0], float(self.C)) if weight is None else \
            float(self.C) * weight
        fit = fit_one_vs_rest(X, targets, penalties, bool(self.fit_intercept),
                              GLMNETOptions(tol=float(self.tol), max_iter=int(self.max_iter)),
                              seed=0)
        self.coef_, self.intercept_ = fit.coef, fit.intercept
        self.n_iter_, self.converged_ = fit.n_iter, fit.converged
        if not self.converged_:
            warn_not_converged(self, self.n_iter_,
                               "increase max_iter, loosen tol or standardise X")
        return self

    def _fit_lbfgs(self, X, y_index, weight=None):
        """L-BFGS over :func:`logistic_loss_grad` on the data in memory (over
        sparse rows: :func:`csr_loss_grad` on targets converted once)."""
        if scipy.sparse.issparse(X):
            X, y = canonical_csr(X), loss_targets(y_index, self.classes_.shape[0] == 2)

            def loss_grad(coef, intercept):
                return csr_loss_grad(X, y, coef, intercept, weight)
        else:
            X = np.ascontiguousarray(X)

            def loss_grad(coef, intercept):
                return logistic_loss_grad(X, y_index, coef, intercept, weight)

        return self._fit_loss_grad(loss_grad, sample_weight_sum(X.shape[0], weight), X.shape[1])

    def _fit_tron(self, X, y_index, weight=None):
        """Trust-region Newton from ``W = 0`` on the data in memory."""
        problem = LogisticProblem(X, y_index, self.classes_.shape[0], float(self.C), weight)
        with solver_blas_limit(problem.shape[0] * problem.shape[1]):
            return self._fit_second_order(minimize_tron, problem, X, lambda point: point.f,
                                          sample_weight_sum(X.shape[0], weight))

    def _fit_newton(self, X, y_index, weight=None):
        """Newton's method on the Hessian of a row subsample, dense ``X`` in memory."""
        if scipy.sparse.issparse(X):
            raise ValueError("solver='newton' needs dense X (it forms the "
                             "(n_features + 1)² Hessian); use solver='tron' for sparse X")
        problem = NestedNewtonProblem(np.ascontiguousarray(X), y_index, self.classes_.shape[0],
                                      float(self.C), logistic_loss_grad, weight)
        # the Hessian's products (at most a few thousand columns' worth of work per
        # row block) gain nothing from BLAS threads, whose spinning on a busy machine
        # cost 6x the CPU time at 200k x 50 on 2 threads (benchmarks/RESULTS.md)
        with one_blas_thread():
            return self._fit_second_order(minimize_nested, problem, X, lambda f: f,
                                          sample_weight_sum(X.shape[0], weight))

    def _fit_second_order(self, minimize, problem, X, objective_of, n_samples):
        """Run ``minimize`` (TRON or Newton) from ``W = 0`` on ``problem`` and
        set the fitted attributes; ``objective_of`` reads ``f`` from what the
        solver reports after each step; ``n_samples``: the rows' total weight."""
        scale = float(self.C) * n_samples      # f / scale: the normalised objective
        bound = float(self.tol) * scale
        with progress(self.max_iter, "Newton iterations", enabled=bool(self.verbose)) as bar:
            theta, self.n_iter_, self.converged_ = minimize(
                problem, np.zeros(problem.shape[0] * problem.shape[1]),
                max_iter=self.max_iter,
                converged=lambda grad: np.max(np.abs(grad)) <= bound,
                on_step=lambda step: bar.advance(1, objective=objective_of(step) / scale))
        W = theta.reshape(problem.shape)
        self._set_weights(np.concatenate([W[:, :-1].ravel(), W[:, -1]]),
                          (problem.shape[0], X.shape[1]))
        if not self.converged_:
            warn_not_converged(self, self.n_iter_,
                               "increase max_iter, loosen tol or standardise X")
        return self

    def _fit_loss_grad(self, loss_grad, n_samples, n_features):
        """L-BFGS from ``W = 0`` on a summed loss/gradient callable
        (``classes_`` already set): :func:`logistic_loss_grad` of the whole
        data, or on Dask its sum over the chunks (each evaluation one round)."""
        n_rows = 1 if self.classes_.shape[0] == 2 else self.classes_.shape[0]
        shape = (n_rows, n_features)
        objective = penalised_objective(loss_grad, float(self.C), n_samples, shape)
        if not self.fit_intercept:
            objective = without_intercept(objective, n_rows)
        with solver_blas_limit(n_rows * (n_features + 1)), \
                progress(None, "L-BFGS evaluations", enabled=bool(self.verbose)) as bar:

            def reported(theta):
                f, grad = objective(theta)
                bar.advance(1, objective=float(f))
                return f, grad

            theta, self.n_iter_, self.converged_ = minimize_lbfgs(
                reported, np.zeros(n_rows * (n_features + int(self.fit_intercept))),
                max_iter=self.max_iter, tol=self.tol)
        if not self.fit_intercept:
            theta = np.concatenate([theta, np.zeros(n_rows)])
        self._set_weights(theta, shape)
        if not self.converged_:
            warn_not_converged(self, self.n_iter_,
                               "increase max_iter, loosen tol or standardise X")
        return self

    def _set_weights(self, theta, shape):
        size = shape[0] * shape[1]
        self.coef_ = theta[:size].reshape(shape)
        self.intercept_ = theta[size:].copy()
        if shape[0] > 1:
            self.intercept_ -= self.intercept_.mean()

    def predict_proba(self, X):
        """Class probabilities: ``σ(z)`` for two classes, ``softmax(z)`` for more.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        check_is_fitted(self)
        if is_dask_collection(X):
            return predict_lazy(self.predict_proba, X, ndim_out=2)
        scores = self.decision_function(X)
        if scores.ndim == 1:
            p = expit(scores)
            return np.column_stack([1.0 - p, p])
        if self.penalty == "l1":   # one-vs-rest: each class's σ, normalised (LIBLINEAR's)
            p = expit(scores)
            return p / p.sum(axis=1, keepdims=True)
        return softmax(scores, axis=1)

    def predict_log_proba(self, X):
        """Logarithm of :meth:`predict_proba`."""
        return np.log(self.predict_proba(X))

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags


#: the smallest tol for which ``solver="auto"`` runs TRON on sparse multinomial data
#: (below it TRON cannot always verify the tolerance along the softmax's flat
#: intercept direction)
TRON_MULTINOMIAL_MIN_TOL = 1e-9


#: solver= -> method(estimator, X, y_index, weight) fitting data in memory
def _fit_auto(estimator, X, y_index, weight=None):
    """Newton on the explicit Hessian for dense ``X`` whose Hessian costs at
    most :data:`NEWTON_MAX_HESSIAN_WORK` multiply-adds per row, else L-BFGS
    (measured faster than TRON on dense data); TRON for sparse ``X``
    (measured faster than L-BFGS on five of six sparse sets, binary and
    3-class, benchmarks/RESULTS.md), except multinomial fits with
    ``tol`` below :data:`TRON_MULTINOMIAL_MIN_TOL`, which L-BFGS does."""
    n_classes = estimator.classes_.shape[0]
    if not scipy.sparse.issparse(X):
        if hessian_work(n_classes, X.shape[1]) <= NEWTON_MAX_HESSIAN_WORK:
            return estimator._fit_newton(X, y_index, weight)
        return estimator._fit_lbfgs(X, y_index, weight)
    if n_classes == 2 or estimator.tol >= TRON_MULTINOMIAL_MIN_TOL:
        return estimator._fit_tron(X, y_index, weight)
    return estimator._fit_lbfgs(X, y_index, weight)


SOLVERS = {"auto": _fit_auto, "newton": LogisticRegression._fit_newton,
           "tron": LogisticRegression._fit_tron, "lbfgs": LogisticRegression._fit_lbfgs}


__all__ = ["LogisticRegression", "SOLVERS", "logistic_loss_grad", "penalised_objective",
           "minimize_lbfgs"]
