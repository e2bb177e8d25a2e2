"""Alpha seeding of the linear SVM: the compiled coordinate-descent epoch
against a slow reference (on CSR rows against dense rows, bit for bit), the
layout's row products against NumPy, the seed's feasibility, and SVC fits from the seed against LIBSVM and,
on sparse data, against the dense fit."""

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given
from hypothesis import strategies as st
from sklearn.datasets import make_classification
from sklearn.svm import SVC as LibSVC

from hyperplane._numba import jit
from hyperplane.svm import SVC, _seed
from hyperplane.svm._seed import LAYOUTS, balance_equality, linear_seed
from hyperplane.svm._seed_kernels import DCDProblem, DCDState, ordered_dcd_epoch, row_axpy, row_dot

from .test_sparse_svm import assert_same_model
from .test_svc import assert_kkt, dual_objective, libsvm_alpha


def reference_epoch(X, y, C, B, alpha, order, M_bar, m_bar):
    """Hsieh et al. (2008), Algorithm 3, written out with NumPy vectors:
    w is recomputed from alpha at every step (no incremental update). A
    shrunk variable trades places with the last active one, which is
    visited next (LIBLINEAR's order); a projected gradient of at most 1e-12
    counts as zero (LIBLINEAR's threshold)."""
    Xb = np.hstack([X, np.full((X.shape[0], 1), B)])
    alpha = alpha.copy()
    active = list(order)
    n_active, k, pgs = len(active), 0, []
    while k < n_active:
        t = active[k]
        w = Xb.T @ (alpha * y)
        G = y[t] * (w @ Xb[t]) - 1.0
        if alpha[t] <= 0 and G > M_bar or alpha[t] >= C[t] and G < m_bar:
            n_active -= 1
            active[k], active[n_active] = active[n_active], active[k]
            continue
        PG = min(G, 0.0) if alpha[t] <= 0 else max(G, 0.0) if alpha[t] >= C[t] else G
        pgs.append(PG)
        if abs(PG) > 1e-12:
            alpha[t] = np.clip(alpha[t] - G / (Xb[t] @ Xb[t]), 0.0, C[t])
        k += 1
    M, m = (max(pgs), min(pgs)) if pgs else (-np.inf, np.inf)
    return alpha, Xb.T @ (alpha * y), active, n_active, M, m


@given(seed=st.integers(0, 10_000), n=st.integers(2, 40), d=st.integers(1, 6),
       warm=st.booleans())
def test_dcd_epoch_matches_the_reference(seed, n, d, warm):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    C = rng.uniform(0.1, 2.0, size=n)
    alpha = np.where(rng.random(n) < 0.3, C, rng.uniform(0, 1, n) * C) if warm else np.zeros(n)
    alpha[rng.random(n) < 0.3] = 0.0
    B = 1.0
    M_bar, m_bar = (0.5, -0.5) if warm else (np.inf, -np.inf)
    order = rng.permutation(n).astype(np.int64)
    want_alpha, want_w, want_active, want_n, M, m = reference_epoch(X, y, C, B, alpha, order,
                                                                    M_bar, m_bar)
    got_alpha = alpha.copy()
    w = np.hstack([X, np.full((n, 1), B)]).T @ (alpha * y)
    QD = np.einsum("ij,ij->i", X, X) + B * B
    active = order.copy()
    n_active, got_M, got_m = ordered_dcd_epoch(DCDProblem(X=X, y=y, C=C, B=B, QD=QD),
                                       DCDState(alpha=got_alpha, w=w, active=active),
                                       n, M_bar, m_bar)
    np.testing.assert_allclose(got_alpha, want_alpha, atol=1e-10)
    np.testing.assert_allclose(w, want_w, atol=1e-9)
    assert n_active == want_n and active.tolist() == want_active
    assert got_M == pytest.approx(M, abs=1e-9) and got_m == pytest.approx(m, abs=1e-9)


@jit
def row_products(X, t, w, acc, delta):
    """``row_dot`` of row t, then ``row_axpy`` of it into ``w`` (compiled: the
    layout's functions are chosen when numba types ``X``)."""
    dot = row_dot(X, t, w, acc)
    row_axpy(X, t, w, delta)
    return dot


@given(seed=st.integers(0, 10_000), n=st.integers(1, 6), d=st.integers(1, 8),
       density=st.sampled_from([0.0, 0.3, 1.0]))
