"""OneClassSVM against scikit-learn's OneClassSVM (LIBSVM) on real data,
dense and sparse, its KKT conditions and its parameters."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import load_breast_cancer, load_diabetes
from sklearn.preprocessing import StandardScaler
from sklearn.svm import OneClassSVM as LibOneClassSVM
from sklearn.utils.estimator_checks import check_estimator

from hyperplane.datasets import load_heart_scale
from hyperplane.svm import OneClassSVM
from hyperplane.svm._one_class import one_class_start


def real_data(name):
    if name == "heart_scale":
        return sp.csr_matrix(load_heart_scale()[0])
    load = {"breast_cancer": load_breast_cancer, "diabetes": load_diabetes}[name]
    return StandardScaler().fit_transform(load().data)


@pytest.mark.parametrize("name", ["breast_cancer", "diabetes", "heart_scale"])
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("kernel, nu", [("rbf", 0.1), ("rbf", 0.5), ("poly", 0.2)])
def test_same_support_and_decision_values_as_libsvm(name, sparse, kernel, nu):
    X = real_data(name)
    X = sp.csr_matrix(X) if sparse else (X.toarray() if sp.issparse(X) else X)
    params = dict(kernel=kernel, nu=nu, gamma="scale", coef0=1.0, degree=2)
    ours = OneClassSVM(**params).fit(X)
    peer = LibOneClassSVM(**params).fit(X)
    np.testing.assert_array_equal(ours.support_, peer.support_)
    np.testing.assert_array_equal(ours.n_support_, peer.n_support_)
    peer_coef = peer.dual_coef_.toarray() if sp.issparse(peer.dual_coef_) else peer.dual_coef_
    # the duals stop at tol=1e-3: a path that differs in float32 rounding
    # (poly) ends at other multipliers of the same support and decision values
    np.testing.assert_allclose(ours.dual_coef_, peer_coef, atol=1e-2)
    f_peer = peer.decision_function(X)
    atol = 1e-4 * max(1.0, np.abs(peer.score_samples(X)).max())  # 1e-4 of the scores' scale
    np.testing.assert_allclose(ours.decision_function(X), f_peer, atol=atol)
    np.testing.assert_allclose(ours.score_samples(X), peer.score_samples(X), atol=atol)
    np.testing.assert_allclose(ours.offset_, np.ravel(peer.offset_)[0], atol=atol)
    np.testing.assert_allclose(ours.intercept_, peer.intercept_, atol=atol)
    clear = np.abs(f_peer) > atol        # the sign of f on the boundary is rounding
    np.testing.assert_array_equal(ours.predict(X)[clear], peer.predict(X)[clear])


@pytest.mark.parametrize("l, nu", [(10, 0.25), (7, 1.0), (5, 0.01), (100, 0.37)])
def test_start_is_feasible(l, nu):
    """LIBSVM's start: floor(nu l) ones, then the fraction; sum = nu l."""
    alpha = one_class_start(l, nu)
    assert np.all((alpha >= 0) & (alpha <= 1))
    assert abs(alpha.sum() - nu * l) <= 1e-12
    n = int(nu * l)
    assert np.all(alpha[:n] == 1) and np.all(alpha[n + 1:] == 0)


def test_kkt_conditions_and_nu_property():
    """sum a = nu l, 0 <= a <= 1; free a have f = 0, a = 0 have f >= 0,
    a = 1 have f <= 0; training outliers <= nu <= support fraction."""
    X = real_data("breast_cancer")
    nu, tol = 0.2, 1e-6
    oc = OneClassSVM(nu=nu, gamma=0.05, tol=tol).fit(X)
    a = np.zeros(X.shape[0])
    a[oc.support_] = oc.dual_coef_[0]
    assert abs(a.sum() - nu * X.shape[0]) <= 1e-8
    assert np.all((a >= 0) & (a <= 1))
    K = oc.kernel_(X)
    f = K @ a - oc.offset_
    np.testing.assert_allclose(oc.decision_function(X), f, atol=1e-8)
    slack = 2 * tol
    free = (a > 0) & (a < 1)
    assert free.any()
    np.testing.assert_allclose(f[free], 0, atol=slack)
    assert np.all(f[a == 0] >= -slack) and np.all(f[a == 1] <= slack)
    assert np.mean(f < -slack) <= nu <= np.mean(a > 0)


@pytest.mark.parametrize("nu", [0.0, -0.1, 1.5, "half"])
def test_bad_nu_names_the_parameter(nu):
    with pytest.raises((ValueError, TypeError), match="nu"):
        OneClassSVM(nu=nu).fit(np.eye(4))


