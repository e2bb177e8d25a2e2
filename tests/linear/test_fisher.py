"""Fisher's discriminant: the book's direction, the K−1 directions of
scikit-learn's eigen LDA, the nearest-projected-mean rule, and KLDA."""

import numpy as np
import pytest
import scipy.linalg
from hypothesis import given
from hypothesis import strategies as st
from sklearn.datasets import make_circles
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis

from hyperplane.kernels import RBF, Laplace, Linear, Polynomial
from hyperplane.linear import FisherDiscriminant

from ._helpers import blobs, cosine, scatter_reference


def fisher_criterion(w, X, y):
    """J(w) = wᵀS_Bw / wᵀS_Ww for two classes (seed 002)."""
    _, means, S_W = scatter_reference(X, y, 2)
    dm = means[1] - means[0]
    return (w @ dm) ** 2 / (w @ S_W @ w)


def test_two_class_direction_is_sw_inverse_mean_difference():
    X, y = blobs(100, 4, 2, seed=11)
    _, means, S_W = scatter_reference(X, y, 2)
    lda = FisherDiscriminant(reg=0.0).fit(X, y)
    w = lda.scalings_[:, 0]
    assert cosine(w, np.linalg.solve(S_W, means[1] - means[0])) == pytest.approx(1, abs=1e-12)
    mu = lda.projected_means_[:, 0]
    assert mu[1] > mu[0]                                  # classes_[1] projects higher
    assert lda.threshold_ == pytest.approx(mu.mean())
    assert w @ S_W @ w == pytest.approx(1.0)              # scaled to wᵀS_Ww = 1


@given(st.integers(0, 10_000))
def test_direction_maximises_the_fisher_criterion(seed):
    X, y = blobs(40, 3, 2, seed=seed)
    w = FisherDiscriminant(reg=0.0).fit(X, y).scalings_[:, 0]
    best = fisher_criterion(w, X, y)
    for v in np.random.default_rng(seed).normal(size=(20, 3)):
        assert fisher_criterion(v, X, y) <= best * (1 + 1e-9)


@pytest.mark.parametrize("k,d,n_components", [(3, 4, None), (4, 5, None), (4, 5, 2),
                                              (5, 3, None), (4, 6, 1)])
def test_directions_span_sklearn_eigen_lda(k, d, n_components):
    X, y = blobs(300, d, k, seed=k * d)
    ours = FisherDiscriminant(n_components=n_components, reg=0.0).fit(X, y)
    q = ours.n_components_
    assert q == (n_components or min(k - 1, d))
    ref = LinearDiscriminantAnalysis(solver="eigen").fit(X, y).scalings_[:, :q]
    angles = scipy.linalg.subspace_angles(ours.scalings_, ref)
    assert np.max(angles) < 1e-6
    _, _, S_W = scatter_reference(X, y, k)
    np.testing.assert_allclose(ours.scalings_.T @ S_W @ ours.scalings_, np.eye(q), atol=1e-9)


@pytest.mark.parametrize("k", [2, 3, 4])
def test_predict_is_the_nearest_projected_class_mean(k):
    X, y = blobs(150, 3, k, seed=k, spread=1.0)        # overlapping classes
    lda = FisherDiscriminant().fit(X, y)
    Z = lda.transform(X)
    mu = np.array([Z[y == c].mean(axis=0) for c in range(k)])
    np.testing.assert_allclose(lda.projected_means_, mu, atol=1e-10)
    nearest = np.argmin(((Z[:, None, :] - mu[None]) ** 2).sum(axis=2), axis=1)
    np.testing.assert_array_equal(lda.predict(X), nearest)
    # the linear form of the same rule
    np.testing.assert_allclose(lda.decision_function(X), X @ lda.coef_.T.squeeze()
                               + lda.intercept_.squeeze(), atol=1e-9)


def test_singular_within_scatter_is_handled():
    """Duplicated and constant columns make S_W singular: not an error."""
    X, y = blobs(80, 3, 3, seed=5)
    X_sing = np.column_stack([X, X[:, 0] + X[:, 1], np.full(80, 2.0)])
    for reg in (1e-6, 0.0):
        lda = FisherDiscriminant(reg=reg).fit(X_sing, y)
        assert np.all(np.isfinite(lda.scalings_))
        np.testing.assert_array_equal(lda.predict(X_sing),
                                      FisherDiscriminant(reg=reg).fit(X, y).predict(X))


def test_more_features_than_samples():
    X, y = blobs(10, 30, 2, seed=2)
    assert FisherDiscriminant().fit(X, y).score(X, y) == 1.0


def test_reg_shrinks_towards_the_scaled_mean_difference():
    """Large reg: S_W + reg·diag(s²) ≈ reg·diag(s²), so w → diag(s²)⁻¹(m₂ − m₁)
    with s_j² the spread of feature j over all rows."""
    X, y = blobs(60, 3, 2, seed=9)
    X[:, 1] *= 100.0
    _, means, _ = scatter_reference(X, y, 2)
    spread = ((X - X.mean(axis=0)) ** 2).sum(axis=0)
    w = FisherDiscriminant(reg=1e9).fit(X, y).scalings_[:, 0]
    assert cosine(w, (means[1] - means[0]) / spread) == pytest.approx(1.0, abs=1e-6)


