"""Weka's cross-validation partition: ``java.util.Random`` and the folds of
``weka.classifiers.Evaluation.crossValidateModel`` (``Instances.randomize``,
``Instances.stratify``, ``testCV`` / ``trainCV``), so that a cross-validated
report of :mod:`hyperplane.evaluation` tests on Weka's rows, fold by fold
(Witten, Frank & Hall, *Data Mining*, 4th ed., §5.3; Java SE API,
``java.util.Random``). Public through :mod:`hyperplane.evaluation`.
"""

from __future__ import annotations

import numpy as np

__all__ = ["JavaRandom", "weka_folds"]


class JavaRandom:
    """``java.util.Random``: the 48-bit linear congruential generator Weka seeds.

    The seed is scrambled as ``(seed XOR 0x5DEECE66D) mod 2**48``; each step is
    ``seed = (seed * 0x5DEECE66D + 0xB) mod 2**48`` and ``next(bits)`` is the
    top ``bits`` bits of the new seed as a signed 32-bit int; ``next_int(bound)``
    is Java's ``nextInt(bound)`` (a power of two takes the high bits, any other
    bound rejects the top partial range), Java SE API, ``java.util.Random``.

    Examples
    --------
    >>> r = JavaRandom(42)
    >>> [r.next_int(10) for _ in range(5)]
    [0, 3, 8, 4, 0]
    """

    _MULTIPLIER = 0x5DEECE66D
    _MASK = (1 << 48) - 1

    def __init__(self, seed):
        self.seed = (int(seed) ^ self._MULTIPLIER) & self._MASK

    def next(self, bits):
        """The next ``bits`` random bits, as Java's ``(int)(seed >>> (48 - bits))``."""
        self.seed = (self.seed * self._MULTIPLIER + 0xB) & self._MASK
        value = self.seed >> (48 - bits)
        value &= 0xFFFFFFFF
        return value - (1 << 32) if value >= 1 << 31 else value

    def next_int(self, bound):
        """Java's ``nextInt(bound)``: uniform in ``[0, bound)``."""
        if bound <= 0:
            raise ValueError(f"bound must be positive; got {bound}")
        r = self.next(31)
        m = bound - 1
        if bound & m == 0:
            return (bound * r) >> 31
        u = r
        while True:
            r = u % bound
            if u - r + m < 1 << 31:  # Java's int overflow test ``u - r + m < 0``
                return r
            u = self.next(31)


def _weka_randomize(order, random):
    """Weka's ``Instances.randomize``: for ``j`` from the last index down to 1,
    swap ``j`` with ``random.nextInt(j + 1)`` (in place)."""
    for j in range(len(order) - 1, 0, -1):
        k = random.next_int(j + 1)
        order[j], order[k] = order[k], order[j]


def _weka_stratify(order, y, folds):
    """Weka's ``Instances.stratify``: group equal classes (each class where it
    first appears, by Weka's swapping pass), then deal the rows round-robin:
    rows ``start, start + folds, ...`` for ``start = 0, 1, ...``."""
    order = list(order)
    n = len(order)
    index = 1
    while index < n:
        first = y[order[index - 1]]
        for j in range(index, n):
            if y[order[j]] == first:
                order[index], order[j] = order[j], order[index]
                index += 1
        index += 1
    dealt = []
    for start in range(folds):
        dealt.extend(order[start::folds])
    return dealt


def _weka_test_range(n, folds, fold):
    """``(first, size)`` of Weka's ``testCV(folds, fold)``: the first ``n % folds``
    folds hold one row more."""
    size = n // folds
    if fold < n % folds:
        size += 1
        offset = fold
    else:
        offset = n % folds
    return fold * (n // folds) + offset, size


def weka_folds(y, folds=10, seed=1, *, stratify=None):
    """Weka's cross-validation partition of ``-x folds -s seed``, as index arrays.

    Follows ``weka.classifiers.Evaluation.crossValidateModel``: the rows are
    shuffled by ``Instances.randomize`` with ``java.util.Random(seed)``
    (:class:`JavaRandom`), stratified by ``Instances.stratify`` for a nominal
    class, and fold ``i`` tests on ``testCV(folds, i)`` (a contiguous block) and
    trains on ``trainCV(folds, i, random)`` (the rest, in order, then shuffled by
    the same generator). Row order matters only to learners that break ties by
    it; the partition itself is Weka's.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        The class (or numeric target) of each row.
    folds : int, default=10
        Number of folds, at least 2 and at most ``n_samples``.
    seed : int, default=1
        Weka's ``-s``.
    stratify : bool or None, default=None
        Stratify (Weka does for a nominal class); ``None``: when ``y`` is not
        a float array.

    Returns
    -------
    list of (ndarray, ndarray)
        ``(train, test)`` row indices of each fold, in Weka's order.

    Examples
    --------
    >>> y = ["a", "b", "a", "b", "a", "b"]
    >>> [test.tolist() for _, test in weka_folds(y, folds=3, seed=1)]
    [[4, 1], [2, 5], [0, 3]]
    """
    y = np.asarray(y)
    n = y.shape[0]
    folds = int(folds)
    if not 2 <= folds <= n:
        raise ValueError(f"folds must be between 2 and the number of rows ({n}); got {folds}")
    if stratify is None:
        stratify = y.dtype.kind not in "fc"
    random = JavaRandom(seed)
    order = list(range(n))
    _weka_randomize(order, random)
    if stratify:
        order = _weka_stratify(order, y.tolist(), folds)
    splits = []
    for fold in range(folds):
        first, size = _weka_test_range(n, folds, fold)
        test = order[first:first + size]
        train = order[:first] + order[first + size:]
        _weka_randomize(train, random)
        splits.append((np.asarray(train, dtype=np.intp), np.asarray(test, dtype=np.intp)))
    return splits
