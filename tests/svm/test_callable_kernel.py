"""SVC(kernel=callable): a plain function k(A, B) -> Gram, as scikit-learn takes one."""

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC as SkSVC

from hyperplane.kernels import FunctionKernel
from hyperplane.svm import SVC


def _data():
    X, y = load_breast_cancer(return_X_y=True)
    return StandardScaler().fit_transform(X), y


def quadratic(A, B):
    return (A @ B.T / A.shape[1] + 1.0) ** 2


def test_a_function_kernel_gives_libsvm_s_model():
    X, y = _data()
    ours = SVC(kernel=quadratic, C=1.0, tol=1e-8).fit(X, y)
    theirs = SkSVC(kernel=quadratic, C=1.0, tol=1e-8).fit(X, y)
    assert np.array_equal(np.sort(ours.support_), np.sort(theirs.support_))
    np.testing.assert_allclose(ours.decision_function(X), theirs.decision_function(X),
                               atol=1e-5)


def test_the_function_kernel_is_the_function():
    A = np.array([[1.0, 2.0], [3.0, -1.0]])
    np.testing.assert_array_equal(FunctionKernel(quadratic)(A), quadratic(A, A))


def test_a_function_returning_nan_is_a_clear_error():
    X, y = _data()
    with pytest.raises(ValueError, match="NaN or inf"):
        SVC(kernel=lambda A, B: np.full((len(A), len(B)), np.nan)).fit(X, y)


def test_a_function_of_the_wrong_shape_is_named():
    X, y = _data()
    with pytest.raises(ValueError, match="shape"):
        SVC(kernel=lambda A, B: np.ones((len(A), 1))).fit(X, y)


def test_something_not_callable_is_refused_by_the_parameter_rule():
    X, y = _data()
    with pytest.raises((TypeError, ValueError), match="kernel"):
        SVC(kernel=3).fit(X, y)