@pytest.mark.parametrize("bad,error", [(0, ValueError), (3, ValueError), (1.5, TypeError)])
def test_bad_n_components(bad, error):
    X, y = blobs(30, 2, 3)
    with pytest.raises(error, match="n_components"):
        FisherDiscriminant(n_components=bad).fit(X, y)


# --------------------------------------------------------------------------
# kernel Fisher discriminant (KLDA)
# --------------------------------------------------------------------------
def klda_reference(K, y, reg):
    """周志华 §6.6 / Mika et al.: μ̂_i = K1_i/|X_i|, N = KKᵀ − Σ|X_i| μ̂_i μ̂_iᵀ,
    α ∝ (N + reg·diag(s²))⁻¹(μ̂₁ − μ̂₀), s_j² the spread of column j of K."""
    ones = [(y == c).astype(float) for c in (0, 1)]
    mu = [K @ o / o.sum() for o in ones]
    N = K @ K.T - sum(o.sum() * np.outer(u, u) for o, u in zip(ones, mu))
    spread = ((K - K.mean(axis=0)) ** 2).sum(axis=0)
    return np.linalg.solve(N + reg * np.diag(spread), mu[1] - mu[0])


@pytest.mark.parametrize("kernel", [RBF(sigma=0.7), Polynomial(degree=2, coef0=1.0),
                                    RBF(1.0) + 0.5 * Polynomial(2), Laplace(2.0) * Linear()])
def test_klda_alpha_is_the_books_formula(kernel):
    X, y = blobs(40, 2, 2, seed=4, spread=1.0)
    klda = FisherDiscriminant(kernel=kernel, reg=1e-3).fit(X, y)
    alpha = klda_reference(kernel(X), y, 1e-3)
    assert klda.alpha_.shape == (40,)
    assert cosine(klda.alpha_, alpha) == pytest.approx(1.0, abs=1e-8)
    np.testing.assert_allclose(klda.transform(X)[:, 0], kernel(X) @ klda.alpha_)


def test_klda_separates_concentric_circles_where_linear_fisher_cannot():
    X, y = make_circles(300, factor=0.4, noise=0.08, random_state=0)
    X_test, y_test = make_circles(300, factor=0.4, noise=0.08, random_state=1)
    assert FisherDiscriminant().fit(X, y).score(X_test, y_test) < 0.7
    klda = FisherDiscriminant(kernel="rbf", gamma=2.0, reg=1e-3).fit(X, y)
    assert klda.score(X, y) > 0.98
    assert klda.score(X_test, y_test) > 0.95


def test_kernel_names_use_sklearn_parameters():
    X, y = blobs(50, 3, 2, seed=3, spread=1.0)
    by_name = FisherDiscriminant(kernel="rbf", gamma=0.5).fit(X, y)
    by_object = FisherDiscriminant(kernel=RBF(sigma=1.0)).fit(X, y)   # γ = 1/(2σ²)
    np.testing.assert_allclose(by_name.alpha_, by_object.alpha_, rtol=1e-10, atol=1e-12)
    poly = FisherDiscriminant(kernel="poly", gamma=0.5, degree=2, coef0=1.0).fit(X, y)
    assert poly.kernel_ == Polynomial(2, gamma=0.5, coef0=1.0)
    assert FisherDiscriminant(kernel="rbf").fit(X, y).kernel_.sigma == pytest.approx(
        np.sqrt(X.shape[1] * X.var() / 2.0))


def test_multiclass_klda():
    X, y = blobs(90, 2, 3, seed=8, spread=6.0)
    klda = FisherDiscriminant(kernel=RBF(2.0)).fit(X, y)
    assert klda.alpha_.shape == (90, 2)
    assert klda.transform(X).shape == (90, 2)
    assert klda.score(X, y) > 0.95


def test_klda_with_a_linear_kernel_agrees_with_linear_fisher():
    X, y = blobs(120, 3, 2, seed=6, spread=1.0)
    linear = FisherDiscriminant().fit(X, y).predict(X)
    kernel = FisherDiscriminant(kernel="linear").fit(X, y).predict(X)
    assert np.mean(linear == kernel) >= 0.98


def test_bad_kernel_and_reg():
    X, y = blobs(30, 2, 2)
    with pytest.raises(ValueError, match="kernel"):
        FisherDiscriminant(kernel="cubic").fit(X, y)
    with pytest.raises(ValueError, match="reg"):
        FisherDiscriminant(reg=-1.0).fit(X, y)
    with pytest.raises(ValueError, match="gamma"):
        FisherDiscriminant(kernel="rbf", gamma=-1.0).fit(X, y)


