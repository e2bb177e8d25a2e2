import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.estimator_checks import check_estimator

from hyperplane.datasets import load_perceptron_example
from hyperplane.kernels import RBF, Linear, Polynomial
from hyperplane.linear import DualPerceptron, Perceptron


def xor(n_per_corner=10, seed=0):
    rng = np.random.default_rng(seed)
    corners = np.array([[1, 1], [-1, -1], [1, -1], [-1, 1]], dtype=float)
    labels = np.array([1, 1, -1, -1])
    X = np.vstack([c + 0.2 * rng.normal(size=(n_per_corner, 2)) for c in corners])
    y = np.repeat(labels, n_per_corner)
    return X, y


def test_example_2_2_book_values():
    X, y = load_perceptron_example()
    model = DualPerceptron(record_trace=True).fit(X, y)
    np.testing.assert_array_equal(model.gram_, [[18, 21, 6], [21, 25, 7], [6, 7, 2]])
    np.testing.assert_array_equal(model.alpha_, [2, 0, 5])
    np.testing.assert_array_equal(model.intercept_, [-3])
    np.testing.assert_array_equal(model.coef_, [[1, 1]])
    # 李航 表2.2: the same misclassified points as 例2.1
    assert model.trace_["sample"].tolist() == [0, 2, 2, 2, 0, 2, 2]
    assert [list(a) for a in model.trace_["alpha"]][-1] == [2, 0, 5]
    assert model.trace_["b"].tolist() == [1, 0, -1, -2, -1, -2, -3]


@pytest.mark.parametrize("kernel", [RBF(sigma=0.7), Polynomial(degree=2), "rbf", "poly"])
def test_kernel_perceptron_separates_xor(kernel):
    X, y = xor()
    model = DualPerceptron(kernel=kernel, degree=2, coef0=1.0).fit(X, y)
    assert model.converged_
    np.testing.assert_array_equal(model.predict(X), y)
    X_new, y_new = xor(seed=1)
    assert model.score(X_new, y_new) >= 0.95


def test_linear_perceptron_cannot_separate_xor():
    X, y = xor()
    with pytest.warns(ConvergenceWarning):
        model = Perceptron(max_iter=50).fit(X, y)
    assert not model.converged_ and model.score(X, y) < 1.0


def test_combined_kernel_object_is_accepted():
    X, y = xor()
    kernel = 0.5 * RBF(sigma=1.0) + Polynomial(degree=2) * Linear()
    model = DualPerceptron(kernel=kernel).fit(X, y)
    np.testing.assert_array_equal(model.predict(X), y)
    np.testing.assert_allclose(model.gram_, kernel(X))
    assert not hasattr(model, "coef_")


def test_decision_function_is_the_dual_expansion():
    X, y = xor(seed=3)
    model = DualPerceptron(kernel=RBF(sigma=0.5)).fit(X, y)
    X_new = np.random.default_rng(0).normal(size=(5, 2))
    K = RBF(sigma=0.5)(X_new, X)
    expected = K @ (model.alpha_ * y) + model.intercept_[0]
    np.testing.assert_allclose(model.decision_function(X_new), expected, rtol=1e-12)


def test_multiclass_alpha_shape():
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(loc=c, size=(15, 2)) for c in ([0, 4], [4, 0], [-4, -4])])
    y = np.repeat(["a", "b", "c"], 15)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model = DualPerceptron(kernel="rbf", max_iter=100).fit(X, y)
    assert model.alpha_.shape == (3, 45) and model.intercept_.shape == (3,)
    assert model.score(X, y) > 0.95


def test_non_separable_stops_with_warning():
    X, y = xor()
    with pytest.warns(ConvergenceWarning, match="kernel"):
        model = DualPerceptron(max_iter=5).fit(X, y)
    assert model.converged_ is False and model.n_iter_ == 5


@pytest.mark.parametrize("params, match", [
    ({"eta": 0.0}, "eta"), ({"max_iter": -1}, "max_iter"),
    ({"kernel": "cosine"}, "kernel"), ({"kernel": "rbf", "gamma": -1.0}, "gamma"),
])
def test_bad_parameters_are_named(params, match):
    X, y = load_perceptron_example()
    with pytest.raises((ValueError, TypeError), match=match):
        DualPerceptron(**params).fit(X, y)


#: algorithm 2.2 is online: an integer weight scales one update, a repeated row makes two
ONLINE = "online rule: an integer weight scales one update, a repeated row makes two"


def test_check_estimator():
    check_estimator(DualPerceptron(), expected_failed_checks={
        "check_sample_weight_equivalence_on_dense_data": ONLINE,
        "check_sample_weight_equivalence_on_sparse_data": ONLINE})


def test_sample_weights_scale_each_step_and_zero_drops_the_row():
    """alpha_i grows by eta s_i at each update of sample i; a zero weight is a
    dropped row (never visited); weights are checked by name."""
    from hyperplane.datasets import load_perceptron_example

    X, y = load_perceptron_example()
    book = DualPerceptron(eta=1.0).fit(X, y)
    doubled = DualPerceptron(eta=1.0).fit(X, y, sample_weight=[2.0, 2.0, 2.0])
    half_eta = DualPerceptron(eta=2.0).fit(X, y)
    np.testing.assert_array_equal(doubled.alpha_, half_eta.alpha_)      # s = 2 is eta = 2
    np.testing.assert_array_equal(book.alpha_, [2.0, 0.0, 5.0])          # 例2.2
    X4 = np.vstack([X, [[0.0, 5.0]]])
    y4 = np.r_[y, -1]
    dropped = DualPerceptron(eta=1.0).fit(X4, y4, sample_weight=[1.0, 1.0, 1.0, 0.0])
    np.testing.assert_array_equal(dropped.alpha_, [2.0, 0.0, 5.0, 0.0])
    assert dropped.intercept_[0] == book.intercept_[0] and dropped.converged_
    with pytest.raises(ValueError, match="non-negative; row 1"):
        DualPerceptron().fit(X, y, sample_weight=[1.0, -1.0, 1.0])
    with pytest.raises(ValueError, match="zero for every sample"):
        DualPerceptron().fit(X, y, sample_weight=[0.0, 0.0, 0.0])
