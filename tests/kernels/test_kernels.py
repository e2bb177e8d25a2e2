import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from sklearn.metrics.pairwise import polynomial_kernel, rbf_kernel, sigmoid_kernel

from hyperplane.kernels import (
    RBF,
    Laplace,
    Linear,
    Polynomial,
    Sigmoid,
    is_psd,
    resolve_kernel,
)
from hyperplane.kernels._gram import neg_scaled_dist


def naive_gram(k, X, Y):
    """The kernel's formula applied pair by pair, in plain Python."""
    return np.array([[k(x, y) for y in Y] for x in X])


FORMULAS = {
    "linear": (Linear(), lambda x, y: float(np.dot(x, y))),
    "poly": (Polynomial(degree=3), lambda x, y: float(np.dot(x, y)) ** 3),
    "rbf": (RBF(sigma=0.7), lambda x, y: math.exp(-float(np.sum((x - y) ** 2)) / (2 * 0.7 ** 2))),
    "laplace": (Laplace(sigma=1.3), lambda x, y: math.exp(-math.sqrt(float(np.sum((x - y) ** 2))) / 1.3)),
    "sigmoid": (Sigmoid(beta=0.5, theta=-1.0), lambda x, y: math.tanh(0.5 * float(np.dot(x, y)) - 1.0)),
}


