"""Sample weights in the class moments of least squares and Fisher: the
weighted moments against loops written here, and the order-free rule they
give: an integer weight is that many copies of the row, a zero drops it."""

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from hyperplane.linear import FisherDiscriminant, LeastSquaresClassifier
from hyperplane.linear._moments import class_moments


def weighted_reference(X, y, k, s):
    counts = np.array([s[y == c].sum() for c in range(k)])
    means = np.array([(s[y == c, None] * X[y == c]).sum(0) / counts[c] for c in range(k)])
    centred = X - means[y]
    return counts, means, (centred * s[:, None]).T @ centred


@pytest.mark.parametrize("sparse", [False, True])
def test_weighted_moments_equal_the_loops(sparse):
    rng = np.random.default_rng(4)
    X = rng.normal(size=(60, 4)) * (rng.random((60, 4)) < 0.7)
    y = np.arange(60) % 3
    s = rng.uniform(0.0, 3.0, size=60)
    counts, means, S_W = weighted_reference(X, y, 3, s)
    mom = class_moments(sp.csr_matrix(X) if sparse else X, y, 3, weight=s, block_rows=16)
    np.testing.assert_allclose(mom.counts, counts, rtol=1e-13)
    np.testing.assert_allclose(mom.means, means, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(mom.scatter, S_W, rtol=1e-10, atol=1e-10)


MODELS = [LeastSquaresClassifier(), FisherDiscriminant()]


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), model=st.sampled_from(MODELS), sparse=st.booleans())
def test_integer_weights_are_repeated_rows_and_zero_a_dropped_row(seed, model, sparse):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(30, 3))
    y = np.arange(30) % 3
    s = rng.integers(0, 4, size=30)
    s[:3] = 1                                   # every class keeps a row
    repeated = np.repeat(np.arange(30), s)
    data = sp.csr_matrix(X) if sparse else X
    weighted = model.fit(data, y, sample_weight=s.astype(float)).decision_function(X)
    copies = type(model)(**model.get_params()).fit(
        data[repeated], y[repeated]).decision_function(X)
    np.testing.assert_allclose(weighted, copies, rtol=1e-7, atol=1e-7)


@pytest.mark.parametrize("Model", [LeastSquaresClassifier, FisherDiscriminant])
def test_bad_weights_are_named(Model):
    X = np.random.default_rng(0).normal(size=(10, 2))
    y = np.arange(10) % 2
    with pytest.raises(ValueError, match="sample_weight must be non-negative; row 3"):
        Model().fit(X, y, sample_weight=np.r_[1.0, 1.0, 1.0, -2.0, np.ones(6)])
    with pytest.raises(ValueError, match="zero for every sample"):
        Model().fit(X, y, sample_weight=np.zeros(10))
    with pytest.raises(ValueError, match=r"shape \(10,\)"):
        Model().fit(X, y, sample_weight=np.ones(9))
