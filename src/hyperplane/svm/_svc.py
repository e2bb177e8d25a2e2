"""Support vector classification: hard and soft margin (周志华 6.1-6.4,
李航 7.1-7.3) solved by SMO."""

from __future__ import annotations

from itertools import combinations

import numpy as np
from sklearn.base import ClassifierMixin
from sklearn.utils.metaestimators import available_if

from .._base import predict_from_scores
from .._threads import uses_threads
from .._parameters import Options
from .._validation import (
    CLASS_WEIGHT,
    FLAG,
    Real,
    check_is_fitted,
    check_sample_weight_vector,
    class_weight_vector,
    encode_labels,
)
from ..kernels import Linear
from .._parameters import keep_parameters
from ._base import BLOCK_ENTRIES, BaseSVM, kept_rows
from ._precomputed import KERNEL_OR_PRECOMPUTED
from ._probability import (
    FoldShuffle,
    cross_validated_decisions,
    pairwise_probabilities,
    platt_sigmoid,
)
from ._separable import MAX_GRAM_ROWS, separable

#: linear-kernel problems of at least this many samples start SMO from a seed
SEED_MIN_SAMPLES = 1000
#: projected-gradient spread at which the seed's coordinate descent stops (LIBLINEAR's default)
SEED_EPS = 0.1


def ovr_from_pairs(scores, pairs, n_classes):
    """One-vs-one scores (positive: the pair's second class) to one column per
    class: votes plus the summed confidences squashed into (-1/3, 1/3), as
    LIBSVM/scikit-learn's ``decision_function_shape="ovr"``."""
    votes = np.zeros((scores.shape[0], n_classes))
    confidence = np.zeros_like(votes)
    for k, (a, b) in enumerate(pairs):
        s = scores[:, k]
        votes[:, b] += s >= 0
        votes[:, a] += s < 0
        confidence[:, b] += s
        confidence[:, a] -= s
    return votes + confidence / (3 * (np.abs(confidence) + 1))