def test_row_products_of_each_layout_match_numpy(seed, n, d, density):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) * (rng.random((n, d)) < density)
    w0, acc, delta = rng.normal(size=d + 1), rng.normal(), rng.normal()
    t = int(rng.integers(n))
    for sparse, (rows, _) in LAYOUTS.items():
        w = w0.copy()
        dot = row_products(rows(sp.csr_matrix(X) if sparse else X), t, w, acc, delta)
        assert dot == pytest.approx(acc + w0[:d] @ X[t], abs=1e-12)
        np.testing.assert_allclose(w[:d], w0[:d] + delta * X[t], atol=1e-12)
        assert w[d] == w0[d]                                  # the bias is the caller's


def test_row_products_are_for_compiled_code_only():
    with pytest.raises(NotImplementedError, match="compiled code only"):
        row_dot(np.ones((1, 1)), 0, np.ones(2), 0.0)


@given(seed=st.integers(0, 10_000), n=st.integers(2, 50))
def test_balance_equality_restores_the_constraint_inside_the_box(seed, n):
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    C = rng.uniform(0.5, 2.0, size=n)
    alpha = rng.uniform(0, 1, size=n) * C
    alpha[rng.random(n) < 0.3] = 0.0
    at_c = rng.random(n) < 0.3
    alpha[at_c] = C[at_c]
    out = balance_equality(alpha, y, C)
    assert abs(out @ y) <= 1e-9 * max(1.0, alpha.sum())
    assert np.all(out >= 0) and np.all(out <= C)
    heavy = y > 0 if alpha @ y > 0 else y < 0
    assert np.all(out[~heavy] == alpha[~heavy])          # the lighter class is untouched
    assert np.all(out[heavy] <= alpha[heavy])


def test_seed_is_near_the_svm_solution():
    """Run to a tight eps, the seed solves the problem whose bias is a
    feature; it is feasible for SVC's dual and its objective is within a few
    per cent of LIBSVM's optimum (which it cannot beat)."""
    X, y = make_classification(n_samples=300, n_features=5, flip_y=0.1, random_state=3)
    ys = np.where(y == 1, 1.0, -1.0)
    alpha = linear_seed(X, ys, np.full(300, 1.0), eps=1e-6, random_state=0, max_epochs=20000)
    assert abs(alpha @ ys) <= 1e-9 * alpha.sum()
    assert np.all((alpha >= 0) & (alpha <= 1.0))
    K = X @ X.T
    best = dual_objective(libsvm_alpha(LibSVC(kernel="linear", C=1.0, tol=1e-6).fit(X, y), 300),
                          ys, K)
    seeded = dual_objective(alpha, ys, K)
    assert best - 1e-6 * abs(best) <= seeded <= best + 0.05 * abs(best)


@pytest.mark.parametrize("shape, C", [((1500, 10), 1.0), ((1200, 40), 0.1), ((2000, 3), 10.0)])
def test_seeded_linear_svc_agrees_with_libsvm(shape, C):
    n, d = shape
    X, y = make_classification(n_samples=n + 500, n_features=d, n_informative=min(d, 5),
                               n_redundant=0, flip_y=0.1, random_state=n + d)
    X, X_test, y, y_test = X[:n], X[n:], y[:n], y[n:]
    ours = SVC(kernel="linear", C=C, tol=1e-3).fit(X, y)
    peer = LibSVC(kernel="linear", C=C, tol=1e-3).fit(X, y)
    ys = np.where(y == 1, 1.0, -1.0)
    K = X @ X.T
    f_ours = dual_objective(ours.alpha_, ys, K)
    f_peer = dual_objective(libsvm_alpha(peer, n), ys, K)
    assert abs(f_ours - f_peer) <= 1e-3 * abs(f_peer)
    assert ours.converged_
    assert_kkt(ours.alpha_, ys, K, ours.intercept_[0], C, 2e-3 + 1e-5)
    assert np.mean(ours.predict(X_test) == peer.predict(X_test)) >= 0.995
    assert abs(np.mean(ours.predict(X_test) == y_test)
               - np.mean(peer.predict(X_test) == y_test)) <= 0.005
    assert abs(len(ours.support_) - len(peer.support_)) <= 0.02 * len(peer.support_) + 2


