"""LinearSVC(multi_class="crammer_singer") (LIBLINEAR -s 4) against
scikit-learn's: the same W and b; sparse input gives the dense model bit for
bit; the block minimiser against the optimality conditions of its QP."""

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import load_iris, make_classification
from sklearn.svm import LinearSVC as LibLinearSVC

from hyperplane.svm import LinearSVC
from hyperplane.svm._crammer_singer_kernels import (block_extremes, block_minimiser,
                                                  block_violation, shrink_block)

from ._real_data import real_classification


def cs_objective(coef, intercept, X, y, C):
    """1/2 sum_m (|w_m|^2 + b_m^2) + sum_i C_i max_m (1 - [m = y_i] + f_m(x_i) - f_{y_i}(x_i))."""
    F = np.asarray(X @ coef.T) + intercept
    n = F.shape[0]
    hinge = np.max(1.0 - np.eye(F.shape[1])[y] + F - F[np.arange(n), y][:, None], axis=1)
    return 0.5 * (np.sum(coef ** 2) + np.sum(intercept ** 2)) + np.sum(C * hinge)


def fit_both(X, y, sample_weight=None, **params):
    params = dict(multi_class="crammer_singer", tol=1e-9, max_iter=200_000, **params)
    ours = LinearSVC(**params).fit(X, y, sample_weight=sample_weight)
    peer = LibLinearSVC(random_state=0, **params).fit(X, y, sample_weight=sample_weight)
    return ours, peer


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("C", [0.1, 1.0])
def test_same_model_as_liblinear(sparse, C):
    X, y = load_iris(return_X_y=True)
    if sparse:
        X = sp.csr_matrix(np.where(X > 1.0, X, 0.0))
    ours, peer = fit_both(X, y, C=C)
    assert ours.converged_ and ours.coef_.shape == (3, 4)
    np.testing.assert_allclose(ours.coef_, peer.coef_, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ours.intercept_, peer.intercept_, rtol=1e-5, atol=1e-6)
    f_ours = cs_objective(ours.coef_, ours.intercept_, X, y, C)
    assert f_ours <= cs_objective(peer.coef_, peer.intercept_, X, y, C) * (1 + 1e-9)
    np.testing.assert_array_equal(ours.predict(X), peer.predict(X))


@pytest.mark.parametrize("data", ["breast_cancer", "heart_scale"])
def test_real_data_as_liblinear(data):
    """Breast cancer (standardised, dense) and heart_scale (CSR): LIBLINEAR's
    Crammer-Singer model, decision values and predictions."""
    X, y = real_classification(data)
    ours, peer = fit_both(X, y, C=0.1)
    assert ours.converged_
    np.testing.assert_allclose(ours.coef_, peer.coef_, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ours.intercept_, peer.intercept_, rtol=1e-5, atol=1e-6)
    # two classes: coef_ is w_1 - w_0 (scikit-learn's form), so the decision values compare
    np.testing.assert_allclose(ours.decision_function(X), peer.decision_function(X), atol=1e-5)
    np.testing.assert_array_equal(ours.predict(X), peer.predict(X))


def test_two_classes_give_the_difference_of_the_scores():
    X, y = make_classification(n_samples=300, n_features=10, random_state=0)
    ours, peer = fit_both(X, y, C=0.1)
    assert ours.coef_.shape == (1, 10)
    np.testing.assert_allclose(ours.coef_, peer.coef_, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ours.intercept_, peer.intercept_, rtol=1e-5, atol=1e-6)


def test_class_and_sample_weights_as_liblinear():
    X, y = load_iris(return_X_y=True)
    weight = np.random.default_rng(0).uniform(0.5, 2.0, size=len(y))
    ours, peer = fit_both(X, y, sample_weight=weight, C=0.5, class_weight={0: 3.0, 1: 0.5})
    np.testing.assert_allclose(ours.coef_, peer.coef_, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ours.intercept_, peer.intercept_, rtol=1e-5, atol=1e-6)


def test_without_intercept_as_liblinear():
    X, y = load_iris(return_X_y=True)
    ours, peer = fit_both(X, y, C=0.5, fit_intercept=False)
    assert not np.any(ours.intercept_)
    np.testing.assert_allclose(ours.coef_, peer.coef_, rtol=1e-5, atol=1e-6)


