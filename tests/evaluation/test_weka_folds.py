"""Invariants of :func:`hyperplane.evaluation.weka_folds` (Weka's own partition is
checked against Weka in tests/tree/test_weka_cv.py)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hyperplane.evaluation import weka_folds


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=2, max_size=60), st.integers(2, 12),
       st.integers(-2**40, 2**40), st.booleans())
def test_each_row_is_tested_once_and_folds_are_balanced(y, folds, seed, stratify):
    y = np.asarray(y)
    folds = min(folds, y.size)
    splits = weka_folds(y, folds, seed, stratify=stratify)
    assert len(splits) == folds
    tested = np.concatenate([test for _, test in splits])
    assert np.array_equal(np.sort(tested), np.arange(y.size))
    sizes = [test.size for _, test in splits]
    assert max(sizes) - min(sizes) <= 1
    assert sizes == sorted(sizes, reverse=True)  # testCV: the first n % folds hold one more
    for train, test in splits:
        assert np.array_equal(np.sort(np.concatenate([train, test])), np.arange(y.size))
    if stratify:  # round-robin dealing of the class-grouped rows
        for c in np.unique(y):
            counts = [int(np.sum(y[test] == c)) for _, test in splits]
            assert max(counts) - min(counts) <= 1


def test_folds_outside_two_to_n_are_refused():
    with pytest.raises(ValueError, match="folds"):
        weka_folds([0, 1, 0], folds=4)
    with pytest.raises(ValueError, match="folds"):
        weka_folds([0, 1, 0], folds=1)
