"""A warning an estimator raises points at the user's call (``fit``), not at
the package's code: ``fit`` runs inside ``_threads.uses_threads``, whose
wrapper adds a frame that a fixed ``stacklevel`` counted wrong."""

import warnings

import numpy as np
import pytest

from hyperplane._validation import ConvergenceWarning
from hyperplane.kernels import NotPSDWarning
from hyperplane.linear import LogisticRegression
from hyperplane.svm import SVC, SVR, LinearSVC, NuSVC, OneClassSVM
from hyperplane.tree import DecisionTreeClassifier


def data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    y = (X[:, 0] + 0.5 * rng.normal(size=60) > 0).astype(int)
    return X, y


def caught_at(category, fit):
    """The ``(filename, lineno)`` of each ``category`` warning ``fit()`` raised."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fit()
    found = [(w.filename, w.lineno) for w in caught if issubclass(w.category, category)]
    assert found, f"no {category.__name__} raised"
    return found


X, Y = data()
CASES = {
    "tree ccp_alpha": (UserWarning, lambda: DecisionTreeClassifier(
        ccp_alpha=0.1, pruning="pessimistic").fit(X, Y)),
    "tree tiny spread": (UserWarning, lambda: DecisionTreeClassifier(
        criterion="gain_ratio").fit(np.c_[X, 1e-9 * X[:, 0]], Y)),
    "SVC max_iter": (ConvergenceWarning, lambda: SVC(max_iter=1).fit(X, Y)),
    "SVC sigmoid": (NotPSDWarning, lambda: SVC(kernel="sigmoid", gamma=1.0,
                                               coef0=1.0).fit(X, Y)),
    "NuSVC max_iter": (ConvergenceWarning, lambda: NuSVC(max_iter=1).fit(X, Y)),
    "SVR max_iter": (ConvergenceWarning, lambda: SVR(max_iter=1).fit(X, X[:, 0])),
    "OneClassSVM max_iter": (ConvergenceWarning, lambda: OneClassSVM(max_iter=1).fit(X)),
    "LinearSVC max_iter": (ConvergenceWarning, lambda: LinearSVC(max_iter=1).fit(X, Y)),
    "logistic max_iter": (ConvergenceWarning, lambda: LogisticRegression(max_iter=1).fit(X, Y)),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_warning_names_the_users_line(case):
    category, fit = CASES[case]
    for filename, _ in caught_at(category, fit):
        assert filename == __file__, case


COLUMN = Y.reshape(-1, 1)
#: a target given as one column, shape (n, 1): scikit-learn's DataConversionWarning
COLUMN_CASES = {
    "SVC": lambda: SVC().fit(X, COLUMN),
    "SVR": lambda: SVR().fit(X, X[:, :1]),
    "LinearSVC": lambda: LinearSVC().fit(X, COLUMN),
    "logistic": lambda: LogisticRegression().fit(X, COLUMN),
    "tree": lambda: DecisionTreeClassifier().fit(X, COLUMN),
}


@pytest.mark.parametrize("case", sorted(COLUMN_CASES))
def test_a_column_target_warns_at_the_users_line(case):
    from sklearn.exceptions import DataConversionWarning

    for filename, _ in caught_at(DataConversionWarning, COLUMN_CASES[case]):
        assert filename == __file__, case


def test_a_column_target_fits_as_its_1d_target():
    """The warning's conversion is scikit-learn's own: the same fit as the 1-d target."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        column = SVC().fit(X, COLUMN)
    flat = SVC().fit(X, Y)
    assert np.array_equal(column.dual_coef_, flat.dual_coef_)
    assert np.array_equal(column.predict(X), flat.predict(X))
