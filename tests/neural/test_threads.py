"""n_jobs of the MLPs: None trains on one BLAS thread (the weights do not
depend on the machine); a number lets BLAS share the batch products."""

import numpy as np
import pytest
import threadpoolctl

from hyperplane.neural import MLPClassifier, MLPRegressor

pytestmark = pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")


def _data(seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(300, 8))
    return X, (X[:, 0] * X[:, 1] > 0).astype(int)


@pytest.mark.parametrize("bp", ["standard", "accumulated", "minibatch"])
def test_n_jobs_one_is_the_default_bit_for_bit(bp):
    X, y = _data()
    kw = dict(hidden_layer_sizes=(7,), bp=bp, batch_size=50, max_iter=4, tol=0,
              random_state=0)
    default = MLPClassifier(**kw).fit(X, y)
    one = MLPClassifier(n_jobs=1, **kw).fit(X, y)
    for a, b in zip(default.coefs_ + default.intercepts_, one.coefs_ + one.intercepts_):
        np.testing.assert_array_equal(a, b)


def test_more_threads_give_the_same_network_up_to_rounding():
    X, y = _data(1)
    kw = dict(hidden_layer_sizes=(7,), activation="tanh", bp="accumulated", max_iter=10,
              tol=0, random_state=0)
    one = MLPRegressor(**kw).fit(X, y.astype(float))
    two = MLPRegressor(n_jobs=2, **kw).fit(X, y.astype(float))
    for a, b in zip(one.coefs_ + one.intercepts_, two.coefs_ + two.intercepts_):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)


def test_blas_threads_are_restored_after_the_fit():
    X, y = _data(2)
    before = [info["num_threads"] for info in threadpoolctl.threadpool_info()
              if info["user_api"] == "blas"]
    MLPClassifier(max_iter=2, tol=0, n_jobs=2, random_state=0).fit(X, y)
    MLPClassifier(max_iter=2, tol=0, random_state=0).fit(X, y)
    after = [info["num_threads"] for info in threadpoolctl.threadpool_info()
             if info["user_api"] == "blas"]
    assert after == before


@pytest.mark.parametrize("n_jobs", [0, 1.5, "two"])
def test_bad_n_jobs_is_named(n_jobs):
    X, y = _data()
    with pytest.raises((ValueError, TypeError), match="n_jobs"):
        MLPClassifier(n_jobs=n_jobs).fit(X, y)
