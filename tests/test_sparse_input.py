"""Every estimator that takes ``scipy.sparse`` X in ``fit`` (its ``input_tags.sparse``):

* a CSR matrix with duplicate entries (allowed by scipy: they add up) fits the
  model of the same matrix with the duplicates summed (issue #30, finding 7);
* fitted on dense rows or on CSR rows, it predicts (``predict``,
  ``decision_function``, ``predict_proba``, ``transform``) both dense and CSR
  rows, and the same way (issue #30, finding 13).
"""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import is_regressor

from hyperplane.utils import all_estimators

pytestmark = [pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning"),
              pytest.mark.filterwarnings("ignore::UserWarning")]

SPARSE = [(name, cls) for name, cls in all_estimators()
          if cls().__sklearn_tags__().input_tags.sparse]
#: small, fast, deterministic settings
SETTINGS = {"Adaline": dict(max_iter=20, random_state=0),
            "DecisionTreeClassifier": dict(), "DecisionTreeRegressor": dict(),
            "DualPerceptron": dict(max_iter=20),
            "FisherDiscriminant": dict(), "LeastSquaresClassifier": dict(),
            "LinearSVC": dict(random_state=0), "LinearSVR": dict(random_state=0),
            "OneClassSVM": dict(nu=0.3),
            "LogisticRegression": dict(),
            "MLPClassifier": dict(hidden_layer_sizes=(4,), max_iter=20, random_state=0),
            "MLPRegressor": dict(hidden_layer_sizes=(4,), max_iter=20, random_state=0),
            "Perceptron": dict(max_iter=20),
            "SVC": dict(), "SVR": dict(), "NuSVC": dict(nu=0.3), "NuSVR": dict()}


def data(seed=0, n=40, d=5):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)).round(2)
    X[rng.random(X.shape) < 0.4] = 0.0
    y = (X[:, 0] - X[:, 1] + 0.3 * rng.normal(size=n) > 0).astype(int)
    return X, y


def with_duplicates(X):
    """CSR with every stored entry split in two halves stored side by side
    (and one explicit zero per row): scipy reads it as ``X``."""
    rows, cols = np.nonzero(X)
    values = X[rows, cols]
    order = np.argsort(np.concatenate([rows, rows]), kind="stable")
    indices = np.concatenate([cols, cols])[order]
    entries = np.concatenate([values / 2, values - values / 2])[order]
    indptr = np.concatenate([[0], np.cumsum(2 * np.bincount(rows, minlength=X.shape[0]))])
    D = sp.csr_matrix((entries, indices, indptr), shape=X.shape)
    assert not D.has_canonical_format
    np.testing.assert_array_equal(D.toarray(), X)
    return D


def model(name, cls):
    return cls(**SETTINGS.get(name, {}))


def target(cls, X, y):
    return X[:, 0] * 2.0 - X[:, 2] if is_regressor(cls()) else y


def test_every_sparse_estimator_is_covered():
    assert {name for name, _ in SPARSE} <= set(SETTINGS)


@pytest.mark.parametrize("name, cls", SPARSE, ids=[n for n, _ in SPARSE])
def test_duplicate_entries_fit_the_summed_matrix(name, cls):
    X, y = data()
    y = target(cls, X, y)
    D = with_duplicates(X)
    before = (D.data.copy(), D.indices.copy(), D.indptr.copy())
    summed = model(name, cls).fit(sp.csr_matrix(X), y)
    duplicated = model(name, cls).fit(D, y)
    for part, kept in zip((D.data, D.indices, D.indptr), before):  # the input is not changed
        np.testing.assert_array_equal(part, kept)
    np.testing.assert_array_equal(duplicated.predict(D), summed.predict(sp.csr_matrix(X)))
    for attribute in ("coef_", "intercept_", "alpha_", "dual_coef_", "coefs_"):
        if hasattr(summed, attribute):
            a, b = getattr(duplicated, attribute), getattr(summed, attribute)
            for u, v in zip(a if isinstance(a, list) else [a], b if isinstance(b, list) else [b]):
                np.testing.assert_allclose(u, v, rtol=1e-12, atol=1e-12, err_msg=attribute)
    if hasattr(summed, "decision_function"):
        np.testing.assert_allclose(duplicated.decision_function(X),
                                   summed.decision_function(X), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("fit_sparse", [False, True])
@pytest.mark.parametrize("name, cls", SPARSE, ids=[n for n, _ in SPARSE])
def test_predicts_dense_and_csr_whatever_it_was_fitted_on(name, cls, fit_sparse):
    X, y = data(1)
    y = target(cls, X, y)
    fitted = model(name, cls).fit(sp.csr_matrix(X) if fit_sparse else X, y)
    X_new, _ = data(2, n=15)
    dense = fitted.predict(X_new)
    for fmt in (sp.csr_matrix, sp.csr_array, sp.csc_matrix):
        np.testing.assert_allclose(fitted.predict(fmt(X_new)), dense, rtol=1e-10, atol=1e-10)
    for method in ("decision_function", "predict_proba", "transform"):
        if hasattr(fitted, method):
            np.testing.assert_allclose(getattr(fitted, method)(sp.csr_matrix(X_new)),
                                       getattr(fitted, method)(X_new), rtol=1e-10,
                                       atol=1e-10, err_msg=method)
