"""Every linear estimator fitted on scipy.sparse X equals the dense fit on the
same data (to 1e-10), and predicts from sparse rows."""

import numpy as np
import pytest
import scipy.sparse as sp

from hyperplane.linear import (
    Adaline,
    DualPerceptron,
    FisherDiscriminant,
    LeastSquaresClassifier,
    LogisticRegression,
    Perceptron,
)
from hyperplane.linear._moments import class_moments

from ._helpers import blobs, scatter_reference

pytestmark = pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")


def sparse_blobs(n=120, d=6, k=2, seed=0, density=0.4):
    X, y = blobs(n, d, k, seed=seed, spread=2.0)
    X[np.random.default_rng(seed).random(X.shape) > density] = 0.0
    return X, y


ESTIMATORS = [
    lambda: Perceptron(max_iter=50),
    lambda: Perceptron(max_iter=50, variant="averaged", shuffle=True, random_state=0),
    lambda: Perceptron(max_iter=50, variant="pocket"),
    lambda: Perceptron(max_iter=50, update="batch"),
    lambda: DualPerceptron(max_iter=50),
    lambda: DualPerceptron(max_iter=50, kernel="rbf"),
    lambda: Adaline(max_iter=30, random_state=0),
    lambda: LeastSquaresClassifier(),
    lambda: LeastSquaresClassifier(fit_intercept=False),
    lambda: FisherDiscriminant(),
    lambda: LogisticRegression(solver="tron"),
    lambda: LogisticRegression(solver="lbfgs"),
]
ATTRIBUTES = ("coef_", "intercept_", "alpha_", "scalings_", "n_iter_", "n_updates_")


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("make", ESTIMATORS)
@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("fmt", [sp.csr_matrix, sp.csc_matrix, sp.csr_array])
def test_sparse_fit_equals_dense_fit(make, k, fmt):
    X, y = sparse_blobs(k=k, seed=k)
    dense = make().fit(X, y)
    sparse = make().fit(fmt(X), y)
    for name in ATTRIBUTES:
        if hasattr(dense, name):
            np.testing.assert_allclose(getattr(sparse, name), getattr(dense, name),
                                       rtol=1e-10, atol=1e-10, err_msg=name)
    np.testing.assert_allclose(sparse.decision_function(fmt(X)), dense.decision_function(X),
                               rtol=1e-10, atol=1e-10)
    np.testing.assert_array_equal(sparse.predict(fmt(X)), dense.predict(X))
    if hasattr(dense, "transform"):
        np.testing.assert_allclose(sparse.transform(fmt(X)), dense.transform(X),
                                   rtol=1e-10, atol=1e-10)


def test_sparse_partial_fit_equals_dense():
    X, y = sparse_blobs(k=3, seed=4)
    dense, sparse = Perceptron(), Perceptron()
    for part in (slice(0, 60), slice(60, 120)):
        dense.partial_fit(X[part], y[part], classes=[0, 1, 2])
        sparse.partial_fit(sp.csr_matrix(X[part]), y[part], classes=[0, 1, 2])
    np.testing.assert_array_equal(sparse.coef_, dense.coef_)


def test_sparse_trace_equals_dense_trace():
    X, y = sparse_blobs(seed=1)
    a = Perceptron(record_trace=True, max_iter=30).fit(X, y).trace_
    b = Perceptron(record_trace=True, max_iter=30).fit(sp.csr_matrix(X), y).trace_
    assert a["sample"].tolist() == b["sample"].tolist()
    np.testing.assert_allclose(np.vstack(a["w"]), np.vstack(b["w"]))


@pytest.mark.parametrize("k", [2, 4])
def test_sparse_class_moments_match_loops(k):
    X, y = sparse_blobs(80, 5, k, seed=k)
    counts, means, S_W = scatter_reference(X, y, k)
    mom = class_moments(sp.csr_matrix(X), y, k)
    np.testing.assert_array_equal(mom.counts, counts)
    np.testing.assert_allclose(mom.means, means, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(mom.scatter, S_W, rtol=1e-10, atol=1e-10)


def test_float32_sparse_perceptron_stays_float32():
    X, y = sparse_blobs(seed=3)
    model = Perceptron(max_iter=30).fit(sp.csr_matrix(X.astype(np.float32)), y)
    assert model.coef_.dtype == np.float32
    dense = Perceptron(max_iter=30).fit(X.astype(np.float32), y)
    np.testing.assert_array_equal(model.coef_, dense.coef_)
