"""Sparse (CSR) input for SVC and SVR: LIBSVM's sparse mode.

The model fitted on a sparse X must be the one fitted on X.toarray() (the
kernel rows are summed in float64 from the same float32 values, so the
solver sees the same float32 rows); the compiled sparse rows are checked
against NumPy's formulas; the fits against scikit-learn's SVC/SVR (LIBSVM's
sparse solver) on the same sparse data.
"""

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import svm as sk_svm

from hyperplane.datasets import load_heart_scale
from hyperplane.kernels import RBF, Kernel, Linear, Polynomial, Sigmoid
from hyperplane.svm import SVC, SVR
from hyperplane.svm import _kernel_rows as kr
from hyperplane.svm import _sparse_rows_kernels as srk
from tests.svm.test_kernel_rows import CODES, reference_row

KERNELS = ["linear", "rbf", "poly", "sigmoid", "laplace"]


def random_sparse(n, d, density, seed, fmt="csr"):
    rng = np.random.default_rng(seed)
    X = sp.random(n, d, density=density, format=fmt, random_state=seed,
                  data_rvs=lambda k: rng.normal(size=k))
    w = rng.normal(size=d)
    score = X @ w
    return X, (score > np.median(score)).astype(int), score


def assert_same_model(a, b):
    """Two fits of the same problem: the same dual solution to 1e-10."""
    np.testing.assert_allclose(a.alpha_, b.alpha_, rtol=0, atol=1e-10)
    np.testing.assert_allclose(a.intercept_, b.intercept_, rtol=0, atol=1e-10)
    np.testing.assert_array_equal(a.support_, b.support_)
    np.testing.assert_allclose(a.dual_coef_, b.dual_coef_, rtol=0, atol=1e-10)


def fit_both(make, X, y):
    return make().fit(X, y), make().fit(X.toarray(), y)


# --------------------------------------------------------------------------
# sparse fit = dense fit
# --------------------------------------------------------------------------
@pytest.mark.filterwarnings("ignore::hyperplane.kernels.NotPSDWarning")
@pytest.mark.parametrize("kernel", KERNELS)
def test_svc_sparse_equals_dense_random(kernel):
    X, y, _ = random_sparse(250, 60, 0.08, seed=1)
    sparse_fit, dense_fit = fit_both(lambda: SVC(kernel=kernel, tol=1e-6), X, y)
    assert_same_model(sparse_fit, dense_fit)
    assert sp.issparse(sparse_fit.support_vectors_)
    np.testing.assert_array_equal(sparse_fit.support_vectors_.toarray(),
                                  dense_fit.support_vectors_)
    np.testing.assert_allclose(sparse_fit.decision_function(X),
                               dense_fit.decision_function(X.toarray()), rtol=0, atol=1e-10)
    np.testing.assert_array_equal(sparse_fit.predict(X), dense_fit.predict(X.toarray()))
    # either model predicts either layout the same way
    np.testing.assert_allclose(sparse_fit.decision_function(X.toarray()),
                               dense_fit.decision_function(X), rtol=0, atol=1e-10)


@pytest.mark.filterwarnings("ignore::hyperplane.kernels.NotPSDWarning")
@pytest.mark.parametrize("kernel", KERNELS)
def test_svr_sparse_equals_dense_random(kernel):
    X, _, z = random_sparse(200, 40, 0.1, seed=2)
    sparse_fit, dense_fit = fit_both(lambda: SVR(kernel=kernel, C=2.0, tol=1e-6), X, z)
    assert_same_model(sparse_fit, dense_fit)
    np.testing.assert_allclose(sparse_fit.predict(X), dense_fit.predict(X.toarray()),
                               rtol=0, atol=1e-10)


@pytest.mark.filterwarnings("ignore::hyperplane.kernels.NotPSDWarning")
@pytest.mark.parametrize("kernel", KERNELS)
def test_svc_sparse_equals_dense_heart_scale(kernel):
    X, y = load_heart_scale()
    assert sp.issparse(X)
    sparse_fit, dense_fit = fit_both(lambda: SVC(kernel=kernel), X, y)
    assert_same_model(sparse_fit, dense_fit)
    np.testing.assert_array_equal(sparse_fit.predict(X), dense_fit.predict(X.toarray()))


