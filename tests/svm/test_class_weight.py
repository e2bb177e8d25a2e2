"""SVC's class and sample weights (LIBSVM's -wi: C_i = C w_{y_i} s_i) against
scikit-learn's SVC with the same weights, and the weights as repeated or
dropped rows (the dual is order-free: two copies of a row with bound C are
one row with bound 2C)."""

import numpy as np
import pytest
from sklearn.datasets import load_iris, make_classification
from sklearn.svm import SVC as LibSVC

from hyperplane.svm import SVC

TOL = 1e-10


@pytest.mark.parametrize("class_weight", [{0: 4.0}, {1: 0.3, 0: 2.5}, "balanced"])
@pytest.mark.parametrize("kernel", ["rbf", "linear"])
def test_binary_class_weight_is_libsvms(class_weight, kernel):
    X, y = make_classification(120, 4, weights=[0.8], random_state=1)
    ours = SVC(kernel=kernel, class_weight=class_weight, tol=TOL).fit(X, y)
    theirs = LibSVC(kernel=kernel, class_weight=class_weight, tol=TOL).fit(X, y)
    np.testing.assert_array_equal(np.sort(ours.support_), np.sort(theirs.support_))
    # both cache kernel rows in float32 (LIBSVM's Qfloat); x.x of the linear
    # kernel is summed in a different order, a few 1e-6 apart
    np.testing.assert_allclose(ours.decision_function(X), theirs.decision_function(X),
                               atol=1e-6 if kernel == "rbf" else 1e-5)
    np.testing.assert_allclose(ours.class_weight_, theirs.class_weight_)


def test_multiclass_class_weight_and_sample_weight_are_libsvms():
    X, y = load_iris(return_X_y=True)
    s = np.random.default_rng(0).uniform(0.2, 3.0, size=len(y))
    ours = SVC(class_weight={0: 0.5, 2: 3.0}, tol=TOL).fit(X, y, sample_weight=s)
    theirs = LibSVC(class_weight={0: 0.5, 2: 3.0}, tol=TOL,
                    decision_function_shape="ovo").fit(X, y, sample_weight=s)
    np.testing.assert_array_equal(np.sort(ours.support_), np.sort(theirs.support_))
    # pair scores: LIBSVM's are positive for the pair's first class
    # float32 kernel rows in both (LIBSVM's Qfloat): agreement to a few 1e-6
    np.testing.assert_allclose(ours._expansion(X), -theirs.decision_function(X),
                               rtol=1e-5, atol=1e-6)


def test_string_labels_and_unknown_class():
    X, y = make_classification(80, 4, random_state=2)
    labels = np.where(y == 1, "yes", "no")
    a = SVC(class_weight={"yes": 3.0}, tol=TOL).fit(X, labels)
    b = SVC(tol=TOL).fit(X, y, sample_weight=np.where(y == 1, 3.0, 1.0))
    np.testing.assert_allclose(a.decision_function(X), b.decision_function(X), atol=1e-9)
    with pytest.raises(ValueError, match="'maybe'"):
        SVC(class_weight={"maybe": 2.0}).fit(X, labels)
    with pytest.raises(ValueError, match="class_weight"):
        SVC(class_weight={"yes": -1.0}).fit(X, labels)
    with pytest.raises(ValueError, match="class_weight"):
        SVC(class_weight="even").fit(X, labels)
    with pytest.raises(ValueError, match="zero for every sample"):
        SVC(class_weight={"yes": 0.0}).fit(X, labels)


@pytest.mark.parametrize("kernel", ["rbf", "poly"])
def test_integer_weights_are_repeated_rows(kernel):
    X, y = make_classification(60, 4, random_state=3)
    w = np.random.default_rng(1).integers(0, 4, size=len(y))
    weighted = SVC(kernel=kernel, gamma=0.3, tol=TOL).fit(X, y, sample_weight=w)
    repeated = SVC(kernel=kernel, gamma=0.3, tol=TOL).fit(np.repeat(X, w, axis=0),
                                                           np.repeat(y, w))
    np.testing.assert_allclose(weighted.decision_function(X), repeated.decision_function(X),
                               atol=1e-6)
    # zero weight is a dropped row
    dropped = SVC(kernel=kernel, gamma=0.3, tol=TOL).fit(X[w > 0], y[w > 0],
                                                         sample_weight=w[w > 0])
    np.testing.assert_allclose(weighted.decision_function(X), dropped.decision_function(X),
                               atol=1e-9)
    assert not np.isin(np.flatnonzero(w == 0), weighted.support_).any()


def test_integer_class_weight_is_repeated_class():
    X, y = load_iris(return_X_y=True)
    weighted = SVC(class_weight={1: 3}, gamma=0.5, tol=TOL).fit(X, y)
    rows = np.repeat(np.arange(len(y)), np.where(y == 1, 3, 1))
    repeated = SVC(gamma=0.5, tol=TOL).fit(X[rows], y[rows])    # gamma fixed: "scale" reads X
    np.testing.assert_allclose(weighted.decision_function(X), repeated.decision_function(X),
                               atol=1e-6)
