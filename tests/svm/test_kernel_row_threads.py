"""Kernel rows split over threads: the same bits on one thread and two, on
the parallel and the serial path, and the same SMO solution."""

import numba
import numpy as np
import pytest
import scipy.sparse as sp

from hyperplane.svm import SVC, SVR
from hyperplane.svm import _kernel_rows as kr
from tests._threads import on_threads

pytestmark = pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2,
                                reason="needs two numba threads")

CODES = [kr.LINEAR_KERNEL, kr.POLY_KERNEL, kr.RBF_KERNEL, kr.LAPLACE_KERNEL, kr.SIGMOID_KERNEL]


def samples_for(layout, code, seed=0):
    """20000 samples: dense with 100 features; sparse with 600 at density
    0.24, kept as CSR and CSC, where full rows are summed by the CSC columns
    and rows on 4113 samples by rows; or sparse with 400 at density 0.5,
    dense enough to keep dense columns, which sum the full rows. All of them
    above PARALLEL_ROW_WORK."""
    rng = np.random.default_rng(seed)
    if layout == "dense":
        X = rng.normal(size=(20000, 100)) / 10.0
    else:
        d, density = (600, 0.24) if layout == "sparse" else (400, 0.5)
        X = sp.random(20000, d, density=density, format="csr", random_state=seed,
                      data_rvs=lambda k: rng.normal(size=k) / np.sqrt(d * density))
    return kr.samples_of(X, code, 0.5, 0.3, 3)


@pytest.mark.parametrize("code", CODES)
@pytest.mark.parametrize("layout", ["dense", "sparse", "dense columns"])
def test_parallel_rows_are_bitwise_the_serial_rows(code, layout):
    samples = samples_for(layout, code)
    n = samples.all_rows.size
    if layout != "dense":
        assert kr.has_dense_columns(samples) == (layout == "dense columns")
    rng = np.random.default_rng(1)
    size = 4 * kr.ROW_BLOCK + 17 if layout == "dense" else 2 * kr.ROW_BLOCK + 17
    cols = np.sort(rng.choice(n, size=size, replace=False)).astype(np.int64)
    methods = set()
    for r in (0, 1234, n - 1):
        for full in (True, False):
            c = samples.all_rows if full else cols
            method, work = kr.row_method(samples, r, c.size, full)
            assert work >= kr.PARALLEL_ROW_WORK
            methods.add(method)
            rows = {}
            for threads in (1, 2):
                out = np.full(n, -7.0, dtype=np.float32)
                if full:
                    on_threads(threads, lambda: kr.kernel_row_full(samples, r, out))
                else:
                    on_threads(threads, lambda: kr.kernel_row(samples, r, c, c.size, out))
                rows[threads] = out
            serial = np.full(n, -7.0, dtype=np.float32)
            if method == kr.SPARSE_COLUMNS:
                kr.column_dots(samples, r, 0, n)
            elif method == kr.SPARSE_ROWS:
                kr.scatter_row(samples, r, 1.0)
            kr.row_block(samples, r, c, 0, c.size, method, serial)
            if method == kr.SPARSE_ROWS:
                kr.scatter_row(samples, r, 0.0)
            assert rows[1].tobytes() == rows[2].tobytes()
            assert rows[1].tobytes() == serial.tobytes()
            if layout != "dense":
                assert not samples.work.any()
    assert len(methods) == 2                # both ways of each layout were run in parallel


def test_column_dots_on_blocks_equal_one_pass():
    rng = np.random.default_rng(3)
    S = sp.random(5000, 400, density=0.3, format="csr", random_state=3,
                  data_rvs=lambda k: rng.normal(size=k))
    samples = kr.samples_of(S, kr.LINEAR_KERNEL, 1.0, 0.0, 1)
    kr.column_dots(samples, 17, 0, 5000)
    whole = samples.dots.copy()
    for lo, hi in [(0, 1), (1, 2048), (2048, 4999), (4999, 5000)]:
        samples.dots[:] = np.nan
        kr.column_dots(samples, 17, lo, hi)
        assert samples.dots[lo:hi].tobytes() == whole[lo:hi].tobytes()
    S32 = S.astype(np.float32).astype(np.float64)
    np.testing.assert_allclose(whole, (S32 @ S32[17].T).toarray().ravel(), rtol=1e-12,
                               atol=1e-12)


@pytest.mark.parametrize("sparse", [False, True])
def test_svc_solution_does_not_depend_on_the_thread_count(sparse):
    rng = np.random.default_rng(5)
    n, d = 3000, 200                    # 3000 x 200 = 6e5 multiply-adds per full row
    X = rng.normal(size=(n, d))
    y = np.where(X[:, 0] + 0.5 * X[:, 1] ** 2 + rng.normal(scale=0.5, size=n) > 0.5, 1, -1)
    if sparse:
        X = sp.csr_matrix(np.where(rng.random((n, d)) < 0.5, X, 0.0))
    # n_jobs, not numba.set_num_threads: the default leaves out busy cores, so on
    # a loaded machine set_num_threads(2) alone may give the fit one thread
    fits = [SVC(kernel="rbf", C=1.0, n_jobs=t).fit(X, y) for t in (1, 2)]
    a, b = fits
    assert a.support_.tobytes() == b.support_.tobytes()
    assert a.dual_coef_.tobytes() == b.dual_coef_.tobytes()
    assert a.intercept_.tobytes() == b.intercept_.tobytes()


def test_svr_solution_does_not_depend_on_the_thread_count():
    rng = np.random.default_rng(6)
    X = rng.normal(size=(2200, 240))   # 528,000 multiply-adds per full row: just parallel
    y = np.sin(X[:, 0]) + 0.1 * rng.normal(size=2200)
    a, b = [SVR(kernel="rbf", C=1.0, epsilon=0.2, n_jobs=t).fit(X, y) for t in (1, 2)]
    assert a.support_.tobytes() == b.support_.tobytes()
    assert a.dual_coef_.tobytes() == b.dual_coef_.tobytes()
    assert a.intercept_.tobytes() == b.intercept_.tobytes()


def test_rows_are_split_over_threads_only_when_there_are_several():
    X32 = np.ones((kr.PARALLEL_ROW_WORK // 4, 4), dtype=np.float32)  # a full row: just parallel
    one = on_threads(1, lambda: kr.make_samples(X32, kr.RBF_KERNEL, 1.0, 0.0, 1))
    two = on_threads(2, lambda: kr.make_samples(X32, kr.RBF_KERNEL, 1.0, 0.0, 1))
    assert one.parallel_work is None
    assert two.parallel_work == kr.PARALLEL_ROW_WORK


def test_rows_too_small_to_split_never_are():
    X32 = np.ones((kr.PARALLEL_ROW_WORK // 4 - 1, 4), dtype=np.float32)
    assert on_threads(2, lambda: kr.make_samples(X32, kr.RBF_KERNEL, 1.0, 0.0, 1)
                      ).parallel_work is None
    X = sp.random(1000, 1000, density=0.01, format="csr", random_state=0)
    assert on_threads(2, lambda: kr.make_sparse_samples(X, kr.RBF_KERNEL, 1.0, 0.0, 1)
                      ).parallel_work is None
