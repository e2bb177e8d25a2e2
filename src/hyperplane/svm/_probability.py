"""SVC's probability estimates as LIBSVM's ``-b 1``: Platt's sigmoid on
cross-validated decision values (Platt 1999; Lin, Lin & Weng 2007) and
pairwise coupling (Wu, Lin & Weng 2004, method 2). The compiled steps are in
:mod:`._probability_kernels`, imported where they are called: loading a
model file imports no compiled kernel."""

from __future__ import annotations

import warnings
from typing import NamedTuple

import numpy as np
from sklearn.utils import check_random_state

from .._stacklevel import user_stacklevel
from .._validation import ConvergenceWarning

#: LIBSVM's folds of the cross-validated decision values
N_FOLDS = 5
#: pairwise probabilities are clipped to [MIN_PROB, 1 - MIN_PROB] before coupling (LIBSVM)
MIN_PROB = 1e-7

class PlattSigmoid(NamedTuple):
    """Platt's sigmoid P(y = 1 | f) = 1 / (1 + exp(A f + B)), as
    :func:`platt_sigmoid` returns it.

    Examples
    --------
    >>> import numpy as np
    >>> from hyperplane.svm import PlattSigmoid
    >>> A, B = PlattSigmoid(A=-2.0, B=0.0)
    >>> float(1 / (1 + np.exp(A * 0.0 + B)))
    0.5
    """

    A: float
    B: float


def platt_sigmoid(decision_values, y):
    """Fit Platt's sigmoid ``P(y | f) = 1 / (1 + exp(A f + B))`` to decision
    values, exactly as LIBSVM's ``sigmoid_train``.

    The targets are Platt's regularised ones, (N+ + 1)/(N+ + 2) for a
    positive and 1/(N- + 2) for a negative example, and the minimiser of
    their cross-entropy is found by Newton's method with a backtracking line
    search (Lin, Lin & Weng 2007, "A note on Platt's probabilistic outputs
    for support vector machines", Algorithm 1: at most 100 iterations, steps
    halved down to 1e-10, Hessian + 1e-12 I, stop when both partial
    derivatives are below 1e-5).

    Parameters
    ----------
    decision_values : array-like of shape (n_samples,)
        Decision values f_i (larger: more positive); finite.
    y : array-like of bool, shape (n_samples,)
        True for the positive class.

    Returns
    -------
    PlattSigmoid
        ``(A, B)``; a good fit has A < 0 (larger f, higher probability).

    Warns
    -----
    ConvergenceWarning
        If the line search failed or 100 iterations did not reach the
        stopping rule (LIBSVM prints a message; the last iterate is returned).

    Examples
    --------
    >>> import numpy as np
    >>> from hyperplane.svm import platt_sigmoid
    >>> f = np.array([-2.0, -1.0, -0.5, 0.5, 1.0, 2.0, 0.2, -0.1])
    >>> y = np.array([False, False, False, True, True, True, False, True])
    >>> A, B = platt_sigmoid(f, y)
    >>> round(A, 4), round(B, 4)
    (-1.0874, 0.0177)
    >>> float(1 / (1 + np.exp(A * 1.0 + B))).__round__(3)   # P(positive | f = 1)
    0.745
    """
    f = np.asarray(decision_values, dtype=np.float64)
    if f.ndim != 1:
        raise ValueError(f"decision_values must be 1-d; got shape {f.shape}")
    if not np.all(np.isfinite(f)):
        raise ValueError(f"decision_values must be finite; row {int(np.argmin(np.isfinite(f)))} "
                         "is not")
    y = np.asarray(y)
    if y.shape != f.shape:
        raise ValueError(f"y must have the shape of decision_values {f.shape}; got {y.shape}")
    if y.dtype != np.bool_:
        raise TypeError(f"y must be boolean (True: the positive class); got dtype {y.dtype}")
    from . import _probability_kernels as pk

    fit = pk.sigmoid_train(np.ascontiguousarray(f), np.ascontiguousarray(y))
    if fit.status != pk.CONVERGED:
        reason = ("the line search failed" if fit.status == pk.LINE_SEARCH_FAILED
                  else f"{pk.MAX_ITER} Newton iterations were reached")
        warnings.warn(f"Platt's sigmoid did not converge: {reason} (A = {fit.A:.6g}, "
                      f"B = {fit.B:.6g} kept)", ConvergenceWarning, stacklevel=user_stacklevel())
    return PlattSigmoid(float(fit.A), float(fit.B))


def sigmoid_probability(decision_values, A, B):
    """``1 / (1 + exp(A f + B))`` without overflow (LIBSVM's ``sigmoid_predict``)."""
    from . import _probability_kernels as pk

    f = np.ascontiguousarray(decision_values, dtype=np.float64)
    return pk.sigmoid_predict(f, float(A), float(B), np.empty_like(f))


def couple_pairwise(r, eps=None, max_iter=None):
    """Class probabilities from the pairwise ones, row by row (Wu, Lin &
    Weng 2004, method 2, with LIBSVM's iteration and stopping rule
    ``eps = 0.005 / k``, at most ``max(100, k)`` sweeps).

    Parameters
    ----------
    r : ndarray of shape (n, k, k)
        ``r[:, i, j]`` = P(class i | class i or j), ``r[:, j, i] = 1 - r[:, i, j]``
        (the diagonal is not read).

    Returns
    -------
    ndarray of shape (n, k)
    """
    r = np.ascontiguousarray(r, dtype=np.float64)
    k = r.shape[1]
    eps = 0.005 / k if eps is None else float(eps)
    max_iter = max(100, k) if max_iter is None else int(max_iter)
    proba = np.empty(r.shape[:2])
    from . import _probability_kernels as pk

    failed = pk.couple_rows(r, eps, max_iter, proba)
    if failed:
        warnings.warn(f"pairwise coupling did not converge in {max_iter} sweeps for "
                      f"{failed} of {r.shape[0]} rows", ConvergenceWarning, stacklevel=user_stacklevel())
    return proba


