"""NuSVC and NuSVR against scikit-learn's LIBSVM (same data, same
parameters), the nu dual's constraints, precomputed kernels and the
decision-function shapes."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import svm as sk_svm
from sklearn.datasets import load_breast_cancer, load_diabetes, load_iris, load_wine
from sklearn.preprocessing import StandardScaler
from sklearn.utils.estimator_checks import check_estimator

from hyperplane.datasets import load_heart_scale
from hyperplane.svm import SVC, SVR, NuSVC, NuSVR
from tests.svm.test_sparse_svm import as_libsvm_input, random_sparse

SAMPLE_WEIGHT_XFAIL = {
    "check_sample_weight_equivalence_on_dense_data":
        "sample_weight is not equivalent to removing/repeating samples (as sklearn.svm)",
    "check_sample_weight_equivalence_on_sparse_data":
        "sample_weight is not equivalent to removing/repeating samples (as sklearn.svm)",
}


def breast_cancer():
    X, y = load_breast_cancer(return_X_y=True)
    return StandardScaler().fit_transform(X), y


def assert_same_classifier(ours, peer, X, atol=1e-5):
    np.testing.assert_array_equal(ours.support_, np.sort(peer.support_))
    np.testing.assert_array_equal(ours.n_support_, peer.n_support_)
    np.testing.assert_allclose(ours.decision_function(X), peer.decision_function(X),
                               rtol=0, atol=atol)
    np.testing.assert_array_equal(ours.predict(X), peer.predict(X))


# --------------------------------------------------------------------------
# NuSVC
# --------------------------------------------------------------------------
@pytest.mark.parametrize("kernel", ["rbf", "linear"])
@pytest.mark.parametrize("nu", [0.1, 0.3, 0.7])
def test_nusvc_matches_libsvm_on_breast_cancer(kernel, nu):
    X, y = breast_cancer()
    ours = NuSVC(nu=nu, kernel=kernel, tol=1e-8).fit(X, y)
    peer = sk_svm.NuSVC(nu=nu, kernel=kernel, tol=1e-8).fit(X, y)
    assert_same_classifier(ours, peer, X)
    np.testing.assert_allclose(ours.intercept_, peer.intercept_, atol=1e-5)


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("kernel", ["rbf", "linear", "poly"])
def test_nusvc_matches_libsvm_on_heart_scale(kernel, sparse):
    X, y = load_heart_scale()
    X = as_libsvm_input(sp.csr_matrix(X))
    if not sparse:
        X = X.toarray()
    ours = NuSVC(nu=0.4, kernel=kernel, tol=1e-8).fit(X, y)
    peer = sk_svm.NuSVC(nu=0.4, kernel=kernel, tol=1e-8).fit(X, y)
    assert sp.issparse(ours.support_vectors_) == sparse
    assert_same_classifier(ours, peer, X)


def test_nusvc_sparse_random_matches_libsvm():
    X, y = random_sparse(300, 80, 0.05, 8)[:2]
    X = as_libsvm_input(X)
    ours = NuSVC(nu=0.5, tol=1e-8).fit(X, y)
    peer = sk_svm.NuSVC(nu=0.5, tol=1e-8).fit(X, y)
    assert_same_classifier(ours, peer, X)


@pytest.mark.parametrize("shape", ["ovr", "ovo"])
def test_multiclass_decision_shapes_match_libsvm(shape):
    X, y = load_iris(return_X_y=True)
    for ours, peer in ((NuSVC(nu=0.3, tol=1e-8, decision_function_shape=shape),
                        sk_svm.NuSVC(nu=0.3, tol=1e-8, decision_function_shape=shape)),
                       (SVC(C=2.0, tol=1e-8, decision_function_shape=shape),
                        sk_svm.SVC(C=2.0, tol=1e-8, decision_function_shape=shape))):
        ours.fit(X, y)
        peer.fit(X, y)
        assert ours.decision_function(X).shape == (150, 3)
        assert_same_classifier(ours, peer, X, atol=1e-5)


def test_sample_weight_and_class_weight_as_weighted_libsvm():
    """scikit-learn's nu-SVC weighs each sample's bound (C_i = w_i); its
    NuSVC ignores class_weight, which here acts as the same per-sample weights."""
    X, y = breast_cancer()
    w = np.random.RandomState(0).uniform(0.2, 2.0, y.size)
    ours = NuSVC(nu=0.3, tol=1e-8).fit(X, y, sample_weight=w)
    peer = sk_svm.NuSVC(nu=0.3, tol=1e-8).fit(X, y, sample_weight=w)
    assert_same_classifier(ours, peer, X)
    by_class = NuSVC(nu=0.3, tol=1e-8, class_weight={0: 2.0, 1: 0.5}).fit(X, y)
    by_sample = NuSVC(nu=0.3, tol=1e-8).fit(X, y, sample_weight=np.where(y == 0, 2.0, 0.5))
    np.testing.assert_allclose(by_class.decision_function(X), by_sample.decision_function(X),
                               atol=1e-12)


def test_infeasible_nu_is_a_value_error_naming_nu():
    X, y = breast_cancer()
    rows = np.r_[np.flatnonzero(y == 0)[:20], np.flatnonzero(y == 1)[:80]]
    # 2 min / (n_a + n_b) = 0.4: LIBSVM refuses 0.5 and solves 0.39
    with pytest.raises(ValueError, match="infeasible"):
        sk_svm.NuSVC(nu=0.5).fit(X[rows], y[rows])
    with pytest.raises(ValueError, match=r"nu=0\.5 is infeasible.*0\.4"):
        NuSVC(nu=0.5).fit(X[rows], y[rows])
    assert_same_classifier(NuSVC(nu=0.39, tol=1e-8).fit(X[rows], y[rows]),
                           sk_svm.NuSVC(nu=0.39, tol=1e-8).fit(X[rows], y[rows]), X[rows])


@pytest.mark.parametrize("params, match", [({"nu": 0.0}, "nu"), ({"nu": 1.5}, "nu"),
                                           ({"decision_function_shape": "ova"},
                                            "decision_function_shape")])
def test_bad_parameters_are_named(params, match):
    X, y = breast_cancer()
    with pytest.raises(ValueError, match=match):
        NuSVC(**params).fit(X, y)


@settings(deadline=None, max_examples=25)
@given(seed=st.integers(0, 2 ** 31), nu=st.floats(0.05, 0.9), n=st.integers(20, 60))
def test_nu_bounds_support_vectors_and_constraints_hold(seed, nu, n):
    """Schölkopf et al. 2000, Proposition 5: with e'a_+ = e'a_- = nu l / 2 and
    0 <= a_i <= 1, at least nu l multipliers are positive; alpha_ = a / r
    keeps the two labels' sums equal."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    y = np.r_[np.zeros(n // 2), np.ones(n - n // 2)]
    X[y == 1] += 1.0
    model = NuSVC(nu=nu, tol=1e-8).fit(X, y)
    sums = [model.alpha_[y == c].sum() for c in (0, 1)]
    assert sums[0] == pytest.approx(sums[1], rel=1e-9)
    a = model.alpha_ / model.alpha_.max()        # a / r over the bound 1 / r
    assert model.support_.size >= nu * n - 1e-9
    assert np.count_nonzero(a >= 1.0 - 1e-12) <= nu * n + 1e-9


