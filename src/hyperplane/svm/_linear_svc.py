"""Linear support vector classification for large data: LIBLINEAR's dual
coordinate descent (Hsieh et al., ICML 2008) on dense or sparse samples."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils import check_random_state

from .._base import predict_from_scores
from .._numerics import check_magnitude
from .._parameters import keep_parameters
from .._validation import (
    CLASS_WEIGHT,
    FLAG,
    POSITIVE,
    POSITIVE_INT,
    SEED,
    Options,
    check_is_fitted,
    check_sample_weight_vector,
    check_X,
    check_X_y,
    class_penalties,
    class_weight_vector,
    encode_labels,
    validate_params,
    warn_not_converged,
)
from .._csr_rows import CSRRows
from ._seed_kernels import csr_squared_norms as strict_csr_squared_norms
from ._sparse_rows_kernels import csr_squared_norms_fast
from ._seed_kernels import squared_norms as strict_squared_norms
from ._crammer_singer_kernels import CSProblem, CSState, cs_active, cs_epochs
from ._l1_svc_kernels import L1Limits, L1Problem, L1State, cdn_epochs, column_curvatures
from ._support_kernels import take_csr_rows
from ._linear_svc_kernels import (LINE, SET_SETTLED, VARIABLE, WITHIN_TOL, EpochLimits,
                                  dcd_epochs)

#: loss -> (U_t, D_tt) of the dual as functions of C_t (Hsieh et al. 2008, eq. 4)
LOSSES = {
    "hinge": lambda C: (C, np.zeros_like(C)),
    "squared_hinge": lambda C: (np.full_like(C, np.inf), 0.5 / C),
}


def take_dense_samples(X, rows):
    """Rows ``rows`` of a dense ``X``, contiguous, and their flat row bounds."""
    return np.ascontiguousarray(X[rows]), np.arange(len(rows) + 1) * X.shape[1]


def take_csr_samples(X, rows):
    """Rows ``rows`` of CSR samples ``X`` (:class:`~hyperplane._csr_rows.CSRRows`),
    contiguous, and their ``indptr`` (the compiled gathering of the SVMs'
    support vectors, :func:`~._support_kernels.take_csr_rows`)."""
    data, indices, indptr = take_csr_rows(X.data, X.indices, X.indptr, rows)
    return CSRRows(data, indices, indptr), indptr


#: column numbers of CSR samples are stored in the narrowest of these types that holds them
INDEX_TYPES = (np.uint16, np.int32, np.int64)


def csr_samples(X):
    """CSR samples ``X`` as the compiled epochs read them, with the column
    numbers in the narrowest of :data:`INDEX_TYPES` that holds them: a step
    reads its row's values and columns, and with 16-bit columns a nonzero
    is 10 bytes instead of 12 (the epochs on rows that come from memory are
    that much faster; the steps are the same)."""
    index_type = next(t for t in INDEX_TYPES if X.shape[1] - 1 <= np.iinfo(t).max)
    return CSRRows(X.data.astype(np.float64, copy=False),
                   X.indices.astype(index_type, copy=False),
                   X.indptr.astype(np.int64, copy=False))


class SampleLayout(NamedTuple):
    """How the compiled epoch reads the samples of one storage format."""

    prepare: Callable       # X -> samples as the epoch reads them
    row_bounds: Callable    # X -> positions start:stop of each row in the samples
    take: Callable          # (samples, rows) -> (those rows contiguous, their bounds)
    epochs: Callable        # a bounded run of epochs, see dcd_epochs


#: (is sparse) -> its layout
LAYOUTS = {
    False: SampleLayout(lambda X: np.ascontiguousarray(X, dtype=np.float64),
                  lambda X: np.arange(X.shape[0] + 1) * X.shape[1], take_dense_samples,
                  dcd_epochs),
    True: SampleLayout(csr_samples, lambda X: X.indptr, take_csr_samples, dcd_epochs),
}
#: the working set is compacted when its active variables fall to this fraction
#: of it (and the last epoch shrank few of them, ``_linear_svc_kernels.settled``)
COMPACT_BELOW = 0.5
#: epochs one compiled call runs at most before it returns to the solver's loop
EPOCHS_PER_CALL = 64


def positive_weight_samples(X, C, *per_sample):
    """LIBLINEAR's ``remove_zero_weight`` (its ``train``, before any solver):
    ``(X, C, *per_sample)`` restricted to the samples of penalty ``C_i > 0``,
    which alone take part in the problem (a zero ``C_i`` would put no bound on
    alpha_i, or ``D_ii = 0.5 / C_i`` out of range). The arrays themselves when
    none is dropped; ValueError when all are."""
    kept = np.flatnonzero(C > 0)
    if kept.shape[0] == 0:
        raise ValueError("sample_weight is zero for every sample")
    if kept.shape[0] == C.shape[0]:
        return (X, C, *per_sample)
    return (X[kept], C[kept], *(values[kept] for values in per_sample))


def squared_row_norms(X):
    """|x_t|^2 of every row, dense or sparse."""
    if sp.issparse(X):
        return csr_squared_norms_fast(CSRRows.of(X))
    return np.einsum("ij,ij->i", X, X)


def aligned_records(n):
    """``n`` zeroed :data:`~._linear_svc_kernels.VARIABLE` records in an array
    aligned to a cache line, so that each record fills exactly one."""
    raw = np.zeros(n * VARIABLE.itemsize + LINE, dtype=np.uint8)
    offset = -raw.ctypes.data % LINE
    return raw[offset:offset + n * VARIABLE.itemsize].view(VARIABLE)


def take_records(var, rows):
    """Records ``var[rows]`` in a new cache-line-aligned array (copied as rows
    of 64-bit words, which numpy copies faster than structured records)."""
    out = aligned_records(rows.shape[0])
    words = VARIABLE.itemsize // 8
    np.take(var.view(np.uint64).reshape(-1, words), rows, axis=0,
            out=out.view(np.uint64).reshape(-1, words))
    return out


def dual_variables(y, D, U, QD, row_bounds):
    """The dual variables as the compiled epoch reads them: one record per
    sample (alpha = 0) with its row's positions ``row_bounds[t]:row_bounds[t + 1]``."""
    var = aligned_records(y.shape[0])
    var["QD"], var["y"], var["D"], var["U"] = QD, y, D, U
    var["start"], var["stop"] = row_bounds[:-1], row_bounds[1:]
    return var