class BaseOneVsOneSVC(ClassifierMixin, BaseSVM):
    """What :class:`SVC` and :class:`NuSVC` share: one dual per pair of
    classes (one-vs-one, Chang & Lin 2011 §7), the expansion, the
    decision-function shapes and LIBSVM's probability model. A subclass
    solves one pair's dual in :meth:`_solve_pair`."""

    _parameter_rules = {**BaseSVM._parameter_rules, "kernel": KERNEL_OR_PRECOMPUTED,
                        "class_weight": CLASS_WEIGHT, "probability": FLAG,
                        "decision_function_shape": Options(("ovr", "ovo"))}

    def _solve_pair(self, kernel, X, y, weight, index=None, record=True):
        """The dual of one pair (labels ``y`` = +-1, per-sample weights):
        ``(solution, trace)`` with ``solution.alpha`` the multipliers of
        f(x) = sum alpha_i y_i k(x_i, x) + b and ``solution.b``."""
        raise NotImplementedError

    def _check_pairs(self, kernel, X, y_index, weight):
        """Checks of the pair problems before any is solved (none here)."""

    @uses_threads
    def fit(self, X, y, sample_weight=None):
        """Solve one dual per pair of classes (:meth:`_solve_pair`).

        ``sample_weight`` scales each sample's bound per sample (with the
        class weights w, see ``class_weight``); samples of weight 0 are left
        out. With ``probability=True`` each pair's sigmoid is fitted after
        its problem is solved (:meth:`_fit_probability`).
        """
        self._check_params()
        X, y = self._check_X_y(X, y)
        self.classes_, y_index = encode_labels(y)
        self.class_weight_ = class_weight_vector(self.class_weight, self.classes_, y_index)
        weight = (check_sample_weight_vector(sample_weight, X.shape[0])
                  * self.class_weight_[y_index])
        kernel, samples = self._kernel_and_samples(X)
        n_classes = len(self.classes_)
        self.pairs_ = list(combinations(range(n_classes), 2))
        self._check_pairs(kernel, samples, y_index, weight)
        alpha = np.zeros((len(self.pairs_), X.shape[0]))
        signed = np.zeros_like(alpha)
        intercept, n_iter, objective, converged, traces = [], [], [], True, []
        for k, (a, b) in enumerate(self.pairs_):
            rows = np.flatnonzero(((y_index == a) | (y_index == b)) & (weight > 0))
            y_pair = np.where(y_index[rows] == b, 1.0, -1.0)
            if np.unique(y_pair).size < 2:
                raise ValueError("sample_weight (or class_weight) is zero for every "
                                 "sample of class "
                                 f"{self.classes_[a if np.all(y_pair > 0) else b]!r}")
            X_pair = kept_rows(samples, rows)
            solution, trace = self._solve_pair(kernel, X_pair, y_pair, weight[rows], index=rows)
            if trace is not None:
                traces.append(trace.frame(**({"pair": k} if n_classes > 2 else {})))
            alpha[k, rows] = solution.alpha
            signed[k, rows] = solution.alpha * y_pair
            intercept.append(solution.b)
            n_iter.append(solution.n_iter)
            objective.append(solution.objective)
            converged &= solution.converged
        if self.probability:
            self._fit_probability(kernel, samples, y_index, weight)
        elif hasattr(self, "probA_"):      # left by an earlier fit with probability=True
            del self.probA_, self.probB_
        support = np.flatnonzero(np.any(alpha > 0, axis=0))
        self._set_expansion(samples, signed, intercept, support)
        self.n_support_ = np.bincount(y_index[support], minlength=n_classes).astype(np.int32)
        self.converged_ = converged
        self._set_trace(traces)
        if n_classes == 2:
            self.alpha_ = alpha[0]
            self.n_iter_ = n_iter[0]
            self.objective_ = objective[0]
        else:
            self.alpha_ = alpha
            self.n_iter_ = np.asarray(n_iter)
            self.objective_ = np.asarray(objective)
        return self

    def _fit_probability(self, kernel, X, y_index, weight):
        """``probA_``, ``probB_``: for each pair (a, b), LIBSVM's
        ``svm_binary_svc_probability`` on the pair's problem with its rows as
        LIBSVM orders them (class a's, then class b's, each in input order;
        weight-0 rows left out): 5-fold cross-validated decision values
        (:func:`._probability.cross_validated_decisions`, each fold's dual
        solved by :meth:`_solve_pair` with the same weights), then :func:`platt_sigmoid` with
        class a positive, on LIBSVM's decision values (positive: class a)."""
        shuffle = FoldShuffle(0 if self.random_state is None else self.random_state)
        prob_a, prob_b = [], []
        for a, b in self.pairs_:
            rows = np.concatenate([np.flatnonzero((y_index == c) & (weight > 0))
                                   for c in (a, b)])
            first = y_index[rows] == a
            y_pair = np.where(first, -1.0, 1.0)          # this class's sign: +1 for b
            from ._smo import kernel_dot
            w = weight[rows]

            def fit_predict(train, test, rows=rows, y_pair=y_pair, w=w):
                X_train = X[rows[train]]
                solution, _ = self._solve_pair(kernel, X_train, y_pair[train], w[train],
                                               record=False)
                coef = solution.alpha * y_pair[train]
                keep = np.flatnonzero(coef)
                scores = kernel_dot(kernel, X[rows[test]], X_train[keep], coef[keep],
                                    BLOCK_ENTRIES) + solution.b
                return -scores                                # LIBSVM's: positive for a

            decisions = cross_validated_decisions(fit_predict, first, shuffle)
            sigmoid = platt_sigmoid(decisions, first)
            prob_a.append(sigmoid.A)
            prob_b.append(sigmoid.B)
        self.probA_ = np.asarray(prob_a)
        self.probB_ = np.asarray(prob_b)

    def decision_function(self, X):
        """f(x) = sum a_i y_i k(x_i, x) + b: shape (n_samples,) for two
        classes (positive: ``classes_[1]``); for more, with
        ``decision_function_shape="ovr"`` one column per class (one-vs-one
        votes plus squashed confidences), with ``"ovo"`` one column per pair
        of ``pairs_`` (LIBSVM's sign: positive for the pair's first class).

        Examples
        --------
        >>> import numpy as np
        >>> from hyperplane.svm import SVC
        >>> X = np.array([[0.0], [1.0], [5.0], [6.0], [10.0], [11.0]])
        >>> svc = SVC(kernel="linear", decision_function_shape="ovo").fit(X, [0, 0, 1, 1, 2, 2])
        >>> svc.pairs_, svc.decision_function([[0.5]]).shape
        ([(0, 1), (0, 2), (1, 2)], (1, 3))
        >>> bool(np.all(svc.decision_function([[0.5]])[0, :2] > 0))
        True
        """
        scores = self._expansion(X)
        if len(self.classes_) == 2:
            return scores[:, 0]
        if self.decision_function_shape == "ovo":
            return -scores
        return ovr_from_pairs(scores, self.pairs_, len(self.classes_))

    def _has_probability(self):
        if not self.probability:
            raise AttributeError("predict_proba is available only with probability=True")
        return True

    @available_if(_has_probability)
    def predict_proba(self, X):
        """Class probabilities, as LIBSVM's ``svm_predict_probability``: each
        pair's sigmoid (``probA_``, ``probB_``) on its decision value gives
        r_ab = P(a | a or b), clipped to [1e-7, 1 - 1e-7]; two classes:
        (r_01, r_10); more: pairwise coupling (Wu, Lin & Weng 2004, method
        2). Columns follow ``classes_``. The class of highest probability
        need not be ``predict``'s (which votes on the decision values).

        Examples
        --------
        >>> import numpy as np
        >>> from hyperplane.svm import SVC
        >>> X = np.r_[np.random.RandomState(0).normal(size=(20, 2)) - 1,
        ...           np.random.RandomState(1).normal(size=(20, 2)) + 1]
        >>> svc = SVC(probability=True, random_state=0).fit(X, [0] * 20 + [1] * 20)
        >>> svc.predict_proba([[-2, -2], [2, 2]]).round(2).tolist()
        [[0.96, 0.04], [0.13, 0.87]]
        """
        check_is_fitted(self, "probA_")
        scores = self._expansion(X)
        return pairwise_probabilities(scores, self.pairs_, len(self.classes_),
                                      self.probA_, self.probB_)

    @available_if(_has_probability)
    def predict_log_proba(self, X):
        """``log(predict_proba(X))``.

        Examples
        --------
        Three classes (pairwise coupling):

        >>> import numpy as np
        >>> from sklearn.datasets import load_iris
        >>> from hyperplane.svm import SVC
        >>> X, y = load_iris(return_X_y=True)
        >>> log_p = SVC(probability=True, random_state=0).fit(X, y).predict_log_proba(X[:2])
        >>> log_p.shape, bool(np.all(log_p < 0)), np.allclose(np.exp(log_p).sum(axis=1), 1.0)
        ((2, 3), True, True)
        """
        return np.log(self.predict_proba(X))

    def predict(self, X):
        """``classes_[1]`` where f(x) >= 0 (sign(0) = +1); with more classes
        the class with most one-vs-one votes (ties: larger confidence)."""
        scores = self._expansion(X)
        if len(self.classes_) > 2:
            scores = ovr_from_pairs(scores, self.pairs_, len(self.classes_))
        return predict_from_scores(self.classes_, scores[:, 0] if scores.shape[1] == 1
                                   else scores)