def test_record_trace_keeps_the_solution():
    X, y = load_heart_scale()
    traced = NuSVC(nu=0.4, tol=1e-6, record_trace=True).fit(X, y)
    plain = NuSVC(nu=0.4, tol=1e-6, shrinking=False).fit(X, y)
    assert len(traced.trace_) == traced.n_iter_
    np.testing.assert_allclose(traced.alpha_, plain.alpha_, atol=1e-12)
    last = traced.trace_.iloc[-1]
    assert last["violation"] == pytest.approx(last["m"] - last["M"])


def test_probability_as_libsvm():
    """LIBSVM's probability model, each fold solved as a nu-SVC. (Not on
    iris: see :func:`test_degenerate_fold_of_iris`.)"""
    X, y = load_wine(return_X_y=True)
    X = StandardScaler().fit_transform(X)
    ours = NuSVC(nu=0.3, probability=True, random_state=0, tol=1e-8).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)      # deprecated in scikit-learn 1.9
        peer = sk_svm.NuSVC(nu=0.3, probability=True, random_state=0, tol=1e-8).fit(X, y)
    np.testing.assert_allclose(ours.probA_, peer.probA_, atol=1e-4)
    np.testing.assert_allclose(ours.probB_, peer.probB_, atol=1e-4)
    np.testing.assert_allclose(ours.predict_proba(X), peer.predict_proba(X), atol=1e-4)


