"""LinearSVR against scikit-learn's LinearSVR (LIBLINEAR -s 12/13): same w and
b, objective no larger; sparse input gives the dense model bit for bit; the
coordinate rule by hand; one compiled epoch against a NumPy reference."""

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import load_diabetes
from sklearn.exceptions import ConvergenceWarning
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVR as LibLinearSVR

from hyperplane.svm import LinearSVR
from hyperplane.svm._linear_svr import SVR_LOSSES, regression_rows
from hyperplane.svm._linear_svr_kernels import SVRProblem, SVRState, beta_step, svr_epoch

LOSSES = ["epsilon_insensitive", "squared_epsilon_insensitive"]


def primal(coef, intercept, X, y, C, epsilon, loss, scaling=1.0):
    """1/2 (|w|^2 + (b / scaling)^2) + sum_i C_i loss(y_i - f(x_i)), from the formula."""
    excess = np.maximum(0.0, np.abs(y - (np.asarray(X @ coef).ravel() + intercept)) - epsilon)
    return 0.5 * (coef @ coef + (intercept / scaling) ** 2) + np.sum(
        C * (excess ** 2 if loss == LOSSES[1] else excess))


def diabetes():
    X, y = load_diabetes(return_X_y=True)
    return StandardScaler().fit_transform(X), (y - y.mean()) / y.std()


def sparse_regression():
    rng = np.random.default_rng(7)
    X = sp.random(400, 60, density=0.08, format="csr", random_state=7)
    y = X @ rng.normal(size=60) + 0.1 * rng.normal(size=400)
    return X, y


def fit_both(X, y, **params):
    ours = LinearSVR(tol=1e-10, max_iter=200_000, **params).fit(X, y)
    peer = LibLinearSVR(tol=1e-10, max_iter=200_000, dual=True, random_state=0,
                        **params).fit(X, y)
    return ours, peer


@pytest.mark.parametrize("loss", LOSSES)
@pytest.mark.parametrize("data", [diabetes, sparse_regression])
@pytest.mark.parametrize("C, epsilon, scaling", [(1.0, 0.0, 1.0), (0.3, 0.2, 2.0)])
def test_same_model_as_liblinear(loss, data, C, epsilon, scaling):
    X, y = data()
    ours, peer = fit_both(X, y, loss=loss, C=C, epsilon=epsilon, intercept_scaling=scaling)
    assert ours.converged_
    scale = np.abs(peer.coef_).max()
    np.testing.assert_allclose(ours.coef_, peer.coef_, rtol=1e-4, atol=1e-4 * scale)
    np.testing.assert_allclose(ours.intercept_, peer.intercept_, rtol=1e-4, atol=1e-4 * scale)
    f_ours = primal(ours.coef_, ours.intercept_[0], X, y, C, epsilon, loss, scaling)
    f_peer = primal(peer.coef_, peer.intercept_[0], X, y, C, epsilon, loss, scaling)
    assert f_ours <= f_peer * (1 + 1e-9)
    assert ours.objective(X, y) == pytest.approx(f_ours, rel=1e-12)


@pytest.mark.parametrize("loss", LOSSES)
def test_sparse_equals_dense_bit_for_bit(loss):
    X, y = sparse_regression()
    sparse = LinearSVR(loss=loss, epsilon=0.05, tol=1e-8, max_iter=50_000).fit(X, y)
    dense = LinearSVR(loss=loss, epsilon=0.05, tol=1e-8, max_iter=50_000).fit(X.toarray(), y)
    np.testing.assert_array_equal(sparse.coef_, dense.coef_)
    np.testing.assert_array_equal(sparse.intercept_, dense.intercept_)
    assert sparse.n_iter_ == dense.n_iter_