class SVC(BaseOneVsOneSVC):
    """Support vector classifier: the soft-margin dual (周志华 式6.40)
    ``max sum a_i - 1/2 sum a_i a_j y_i y_j k(x_i, x_j)``,
    ``sum a_i y_i = 0``, ``0 <= a_i <= C``, solved by SMO; ``C=numpy.inf``
    is the hard margin (式6.11). f(x) = sum a_i y_i k(x_i, x) + b.

    ``X`` may be a ``scipy.sparse`` matrix (CSR; other formats are converted
    to CSR), as in LIBSVM's sparse mode: the kernel rows are computed from
    the nonzeros, never from a dense copy, and the model is the one fitted
    on ``X.toarray()``. The support vectors are then stored as CSR.

    Parameters
    ----------
    C : float, default=1.0
        Penalty of the hinge loss, > 0; ``numpy.inf`` for the hard margin
        (raises ValueError if the data are not separable with the kernel).
    kernel : str or hyperplane.kernels.Kernel, default="rbf"
        A kernel object (also combined ones) or ``"linear"``, ``"poly"``, ``"rbf"``, ``"laplace"``,
        ``"sigmoid"`` with scikit-learn's ``gamma``, ``degree``, ``coef0``.
        With sparse X, a kernel object must take sparse samples (the named
        kernels and their sums, products and multiples do; others raise
        TypeError). A kernel that is not positive semi-definite on the data (the
        sigmoid, or a user's kernel) is accepted, as LIBSVM does, with one
        ``NotPSDWarning``; with ``C=numpy.inf`` it is an error. A kernel
        block that is not finite, of the wrong shape or not symmetric is an
        error. ``"precomputed"`` (LIBSVM's ``-t 4``): ``fit`` takes the n x n
        Gram matrix of the training samples, ``predict`` and
        ``decision_function`` the m x n kernel values between new and training
        samples.
    gamma : {"scale", "auto"} or float, default="scale"
    degree : int, default=3
    coef0 : float, default=0.0
    tol : float, default=1e-3
        Stop when the maximal KKT violation m(a) - M(a) is at most tol.
    max_iter : int or None, default=None
        Cap on SMO iterations (None: LIBSVM's max(10^7, 100 n)); reaching it
        warns with ConvergenceWarning and sets ``converged_ = False``.
    cache_size : float, default=200
        Megabytes of kernel rows kept in the solver's LRU cache.
    shrinking : bool, default=True
        Shrink the active set (heuristic of LIBSVM; does not change the result).
    class_weight : dict, "balanced" or None, default=None
        Multiplies C per class, as LIBSVM's ``-wi`` and scikit-learn's SVC:
        C_i = C w_{y_i} s_i with s_i the ``sample_weight``. ``"balanced"``:
        w_k = n / (K n_k). A dict names classes by label; others weigh 1.
    probability : bool, default=False
        Also fit LIBSVM's probability model (``-b 1``): per one-vs-one pair,
        Platt's sigmoid (:func:`platt_sigmoid`) on 5-fold cross-validated
        decision values of that pair's problem (five more SMO solves per
        pair, folds shuffled from ``random_state``), and pairwise coupling
        for more than two classes; enables :meth:`predict_proba` and
        :meth:`predict_log_proba`. ``predict`` is unchanged.
    random_state : int, RandomState or None, default=None
        Picks the rows on which a user kernel is checked for positive
        semi-definiteness, the coordinate order of the linear kernel's
        seed and, with ``probability=True``, the folds (scikit-learn's folds
        for the same value); None acts as 0, so the fit is deterministic.
    verbose : bool, default=False
        Show a progress bar of the SMO iterations and the active-set size.
    record_trace : bool, default=False
        Keep one row per SMO iteration in ``trace_``. The traced solve is
        the book's: from a = 0, without shrinking (same solution, slower).
    n_jobs : int or None, default=None
        Threads of ``fit`` and ``predict`` (numba's and BLAS's, for the
        duration of the call): ``None`` uses numba's thread count less the
        cores other processes keep busy when the call starts, ``-1`` every
        core, ``k`` ``k`` threads. The model does not depend on it.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    alpha_ : ndarray of shape (n_samples,), or (n_pairs, n_samples) for more
        than two classes (one row per one-vs-one pair)
        The Lagrange multipliers a_i.
    support_ : ndarray of int
        Indices of the support vectors (a_i > 0 in some pair).
    support_vectors_ : ndarray or CSR matrix of shape (n_SV, n_features)
        CSR when fitted on sparse X.
    dual_coef_ : ndarray of shape (1, n_SV), or (n_pairs, n_SV)
        a_i y_i of the support vectors (y_i = +1 for the pair's second class).
    coef_ : ndarray of shape (1, n_features), or (n_pairs, n_features)
        w = sum a_i y_i x_i; only for the linear kernel.
    intercept_ : ndarray of shape (1,), or (n_pairs,)
        The threshold b.
    class_weight_ : ndarray of shape (n_classes,)
        The weight of each class (ones without ``class_weight``).
    n_support_ : ndarray of shape (n_classes,), int32
        Support vectors of each class.
    probA_, probB_ : ndarray of shape (n_pairs,)
        Only with ``probability=True``: each pair's sigmoid
        P(first class of the pair | f) = 1 / (1 + exp(A f + B)) in LIBSVM's
        and scikit-learn's convention, where f is LIBSVM's decision value,
        positive for the pair's *first* class (the negative of this class's
        pair scores).
    pairs_ : list of (int, int)
        The class index pairs of the one-vs-one problems (``[(0, 1)]`` for two
        classes).
    kernel_ : hyperplane.kernels.Kernel
        The kernel used (gamma resolved).
    n_iter_ : int, or ndarray of shape (n_pairs,)
    converged_ : bool
    objective_ : float or ndarray
        The dual objective 1/2 a'Qa - sum a at the solution (LIBSVM's "obj").
    trace_ : pandas.DataFrame
        Only with ``record_trace=True``: one row per SMO iteration with the
        pair ``i``, ``j`` (training-row indices) chosen as the maximal
        violating pair, ``m`` = max over I_up of -y_t G_t (reached at i),
        ``M`` = min over I_low, their gap ``violation`` = m - M (the KKT
        violation; SMO stops when it is at most tol), the gradients ``G_i``,
        ``G_j`` of the dual objective, ``eta`` = K_ii + K_jj - 2 K_ij,
        ``alpha_j_unclipped`` and its clip segment ``L``, ``H`` (李航
        式7.106-7.108), the new ``alpha_i``, ``alpha_j``, the threshold ``b``
        (LIBSVM's rule, see ``intercept_``) and the dual ``objective`` after
        the step. With more than two classes a first column ``pair`` gives
        the one-vs-one problem (an index into ``pairs_``).

    Notes
    -----
    ``kernel="linear"`` solves the book's problem (unregularised bias) by
    SMO, whose cost grows with n^2 kernel entries; for large or sparse
    linear problems use :class:`LinearSVC` (LIBLINEAR's dual coordinate
    descent, the bias regularised as an extra feature).

    With the linear kernel, a finite C and at least 1000 samples (dense or sparse), SMO does
    not start from a = 0 but from a seed: dual coordinate descent (Hsieh et
    al. 2008) on the problem whose bias is a regularised constant feature,
    made to satisfy sum a_i y_i = 0 (alpha seeding, DeCoste & Wagstaff 2000).
    SMO then runs to the same stopping rule, so the solution is that of the
    SVM above; ``n_iter_`` counts SMO's iterations from the seed.

    Examples
    --------
    李航 例7.1:

    >>> import numpy as np
    >>> from hyperplane.svm import SVC
    >>> X = np.array([[3, 3], [4, 3], [1, 1]])
    >>> svc = SVC(kernel="linear", C=np.inf, tol=1e-8).fit(X, [1, 1, -1])
    >>> svc.alpha_.round(6).tolist(), svc.coef_.round(6).tolist(), svc.intercept_.round(6).tolist()
    ([0.25, 0.0, 0.25], [[0.5, 0.5]], [-2.0])
    >>> svc.support_.tolist()
    [0, 2]

    The SMO steps (``record_trace=True``); the second clips alpha_2 to L = 0:

    >>> svc = SVC(kernel="linear", C=np.inf, tol=1e-8, record_trace=True).fit(X, [1, 1, -1])
    >>> print(svc.trace_[["i", "j", "violation", "alpha_i", "alpha_j", "b"]].round(4)
    ...       .to_string(index=False))
     i  j  violation  alpha_i  alpha_j       b
     1  2     2.0000   0.1538   0.1538 -1.7692
     0  1     0.4615   0.1538   0.0000 -1.2308
     0  2     0.7692   0.2500   0.2500 -2.0000
    """

    #: C = numpy.inf is the hard margin
    _parameter_rules = {**BaseOneVsOneSVC._parameter_rules,
                        "C": Real(low=0, low_open=True, allow_inf=True)}

    def __init__(self, *, C=1.0, kernel="rbf", gamma="scale", degree=3, coef0=0.0,
                 tol=1e-3, max_iter=None, cache_size=200, shrinking=True,
                 class_weight=None, probability=False, decision_function_shape="ovr",
                 random_state=None, verbose=False, record_trace=False, n_jobs=None):
        keep_parameters(self, locals())

    def _solve_pair(self, kernel, X, y, weight, index=None, record=True):
        """The soft-margin dual of one pair: C_i = C w_i, p = -1, from a = 0
        or the linear kernel's seed (:meth:`_seed`; not when traced)."""
        C = self.C * weight
        seed = None if self.record_trace and record else self._seed(X, y, C)
        return self._solve(kernel, X, np.arange(y.size), y, -np.ones(y.size), C, seed,
                           index=index, record=record)

    def _check_pairs(self, kernel, X, y_index, weight):
        """C = inf needs each pair separable (:meth:`_check_separable`)."""
        if not np.isinf(self.C):
            return
        for a, b in self.pairs_:
            rows = np.flatnonzero(((y_index == a) | (y_index == b)) & (weight > 0))
            self._check_separable(kernel, X[rows], np.where(y_index[rows] == b, 1.0, -1.0))

    def _seed(self, X, y, C):
        """SMO's start: alpha seeding for the linear kernel with a finite C
        on at least SEED_MIN_SAMPLES samples, dense or sparse
        (:func:`._seed.linear_seed`), else None (alpha = 0)."""
        if type(self.kernel_) is not Linear or np.isinf(self.C) or len(y) < SEED_MIN_SAMPLES:
            return None
        from ._seed import linear_seed

        return linear_seed(X, y, C, eps=SEED_EPS,
                           random_state=0 if self.random_state is None else self.random_state)

    def _check_separable(self, kernel, X, y):
        """C = inf needs data separable in the kernel's feature space: an LP
        on X (linear kernel) or on the Gram matrix (n <= MAX_GRAM_ROWS;
        beyond, the solver's divergence check applies)."""
        if isinstance(kernel, Linear):
            ok = separable(X, y)
        elif X.shape[0] <= MAX_GRAM_ROWS:
            ok = separable(kernel(X), y)
        else:
            return
        if not ok:
            raise ValueError(f"C=inf (hard margin) needs separable data, but the data are "
                             f"not separable with kernel {self.kernel_!r}; use a finite C")