class WorkingSet:
    """The variables the epochs visit, kept contiguous in memory.

    Shrinking leaves the active variables scattered over the whole problem,
    so a step on a small active set still waits for memory (its row, its
    record) far from the last one's. Once the active variables are at most
    :data:`COMPACT_BELOW` of the working set and an epoch shrank few of them
    (``_linear_svc_kernels.settled``: a settled set is visited for many
    epochs, which repay the copy), their
    rows and records are copied into a new, contiguous working set (LIBSVM's
    shrinking likewise confines its work to the active set; Fan, Chen & Lin,
    JMLR 2005, section 5). Position ``j`` of the active order still holds
    the same variable (``active`` maps the order to the new storage,
    ``origin`` the storage to the whole problem), so the epochs visit the
    same variables in the same order as without copying; :meth:`restore`
    writes alpha and the order back to the whole problem.
    """

    def __init__(self, layout, samples, var):
        self.layout, self.all_samples, self.all_var = layout, samples, var
        self.all_active = np.arange(var.shape[0], dtype=np.int64)
        self.samples, self.var, self.active, self.origin = samples, var, self.all_active, None

    def restore(self):
        """Make the whole problem the working set again, with the working
        set's alpha and visiting order written back."""
        if self.origin is not None:
            self.all_var["alpha"][self.origin] = self.var["alpha"]
            self.all_active[:self.origin.shape[0]] = self.origin[self.active]
        self.samples, self.var, self.active, self.origin = (
            self.all_samples, self.all_var, self.all_active, None)

    def compact(self, n_active):
        """Copy the first ``n_active`` variables of the active order into a
        contiguous working set, stored by index (the copy then reads memory
        in order) and visited in the active order."""
        self.restore()
        order = np.argsort(self.all_active[:n_active])
        rows = self.all_active[:n_active][order]
        self.samples, row_bounds = self.layout.take(self.all_samples, rows)
        self.var = take_records(self.all_var, rows)
        self.var["start"], self.var["stop"] = row_bounds[:-1], row_bounds[1:]
        self.active = np.empty(n_active, dtype=np.int64)
        self.active[order] = np.arange(n_active)
        self.origin = rows


def generator_state(rng):
    """The compiled shuffle's generator state (one nonzero uint64) drawn from ``rng``."""
    return np.array([rng.randint(1, np.iinfo(np.int64).max)], dtype=np.uint64)


