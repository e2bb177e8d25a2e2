"""Linear support vector classification for large data, LIBLINEAR's solvers
on dense or sparse samples: the estimator, its L1-regularised primal solver
(CDN, Yuan et al. 2010) and its Crammer & Singer solver (Keerthi et al. 2008);
the L2 dual coordinate descent (Hsieh et al., ICML 2008) is in
:mod:`~hyperplane.svm._dual_cd`, what LIBLINEAR's models share in
:mod:`~hyperplane.svm._liblinear`."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from sklearn.base import ClassifierMixin

from .._base import predict_from_scores
from .._numerics import check_magnitude
from .._parameters import keep_parameters
from .._validation import (
    CLASS_WEIGHT,
    Options,
    check_is_fitted,
    check_sample_weight_vector,
    check_X_y,
    class_penalties,
    class_weight_vector,
    encode_labels,
    validate_params,
    warn_not_converged,
)
from ._seed_kernels import csr_squared_norms as strict_csr_squared_norms
from ._seed_kernels import squared_norms as strict_squared_norms
from ._crammer_singer_kernels import CSProblem, CSState, cs_active, cs_epochs
from ._dual_cd import LOSSES, dcd_samples, solve_dual
from ._l1_svc_kernels import L1Limits, L1Problem, L1State, cdn_epochs, column_curvatures
from ._liblinear import (EPOCHS_PER_CALL, BaseLiblinear, csr_samples, generator_state,
                         positive_weight_samples)
from ._linear_svc_kernels import WITHIN_TOL



def signed_columns(X, signed, B):
    """The columns of ``(y_i [x_i, B])`` as the CDN epoch reads them: a dense
    ``(d + 1, n)`` array, or CSR rows of the transpose (stored zeros dropped)."""
    if sp.issparse(X):
        columns = X.tocsc()                       # the columns of X as CSR rows of X^T
        columns.eliminate_zeros()
        columns.sort_indices()
        n = X.shape[0]
        bias = np.arange(n) if B != 0.0 else np.arange(0)
        return csr_samples(sp.csr_matrix(
            (np.concatenate([columns.data * signed[columns.indices], float(B) * signed[bias]]),
             np.concatenate([columns.indices, bias]),
             np.concatenate([columns.indptr, [columns.indptr[-1] + bias.shape[0]]])),
            shape=(X.shape[1] + 1, n)))
    Xb = np.hstack([X, np.full((X.shape[0], 1), float(B))])
    return np.ascontiguousarray((signed[:, None] * Xb).T)


def primal_tolerance(tol, signed):
    """LIBLINEAR's tolerance of its L1 primal solvers: ``tol`` scaled by the
    smaller class's share of the samples (``train``: eps min(pos, neg) / l)."""
    positives = int(np.sum(signed > 0))
    return tol * max(min(positives, signed.shape[0] - positives), 1) / signed.shape[0]


def solve_l1_primal(X, signed, C, B, tol, max_iter, rng):
    """CDN with shrinking (Yuan et al. 2010, §4.1.2; LIBLINEAR's
    ``solve_l1r_l2_svc``) for one binary problem with labels ``signed``
    (+-1) and per-sample penalties ``C``. Each epoch visits the active
    weights in a random order; a weight at 0 whose derivatives ``G +- 1``
    straddle 0 by more than the last epoch's largest violation / n is shrunk;
    the solver unshrinks when an epoch's summed violation falls to
    :func:`primal_tolerance` times the first epoch's, and stops when that
    holds for all. Returns ``(w, epochs, converged)``, ``w`` of length d + 1
    (the last entry multiplies B)."""
    Xc = signed_columns(X, signed, B)
    n_columns = X.shape[1] + 1
    problem = L1Problem(Xc, np.ascontiguousarray(C, dtype=np.float64),
                        column_curvatures(Xc, np.ascontiguousarray(C, dtype=np.float64),
                                          n_columns))
    state = L1State(np.zeros(n_columns), np.ones(X.shape[0]),
                    np.arange(n_columns, dtype=np.int64), generator_state(rng))
    bounds = np.array([n_columns, np.inf, -1.0])
    tol = primal_tolerance(float(tol), signed)
    epochs, converged = 0, False
    while epochs < max_iter and not converged:
        ran, event = cdn_epochs(problem, state, bounds,
                                L1Limits(tol, min(EPOCHS_PER_CALL, max_iter - epochs)))
        epochs += ran
        if event == WITHIN_TOL:
            converged = bounds[0] == n_columns
            bounds[0], bounds[1] = n_columns, np.inf      # unshrink and check every weight
    return state.w, epochs, converged


