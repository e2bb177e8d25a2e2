"""A CSR matrix with 64-bit indices (scipy's choice for large matrices, and
what a COO matrix with 64-bit coordinates converts to) gives the same model as
the same matrix with 32-bit indices. numba 0.59-0.60 could not pass such rows
to the compiled passes (the reason for ``numba>=0.61`` in pyproject.toml)."""

import numpy as np
import pytest
import scipy.sparse as sp

from hyperplane.linear import (
    Adaline,
    FisherDiscriminant,
    LeastSquaresClassifier,
    LogisticRegression,
    Perceptron,
)


def with_index_dtype(X, dtype, container):
    X = container(X, copy=True)
    X.indices = X.indices.astype(dtype)
    X.indptr = X.indptr.astype(dtype)
    return X


def data(n_classes):
    rng = np.random.default_rng(n_classes)
    X = rng.normal(size=(60, 8)) * (rng.random((60, 8)) < 0.4)
    y = rng.integers(0, n_classes, 60)
    return sp.csr_matrix(X), y


ESTIMATORS = [
    (LogisticRegression(solver="tron"), 2), (LogisticRegression(solver="tron"), 4),
    (LogisticRegression(solver="lbfgs"), 2), (LogisticRegression(solver="lbfgs"), 4),
    (Perceptron(random_state=0), 2), (Adaline(random_state=0), 2),
    (LeastSquaresClassifier(), 2), (FisherDiscriminant(), 2),
]


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("container", [sp.csr_matrix, sp.csr_array])
@pytest.mark.parametrize("estimator, n_classes", ESTIMATORS,
                         ids=[f"{type(e).__name__}-{getattr(e, 'solver', '')}-{k}"
                              for e, k in ESTIMATORS])
def test_int64_indices_give_the_int32_model(estimator, n_classes, container):
    X, y = data(n_classes)
    narrow = estimator.fit(with_index_dtype(X, np.int32, container), y)
    coef32 = np.array(narrow.coef_, copy=True)
    wide = estimator.fit(with_index_dtype(X, np.int64, container), y)
    np.testing.assert_array_equal(wide.coef_, coef32)