def test_check_estimator():
    # the check compares default fits (tol=1e-3): the weighted and the repeated problems
    # stop at different approximate solutions, as scikit-learn's OneClassSVM declares too;
    # at tol=1e-10 they agree (test_sample_weight_as_libsvm_and_as_repeated_rows)
    reason = "SMO stops at tol=1e-3 on each problem (as sklearn.svm.OneClassSVM)"
    check_estimator(OneClassSVM(), expected_failed_checks={
        "check_sample_weight_equivalence_on_dense_data": reason,
        "check_sample_weight_equivalence_on_sparse_data": reason})


@pytest.mark.parametrize("nu", [0.1, 0.5])
def test_precomputed_kernel_as_libsvm(nu):
    """kernel="precomputed": fit on the Gram, predict on the test x train block."""
    X = real_data("breast_cancer")
    train, test = X[:400], X[400:]
    K = np.exp(-0.05 * ((train[:, None] - train[None]) ** 2).sum(-1))
    K_test = np.exp(-0.05 * ((test[:, None] - train[None]) ** 2).sum(-1))
    ours = OneClassSVM(kernel="precomputed", nu=nu).fit(K)
    peer = LibOneClassSVM(kernel="precomputed", nu=nu).fit(K)
    np.testing.assert_array_equal(ours.support_, peer.support_)
    np.testing.assert_allclose(ours.decision_function(K_test), peer.decision_function(K_test),
                               atol=1e-4)
    same = OneClassSVM(kernel="rbf", gamma=0.05, nu=nu).fit(train)
    np.testing.assert_allclose(ours.decision_function(K_test), same.decision_function(test),
                               atol=1e-4)


def test_precomputed_needs_a_square_gram():
    with pytest.raises(ValueError, match="square"):
        OneClassSVM(kernel="precomputed").fit(np.ones((4, 3)))


def test_recorded_steps_start_feasible_and_end_at_libsvm_s_solution():
    """record_trace: the traced solve (no shrinking) starts from LIBSVM's feasible
    alpha (sum alpha = nu l; alpha = 0 is not feasible) and reaches the same
    decision values as LIBSVM; its last row's objective is objective_."""
    X = StandardScaler().fit_transform(load_breast_cancer().data[:120, :6])
    traced = OneClassSVM(nu=0.3, gamma=0.2, tol=1e-6, record_trace=True).fit(X)
    libsvm = LibOneClassSVM(nu=0.3, gamma=0.2, tol=1e-6).fit(X)
    trace = traced.trace_
    assert len(trace) == traced.n_iter_ > 0
    assert trace["iteration"].tolist() == list(range(1, len(trace) + 1))
    np.testing.assert_allclose(trace["objective"].iloc[-1], traced.objective_, rtol=1e-12)
    assert np.all(np.diff(trace["objective"]) <= 1e-12)  # each SMO step lowers the dual
    np.testing.assert_allclose(traced.decision_function(X), libsvm.decision_function(X),
                               atol=1e-4)
    assert not hasattr(OneClassSVM(nu=0.3, gamma=0.2).fit(X), "trace_")


@pytest.mark.parametrize("sparse", [False, True])
def test_sample_weight_as_libsvm_and_as_repeated_rows(sparse):
    """sample_weight: a_i <= w_i and sum a_i = nu sum w_i (scikit-learn's LIBSVM);
    integer weights give the model of repeated rows; weight 0 drops the row."""
    rng = np.random.default_rng(1)
    X = rng.normal(size=(80, 3))
    w = rng.integers(0, 4, size=80).astype(float)
    data = sp.csr_matrix(X) if sparse else X
    ours = OneClassSVM(nu=0.3, gamma=0.3, tol=1e-8).fit(data, sample_weight=w)
    libsvm = LibOneClassSVM(nu=0.3, gamma=0.3, tol=1e-8).fit(data, sample_weight=w)
    np.testing.assert_allclose(ours.decision_function(data), libsvm.decision_function(data),
                               atol=1e-5)
    kept = np.flatnonzero(w > 0)   # scikit-learn numbers its support among the kept rows
    assert ours.support_.tolist() == sorted(kept[libsvm.support_].tolist())
    repeated = OneClassSVM(nu=0.3, gamma=0.3, tol=1e-10).fit(np.repeat(X, w.astype(int), axis=0))
    weighted = OneClassSVM(nu=0.3, gamma=0.3, tol=1e-10).fit(X, sample_weight=w)
    np.testing.assert_allclose(weighted.decision_function(X), repeated.decision_function(X),
                               atol=1e-7)


def test_bad_sample_weight_is_named():
    X = np.random.default_rng(0).normal(size=(10, 2))
    with pytest.raises(ValueError, match="sample_weight"):
        OneClassSVM().fit(X, sample_weight=np.zeros(10))
    with pytest.raises(ValueError, match="sample_weight"):
        OneClassSVM().fit(X, sample_weight=-np.ones(10))
