"""Scale-out under stress: data larger than a worker's memory, and a worker
killed in the middle of a fit."""

import resource
import warnings

import numpy as np
import dask.array as da
import distributed
from sklearn.exceptions import ConvergenceWarning

from hyperplane.linear import LeastSquaresClassifier, Perceptron


def generated_on_workers(n_rows, n_features, chunk_rows, seed=0):
    """X and y built chunk by chunk on the workers (never in the client)."""
    rs = da.random.RandomState(seed)
    X = rs.normal(size=(n_rows, n_features), chunks=(chunk_rows, n_features))
    w = np.linspace(-1, 1, n_features)
    y = da.where(X @ w + 0.1 * rs.normal(size=n_rows, chunks=chunk_rows) >= 0, 1, -1)
    return X, y


def test_fit_on_data_larger_than_a_worker_memory_limit():
    limit = 800 * 2**20     # a worker with numpy, numba and scikit-learn loaded uses ~250 MB
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None,
                                  memory_limit=limit) as cluster, \
            distributed.Client(cluster):
        X, y = generated_on_workers(10_000_000, 12, 250_000)   # 960 MB of float64
        assert X.nbytes > limit
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            model = Perceptron(update="batch", eta=1e-3, max_iter=2).fit(X, y)
        least_squares = LeastSquaresClassifier().fit(X, y)
        after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    assert model.n_iter_ == 2 and np.all(np.isfinite(model.coef_))
    # y = sign(X·w + noise) with w = linspace(-1, 1): least squares recovers w's direction
    w = np.linspace(-1, 1, X.shape[1])
    cosine = least_squares.coef_[0] @ w / np.linalg.norm(least_squares.coef_[0]) / np.linalg.norm(w)
    assert cosine > 0.99
    # the client never held the data: its peak grew by far less than X
    assert after - before < X.nbytes / 4


def test_worker_killed_mid_fit_gives_the_same_model(refit_with_a_worker_killed):
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None,
                                  memory_limit="1GiB") as cluster, \
            distributed.Client(cluster) as client:
        X, y = generated_on_workers(400_000, 8, 20_000, seed=3)

        def fit():
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ConvergenceWarning)
                return Perceptron(update="batch", eta=1e-3, max_iter=6).fit(X, y)

        reference, model = refit_with_a_worker_killed(client, fit)
    assert model.n_iter_ == reference.n_iter_
    np.testing.assert_allclose(model.coef_, reference.coef_, rtol=1e-12)
    np.testing.assert_allclose(model.intercept_, reference.intercept_, rtol=1e-12)