def test_sparse_equals_dense_bit_for_bit():
    X, y = make_classification(n_samples=200, n_features=8, n_informative=4, n_classes=3,
                               random_state=1)
    X = np.where(np.abs(X) > 0.8, X, 0.0)
    params = dict(multi_class="crammer_singer", C=0.5, tol=1e-8, max_iter=50_000)
    sparse = LinearSVC(**params).fit(sp.csr_matrix(X), y)
    dense = LinearSVC(**params).fit(X, y)
    np.testing.assert_array_equal(sparse.coef_, dense.coef_)
    np.testing.assert_array_equal(sparse.intercept_, dense.intercept_)


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 10_000), K=st.integers(2, 6))
def test_block_minimiser_meets_the_optimality_conditions(seed, K):
    """The block's QP min 1/2 A|a|^2 + B.a, a_m <= 0 (m != y), a_y <= C, sum a = 0:
    the solution is feasible and its gradient B + A a leaves no violation."""
    rng = np.random.default_rng(seed)
    A, C_y, y = rng.uniform(0.1, 5.0), rng.uniform(0.1, 3.0), int(rng.integers(0, K))
    B = rng.normal(size=K) * 3
    a = np.empty(K)
    block_minimiser(A, B, y, C_y, a)
    assert abs(a.sum()) <= 1e-10
    assert a[y] <= C_y + 1e-12 and np.all(np.delete(a, y) <= 1e-12)
    assert block_violation(B + A * a, a, y, C_y) <= 1e-9


def test_block_violation_by_hand():
    """G = (0.5, 2, 1), y = 0, alpha = (0.2, 0, -0.2), C = 1: max G = 2; the
    variables below their bound are alpha_0 (0.2 < 1) and alpha_2 (< 0), min G = 0.5."""
    assert block_violation(np.array([0.5, 2.0, 1.0]), np.array([0.2, 0.0, -0.2]), 0, 1.0) == 1.5


def test_not_converged_warns():
    from sklearn.exceptions import ConvergenceWarning

    X, y = load_iris(return_X_y=True)
    with pytest.warns(ConvergenceWarning, match="max_iter"):
        model = LinearSVC(multi_class="crammer_singer", max_iter=2, tol=1e-12).fit(X, y)
    assert not model.converged_ and model.n_iter_ == 2


def test_check_estimator():
    from sklearn.utils.estimator_checks import check_estimator

    check_estimator(LinearSVC(multi_class="crammer_singer"), expected_failed_checks={
        "check_sample_weight_equivalence_on_dense_data":
            "coordinate descent visits samples in a random order (as sklearn.svm.LinearSVC)",
        "check_sample_weight_equivalence_on_sparse_data":
            "coordinate descent visits samples in a random order (as sklearn.svm.LinearSVC)",
    })


def shrink_block_reference(G, alpha, y, C_y, minG):
    """The variables that stay: not (at their bound and G_m < minG)."""
    bound = np.where(np.arange(len(G)) == y, C_y, 0.0)
    return {m for m in range(len(G)) if not (alpha[m] == bound[m] and G[m] < minG)}


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 10_000), K=st.integers(2, 7))
def test_shrink_block_keeps_exactly_the_variables_that_may_move(seed, K):
    """Keerthi et al. 2008 §4: a variable at its bound with G_m below the free
    variables' smallest gradient leaves the block; the others come first, with
    their G, alpha and class moved together and the label's position tracked."""
    rng = np.random.default_rng(seed)
    y, C_y = int(rng.integers(0, K)), 1.5
    alpha = np.where(rng.random(K) < 0.5, 0.0, -rng.random(K))
    alpha[y] = C_y if rng.random() < 0.5 else 0.7
    G = rng.normal(size=K)
    minG, _ = block_extremes(G, alpha, y, C_y)
    classes = np.arange(K, dtype=np.int64)
    G2, alpha2 = G.copy(), alpha.copy()
    n, y2 = shrink_block(G2, alpha2, classes, K, y, C_y, minG)
    assert set(classes[:n].tolist()) == shrink_block_reference(G, alpha, y, C_y, minG)
    np.testing.assert_array_equal(G2, G[classes])
    np.testing.assert_array_equal(alpha2, alpha[classes])
    assert classes[y2] == y


def test_shrinking_stops_at_the_objective_of_a_tighter_peer():
    """The blocks shrink, yet the stopping test is taken over all variables: at
    tol = 1e-6 the objective equals scikit-learn's solved at tol = 1e-10."""
    X, y = make_classification(n_samples=400, n_features=6, n_informative=4, n_classes=4,
                               random_state=3)
    model = LinearSVC(multi_class="crammer_singer", C=0.5, tol=1e-6, max_iter=100_000).fit(X, y)
    peer = LibLinearSVC(multi_class="crammer_singer", C=0.5, tol=1e-10, max_iter=1_000_000,
                        random_state=0).fit(X, y)
    assert model.converged_
    f_ours = cs_objective(model.coef_, model.intercept_, X, y, 0.5)
    f_peer = cs_objective(peer.coef_, peer.intercept_, X, y, 0.5)
    assert abs(f_ours - f_peer) <= 1e-6 * abs(f_peer)