def test_degenerate_fold_of_iris():
    """Why NuSVC(probability=True) differs from scikit-learn's on iris: in
    fold 4 of the pair (versicolor, virginica), random_state=0, nu l / 2 =
    0.3 * 80 / 2 = 12 is an integer and at the optimum every multiplier of
    label +1 sits at a bound (twelve at 1, the rest at 0). Their gradients
    then only bound r_1 to [max G over alpha = 1, min G over alpha = 0]
    (Chang & Lin 2001, sec. 4): every r_1 there is optimal. This solver
    leaves them exactly at their bounds and takes the interval's middle,
    LIBSVM's rule without free multipliers; scikit-learn's LIBSVM leaves one
    at 1.8e-14, which counts as free and sets r_1 to its gradient, an end of
    the interval (svm-train 3.24 on the rows in LIBSVM's class order leaves
    one at 4.8e-7, with the same effect). Same multipliers and objective,
    another r and rho: that fold's decision values, hence Platt's sigmoid of
    the pair, differ (by up to 0.08)."""
    from hyperplane.svm._probability import FoldShuffle, fold_bounds

    X, y = load_iris(return_X_y=True)
    gamma = 1.0 / (X.shape[1] * X.var())
    rows = np.concatenate([np.flatnonzero(y == 1), np.flatnonzero(y == 2)])
    perm = FoldShuffle(0).permutation(rows.size)     # the folds of random_state=0
    begin, end = fold_bounds(rows.size)[3]
    train = rows[np.concatenate([perm[:begin], perm[end:]])]
    ours = NuSVC(nu=0.3, gamma=gamma, tol=1e-8).fit(X[train], y[train])
    peer = sk_svm.NuSVC(nu=0.3, gamma=gamma, tol=1e-8).fit(X[train], y[train])
    # multipliers alpha in [0, 1]: dual_coef_ holds alpha y / r, and 1 / r is the largest |value|
    a_ours = np.zeros(train.size)
    a_ours[ours.support_] = np.abs(ours.dual_coef_[0]) / np.abs(ours.dual_coef_).max()
    a_peer = np.zeros(train.size)
    a_peer[peer.support_] = np.abs(peer.dual_coef_[0]) / np.abs(peer.dual_coef_).max()
    np.testing.assert_allclose(a_ours, a_peer, atol=1e-5)
    first = y[train] == 1                             # LIBSVM's label +1 of the pair
    assert np.all((a_ours[first] == 0) | (a_ours[first] == 1))
    assert np.count_nonzero(a_ours[first] == 1) == 12
    # r_1's interval from the gradients G_t = sum_s alpha_s y_s y_t k(x_s, x_t) of label +1
    signs = np.where(first, 1.0, -1.0)
    sq = np.sum((X[train][:, None, :] - X[train][None, :, :]) ** 2, axis=2)
    G = signs * (np.exp(-gamma * sq) @ (a_ours * signs))
    low, high = G[first & (a_ours == 1)].max(), G[first & (a_ours == 0)].min()
    assert high - low > 0.005

    def r_1(model):
        """r_1 = rho + r: 1/r is the largest |dual_coef_|, and intercept_ =
        rho / r (LIBSVM's -rho / r with the pair's sign turned, positive for
        classes_[1])."""
        r = 1.0 / np.abs(model.dual_coef_).max()
        return (1.0 + model.intercept_[0]) * r

    assert r_1(ours) == pytest.approx((low + high) / 2, abs=1e-5)
    assert min(abs(r_1(peer) - low), abs(r_1(peer) - high)) < 1e-5