@pytest.mark.parametrize("loss", LOSSES)
def test_sample_weight_as_liblinear(loss):
    X, y = diabetes()
    weight = np.random.default_rng(0).uniform(0.2, 3.0, size=len(y))
    ours = LinearSVR(loss=loss, tol=1e-10, max_iter=200_000).fit(X, y, sample_weight=weight)
    peer = LibLinearSVR(loss=loss, tol=1e-10, max_iter=200_000, dual=True,
                        random_state=0).fit(X, y, sample_weight=weight)
    np.testing.assert_allclose(ours.coef_, peer.coef_, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(ours.intercept_, peer.intercept_, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("loss", LOSSES)
def test_zero_weight_drops_the_row(loss):
    X, y = diabetes()
    weight = np.ones(len(y))
    weight[::3] = 0.0
    weighted = LinearSVR(loss=loss, tol=1e-10, max_iter=200_000).fit(X, y, sample_weight=weight)
    dropped = LinearSVR(loss=loss, tol=1e-10, max_iter=200_000).fit(X[weight > 0],
                                                                    y[weight > 0])
    np.testing.assert_array_equal(weighted.coef_, dropped.coef_)


def test_without_intercept_the_bias_is_zero_and_liblinear_agrees():
    X, y = diabetes()
    ours, peer = fit_both(X, y + 0.5, fit_intercept=False, epsilon=0.1)
    assert ours.intercept_.tolist() == [0.0]
    np.testing.assert_allclose(ours.coef_, peer.coef_, rtol=1e-4, atol=1e-5)


def test_beta_step_by_hand():
    """At beta = 0 with G = -1, p = 0.5: the derivative G + p = -0.5 < 0 violates
    by 0.5 and the Newton step is -(G + p) / H = 0.25 (H = 2); a bound beta with
    the derivative out of the box by more than Gmax_old is shrunk."""
    assert beta_step(-1.0, 0.0, 2.0, 1.0, 0.5, np.inf) == (False, 0.5, 0.25)
    assert beta_step(-1.0, 0.0, 2.0, 0.1, 0.5, np.inf) == (False, 0.5, 0.1)    # clipped to U
    assert beta_step(0.2, 0.0, 2.0, 1.0, 0.5, 0.1) == (True, 0.0, 0.0)       # inside the tube
    assert beta_step(0.2, 0.0, 2.0, 1.0, 0.5, np.inf) == (False, 0.0, 0.0)
    assert beta_step(-3.0, 1.0, 2.0, 1.0, 0.5, 1.0) == (True, 0.0, 1.0)      # at U, G + p < -1
    # beta = 0.3 > 0 violates by |G + p| = 1.5; neither side's Newton point lies on its
    # side (G - p = 0.5 <= H beta = 0.6 <= G + p), so the minimiser is beta = 0
    assert beta_step(1.0, 0.3, 2.0, 1.0, 0.5, np.inf) == (False, 1.5, 0.0)


def reference_epoch(X, y, lam, U, B, p, beta, order, n_active, Gmax_old):
    """Ho & Lin (2012), Algorithm 4 with shrinking, written with NumPy: w
    recomputed from beta at every step; the one-variable problem solved by
    comparing its three candidate minimisers (each side of 0, and 0)."""
    Xb = np.hstack([X, np.full((X.shape[0], 1), B)])
    beta, active, k, Gmax, Gnorm1 = beta.copy(), list(order), 0, 0.0, 0.0
    while k < n_active:
        i = active[k]
        G = Xb[i] @ (Xb.T @ beta) - y[i] + lam[i] * beta[i]
        H = Xb[i] @ Xb[i] + lam[i]
        Gp, Gn = G + p, G - p
        b = beta[i]
        shrink = (b == 0 and Gp > Gmax_old and Gn < -Gmax_old
                  or b >= U[i] and Gp <= 0 and Gp < -Gmax_old
                  or b <= -U[i] and Gn >= 0 and Gn > Gmax_old)
        if b == 0 and (Gp < 0 or Gn > 0):
            shrink = False
        if shrink:
            n_active -= 1
            active[k], active[n_active] = active[n_active], active[k]
            continue
        if b == 0:
            v = -Gp if Gp < 0 else Gn if Gn > 0 else 0.0
        elif b >= U[i]:
            v = max(Gp, 0.0)
        elif b <= -U[i]:
            v = max(-Gn, 0.0)
        else:
            v = abs(Gp) if b > 0 else abs(Gn)
        Gmax, Gnorm1 = max(Gmax, v), Gnorm1 + v
        # minimise G d + H d^2 / 2 + p |b + d| over d: the unconstrained minimisers
        d = -Gp / H if Gp < H * b else -Gn / H if Gn > H * b else -b
        if abs(d) >= 1e-12:
            beta[i] = np.clip(b + d, -U[i], U[i])
        k += 1
    return beta, Xb.T @ beta, active, n_active, Gmax, Gnorm1


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(1, 50), d=st.integers(1, 6),
       loss=st.sampled_from(LOSSES), warm=st.booleans(), sparse=st.booleans(),
       p=st.sampled_from([0.0, 0.1, 0.5]))
def test_epoch_matches_the_reference(seed, n, d, loss, warm, sparse, p):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) * (rng.random((n, d)) < 0.6)
    y = rng.normal(size=n)
    C = rng.uniform(0.1, 2.0, size=n)
    lam, U = SVR_LOSSES[loss](C)
    beta = np.clip(rng.normal(size=n), -U, U) * (rng.random(n) < 0.5) if warm else np.zeros(n)
    B = 1.5
    rows, norms = regression_rows(sp.csr_matrix(X) if sparse else X)
    Xb = np.hstack([X, np.full((n, 1), B)])
    state = SVRState(beta.copy(), Xb.T @ beta, np.arange(n, dtype=np.int64),
                     np.array([seed + 1], dtype=np.uint64))
    Gmax_old = float(rng.choice([np.inf, 0.5, 2.0]))
    n_active, Gmax, Gnorm1 = svr_epoch(SVRProblem(rows, y, lam, U, B, norms + B * B, p),
                                       state, n, Gmax_old)
    # the epoch shuffled state.active in place before its pass: replay the pass in
    # the order it left, which differs from the visited order only by the swaps
    # of shrunk variables behind the prefix; so compare against a fresh shuffle
    order = np.arange(n, dtype=np.int64)
    from hyperplane.svm._linear_svc_kernels import shuffle_prefix
    shuffle_prefix(order, n, np.array([seed + 1], dtype=np.uint64))
    ref = reference_epoch(X, y, lam, U, B, p, beta, order, n, Gmax_old)
    np.testing.assert_allclose(state.beta, ref[0], rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(state.w, ref[1], rtol=1e-9, atol=1e-9)
    assert state.active.tolist() == ref[2] and n_active == ref[3]
    assert Gmax == pytest.approx(ref[4], rel=1e-9, abs=1e-12)
    assert Gnorm1 == pytest.approx(ref[5], rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("params, error, match", [
    ({"C": 0.0}, ValueError, "C"),
    ({"epsilon": -0.1}, ValueError, "epsilon"),
    ({"loss": "hinge"}, ValueError, "loss"),
    ({"tol": 0.0}, ValueError, "tol"),
    ({"max_iter": 0}, ValueError, "max_iter"),
    ({"fit_intercept": "yes"}, TypeError, "fit_intercept"),
    ({"intercept_scaling": 0.0}, ValueError, "intercept_scaling"),
])
def test_bad_parameters_are_named(params, error, match):
    X, y = diabetes()
    with pytest.raises(error, match=match):
        LinearSVR(**params).fit(X, y)


def test_bad_target_and_weights():
    X, y = diabetes()
    with pytest.raises(ValueError, match="numeric target"):
        LinearSVR().fit(X[:3], ["a", "b", "c"])
    with pytest.raises(ValueError, match="zero for every sample"):
        LinearSVR().fit(X, y, sample_weight=np.zeros(len(y)))


def test_not_converged_warns():
    X, y = diabetes()
    with pytest.warns(ConvergenceWarning, match="max_iter"):
        model = LinearSVR(max_iter=2, tol=1e-12).fit(X, y)
    assert not model.converged_ and model.n_iter_ == 2


def test_check_estimator():
    from sklearn.utils.estimator_checks import check_estimator

    check_estimator(LinearSVR(), expected_failed_checks={
        "check_sample_weight_equivalence_on_dense_data":
            "coordinate descent visits samples in a random order (as sklearn.svm.LinearSVR)",
        "check_sample_weight_equivalence_on_sparse_data":
            "coordinate descent visits samples in a random order (as sklearn.svm.LinearSVR)",
    })
