"""Novikoff's bound (李航 定理2.1) on the book's example, by hand."""

import numpy as np
import pytest

from hyperplane.linear import novikoff_bound


def perceptron_mistakes(X, y):
    """Algorithm 2.1 with eta = 1 on augmented vectors; counts the updates."""
    X_hat = np.hstack([X, np.ones((len(X), 1))])
    w = np.zeros(X_hat.shape[1])
    mistakes = 0
    changed = True
    while changed:
        changed = False
        for x, label in zip(X_hat, y):
            if label * (w @ x) <= 0:
                w += label * x
                mistakes += 1
                changed = True
    return mistakes


def test_li_hang_example_2_1_by_hand():
    """x_hat = (3,3,1), (4,3,1), (1,1,1): R^2 = 16 + 9 + 1 = 26. The widest
    unit w_hat: w_hat = (1/2, 1/2, -2) / |.| with y_i w_hat.x_hat_i = 1 at x1, x3
    (KKT multipliers 5/4 and 13/4 are positive), |(1/2, 1/2, -2)|^2 = 9/2,
    so gamma = 1/sqrt(9/2) = sqrt(2)/3 and the bound is 26 * 9/2 = 117."""
    X = np.array([[3.0, 3.0], [4.0, 3.0], [1.0, 1.0]])
    y = np.array([1, 1, -1])
    result = novikoff_bound(X, y)
    assert result.R == pytest.approx(np.sqrt(26.0), rel=1e-12)
    assert result.gamma == pytest.approx(np.sqrt(2.0) / 3.0, rel=1e-8)
    assert result.bound == pytest.approx(117.0, rel=1e-7)
    assert result == (result.R, result.gamma, result.bound)
    assert perceptron_mistakes(X, y) <= result.bound     # 7 updates in the book


def test_bound_holds_on_random_separable_data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    w = np.array([1.0, -2.0, 0.5])
    margin = X @ w + 0.3
    keep = np.abs(margin) > 0.5
    X, y = X[keep], np.where(margin[keep] > 0, 1, -1)
    result = novikoff_bound(X, y)
    assert perceptron_mistakes(X, y) <= result.bound
    X_hat = np.hstack([X, np.ones((len(X), 1))])
    # gamma is achieved by no worse than the generating hyperplane
    w_true = np.append(w, 0.3) / np.linalg.norm(np.append(w, 0.3))
    assert result.gamma >= np.min(y * (X_hat @ w_true)) - 1e-9


def test_inseparable_data_are_refused():
    X = np.array([[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]])
    with pytest.raises(ValueError, match="not linearly separable"):
        novikoff_bound(X, [1, 1, -1, -1])
    with pytest.raises(ValueError, match="two classes"):
        novikoff_bound([[0.0], [1.0], [2.0]], [0, 1, 2])


@pytest.mark.parametrize("seed", range(4))
def test_gamma_is_libsvms_hard_margin(seed):
    """The widest margin equals that of LIBSVM's hard-margin SVM (scikit-learn's
    SVC, C = 1e10) on the symmetric set {(z_i, +1), (-z_i, -1)}, whose bias is 0,
    so that its w is the homogeneous w_hat*; no unit vector has a wider margin."""
    from sklearn.svm import SVC

    rng = np.random.default_rng(seed)
    X = rng.normal(size=(80, 4))
    margin = X @ rng.normal(size=4) + 0.4
    keep = np.abs(margin) > 0.3
    X, y = X[keep], np.where(margin[keep] > 0, 1, -1)
    Z = y[:, None] * np.hstack([X, np.ones((len(X), 1))])
    peer = SVC(kernel="linear", C=1e10, tol=1e-10).fit(
        np.vstack([Z, -Z]), np.r_[np.ones(len(Z)), -np.ones(len(Z))])
    w_peer = peer.coef_[0] / np.linalg.norm(peer.coef_[0])
    result = novikoff_bound(X, y)
    assert result.gamma == pytest.approx(1.0 / np.linalg.norm(peer.coef_[0]), rel=1e-5)
    assert result.gamma >= np.min(Z @ w_peer) - 1e-12


def test_the_bound_compiles_nothing():
    """The playground's first perceptron step shows the bound: numba compiles
    nothing for it and the SVM solver is not loaded (the SMO's first
    compilation took seconds)."""
    import subprocess
    import sys

    code = ("import sys\n"
            "from numba.core.event import install_recorder\n"
            "from hyperplane.linear import novikoff_bound\n"
            "with install_recorder('numba:compile') as compiled:\n"
            "    novikoff_bound([[3, 3], [4, 3], [1, 1]], [1, 1, -1])\n"
            "print(len(compiled.buffer), 'hyperplane.svm._smo' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["0", "False"]
