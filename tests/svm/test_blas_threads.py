"""A fit's values do not depend on how many threads BLAS may use: the short
reductions of the SVM (gamma="scale" on sparse input, the linear seed's
balance, the dual objective) are summed on the calling thread."""

import math

import numpy as np
import pytest
import scipy.sparse as sp
from threadpoolctl import threadpool_info, threadpool_limits

from hyperplane._serial_sums import serial_dot
from hyperplane.kernels._resolve import entry_variance, resolve_gamma
from hyperplane.svm import SVC
from tests._threads import on_threads

BLAS_THREADS = max((i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"),
                   default=1)
needs_two = pytest.mark.skipif(BLAS_THREADS < 2, reason="BLAS runs one thread here")


def on_blas_threads(n_threads, f):
    """``f()`` on ``n_threads`` numba threads and at most ``n_threads`` BLAS threads."""
    with threadpool_limits(n_threads, user_api="blas"):
        return on_threads(n_threads, f)


def model_bits(model):
    return model.dual_coef_.tobytes() + model.support_.tobytes() + model.intercept_.tobytes()


@pytest.mark.parametrize("n", [0, 1, 7, 10_000, 200_001])
def test_serial_dot_is_the_exact_sum_to_rounding(n):
    rng = np.random.default_rng(n)
    a, b = rng.normal(size=n), rng.normal(size=n)
    exact = math.fsum(float(x) * float(y) for x, y in zip(a, b))
    scale = math.fsum(abs(float(x) * float(y)) for x, y in zip(a, b))
    assert abs(serial_dot(a, b) - exact) <= 1e-13 * max(scale, 1.0)


def test_entry_variance_of_sparse_is_the_variance_of_the_dense_entries():
    rng = np.random.default_rng(2)
    X = sp.random(300, 40, density=0.2, format="csr", random_state=2,
                  data_rvs=lambda k: rng.normal(size=k))
    assert entry_variance(X) == pytest.approx(np.var(X.toarray()), rel=1e-12)


@needs_two
def test_serial_dot_and_sparse_gamma_have_the_same_bits_on_one_and_two_blas_threads():
    rng = np.random.default_rng(0)
    a = rng.normal(size=200_000)          # BLAS splits a dot this long over its threads
    X = sp.random(10_000, 2000, density=0.01, format="csr", random_state=0,
                  data_rvs=lambda k: rng.normal(size=k))
    one = on_blas_threads(1, lambda: (serial_dot(a, a), resolve_gamma("scale", X)))
    two = on_blas_threads(2, lambda: (serial_dot(a, a), resolve_gamma("scale", X)))
    assert one == two


@needs_two
@pytest.mark.parametrize("kernel, sparse", [("linear", False), ("linear", True), ("rbf", True)])
def test_svc_has_the_same_bits_on_one_and_two_blas_threads(kernel, sparse):
    # 12000 variables: the seed's balance (linear kernel, at least 1000 samples)
    # and the dual objective are dot products BLAS would split over its threads
    rng = np.random.default_rng(4)
    n, d = 12_000, 20
    X = rng.normal(size=(n, d))
    y = np.where(X[:, 0] + 0.5 * X[:, 1] + rng.normal(scale=0.7, size=n) > 0, 1, -1)
    if sparse:
        X = sp.csr_matrix(np.where(rng.random((n, d)) < 0.3, X, 0.0))
    a, b = [on_blas_threads(t, lambda: SVC(kernel=kernel, C=0.1).fit(X, y)) for t in (1, 2)]
    assert model_bits(a) == model_bits(b)
    assert a.objective_ == b.objective_
