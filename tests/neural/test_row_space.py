"""BP on wide data in the row space of X equals BP on the weights.

With fewer rows than columns the estimators keep the first layer as
``W_0 = c W_0⁰ + Xᵀ A`` (:mod:`hyperplane.neural._row_space`); every rule,
with and without the penalty of eq. 5.17, must give the weights, loss curve
and stopping epoch of the direct rules (forced here by a row limit of 0).
"""

from unittest import mock

import numpy as np
import pytest

from hyperplane.neural import MLPClassifier, MLPRegressor, _row_space


def _direct(fit):
    """Run ``fit()`` with the row-space form switched off."""
    with mock.patch.object(_row_space, "ROW_SPACE_MAX_ROWS", 0):
        return fit()


def _wide(seed=1, m=7, d=40):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((m, d)), np.array([0, 1, 2, 0, 1, 2, 1])[:m], rng.standard_normal(m)


def _assert_same_network(a, b):
    for p, q in zip(a.coefs_ + a.intercepts_, b.coefs_ + b.intercepts_):
        np.testing.assert_allclose(p, q, rtol=0, atol=1e-12)
    np.testing.assert_allclose(a.loss_curve_, b.loss_curve_, rtol=1e-12, atol=1e-14)
    assert a.n_iter_ == b.n_iter_ and a.converged_ == b.converged_


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("bp", ["accumulated", "minibatch", "standard"])
@pytest.mark.parametrize("reg_lambda", [None, 0.9])
@pytest.mark.parametrize("Estimator", [MLPClassifier, MLPRegressor])
def test_row_space_equals_direct_rules(bp, reg_lambda, Estimator):
    X, y_class, y_real = _wide()
    y = y_class if Estimator is MLPClassifier else y_real
    params = dict(bp=bp, reg_lambda=reg_lambda, random_state=0, max_iter=40, batch_size=3,
                  hidden_layer_sizes=(6, 4))
    assert _row_space.uses_row_space(X, early_stopping=False)
    wide = Estimator(**params).fit(X, y)
    direct = _direct(lambda: Estimator(**params).fit(X, y))
    _assert_same_network(wide, direct)
    np.testing.assert_allclose(wide.predict(X), direct.predict(X), rtol=1e-12, atol=1e-14)


def test_row_space_partial_fit_equals_direct():
    X, y, _ = _wide()

    def three_epochs():
        model = MLPClassifier(random_state=0, hidden_layer_sizes=(5,))
        for _ in range(3):
            model.partial_fit(X, y, classes=[0, 1, 2])
        return model

    _assert_same_network(three_epochs(), _direct(three_epochs))


def test_row_space_divergence_names_learning_rate():
    X, y, _ = _wide()
    with pytest.raises(ValueError, match=r"learning_rate=1e\+200.*|epoch \d+.*learning_rate"):
        MLPRegressor(learning_rate=1e200, random_state=0).fit(X * 1e3, np.arange(7.0) * 1e3)


def test_row_space_only_where_it_pays():
    """Tall data, sparse rows and a validation split use the direct rules."""
    import scipy.sparse

    X, _, _ = _wide()
    assert not _row_space.uses_row_space(X.T, early_stopping=False)
    assert not _row_space.uses_row_space(scipy.sparse.csr_matrix(X), early_stopping=False)
    assert not _row_space.uses_row_space(X, early_stopping=True)