def pairwise_probabilities(scores, pairs, n_classes, prob_a, prob_b):
    """``predict_proba`` from the one-vs-one decision values ``scores``
    (n, n_pairs; positive: the pair's second class, as ``SVC``'s): each
    pair's sigmoid gives r_ab = P(a | a or b) from LIBSVM's decision value
    (positive: the first class, -scores), clipped to [MIN_PROB, 1 - MIN_PROB];
    two classes: (r_01, r_10); more: :func:`couple_pairwise`."""
    n = scores.shape[0]
    r = np.zeros((n, n_classes, n_classes))
    for k, (a, b) in enumerate(pairs):
        r_ab = np.clip(sigmoid_probability(-scores[:, k], prob_a[k], prob_b[k]),
                       MIN_PROB, 1.0 - MIN_PROB)
        r[:, a, b] = r_ab
        r[:, b, a] = 1.0 - r_ab
    if n_classes == 2:
        return np.column_stack([r[:, 0, 1], r[:, 1, 0]])
    return couple_pairwise(r)


def mt19937_key(seed):
    """The 624-word state of the 32-bit Mersenne twister seeded with ``seed``
    (init_genrand: x_0 = seed, x_i = 1812433253 (x_{i-1} xor (x_{i-1} >> 30)) + i
    mod 2^32), as ``std::mt19937(seed)``."""
    key = np.empty(624, dtype=np.uint32)
    x = int(seed) & 0xFFFFFFFF
    key[0] = x
    for i in range(1, 624):
        x = (1812433253 * (x ^ (x >> 30)) + i) & 0xFFFFFFFF
        key[i] = x
    return key


class FoldShuffle:
    """The random permutations of LIBSVM's ``svm_binary_svc_probability``, as
    scikit-learn's LIBSVM draws them, so that the folds are scikit-learn's
    for the same ``random_state``.

    scikit-learn turns ``random_state`` into ``seed = randint(2**31 - 1)``
    and replaces LIBSVM's ``rand()`` by a 32-bit Mersenne twister seeded with
    it, bounded by Lemire's multiply-and-reject method. The shuffle is
    LIBSVM's: ``perm[i] <-> perm[i + rand(l - i)]`` for i = 0 .. l-1. In
    scikit-learn every trained fold model re-seeds the generator (its
    ``svm_train`` calls ``set_seed`` again), so each pair's shuffle starts
    from the seed once a fold model has been trained: :meth:`reseed`.
    """

    def __init__(self, random_state):
        self.seed = int(check_random_state(random_state).randint(np.iinfo(np.int32).max))
        self.reseed()

    def reseed(self):
        """Restart the generator at the seed (scikit-learn's ``set_seed``):
        ``std::mt19937(seed)``, i.e. Matsumoto & Nishimura's init_genrand."""
        self._state = np.random.MT19937()
        self._state.state = {"bit_generator": "MT19937",
                             "state": {"key": mt19937_key(self.seed), "pos": 624}}

    def _next32(self):
        return int(self._state.random_raw())

    def bounded(self, bound):
        """A uniform integer in [0, bound) (Lemire's method as scikit-learn's
        ``bounded_rand_int``)."""
        m = self._next32() * bound
        low = m & 0xFFFFFFFF
        if low < bound:
            threshold = (2 ** 32 - bound) % bound
            while low < threshold:
                m = self._next32() * bound
                low = m & 0xFFFFFFFF
        return m >> 32

    def permutation(self, l):
        """LIBSVM's shuffle of 0 .. l-1."""
        perm = np.arange(l)
        for i in range(l):
            j = i + self.bounded(l - i)
            perm[i], perm[j] = perm[j], perm[i]
        return perm


def fold_bounds(l, n_folds=N_FOLDS):
    """LIBSVM's folds of a shuffled problem: fold i is positions
    [i l / n_folds, (i + 1) l / n_folds) (integer division)."""
    return [(i * l // n_folds, (i + 1) * l // n_folds) for i in range(n_folds)]


def cross_validated_decisions(fit_predict, y_positive, shuffle):
    """LIBSVM's 5-fold cross-validated decision values of one binary problem
    (``svm_binary_svc_probability``): shuffle the rows, then for each fold
    train on the other folds and predict the fold; a fold whose training
    part has one class only gets +1 or -1 (0 if empty).

    ``fit_predict(train, test)`` (positions in the problem) returns the
    decision values of ``test`` (positive: ``y_positive``); ``shuffle`` is a
    :class:`FoldShuffle`, re-seeded after each trained fold."""
    l = y_positive.shape[0]
    perm = shuffle.permutation(l)
    decisions = np.zeros(l)
    for begin, end in fold_bounds(l):
        test = perm[begin:end]
        train = np.concatenate([perm[:begin], perm[end:]])
        n_pos = int(np.count_nonzero(y_positive[train]))
        if train.size == 0:
            decisions[test] = 0.0
        elif n_pos == train.size:
            decisions[test] = 1.0
        elif n_pos == 0:
            decisions[test] = -1.0
        else:
            decisions[test] = fit_predict(train, test)
            shuffle.reseed()
    return decisions
