"""What LIBLINEAR's linear models share (Fan, Chang, Hsieh, Wang & Lin,
JMLR 2008): the estimators' base class, the samples a fit keeps, CSR samples
in the compiled epochs' layout, the generator of the epochs' orders and the
epochs one compiled call runs; used by :class:`~._linear_svc.LinearSVC` and
:class:`~._linear_svr.LinearSVR`."""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.utils import check_random_state

from .._csr_rows import CSRRows
from .._validation import FLAG, POSITIVE, POSITIVE_INT, SEED, check_is_fitted, check_X


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



def generator_state(rng):
    """The compiled shuffle's generator state (one nonzero uint64) drawn from ``rng``."""
    return np.array([rng.randint(1, np.iinfo(np.int64).max)], dtype=np.uint64)


class BaseLiblinear(BaseEstimator):
    """What LIBLINEAR's linear models share (:class:`~._linear_svc.LinearSVC`,
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