def test_multiclass_and_sample_weight_sparse_equals_dense():
    X, _, score = random_sparse(240, 30, 0.15, seed=3)
    y = np.digitize(score, np.quantile(score, [1 / 3, 2 / 3]))
    weight = np.random.default_rng(0).uniform(0, 2, size=y.size)
    weight[:10] = 0.0
    a = SVC(kernel="rbf", C=3.0).fit(X, y, sample_weight=weight)
    b = SVC(kernel="rbf", C=3.0).fit(X.toarray(), y, sample_weight=weight)
    assert_same_model(a, b)
    np.testing.assert_allclose(a.decision_function(X), b.decision_function(X.toarray()),
                               rtol=0, atol=1e-10)


@pytest.mark.parametrize("fmt", ["csc", "coo", "lil"])
def test_other_sparse_formats_fit_as_csr(fmt):
    X, y, _ = random_sparse(120, 20, 0.2, seed=4)
    a = SVC().fit(X.asformat(fmt), y)
    b = SVC().fit(X, y)
    assert_same_model(a, b)
    np.testing.assert_array_equal(a.predict(X.asformat(fmt)), b.predict(X))


def test_unsorted_indices_and_duplicates_are_summed():
    X, y, _ = random_sparse(100, 15, 0.2, seed=5)
    coo = X.tocoo()
    half = coo.data / 2                     # every entry stored twice, halves, rows reversed
    messy = sp.csr_matrix((np.concatenate([half, half])[::-1],
                           (np.concatenate([coo.row, coo.row])[::-1],
                            np.concatenate([coo.col, coo.col])[::-1])), shape=X.shape)
    messy.has_canonical_format = False
    assert_same_model(SVC().fit(messy, y), SVC().fit(X, y))


def test_linear_kernel_coef_is_dense_and_equals_the_dense_fit():
    X, y, _ = random_sparse(200, 25, 0.2, seed=6)
    a, b = fit_both(lambda: SVC(kernel="linear", C=0.5), X, y)
    assert isinstance(a.coef_, np.ndarray)
    np.testing.assert_allclose(a.coef_, b.coef_, rtol=0, atol=1e-10)


def test_hard_margin_on_sparse_data():
    X = sp.csr_matrix(np.array([[3.0, 3], [4, 3], [1, 1]]))
    svc = SVC(kernel="linear", C=np.inf, tol=1e-8).fit(X, [1, 1, -1])
    np.testing.assert_allclose(svc.alpha_, [0.25, 0.0, 0.25], atol=1e-10)
    bad = sp.csr_matrix(np.array([[0.0, 0], [1, 1], [0, 1], [1, 0]]))
    with pytest.raises(ValueError, match="not separable"):
        SVC(kernel="linear", C=np.inf).fit(bad, [1, 1, -1, -1])


def test_fit_keeps_x_sparse(monkeypatch):
    """Nothing on the fit/predict path builds a dense copy of (rows of) X:
    the only sparse matrices made dense are kernel blocks (n x n here)."""
    X, y, _ = random_sparse(150, 500, 0.02, seed=7)
    toarray = sp.csr_matrix.toarray

    def refuse_samples(self, *args, **kwargs):
        if self.shape[1] == X.shape[1]:
            raise AssertionError("X was densified")
        return toarray(self, *args, **kwargs)

    monkeypatch.setattr(sp.csr_matrix, "toarray", refuse_samples)
    monkeypatch.setattr(sp.csr_matrix, "todense", refuse_samples)
    svc = SVC(kernel="rbf").fit(X, y)
    svc.predict(X)
    SVR(kernel="poly").fit(X, y.astype(float)).predict(X)


# --------------------------------------------------------------------------
# against LIBSVM (scikit-learn's SVC/SVR on sparse input)
# --------------------------------------------------------------------------
def libsvm_params(kernel):
    return dict(kernel=kernel, gamma="scale", degree=3, coef0=0.0)


def as_libsvm_input(X):
    """X with float32-representable values (hyperplane keeps its samples in
    float32, LIBSVM in float64: on such values both solve the same problem)
    and 32-bit indices (scikit-learn's LIBSVM wrapper refuses 64-bit ones)."""
    X = X.astype(np.float32).astype(np.float64)
    X.indices, X.indptr = X.indices.astype(np.int32), X.indptr.astype(np.int32)
    return X


