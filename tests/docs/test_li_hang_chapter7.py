"""李航《统计学习方法》第7章: 算法7.2 on 例7.2, 例7.3's feature maps and 算法7.4's decision function,
by the book's formulas written in NumPy."""

import numpy as np
import pytest
from sklearn.svm import SVC as LibsvmSVC

from hyperplane.kernels import Polynomial
from hyperplane.svm import SVC

X_7_1 = np.array([[3.0, 3.0], [4.0, 3.0], [1.0, 1.0]])   # 例7.1 / 例7.2: x1, x2 positive, x3 negative
Y_7_1 = np.array([1, 1, -1])


def test_algorithm_7_2_on_example_7_2():
    """例7.2: the dual 式7.22-7.24 on 例7.1's data. Substituting α3 = α1 + α2 leaves
    s(α1, α2) = 4α1² + 13/2 α2² + 10α1α2 − 2α1 − 2α2, whose minimum over α ≥ 0 is on α2 = 0 at
    α1 = 1/4 (s = −1/4); then 算法7.2 step (2): w* = Σ α_i y_i x_i (式7.25) and, for α_j > 0,
    b* = y_j − Σ α_i y_i (x_i·x_j) (式7.26)."""
    svc = SVC(kernel="linear", C=np.inf, tol=1e-12).fit(X_7_1, Y_7_1)
    alpha = svc.alpha_
    np.testing.assert_allclose(alpha, [0.25, 0.0, 0.25], atol=1e-12)
    gram = X_7_1 @ X_7_1.T
    objective = 0.5 * (alpha * Y_7_1) @ gram @ (alpha * Y_7_1) - alpha.sum()   # 式7.22
    assert objective == pytest.approx(-0.25, abs=1e-12)
    a1, a2 = 0.25, 0.0
    assert 4 * a1**2 + 6.5 * a2**2 + 10 * a1 * a2 - 2 * a1 - 2 * a2 == pytest.approx(objective)
    assert alpha @ Y_7_1 == pytest.approx(0.0, abs=1e-12)                           # 式7.23
    w = (alpha * Y_7_1) @ X_7_1                                                      # 式7.25
    np.testing.assert_allclose(svc.coef_[0], w, atol=1e-12)
    np.testing.assert_allclose(w, [0.5, 0.5], atol=1e-12)
    for j in np.flatnonzero(alpha > 0):                                              # 式7.26
        assert Y_7_1[j] - (alpha * Y_7_1) @ gram[:, j] == pytest.approx(svc.intercept_[0], abs=1e-12)
    assert svc.intercept_[0] == pytest.approx(-2.0, abs=1e-12)


def _feature_maps(x):
    """例7.3's three feature maps of K(x, z) = (x·z)² on R²: into R³ twice and into R⁴."""
    x1, x2 = x[..., 0], x[..., 1]
    return [np.stack([x1**2, np.sqrt(2) * x1 * x2, x2**2], axis=-1),
            np.stack([x1**2 - x2**2, 2 * x1 * x2, x1**2 + x2**2], axis=-1) / np.sqrt(2),
            np.stack([x1**2, x1 * x2, x1 * x2, x2**2], axis=-1)]


def test_example_7_3_feature_maps_of_the_squared_inner_product():
    """例7.3: one kernel, several feature spaces and maps, the same inner products; the library's
    Polynomial(degree=2) (γ = 1, r = 0) is that kernel."""
    rng = np.random.default_rng(7)
    X, Z = rng.normal(size=(20, 2)), rng.normal(size=(15, 2))
    K = Polynomial(degree=2)(X, Z)
    np.testing.assert_allclose(K, (X @ Z.T) ** 2, rtol=1e-12)
    for phi_x, phi_z in zip(_feature_maps(X), _feature_maps(Z)):
        np.testing.assert_allclose(phi_x @ phi_z.T, K, rtol=1e-10, atol=1e-12)


def test_algorithm_7_4_decision_function_is_the_kernel_expansion():
    """算法7.4: the soft-margin dual with a kernel (式7.95-7.97), b* from a free α_j (0 < α_j < C),
    f(x) = sign(Σ α_i y_i K(x, x_i) + b*) (式7.98); the same α and b as LIBSVM (scikit-learn)."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(80, 2))
    y = np.where(X[:, 0] * X[:, 1] > 0, 1, -1)          # XOR-like: no linear separator
    C = 5.0
    svc = SVC(kernel="poly", degree=2, gamma=1.0, coef0=1.0, C=C, tol=1e-8).fit(X, y)
    K = (X @ X.T + 1.0) ** 2
    alpha = svc.alpha_
    assert np.all(alpha >= 0) and np.all(alpha <= C + 1e-12)
    assert alpha @ y == pytest.approx(0.0, abs=1e-8)
    free = np.flatnonzero((alpha > 1e-8) & (alpha < C - 1e-8))
    assert free.size
    b_free = y[free] - (alpha * y) @ K[:, free]          # b* of 算法7.4 step (2), each free α_j
    np.testing.assert_allclose(b_free, svc.intercept_[0], atol=1e-5)
    X_new = rng.normal(size=(50, 2))
    f = (alpha * y) @ (X @ X_new.T + 1.0) ** 2 + svc.intercept_[0]               # 式7.98
    np.testing.assert_allclose(svc.decision_function(X_new), f, atol=1e-10)
    np.testing.assert_array_equal(svc.predict(X_new), np.where(f >= 0, 1, -1))
    assert svc.score(X, y) > 0.9
    peer = LibsvmSVC(kernel="poly", degree=2, gamma=1.0, coef0=1.0, C=C, tol=1e-8).fit(X, y)
    assert sorted(peer.support_) == sorted(svc.support_)
    np.testing.assert_allclose(peer.decision_function(X_new), f, rtol=1e-4, atol=1e-4)