def solve_crammer_singer(X, y_index, n_classes, C, B, tol, max_iter, rng):
    """The sequential dual method for Crammer & Singer's multi-class SVM
    (Keerthi et al., KDD 2008; LIBLINEAR's ``Solver_MCSVM_CS``, with its
    shrinking): epochs of :func:`~._crammer_singer_kernels.cs_epoch` until
    one over all variables has its largest block violation below ``tol``. Returns ``(W, epochs,
    converged)``, ``W`` of shape (d + 1, K) (the last row multiplies B)."""
    if sp.issparse(X):
        rows = csr_samples(X)
        norms = strict_csr_squared_norms(rows)
    else:
        rows = np.ascontiguousarray(X, dtype=np.float64)
        norms = strict_squared_norms(rows)
    problem = CSProblem(rows, y_index.astype(np.int64), np.ascontiguousarray(C, dtype=np.float64),
                        float(B), norms + float(B) ** 2)
    state = CSState(np.zeros((X.shape[0], n_classes)), np.zeros((X.shape[1] + 1, n_classes)),
                    np.arange(X.shape[0], dtype=np.int64), generator_state(rng))
    active = cs_active(X.shape[0], n_classes, float(tol))
    active.y_slot[:] = problem.y
    epochs, converged = 0, False
    while epochs < max_iter and not converged:
        ran, converged = cs_epochs(problem, state, active, float(tol),
                                   min(EPOCHS_PER_CALL, max_iter - epochs))
        epochs += ran
    return state.W, epochs, converged