# the sigmoid kernel is left out: it is not PSD on these data, so the dual
# has no unique solution and each solver's path picks its own
@pytest.mark.parametrize("kernel", ["linear", "rbf", "poly"])
@pytest.mark.parametrize("data", ["random", "heart_scale"])
def test_svc_matches_libsvm_sparse(kernel, data):
    X, y = load_heart_scale() if data == "heart_scale" else random_sparse(300, 80, 0.05, 8)[:2]
    X = as_libsvm_input(X)
    ours = SVC(C=1.0, tol=1e-8, **libsvm_params(kernel)).fit(X, y)
    peer = sk_svm.SVC(C=1.0, tol=1e-8, **libsvm_params(kernel)).fit(X, y)
    assert sp.issparse(peer.support_vectors_)
    np.testing.assert_array_equal(ours.support_, np.sort(peer.support_))
    np.testing.assert_allclose(ours.decision_function(X), peer.decision_function(X),
                               rtol=0, atol=1e-6)


@pytest.mark.parametrize("kernel", ["linear", "rbf", "poly"])
def test_svr_matches_libsvm_sparse(kernel):
    X, _, z = random_sparse(200, 50, 0.08, seed=9)
    X = as_libsvm_input(X)
    ours = SVR(C=1.0, epsilon=0.1, tol=1e-8, **libsvm_params(kernel)).fit(X, z)
    peer = sk_svm.SVR(C=1.0, epsilon=0.1, tol=1e-8, **libsvm_params(kernel)).fit(X, z)
    np.testing.assert_array_equal(ours.support_, np.sort(peer.support_))
    np.testing.assert_allclose(ours.predict(X), peer.predict(X), rtol=0, atol=1e-6)


# --------------------------------------------------------------------------
# the compiled sparse kernel rows
# --------------------------------------------------------------------------
@settings(deadline=None)
@given(seed=st.integers(0, 2 ** 31), n=st.integers(1, 40), d=st.integers(1, 30),
       density=st.floats(0.0, 1.0), code=st.sampled_from(sorted(CODES)),
       gamma=st.floats(0.01, 2.0), coef0=st.floats(-1.0, 1.0), degree=st.integers(1, 4),
       subset=st.booleans())
