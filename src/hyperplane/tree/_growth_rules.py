"""The parameters every tree estimator (classifier and regressor) declares
alike and the growth limits they become: the size limits of 周志华 §4.3.1
(``max_depth``, ``min_samples_split``, ``min_samples_leaf``, a count or a
fraction of the training rows), cost-complexity pruning, the ``"hist"`` bins,
tracing and threads."""

from __future__ import annotations

import numbers

import numpy as np

from .._parameters import N_JOBS
from .._validation import (FLAG, NON_NEGATIVE, NONE, POSITIVE_INT, SEED, VERBOSE, Either, Integer,
                           Real)
from ._state import GrowRules

#: the parameters every tree estimator declares alike (the growth limits of
#: 周志华 §4.3.1, cost-complexity pruning, the "hist" bins, tracing and threads)
GROWTH_PARAMETER_RULES = {
    "max_depth": Either(NONE, POSITIVE_INT),
    "min_samples_split": Either(Integer(low=2), Real(low=0, high=1, low_open=True)),
    "min_samples_leaf": Either(POSITIVE_INT, Real(low=0, high=1, low_open=True)),
    "ccp_alpha": NON_NEGATIVE, "max_bins": Integer(low=2, high=65535), "random_state": SEED,
    "verbose": VERBOSE, "record_trace": FLAG, "n_jobs": N_JOBS,
}


def grow_rules(estimator, criterion, c45, n_rows, cut_at_training_value=False):
    """The :class:`~._state.GrowRules` of a tree estimator: its criterion
    code (``c45``: J48's rules), its size limits (``max_depth`` None: no
    limit; ``min_samples_split`` and ``min_samples_leaf`` counts, or fractions
    of ``n_rows``, the rows or weight of the training data), no C4.5 weight
    bound, and where an exact numeric cut lies. The two flags are True or None,
    so that numba compiles only the rules a fit uses (:class:`~._state.GrowRules`)."""
    max_depth = np.inf if estimator.max_depth is None else estimator.max_depth
    return GrowRules(criterion, True if c45 else None, float(max_depth),
                     _count_or_fraction(estimator.min_samples_split, 2, n_rows),
                     _count_or_fraction(estimator.min_samples_leaf, 1, n_rows), 0.0,
                     True if cut_at_training_value else None)


def _count_or_fraction(value, low, n_rows):
    """``min_samples_*`` as a row count: an int ≥ low, or a float fraction in (0, 1]."""
    if isinstance(value, numbers.Integral):
        return float(value)
    return max(float(low), float(np.ceil(value * n_rows)))