@pytest.mark.parametrize("name", sorted(FORMULAS))
def test_each_kernel_equals_its_formula(name):
    kernel, formula = FORMULAS[name]
    rng = np.random.default_rng(1)
    X, Y = rng.normal(size=(7, 4)), rng.normal(size=(5, 4))
    np.testing.assert_allclose(kernel(X, Y), naive_gram(formula, X, Y), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(kernel(X), naive_gram(formula, X, X), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(kernel.diag(X), np.diag(naive_gram(formula, X, X)), rtol=1e-12)


def test_combinations_follow_the_closure_rules():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(6, 3))
    k1, k2 = RBF(sigma=2.0), Polynomial(degree=2)
    np.testing.assert_allclose((k1 + k2)(X), k1(X) + k2(X))
    np.testing.assert_allclose((k1 * k2)(X), k1(X) * k2(X))
    np.testing.assert_allclose((3.0 * k1)(X), 3.0 * k1(X))
    np.testing.assert_allclose((k1 * 3.0)(X), 3.0 * k1(X))
    g = lambda Z: np.exp(Z[:, 0])  # noqa: E731
    expected = g(X)[:, None] * k1(X) * g(X)[None, :]
    np.testing.assert_allclose(k1.scaled(g)(X), expected)
    combined = 2.0 * k1 + k2 * Linear()
    np.testing.assert_allclose(combined.diag(X), np.diag(combined(X)))
    assert is_psd(combined, X)


def test_scaling_must_be_positive():
    with pytest.raises(ValueError, match="c must be"):
        -1.0 * RBF()


def test_bad_kernel_parameters_are_named():
    with pytest.raises(ValueError, match="sigma"):
        RBF(sigma=0)
    with pytest.raises(ValueError, match="degree"):
        Polynomial(degree=0)
    with pytest.raises(TypeError, match="degree"):
        Polynomial(degree=2.5)
    with pytest.raises(ValueError, match="features"):
        Linear()(np.ones((2, 3)), np.ones((2, 2)))
    with pytest.raises(ValueError, match="kernel must be"):
        resolve_kernel("cosine", np.ones((2, 2)))


def test_is_psd_detects_indefinite_sigmoid():
    X = np.random.default_rng(0).normal(size=(30, 3))
    assert is_psd(RBF(), X) and is_psd(Laplace(), X) and is_psd(Polynomial(2), X)
    assert not is_psd(Sigmoid(beta=1.0, theta=1.0), X)


@pytest.mark.parametrize("name, reference, params", [
    ("rbf", rbf_kernel, {"gamma": 0.3}),
    ("poly", polynomial_kernel, {"gamma": 0.5, "degree": 3, "coef0": 1.0}),
    ("sigmoid", sigmoid_kernel, {"gamma": 0.2, "coef0": -0.5}),
])
def test_named_kernels_use_scikit_learn_parameters(name, reference, params):
    X = np.random.default_rng(3).normal(size=(9, 4))
    kernel = resolve_kernel(name, X, **params)
    np.testing.assert_allclose(kernel(X), reference(X, **params), rtol=1e-10, atol=1e-12)


def test_gamma_scale_matches_scikit_learn_rule():
    X = np.random.default_rng(4).normal(size=(20, 5)) * 3
    kernel = resolve_kernel("rbf", X, gamma="scale")
    np.testing.assert_allclose(kernel(X), rbf_kernel(X, gamma=1 / (5 * X.var())))


def test_float32_stays_float32():
    X = np.random.default_rng(5).normal(size=(5, 3)).astype(np.float32)
    for kernel in (Linear(), RBF(), Laplace(), Polynomial(2), Sigmoid()):
        assert kernel(X).dtype == np.float32


finite = st.floats(-10, 10, allow_nan=False, width=64)


@given(arrays(np.float64, st.tuples(st.integers(1, 6), st.integers(1, 4)), elements=finite),
       arrays(np.float64, st.tuples(st.integers(1, 6), st.integers(1, 4)), elements=finite),
       st.floats(0.1, 5.0))
def test_compiled_distance_steps_equal_numpy(X, Y, sigma):
    d = min(X.shape[1], Y.shape[1])
    X, Y = X[:, :d].copy(), Y[:, :d].copy()
    sq = ((X[:, None, :] - Y[None, :, :]) ** 2).sum(-1)
    sx, sy = (X ** 2).sum(1), (Y ** 2).sum(1)
    got_sq = neg_scaled_dist(np.ascontiguousarray(X @ Y.T), X, Y, sx, sy, 1 / (2 * sigma ** 2),
                             True)
    got = neg_scaled_dist(np.ascontiguousarray(X @ Y.T), X, Y, sx, sy, 1 / sigma, False)
    # entries where |x|^2 + |y|^2 - 2xy cancels are recomputed directly
    np.testing.assert_allclose(got_sq, -sq / (2 * sigma ** 2), rtol=1e-7, atol=1e-12)
    np.testing.assert_allclose(got, -np.sqrt(sq) / sigma, rtol=1e-7, atol=1e-12)


def test_identical_rows_are_at_distance_exactly_zero():
    """The expansion leaves a rounding residue (1e-16 relative) that a huge
    gamma or a square root makes visible; identical rows must give k = 1."""
    rng = np.random.default_rng(1)
    X = rng.normal(size=(50, 7)) * 1e3
    for kernel in (RBF(sigma=np.sqrt(0.5e-16)), Laplace(sigma=1e-12)):
        np.testing.assert_array_equal(np.diag(kernel(X, X.copy())), 1.0)
        np.testing.assert_array_equal(np.diag(kernel(X)), 1.0)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("seed", [0, 1])
def test_sparse_distances_equal_the_dense_ones_and_vanish_between_equal_rows(seed, dtype):
    """The CSR distances (NumPy and scipy.sparse: the expansion, the
    cancelling entries summed directly over the rows' nonzeros) equal the
    dense distances of the same rows to rounding, exactly 0 between equal
    rows, and the direct sums are those of the squares of the differences in
    float64, feature by feature."""
    import scipy.sparse as sp

    from hyperplane.kernels._samples import CANCELLATION, sq_dist_csr

    rng = np.random.default_rng(seed)
    X = sp.random(60, 30, density=0.3, format="csr", random_state=seed, dtype=dtype)
    X = sp.vstack([X, X[:5], X[5:8] * dtype(1 + 1e-4)]).tocsr()   # equal and near rows
    Y = X[rng.permutation(X.shape[0])[:40]]
    sq_x = np.asarray(X.multiply(X).sum(axis=1)).ravel()
    sq_y = np.asarray(Y.multiply(Y).sum(axis=1)).ravel()
    G = np.ascontiguousarray((X @ Y.T).toarray())
    got = sq_dist_csr(G.copy(), X, Y, sq_x, sq_y)
    assert got.dtype == dtype
    Xd, Yd = X.toarray(), Y.toarray()
    diff = Xd[:, None, :] - Yd[None, :, :]                  # in the samples' dtype
    direct = (diff * diff).astype(np.float64).sum(axis=2)
    expected = np.maximum(sq_x[:, None] + sq_y[None, :] - 2.0 * G.astype(np.float64), 0.0)
    cancels = expected <= CANCELLATION * (sq_x[:, None] + sq_y[None, :]).astype(np.float64)
    assert cancels.sum() >= 5
    expected[cancels] = direct[cancels]
    np.testing.assert_allclose(got, expected.astype(dtype), rtol=1e-12 if dtype == np.float64 else 1e-6,
                               atol=0)
    assert np.all(got[(Xd[:, None, :] == Yd[None, :, :]).all(axis=2)] == 0.0)
    np.testing.assert_allclose(got, direct, rtol=1e-9 if dtype == np.float64 else 1e-3,
                               atol=1e-12 if dtype == np.float64 else 1e-4)