class Samples(NamedTuple):
    """The samples of a fit as the epochs read them, shared by its binary problems."""

    layout: SampleLayout
    rows: object              # what ``layout.prepare`` made of X
    squared_norms: np.ndarray
    row_bounds: np.ndarray
    n_features: int


def dcd_samples(X):
    """:class:`Samples` of a dense or CSR ``X``, prepared once per fit."""
    layout = LAYOUTS[sp.issparse(X)]
    return Samples(layout, layout.prepare(X), squared_row_norms(X), layout.row_bounds(X),
                   X.shape[1])


def solve_dual(samples, y, C, loss, B, tol, max_iter, rng, compact_below=COMPACT_BELOW):
    """Dual coordinate descent with shrinking for one binary problem on
    ``samples`` (:func:`dcd_samples`).

    Each epoch visits the active variables in a random order (drawn in the
    compiled epoch from a generator seeded by ``rng``); a bound
    variable whose gradient points out of the box by more than the last
    epoch's extremes is shrunk. When the projected-gradient spread
    ``M - m`` of an epoch falls to ``tol`` on the active set, every variable
    is made active again, and the solver stops when it holds for all
    (LIBLINEAR's ``solve_l2r_l1l2_svc``). The epochs run on a
    :class:`WorkingSet` compacted when its active part falls to
    ``compact_below`` of it (0: never), which changes where the variables are
    stored, not the steps. One compiled call runs up to
    :data:`EPOCHS_PER_CALL` epochs and returns early when the solver must
    unshrink, stop or compact, which this loop does. Returns
    ``(w, alpha, epochs, converged)`` with ``w`` of length d + 1 (the last
    entry multiplies B).
    """
    n = y.shape[0]
    layout = samples.layout
    U, D = LOSSES[loss](C)
    work = WorkingSet(layout, samples.rows, dual_variables(
        y, D, U, samples.squared_norms + B * B + D, samples.row_bounds))
    w = np.zeros(samples.n_features + 1)
    bounds = np.array([n, np.inf, -np.inf])
    state = generator_state(rng)
    epochs, converged, B = 0, False, float(B)
    while epochs < max_iter and not converged:
        limits = EpochLimits(float(tol), min(EPOCHS_PER_CALL, max_iter - epochs),
                             float(compact_below))
        ran, event = layout.epochs(work.samples, work.var, B, w, work.active, bounds, state,
                                   limits)
        epochs += ran
        if event == WITHIN_TOL:
            converged = work.origin is None and bounds[0] == n
            work.restore()                          # unshrink and check every variable
            bounds[:] = n, np.inf, -np.inf
        elif event == SET_SETTLED:
            work.compact(int(bounds[0]))
        # else GO_ON: the call ran its epochs; the next one goes on from bounds
    work.restore()
    return w, work.all_var["alpha"].copy(), epochs, converged


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


class BaseLiblinear(BaseEstimator):
    """What LIBLINEAR's linear models share (:class:`LinearSVC`,
    :class:`~._linear_svr.LinearSVR`): the parameters C, tol, max_iter, the
    bias feature of value B = ``intercept_scaling`` (LIBLINEAR's ``-B``,
    regularised like the other weights; ``fit_intercept=False``: B = 0) and
    the order of the coordinates; sparse input; scores w.x + b."""

    _parameter_rules = {
        "C": POSITIVE, "tol": POSITIVE, "max_iter": POSITIVE_INT, "fit_intercept": FLAG,
        "intercept_scaling": POSITIVE, "random_state": SEED,
    }

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags

    def _bias_and_generator(self):
        """``(B, rng)``: the bias feature's value and the generator of the
        epochs' orders (seed 0 for ``random_state=None``: reproducible fits)."""
        B = float(self.intercept_scaling) if self.fit_intercept else 0.0
        return B, check_random_state(0 if self.random_state is None else self.random_state)

    def _bias_weight(self):
        """w_extra, the fitted weight of the bias feature (``intercept_ / B``),
        which the primal objective regularises; 0 without it."""
        return self.intercept_[0] / self.intercept_scaling if self.fit_intercept else 0.0

    def _scores(self, X):
        """w.x + b of the rows of ``X`` (one column per row of a 2-d ``coef_``)."""
        check_is_fitted(self)
        X = check_X(self, X, reset=False, accept_sparse="csr")
        return np.asarray(X @ self.coef_.T) + self.intercept_


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