# --------------------------------------------------------------------------
# NuSVR
# --------------------------------------------------------------------------
@pytest.mark.parametrize("kernel", ["rbf", "linear"])
@pytest.mark.parametrize("nu", [0.2, 0.5, 0.9])
def test_nusvr_matches_libsvm_on_diabetes(kernel, nu):
    X, z = load_diabetes(return_X_y=True)
    ours = NuSVR(nu=nu, C=10.0, kernel=kernel, tol=1e-8).fit(X, z)
    peer = sk_svm.NuSVR(nu=nu, C=10.0, kernel=kernel, tol=1e-8).fit(X, z)
    np.testing.assert_array_equal(ours.support_, np.sort(peer.support_))
    np.testing.assert_allclose(ours.predict(X), peer.predict(X), rtol=0, atol=1e-4)
    np.testing.assert_allclose(ours.intercept_, peer.intercept_, atol=1e-4)
    # the tube's width: nu l_errors / l <= nu <= n_SV / l (Schölkopf et al. 2000)
    outside = np.abs(ours.predict(X) - z) > ours.epsilon_ + 1e-6
    assert outside.mean() <= nu + 1e-9 <= ours.support_.size / z.size + 2e-9


@pytest.mark.parametrize("sparse", [False, True])
def test_nusvr_matches_libsvm_on_heart_scale_and_sparse(sparse):
    X, y = load_heart_scale()
    X = as_libsvm_input(sp.csr_matrix(X))
    if not sparse:
        X = X.toarray()
    ours = NuSVR(nu=0.3, tol=1e-8).fit(X, y.astype(float))
    peer = sk_svm.NuSVR(nu=0.3, tol=1e-8).fit(X, y.astype(float))
    np.testing.assert_array_equal(ours.support_, np.sort(peer.support_))
    np.testing.assert_allclose(ours.predict(X), peer.predict(X), rtol=0, atol=1e-5)


def test_nusvr_sample_weight_matches_libsvm():
    X, z = load_diabetes(return_X_y=True)
    w = np.random.RandomState(1).uniform(0.2, 2.0, z.size)
    ours = NuSVR(nu=0.4, C=10.0, tol=1e-8).fit(X, z, sample_weight=w)
    peer = sk_svm.NuSVR(nu=0.4, C=10.0, tol=1e-8).fit(X, z, sample_weight=w)
    np.testing.assert_array_equal(ours.support_, np.sort(peer.support_))
    np.testing.assert_allclose(ours.predict(X), peer.predict(X), rtol=0, atol=1e-4)


