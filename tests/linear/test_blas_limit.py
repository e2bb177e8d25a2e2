"""The second-order and L-BFGS logistic fits run their short vector algebra on
one BLAS thread above ``BLAS_THREADED_PARAMETERS`` weights (spinning BLAS
threads multiplied their CPU time), and leave BLAS alone below it."""

import numpy as np
import pytest
import scipy.sparse as sp
from threadpoolctl import threadpool_info

from hyperplane.linear import LogisticRegression
from hyperplane.linear._logistic import _estimator as _logistic


def blas_threads():
    """The thread counts of every BLAS library loaded in the process."""
    return sorted({lib["num_threads"] for lib in threadpool_info()
                   if lib["user_api"] == "blas"})


def sparse_problem(n_features, seed=0):
    rng = np.random.default_rng(seed)
    X = sp.random(300, n_features, density=20 / n_features, format="csr", random_state=seed)
    y = (X @ rng.normal(size=n_features) > 0).astype(int)
    return X, y


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("solver, minimizer", [("tron", "minimize_tron"),
                                               ("lbfgs", "minimize_lbfgs")])
@pytest.mark.parametrize("n_features, limited", [
    (_logistic.BLAS_THREADED_PARAMETERS + 10, True),
    (500, False),
])
def test_solver_sees_one_blas_thread_above_the_bound(monkeypatch, solver, minimizer,
                                                     n_features, limited):
    from hyperplane import _threads

    monkeypatch.setattr(_threads, "busy_cores", lambda: 0)  # the default: every core
    np.ones((64, 64)) @ np.ones((64, 64))  # load the BLAS library
    outside = blas_threads()
    if limited and outside == [1]:
        pytest.skip("BLAS already runs on one thread here: a limit cannot be told apart")
    seen = []
    real = getattr(_logistic, minimizer)

    def spy(*args, **kwargs):
        seen.append(blas_threads())
        return real(*args, **kwargs)

    monkeypatch.setattr(_logistic, minimizer, spy)
    X, y = sparse_problem(n_features)
    LogisticRegression(solver=solver, max_iter=20).fit(X, y)
    assert seen, f"the {solver} fit did not call {minimizer}"
    assert seen[0] == ([1] if limited else outside)
    assert blas_threads() == outside  # restored after the fit


def test_newton_forms_its_hessians_on_one_blas_thread(monkeypatch):
    """The dense Newton fit's Hessian products gain nothing from BLAS threads
    (spinning on a busy machine cost 6x the CPU time), whatever the size."""
    from hyperplane import _threads

    monkeypatch.setattr(_threads, "busy_cores", lambda: 0)
    np.ones((64, 64)) @ np.ones((64, 64))
    outside = blas_threads()
    if outside == [1]:
        pytest.skip("BLAS already runs on one thread here: a limit cannot be told apart")
    seen = []
    real = _logistic.minimize_nested

    def spy(*args, **kwargs):
        seen.append(blas_threads())
        return real(*args, **kwargs)

    monkeypatch.setattr(_logistic, "minimize_nested", spy)
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 5))
    LogisticRegression(solver="newton").fit(X, X[:, 0] > 0)
    assert seen == [[1]]
    assert blas_threads() == outside
