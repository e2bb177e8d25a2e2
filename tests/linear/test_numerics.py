"""Data scaled by 1e300 or 1e-300: the scale-invariant learners (perceptron on
separable data, least squares, Fisher) predict as on the unscaled data; the
others (logistic regression, Adaline) refuse with an error naming the scale.
Divergence names the learning rate and the epoch."""

import numpy as np
import pytest
import scipy.sparse as sp

from hyperplane._numerics import check_magnitude, power_of_two_exponent
from hyperplane.linear import (
    Adaline,
    FisherDiscriminant,
    LeastSquaresClassifier,
    LogisticRegression,
    Perceptron,
)

from ._helpers import blobs, cosine

SCALES = [1e300, 1e-300, 1e150, 1e-150]


def separable(k=2):
    X, y = blobs(90, 3, k, seed=11, spread=6.0)
    return X, y


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("make", [Perceptron, LeastSquaresClassifier, FisherDiscriminant,
                                  lambda: Perceptron(variant="averaged"),
                                  lambda: Perceptron(update="batch")])
@pytest.mark.parametrize("k", [2, 3])
def test_scale_invariant_learners_predict_as_unscaled(make, scale, k):
    X, y = separable(k)
    plain = make().fit(X, y)
    scaled = make().fit(X * scale, y)
    assert np.all(np.isfinite(scaled.coef_))
    np.testing.assert_array_equal(scaled.predict(X * scale), plain.predict(X))
    if k == 2 and not isinstance(plain, Perceptron):   # closed forms: w scales by 1/scale
        assert cosine(scaled.coef_ * scale, plain.coef_) == pytest.approx(1.0, abs=1e-9)


@pytest.mark.parametrize("scale", [1e300, 1e-300])
def test_scale_invariant_learners_on_sparse_rows(scale):
    X, y = separable()
    X[np.abs(X) < 2] = 0.0
    for make in (Perceptron, LeastSquaresClassifier, FisherDiscriminant):
        plain = make().fit(X, y)
        scaled = make().fit(sp.csr_matrix(X * scale), y)
        np.testing.assert_array_equal(scaled.predict(sp.csr_matrix(X * scale)),
                                      plain.predict(X))


def test_perceptron_on_ordinary_data_is_not_rescaled():
    """李航 例2.1 keeps its exact trace: no power of two is applied inside 1e±100."""
    X = np.array([[3.0, 3.0], [4.0, 3.0], [1.0, 1.0]])
    assert power_of_two_exponent(X) == 0
    model = Perceptron().fit(X, [1, 1, -1])
    assert model.coef_.tolist() == [[1.0, 1.0]] and model.intercept_.tolist() == [-3.0]


@pytest.mark.parametrize("scale", [1e300, 1e-300])
@pytest.mark.parametrize("make", [LogisticRegression, lambda: LogisticRegression(solver="lbfgs"),
                                  Adaline])
def test_scale_dependent_learners_name_the_scale(make, scale):
    X, y = separable()
    with pytest.raises(ValueError, match="scale of X is the problem"):
        make().fit(X * scale, y)


def test_magnitude_check_names_the_feature():
    X = np.ones((4, 3))
    X[2, 1] = -1e120
    with pytest.raises(ValueError, match="feature 1 of X reaches magnitude 1e\\+120"):
        check_magnitude(LogisticRegression(), X)
    check_magnitude(LogisticRegression(), np.zeros((3, 2)))   # all-zero features are fine


def test_adaline_divergence_names_eta_and_epoch(monkeypatch):
    """α-LMS is stable for 0 < eta < 2; a diverging epoch (forced here by an
    overflowing error) stops with eta and the epoch in the message."""
    import hyperplane.linear._adaline as module
    calls = []

    def overflowing(*args):
        calls.append(1)
        return np.inf if len(calls) == 3 else 1.0

    monkeypatch.setattr(module, "lms_epoch", overflowing)
    X, y = separable()
    with pytest.raises(ValueError, match=r"eta=0\.5.*|epoch 3.*eta=0\.5") as info:
        Adaline(eta=0.5, tol=0.0, max_iter=10).fit(X, y)
    assert "epoch 3" in str(info.value) and "eta=0.5" in str(info.value)