class LinearSVC(ClassifierMixin, BaseLiblinear):
    """Linear support vector classifier solved in the dual by coordinate
    descent (Hsieh, Chang, Lin, Keerthi & Sundararajan, ICML 2008), the
    solver of LIBLINEAR: ``min_w 1/2 |w|^2 + C sum_i loss(y_i w.x_i)`` with
    the hinge loss (L1-SVM, 周志华 式6.35's soft margin) or the squared hinge
    loss (L2-SVM). One step costs O(nonzeros of x_i), not a kernel row, so
    it suits many samples and sparse data; :class:`SVC` with
    ``kernel="linear"`` solves the book's problem with an unregularised bias
    by SMO.

    The bias is handled as LIBLINEAR does: each sample gets an extra
    feature of value ``intercept_scaling`` whose weight is regularised like
    the others; ``intercept_ = intercept_scaling * w_extra``.

    Parameters
    ----------
    C : float, default=1.0
        Penalty of the loss, > 0.
    loss : {"squared_hinge", "hinge"}, default="squared_hinge"
    penalty : {"l2", "l1"}, default="l2"
        ``"l2"``: ``1/2 |w|^2``, solved in the dual (LIBLINEAR ``-s 1`` /
        ``-s 3``). ``"l1"``: ``|w|_1`` with the squared hinge loss (LIBLINEAR
        ``-s 5``), solved in the primal by coordinate descent with a Newton
        direction and line search (CDN; Yuan, Chang, Hsieh & Lin, JMLR 2010,
        §4.1.2), which leaves many weights exactly 0; ``tol`` then bounds the
        summed violation relative to the first epoch's, scaled by the
        smaller class's share (LIBLINEAR's ``eps``).
    tol : float, default=1e-4
        Stop when the spread of the projected gradient over an epoch is at
        most tol on every variable (LIBLINEAR's ``eps``).
    max_iter : int, default=1000
        Epochs at most; reaching it warns with ConvergenceWarning.
    fit_intercept : bool, default=True
    intercept_scaling : float, default=1.0
        The value of the extra feature that carries the bias, > 0.
    multi_class : {"ovr", "crammer_singer"}, default="ovr"
        ``"ovr"``: one binary problem per class (two classes: one).
        ``"crammer_singer"``: one joint problem over all classes (Crammer &
        Singer, JMLR 2001; LIBLINEAR ``-s 4``), solved by the sequential dual
        method (Keerthi et al., KDD 2008); ``loss`` and ``penalty`` are then
        not used; with two classes ``coef_`` is ``w_1 - w_0`` (the difference
        of the scores, as scikit-learn).
    class_weight : dict, "balanced" or None, default=None
        Multiplies C for the samples of a class (LIBLINEAR's ``-wi``):
        ``{label: weight}``, or ``"balanced"`` for ``n / (n_classes * n_k)``
        (n and n_k: sums of ``sample_weight``, as scikit-learn's LinearSVC).
        With more than two classes, the problem of class k weighs its own
        samples by ``weight_k`` and the rest by 1, as LIBLINEAR's
        one-vs-rest.
    random_state : int, RandomState or None, default=None
        Order of the coordinates in each epoch (None: a fixed order, so that fits
        are reproducible).

    Notes
    -----
    The problem is not invariant to the units of ``X`` (the penalty weighs
    ``|w|^2`` against the loss): features of a magnitude outside
    ``[1e-100, 1e100]`` are refused with an error naming the feature (float64
    would overflow in the squared row norms and return ``w = 0``).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    coef_ : ndarray of shape (1, n_features), or (n_classes, n_features)
        w; with more than two classes one row per class (one-vs-rest, as
        LIBLINEAR).
    intercept_ : ndarray of shape (1,) or (n_classes,)
    n_iter_ : int
        The largest number of epochs of the binary problems.
    converged_ : bool

    Examples
    --------
    >>> import numpy as np
    >>> from hyperplane.svm import LinearSVC
    >>> X = np.array([[3.0, 3.0], [4.0, 3.0], [1.0, 1.0]])
    >>> svc = LinearSVC(C=10.0, loss="hinge", tol=1e-10).fit(X, [1, 1, -1])
    >>> svc.predict([[5.0, 5.0], [0.0, 0.0]]).tolist()
    [1, -1]
    >>> bool(np.all(svc.decision_function(X) * [1, 1, -1] >= 1 - 1e-6))
    True
    """

    _parameter_rules = {
        **BaseLiblinear._parameter_rules, "loss": Options(tuple(LOSSES)),
        "penalty": Options(("l2", "l1")), "multi_class": Options(("ovr", "crammer_singer")),
        "class_weight": CLASS_WEIGHT,
    }

    def __init__(self, *, C=1.0, loss="squared_hinge", penalty="l2", tol=1e-4, max_iter=1000,
                 fit_intercept=True, intercept_scaling=1.0, multi_class="ovr",
                 class_weight=None, random_state=None):
        keep_parameters(self, locals())

    def fit(self, X, y, sample_weight=None):
        """Solve one binary problem (two classes) or one per class
        (one-vs-rest); ``sample_weight`` scales C per sample (a sample of
        weight 0 takes no part, :func:`positive_weight_samples`) and
        ``class_weight`` per class (:func:`class_penalties`)."""
        validate_params(self)
        if self.multi_class == "ovr" and self.penalty == "l1" and self.loss != "squared_hinge":
            raise ValueError("penalty='l1' is solved with loss='squared_hinge' only "
                             f"(LIBLINEAR -s 5); got loss={self.loss!r}")
        X, y = check_X_y(self, X, y, accept_sparse="csr", dtype=np.float64)
        # the L2-regularised problem depends on the units of X and its squared
        # row norms overflow past 1e154: refuse, never a silent w = 0
        check_magnitude(self, X)
        self.classes_, y_index = encode_labels(y)
        sample_weight = check_sample_weight_vector(sample_weight, X.shape[0])
        X, C, y_index, sample_weight = positive_weight_samples(X, self.C * sample_weight,
                                                               y_index, sample_weight)
        class_weight = class_weight_vector(self.class_weight, self.classes_, y_index,
                                           sample_weight)
        B, rng = self._bias_and_generator()
        if self.multi_class == "crammer_singer":
            W, self.n_iter_, self.converged_ = solve_crammer_singer(
                X, y_index, len(self.classes_), C * class_weight[y_index], B, self.tol,
                self.max_iter, rng)
            self.coef_, self.intercept_ = W[:-1].T.copy(), W[-1] * B
            if len(self.classes_) == 2:           # the sign of w_1.x - w_0.x decides
                self.coef_ = self.coef_[1:] - self.coef_[:1]
                self.intercept_ = self.intercept_[1:] - self.intercept_[:1]
            if not self.converged_:
                warn_not_converged(self, self.n_iter_, "increase max_iter, or scale the features")
            return self
        targets = [1] if len(self.classes_) == 2 else range(len(self.classes_))
        samples = dcd_samples(X) if self.penalty == "l2" else None
        weights, epochs, self.converged_ = [], [], True
        for k in targets:
            signed = np.where(y_index == k, 1.0, -1.0)
            C_k = class_penalties(C, class_weight, y_index, k, len(targets) == 1)
            if self.penalty == "l1":
                w, n_epochs, converged = solve_l1_primal(X, signed, C_k, B, self.tol,
                                                         self.max_iter, rng)
            else:
                w, _, n_epochs, converged = solve_dual(samples, signed, C_k, self.loss, B,
                                                       self.tol, self.max_iter, rng)
            weights.append(w)
            epochs.append(n_epochs)
            self.converged_ &= converged
        W = np.array(weights)
        self.coef_ = W[:, :-1]
        self.intercept_ = W[:, -1] * B
        self.n_iter_ = max(epochs)
        if not self.converged_:
            warn_not_converged(self, self.n_iter_, "increase max_iter, or scale the features")
        return self

    def decision_function(self, X):
        """w.x + b: shape (n_samples,) for two classes (positive:
        ``classes_[1]``), else one column per class."""
        scores = self._scores(X)
        return scores[:, 0] if scores.shape[1] == 1 else scores

    def predict(self, X):
        """``classes_[1]`` where w.x + b >= 0; with more classes the class of
        largest score."""
        scores = self.decision_function(X)
        return predict_from_scores(self.classes_, scores)

    def objective(self, X, y):
        """LIBLINEAR's primal objective of the fitted binary model on ``(X, y)``.

        ``1/2 (||w||^2 + w_extra^2) + C sum_i loss(y_i f(x_i))``, where ``w_extra`` is the
        weight of the bias feature (``intercept_ / intercept_scaling``); with
        ``penalty="l1"`` the penalty is ``|w|_1 + |w_extra|``.
        """
        check_is_fitted(self)
        if len(self.classes_) != 2:
            raise ValueError("objective is defined for a binary model")
        signed = np.where(np.asarray(y) == self.classes_[1], 1.0, -1.0)
        margin = np.maximum(0.0, 1.0 - signed * self.decision_function(X))
        extra = self._bias_weight()
        loss = margin ** 2 if self.loss == "squared_hinge" else margin
        if self.penalty == "l1":
            penalty = np.abs(self.coef_[0]).sum() + abs(extra)
        else:
            penalty = 0.5 * (self.coef_[0] @ self.coef_[0] + extra ** 2)
        return float(penalty + self.C * loss.sum())