def test_watermelon_direction_matches_the_published_exercise_answer():
    """周志华《机器学习》习题3.5 on 西瓜数据集3.0α: the widely published answer
    is w = S_W⁻¹(μ₀ − μ₁) = (−0.14650982, −0.73871557) with μ₀ the good melons'
    mean... up to sign; ours is S_W⁻¹(m_是 − m_否)."""
    from hyperplane.datasets import load_watermelon
    X, y = load_watermelon("3.0alpha")
    lda = FisherDiscriminant(reg=0.0).fit(X, y)
    np.testing.assert_allclose(np.abs(lda.coef_[0]), [0.14650982, 0.73871557], atol=1e-8)


def test_klda_and_kernel_perceptron_accept_the_same_combined_kernel():
    """Issue 5: one kernel object serves the kernel perceptron and KLDA."""
    from hyperplane.linear import DualPerceptron
    X = np.array([[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]] * 5)
    X = X + np.random.default_rng(0).normal(scale=0.05, size=X.shape)
    y = np.array([0, 0, 1, 1] * 5)                           # XOR
    kernel = RBF(sigma=0.5) + 0.5 * Polynomial(degree=2, coef0=1.0)
    assert FisherDiscriminant(kernel=kernel).fit(X, y).score(X, y) == 1.0
    assert DualPerceptron(kernel=kernel).fit(X, y).score(X, y) == 1.0


def test_refit_switching_between_linear_and_kernel_form_leaves_no_stale_attributes():
    X, y = blobs(40, 2, 2, seed=1)
    lda = FisherDiscriminant().fit(X, y)
    lda.set_params(kernel="rbf").fit(X, y)
    assert not hasattr(lda, "coef_") and hasattr(lda, "alpha_")
    lda.set_params(kernel=None).fit(X, y)
    assert hasattr(lda, "coef_") and not hasattr(lda, "alpha_") and not hasattr(lda, "X_fit_")


# --------------------------------------------------------------------------
# the default is the book's direction; regularisation does not depend on units
# --------------------------------------------------------------------------
def test_default_is_the_books_direction_on_unscaled_wine():
    from sklearn.datasets import load_wine
    X, y = load_wine(return_X_y=True)
    X, y = X[y < 2], y[y < 2]
    _, means, S_W = scatter_reference(X, y, 2)
    book = np.linalg.solve(S_W, means[1] - means[0])
    w = FisherDiscriminant().fit(X, y).scalings_[:, 0]
    assert abs(cosine(w, book)) >= 1 - 1e-9


@pytest.mark.parametrize("reg", [None, 1e-3, 0.0])
def test_direction_follows_the_units_of_each_feature(reg):
    """Rescaling feature j by c_j divides w_j by c_j (and the predictions stay)."""
    X, y = blobs(80, 4, 2, seed=5, spread=1.0)
    X[:, 3] = X[:, 2] * 2.0 + 1.0            # singular S_W: reg=None regularises
    c = np.array([1e-3, 1.0, 1e4, 7.0])
    w = FisherDiscriminant(reg=reg).fit(X, y).scalings_[:, 0]
    w_c = FisherDiscriminant(reg=reg).fit(X * c, y).scalings_[:, 0]
    assert cosine(w_c * c, w) == pytest.approx(1.0, abs=1e-9)


def test_singular_scatter_is_regularised_only_then():
    X, y = blobs(50, 3, 2, seed=2, spread=1.0)
    a = FisherDiscriminant().fit(X, y).scalings_[:, 0]
    b = FisherDiscriminant(reg=0.0).fit(X, y).scalings_[:, 0]
    assert cosine(a, b) == pytest.approx(1.0, abs=1e-12)
    X_sing = np.column_stack([X, X[:, 0] + X[:, 1]])
    lda = FisherDiscriminant().fit(X_sing, y)
    assert np.all(np.isfinite(lda.scalings_))
    np.testing.assert_array_equal(lda.predict(X_sing), FisherDiscriminant().fit(X, y).predict(X))


def test_klda_precomputed_is_the_kernels_own_fit():
    """kernel="precomputed": fit on K(X, X), project the m x n block K(X_new, X)."""
    from sklearn.datasets import make_circles

    from hyperplane.kernels import RBF

    X, y = make_circles(200, factor=0.4, noise=0.05, random_state=0)
    X_new = X[:30] + 0.01
    kernel = RBF(sigma=0.5)
    own = FisherDiscriminant(kernel=kernel, reg=1e-3).fit(X, y)
    pre = FisherDiscriminant(kernel="precomputed", reg=1e-3).fit(kernel(X, X), y)
    np.testing.assert_allclose(pre.alpha_, own.alpha_, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(pre.transform(kernel(X_new, X)), own.transform(X_new),
                               rtol=1e-10, atol=1e-10)
    np.testing.assert_array_equal(pre.predict(kernel(X_new, X)), own.predict(X_new))
    with pytest.raises(ValueError, match="square"):
        FisherDiscriminant(kernel="precomputed").fit(kernel(X, X)[:, :50], y)
    with pytest.raises(ValueError, match="X has 50 features"):
        pre.predict(kernel(X_new, X[:50]))