# --------------------------------------------------------------------------
# kernel="precomputed": the same model as the kernel's own fit
# --------------------------------------------------------------------------
@pytest.mark.parametrize("make", [
    lambda kernel: SVC(kernel=kernel, C=2.0, tol=1e-8),
    lambda kernel: NuSVC(kernel=kernel, nu=0.3, tol=1e-8),
    lambda kernel: NuSVR(kernel=kernel, nu=0.3, tol=1e-8),
    lambda kernel: SVR(kernel=kernel, tol=1e-8),
])
def test_precomputed_is_the_kernels_own_fit(make):
    X, y = load_heart_scale()
    X = X.toarray() if sp.issparse(X) else np.asarray(X)
    X = X.astype(np.float32).astype(np.float64)
    train, test = np.arange(200), np.arange(200, X.shape[0])
    gamma = 0.05
    sq = (X ** 2).sum(1)
    K = np.exp(-gamma * np.maximum(sq[:, None] + sq[None] - 2 * X @ X.T, 0.0))
    own = make("rbf").set_params(gamma=gamma).fit(X[train], y[train])
    pre = make("precomputed").fit(K[np.ix_(train, train)], y[train])
    np.testing.assert_array_equal(pre.support_, own.support_)
    np.testing.assert_allclose(pre.predict(K[np.ix_(test, train)]), own.predict(X[test]),
                               atol=1e-4)
    if hasattr(own, "decision_function"):
        np.testing.assert_allclose(pre.decision_function(K[np.ix_(test, train)]),
                                   own.decision_function(X[test]), atol=1e-4)
    with pytest.raises(ValueError, match="square"):
        make("precomputed").fit(K[:, :100], y)
    with pytest.raises(ValueError, match="X has 100 features"):
        pre.predict(K[np.ix_(test, train[:100])])


def test_precomputed_multiclass_svc_matches_libsvm():
    X, y = load_iris(return_X_y=True)
    X = StandardScaler().fit_transform(X)
    sq = (X ** 2).sum(1)
    K = np.exp(-0.5 * (sq[:, None] + sq[None] - 2 * X @ X.T))
    for ours, peer in ((SVC(kernel="precomputed", tol=1e-8),
                        sk_svm.SVC(kernel="precomputed", tol=1e-8)),
                       (NuSVC(kernel="precomputed", nu=0.2, tol=1e-8),
                        sk_svm.NuSVC(kernel="precomputed", nu=0.2, tol=1e-8))):
        assert_same_classifier(ours.fit(K, y), peer.fit(K, y), K, atol=1e-5)


# --------------------------------------------------------------------------
# scikit-learn's estimator checks
# --------------------------------------------------------------------------
def test_check_estimator_nusvc():
    check_estimator(NuSVC(nu=0.1), expected_failed_checks={
        **SAMPLE_WEIGHT_XFAIL,
        # scikit-learn's NuSVC ignores class_weight (its own expected failure);
        # here class weights weigh the bounds, and the check's weights
        # (1e3 against 1e-4) leave no feasible nu
        "check_class_weight_classifiers": "class weights make the check's nu infeasible"})


def test_check_estimator_nusvr():
    check_estimator(NuSVR(), expected_failed_checks=SAMPLE_WEIGHT_XFAIL)


def test_nusvr_record_trace_keeps_the_solution():
    X, z = load_diabetes(return_X_y=True)
    traced = NuSVR(nu=0.3, C=10.0, tol=1e-6, record_trace=True).fit(X[:100], z[:100])
    plain = NuSVR(nu=0.3, C=10.0, tol=1e-6, shrinking=False).fit(X[:100], z[:100])
    assert len(traced.trace_) == traced.n_iter_
    assert set(traced.trace_["var_i"]) <= {"alpha", "alpha_hat"}
    np.testing.assert_allclose(traced.predict(X), plain.predict(X), atol=1e-10)


def python_fill_in_order(total, C):
    """LIBSVM's ``solve_nu_svc`` loop, one variable at a time in Python."""
    alpha = []
    for c in C:
        alpha.append(min(c, total))
        total -= alpha[-1]
    return np.array(alpha)


@given(total=st.floats(0.0, 50.0),
       C=st.lists(st.floats(0.0, 10.0) | st.sampled_from([0.1, 1.0 / 3, 0.7]), min_size=1, max_size=40))
def test_fill_in_order_is_the_python_loop(total, C):
    from hyperplane.svm._nu import fill_in_order

    C = np.array(C)
    got = fill_in_order(total, C)
    assert got.tobytes() == python_fill_in_order(total, C).tobytes()