def test_sparse_kernel_row_matches_numpy_and_dense(seed, n, d, density, code, gamma, coef0,
                                                    degree, subset):
    rng = np.random.default_rng(seed)
    X = sp.random(n, d, density=density, format="csr", random_state=seed,
                  data_rvs=lambda k: rng.normal(size=k))
    X32 = X.toarray().astype(np.float32)
    r = int(rng.integers(n))
    cols = np.sort(rng.choice(n, size=max(1, n // 2), replace=False)) if subset \
        else np.arange(n)
    samples = kr.samples_of(X, code, gamma, coef0, degree)
    out = np.full(n, -7.0, dtype=np.float32)
    if subset:
        kr.kernel_row(samples, r, cols.astype(np.int64), cols.size, out)
    else:
        kr.kernel_row_full(samples, r, out)
    expected = reference_row(X32.astype(np.float64), r, code, gamma, coef0, degree)
    scale = np.maximum(1.0, np.abs(expected[cols]))
    np.testing.assert_array_less(np.abs(out[cols] - expected[cols]) / scale, 1e-6)
    assert np.all(out[np.setdiff1d(np.arange(n), cols)] == -7.0)
    assert not samples.work.any()                       # the work vector is left zeroed
    dense = np.full(n, -7.0, dtype=np.float32)
    kr.kernel_row(kr.samples_of(X.toarray(), code, gamma, coef0, degree), r,
                  cols.astype(np.int64), cols.size, dense)
    np.testing.assert_array_max_ulp(out[cols], dense[cols], maxulp=1)
    if r in cols and code in (kr.RBF_KERNEL, kr.LAPLACE_KERNEL):
        assert out[r] == 1.0                            # k(x, x) = exp(0) exactly


@pytest.mark.parametrize("density", [0.005, 0.05, 0.5])
def test_products_by_rows_and_by_columns_agree(density):
    """The two ways of summing sparse dot products (CSR rows, CSC columns)."""
    X, _, _ = random_sparse(300, 200, density, seed=16)
    samples = kr.samples_of(X, kr.LINEAR_KERNEL, 1.0, 0.0, 1)
    cols = np.arange(0, 300, 3, dtype=np.int64)
    expected = (X @ X.T).toarray()
    for r in (0, 7, 299):
        srk.products_by_rows(samples, r, cols, cols.size)
        by_rows = samples.buf[:cols.size].copy()
        srk.products_by_columns(samples, r, cols, cols.size)
        by_columns = samples.buf[:cols.size].copy()
        X32 = X.astype(np.float32).astype(np.float64)
        exact = (X32 @ X32[r].T).toarray().ravel()[cols]
        np.testing.assert_allclose(by_rows, exact, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(by_columns, exact, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(by_columns, expected[r, cols], rtol=1e-6, atol=1e-6)


def sequential_dots(X32, r):
    """x_r . x_c for every c, in float64, each sum taking x_r's features in
    increasing order one at a time (the order of both ways by columns)."""
    X = X32.astype(np.float64)
    out = np.zeros(X.shape[0])
    for f in np.flatnonzero(X[r]):
        out += X[r, f] * X[:, f]
    return out


@settings(deadline=None, max_examples=30)
@given(seed=st.integers(0, 2 ** 31), n=st.integers(1, 60), d=st.integers(1, 20),
       density=st.floats(0.3, 1.0), data=st.data())
def test_dense_columns_give_the_csc_columns_bits(seed, n, d, density, data):
    """Samples dense enough keep dense feature-major columns instead of the
    CSC arrays; their dot products are bit for bit those of the CSC columns
    and of the sums in x_r's feature order, on any block of samples."""
    rng = np.random.default_rng(seed)
    X = sp.random(n, d, density=density, format="csr", random_state=seed,
                  data_rvs=lambda k: rng.normal(size=k))
    lo = data.draw(st.integers(0, n - 1))
    hi = data.draw(st.integers(lo, n))
    with_columns = kr.samples_of(X, kr.LINEAR_KERNEL, 1.0, 0.0, 1)
    assert kr.has_dense_columns(with_columns) == (n * d <= kr.DENSE_COLUMN_FILL * X.nnz)
    fill = kr.DENSE_COLUMN_FILL
    try:
        kr.DENSE_COLUMN_FILL = 0                     # the CSC arrays only
        csc = kr.samples_of(X, kr.LINEAR_KERNEL, 1.0, 0.0, 1)
    finally:
        kr.DENSE_COLUMN_FILL = fill
    assert not kr.has_dense_columns(csc)
    np.testing.assert_array_equal(kr.dense_columns(with_columns.data, with_columns.indices,
                                                   with_columns.indptr, d),
                                  X.toarray().astype(np.float32).T)
    r = int(rng.integers(n))
    expected = sequential_dots(X.toarray().astype(np.float32), r)
    for samples in (with_columns, csc):
        samples.dots[:] = np.nan
        kr.column_dots(samples, r, lo, hi)
        assert samples.dots[lo:hi].tobytes() == expected[lo:hi].tobytes()


def test_sparse_row_of_an_empty_sample():
    X = sp.csr_matrix(np.array([[0.0, 0.0], [1.0, 2.0], [0.0, 0.0]]))
    out = np.empty(3, dtype=np.float32)
    kr.kernel_row_full(kr.samples_of(X, kr.RBF_KERNEL, 0.5, 0.0, 1), 0, out)
    np.testing.assert_allclose(out, [1.0, np.exp(-2.5), 1.0], rtol=1e-7)


# --------------------------------------------------------------------------
# kernel objects on sparse samples
# --------------------------------------------------------------------------
@pytest.mark.parametrize("kernel", [Linear(), Polynomial(3, gamma=0.5, coef0=1.0), RBF(0.7),
                                    Sigmoid(0.1, -0.5), RBF(1.0) + 2.0 * Linear(),
                                    Polynomial(2) * RBF(2.0)])
def test_kernel_blocks_on_sparse_equal_dense(kernel):
    A, _, _ = random_sparse(30, 12, 0.3, seed=10)
    B, _, _ = random_sparse(20, 12, 0.3, seed=11)
    expected = kernel(A.toarray(), B.toarray())
    np.testing.assert_allclose(kernel(A, B), expected, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(kernel(A, B.toarray()), expected, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(kernel.diag(A), np.diag(kernel(A.toarray())), rtol=1e-12)
    if isinstance(kernel, RBF):
        np.testing.assert_array_equal(np.diag(kernel(A)), 1.0)   # no cancellation residue


class DenseOnly(Kernel):
    def _gram(self, X, Y):
        return np.asarray(X) @ np.asarray(Y).T


def test_kernel_without_sparse_support_is_a_type_error():
    X, y, _ = random_sparse(50, 10, 0.3, seed=12)
    with pytest.raises(TypeError, match="kernel=DenseOnly"):
        SVC(kernel=DenseOnly()).fit(X, y)
    with pytest.raises(TypeError, match=r"kernel=\(DenseOnly\(\) \+ RBF"):
        SVR(kernel=DenseOnly() + RBF()).fit(X, y.astype(float))
    with pytest.raises(TypeError, match="sparse"):
        DenseOnly()(X)
    with pytest.raises(TypeError, match="sparse"):
        RBF().scaled(lambda Z: np.ones(Z.shape[0]))(X)


# --------------------------------------------------------------------------
# bad input
# --------------------------------------------------------------------------
def test_sparse_nan_is_a_clear_error():
    X, y, _ = random_sparse(40, 8, 0.3, seed=13)
    X = X.copy()
    X.data[3] = np.nan
    for est in (SVC(), SVR()):
        with pytest.raises(ValueError, match="NaN"):
            est.fit(X, y)
    fitted = SVC().fit(random_sparse(40, 8, 0.3, seed=13)[0], y)
    with pytest.raises(ValueError, match="NaN"):
        fitted.predict(X)


def test_sparse_inf_and_wrong_width_are_clear_errors():
    X, y, _ = random_sparse(40, 8, 0.3, seed=14)
    bad = X.copy()
    bad.data[0] = np.inf
    with pytest.raises(ValueError, match="infinity"):
        SVC().fit(bad, y)
    fitted = SVC().fit(X, y)
    with pytest.raises(ValueError, match="8 features"):
        fitted.predict(sp.random(5, 9, density=0.3, format="csr"))
    with pytest.raises(ValueError, match="8 features"):
        fitted.decision_function(np.zeros((5, 7)))


def test_sparse_scale_out_of_range_is_a_clear_error():
    X, y, _ = random_sparse(40, 8, 0.3, seed=15)
    with pytest.raises(ValueError, match="scale is out of range"):
        SVC().fit(X * 1e20, y)


def test_all_zero_sparse_x():
    X = sp.csr_matrix((20, 5))
    y = np.repeat([0, 1], 10)
    a, b = fit_both(SVC, X, y)
    assert_same_model(a, b)


# --------------------------------------------------------------------------
# command line: a LIBSVM file is fitted sparse
# --------------------------------------------------------------------------
def test_cli_fits_heart_scale_sparse(tmp_path):
    from typer.testing import CliRunner

    from hyperplane.cli import app
    from hyperplane.io import load

    out = tmp_path / "heart.hyperplane"
    result = CliRunner().invoke(app, ["fit", "svc", "heart_scale", "--out", str(out)])
    assert result.exit_code == 0, result.output
    model = load(out)
    assert sp.issparse(model.support_vectors_)         # not densified on the way
    X, y = load_heart_scale()
    assert_same_model(model, SVC().fit(X.toarray(), y))


#: a fresh process's CSR fit, printing the numba functions it compiled
_COMPILED_BY_A_FIT = '''
import json, sys
import scipy.sparse as sp
from numba.core import event
from hyperplane.datasets import load_heart_scale
from hyperplane.svm import SVC
from hyperplane.svm import _kernel_rows as kr

compiled = []


class Listener(event.Listener):
    def on_start(self, ev):
        compiled.append(ev.data["dispatcher"].py_func.__qualname__)

    def on_end(self, ev):
        pass


event.register("numba:compile", Listener())
X, y = load_heart_scale()
X = sp.csr_matrix(X)
if sys.argv[1] == "csc":
    kr.DENSE_COLUMN_FILL = 0
SVC().fit(X, y)
print(json.dumps(compiled))
'''


@pytest.mark.parametrize("kind", ["dense_columns", "csc"])
def test_a_csr_fit_compiles_the_rows_of_its_kind_of_columns_only(tmp_path, kind):
    """Samples with dense columns and with CSC arrays are two types, and a
    first fit compiles the kernel row of its own kind only (the other kind's
    branches are not compiled: ``_sparse_rows_kernels.per_columns``)."""
    import json
    import os
    import subprocess
    import sys

    import hyperplane

    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=os.path.dirname(os.path.dirname(hyperplane.__file__)))
    done = subprocess.run([sys.executable, "-c", _COMPILED_BY_A_FIT, kind], env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    compiled = json.loads(done.stdout.strip().splitlines()[-1])
    other = "csc" if kind == "dense_columns" else "dense_columns"
    assert f"sparse_compute_row_{kind}" in compiled
    assert not [name for name in compiled if name.endswith(f"_{other}")]
