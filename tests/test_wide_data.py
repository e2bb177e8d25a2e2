"""Wide data (3 rows × 200,000 columns) fits in seconds and modest memory.

A tree and a BP network on few rows and very many columns once took tens
of seconds and gigabytes (a Python object per column, BP epochs touching
every first-layer weight). The results are checked against an independent
reference, and the memory against a bound proportional to the data.
"""

import tracemalloc
import warnings

import numpy as np
import pytest

from hyperplane.neural import MLPClassifier
from hyperplane.tree import DecisionTreeClassifier

D = 200_000


@pytest.fixture(scope="module")
def wide():
    X = np.random.default_rng(0).standard_normal((3, D))
    return X, np.array([0, 1, 0])


def _peak_mib(fit):
    tracemalloc.start()
    try:
        result = fit()
        return result, tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def test_tree_on_wide_data_is_the_first_pure_cut(wide):
    """Rows (0, 1, 0): the root cuts the first column where row 1 is the
    largest or smallest value, at the midpoint to its nearest neighbour."""
    X, y = wide
    DecisionTreeClassifier().fit(X[:, :20], y)  # compile outside the measurement
    tree, peak = _peak_mib(lambda: DecisionTreeClassifier().fit(X, y))
    apart = (X[1] > np.maximum(X[0], X[2])) | (X[1] < np.minimum(X[0], X[2]))
    j = int(np.flatnonzero(apart)[0])
    nearest = X[[0, 2], j][np.argmin(np.abs(X[[0, 2], j] - X[1, j]))]
    assert tree.tree_.feature[0] == j
    assert tree.tree_.threshold[0] == pytest.approx((X[1, j] + nearest) / 2, rel=1e-12)
    assert tree.n_leaves_ == 2
    np.testing.assert_array_equal(tree.predict(X), y)
    assert peak < 12 * X.nbytes / 2**20  # X is 4.6 MiB


def test_mlp_on_wide_data_is_bp_and_small(wide):
    """Default MLP (200 epochs of accumulated BP): the same weights as the
    direct rule (checked on 20 epochs), predictions right, memory a few
    copies of the d × 10 first layer."""
    from unittest import mock

    from hyperplane.neural import _row_space

    X, y = wide
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model, peak = _peak_mib(lambda: MLPClassifier(random_state=0).fit(X, y))
        short = MLPClassifier(random_state=0, max_iter=20).fit(X, y)
        with mock.patch.object(_row_space, "ROW_SPACE_MAX_ROWS", 0):
            direct = MLPClassifier(random_state=0, max_iter=20).fit(X, y)
    np.testing.assert_array_equal(model.predict(X), y)
    assert model.n_iter_ == 200
    for a, b in zip(short.coefs_ + short.intercepts_, direct.coefs_ + direct.intercepts_):
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-12)
    np.testing.assert_allclose(short.loss_curve_, direct.loss_curve_, rtol=1e-12)
    first_layer_mib = D * 10 * 8 / 2**20  # 15 MiB
    assert peak < 6 * first_layer_mib