def test_seeded_fit_is_deterministic_and_follows_random_state():
    X, y = make_classification(n_samples=1500, n_features=8, flip_y=0.1, random_state=1)
    a = SVC(kernel="linear").fit(X, y)
    b = SVC(kernel="linear").fit(X, y)
    np.testing.assert_array_equal(a.alpha_, b.alpha_)
    c = SVC(kernel="linear", random_state=7).fit(X, y)
    # another coordinate order: another path to the same optimum (within tol)
    assert c.objective_ == pytest.approx(a.objective_, rel=1e-4)
    assert np.mean(c.predict(X) == a.predict(X)) >= 0.995


@given(seed=st.integers(0, 10_000), n=st.integers(2, 40), d=st.integers(1, 8),
       density=st.sampled_from([0.0, 0.2, 0.6, 1.0]), warm=st.booleans())
def test_csr_epoch_is_the_dense_epoch_bit_for_bit(seed, n, d, density, warm):
    """CSR rows (some explicit zeros among the stored values) give the dense
    epoch's alpha, w, order and extremes exactly, and both match the reference."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) * (rng.random((n, d)) < density)
    X[rng.random((n, d)) < 0.1] = 0.0
    stored = sp.csr_matrix(np.where(rng.random((n, d)) < 0.2, 1.0, X))  # pattern with extra entries
    stored.data[:] = X[stored.nonzero()]                                   # explicit zeros kept
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    C = rng.uniform(0.1, 2.0, size=n)
    alpha = np.where(rng.random(n) < 0.3, C, rng.uniform(0, 1, n) * C) if warm else np.zeros(n)
    M_bar, m_bar = (0.5, -0.5) if warm else (np.inf, -np.inf)
    order = rng.permutation(n).astype(np.int64)
    w0 = np.hstack([X, np.ones((n, 1))]).T @ (alpha * y)
    results = []
    for sparse, (rows, norms) in LAYOUTS.items():
        samples = rows(stored if sparse else X)
        state = DCDState(alpha=alpha.copy(), w=w0.copy(), active=order.copy())
        problem = DCDProblem(X=samples, y=y, C=C, B=1.0, QD=norms(samples) + 1.0)
        results.append((ordered_dcd_epoch(problem, state, n, M_bar, m_bar), state, problem.QD))
    (dense, d_state, d_QD), (sparse, s_state, s_QD) = results
    assert dense == sparse
    np.testing.assert_array_equal(d_QD, s_QD)
    for a, b in zip(d_state, s_state):
        np.testing.assert_array_equal(a, b)
    want_alpha, want_w, want_active, want_n, M, m = reference_epoch(X, y, C, 1.0, alpha, order,
                                                                    M_bar, m_bar)
    np.testing.assert_allclose(s_state.alpha, want_alpha, atol=1e-10)
    np.testing.assert_allclose(s_state.w, want_w, atol=1e-9)
    assert sparse[0] == want_n and s_state.active.tolist() == want_active


def test_sparse_seed_is_the_dense_seed():
    X, y = make_classification(n_samples=1200, n_features=30, flip_y=0.1, random_state=5)
    X[np.abs(X) < 1.0] = 0.0
    ys = np.where(y == 1, 1.0, -1.0)
    C = np.full(len(y), 0.5)
    dense = linear_seed(X, ys, C, eps=0.1, random_state=3)
    sparse = linear_seed(sp.csr_matrix(X), ys, C, eps=0.1, random_state=3)
    np.testing.assert_array_equal(dense, sparse)
    assert np.count_nonzero(sparse) > 0


def test_sparse_linear_svc_is_seeded_and_equals_the_dense_fit(monkeypatch):
    """Sparse SVC(kernel="linear") starts from the seed, like the dense fit,
    and ends at the same model (alpha_, intercept_, support_ to 1e-10)."""
    X, y = make_classification(n_samples=1500, n_features=40, n_informative=8,
                               flip_y=0.1, random_state=2)
    X[np.abs(X) < 0.8] = 0.0
    seeded = []
    real = _seed.linear_seed      # SVC imports it from _seed when it seeds
    monkeypatch.setattr(_seed, "linear_seed", lambda *a, **k: seeded.append(1) or real(*a, **k))
    sparse_fit = SVC(kernel="linear", C=0.5).fit(sp.csr_matrix(X), y)
    dense_fit = SVC(kernel="linear", C=0.5).fit(X, y)
    assert len(seeded) == 2
    assert_same_model(sparse_fit, dense_fit)
    assert sparse_fit.n_iter_ == dense_fit.n_iter_
