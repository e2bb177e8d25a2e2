"""Dask arrays whose chunks are scipy.sparse CSR matrices.

Every estimator that scales out fits and predicts them end to end: the chunk
statistics read the sparse rows (the linear models) or expand them (the tree,
as its in-memory fit does), so the model equals the fit of the same sparse
matrix in memory -- or, for the perceptron's parameter mixing, the Dask fit of
the dense chunks. An estimator that does not scale out refuses them with a
TypeError naming the input.
"""

import numpy as np
import pytest
import dask.array as da
import scipy.sparse as sp

from hyperplane.linear import (DualPerceptron, FisherDiscriminant, LeastSquaresClassifier,
                               LogisticRegression, Perceptron)
from hyperplane.svm import SVC
from hyperplane.tree import DecisionTreeClassifier, export_text
from tests.distributed.test_tree_dask import assert_same_tree


def sparse_data(n=400, d=15, k=2, seed=0):
    rng = np.random.default_rng(seed)
    X = sp.random(n, d, density=0.25, format="csr", random_state=seed, dtype=np.float64)
    scores = X @ rng.standard_normal((d, k))
    y = scores.argmax(axis=1) if k > 2 else (scores[:, 0] > np.median(scores[:, 0])).astype(int)
    return X, y


def sparse_chunks(X, rows=90):
    """A dask array of CSR chunks (rows not a divisor of n: a short last chunk)."""
    dX = da.from_array(X, chunks=(rows, X.shape[1]), asarray=False)
    assert sp.issparse(dX.blocks[0].compute())
    return dX


@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("estimator", [LeastSquaresClassifier, FisherDiscriminant])
def test_moment_models_equal_in_memory_sparse_fit(dask_client, estimator, k):
    X, y = sparse_data(k=k)
    local = estimator().fit(X, y)
    on_dask = estimator().fit(sparse_chunks(X), da.from_array(y, chunks=100))
    np.testing.assert_allclose(on_dask.coef_, local.coef_, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(on_dask.intercept_, local.intercept_, rtol=1e-10, atol=1e-10)
    lazy = on_dask.predict(sparse_chunks(X))
    np.testing.assert_array_equal(lazy.compute(), local.predict(X))


def test_logistic_equals_in_memory_sparse_fit(dask_client):
    X, y = sparse_data(k=3)
    local = LogisticRegression(solver="lbfgs").fit(X, y)
    on_dask = LogisticRegression(solver="lbfgs").fit(sparse_chunks(X), da.from_array(y, chunks=100))
    np.testing.assert_allclose(on_dask.coef_, local.coef_, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(on_dask.predict_proba(sparse_chunks(X)).compute(),
                               local.predict_proba(X), rtol=1e-6, atol=1e-9)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("update", ["online", "batch"])
def test_perceptron_mixing_on_sparse_chunks_equals_dense_chunks(dask_client, update):
    X, y = sparse_data()
    dense = da.from_array(X.toarray(), chunks=(90, X.shape[1]))
    params = dict(update=update, eta=0.5, max_iter=10, random_state=0)
    on_dense = Perceptron(**params).fit(dense, da.from_array(y, chunks=100))
    on_sparse = Perceptron(**params).fit(sparse_chunks(X), da.from_array(y, chunks=100))
    np.testing.assert_allclose(on_sparse.coef_, on_dense.coef_, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(on_sparse.intercept_, on_dense.intercept_, rtol=1e-12)
    assert on_sparse.n_iter_ == on_dense.n_iter_
    np.testing.assert_array_equal(on_sparse.predict(sparse_chunks(X)).compute(),
                                  on_dense.predict(X))


def test_hist_tree_on_sparse_chunks_equals_in_memory_sparse_fit(dask_client):
    X, y = sparse_data(n=600, k=3)
    params = dict(splitter="hist", max_bins=16, max_depth=5, criterion="gini")
    local = DecisionTreeClassifier(**params).fit(X, y)
    on_dask = DecisionTreeClassifier(**params).fit(sparse_chunks(X), da.from_array(y, chunks=100))
    assert local.n_leaves_ > 4
    assert_same_tree(local, on_dask, X.toarray())
    assert export_text(local) == export_text(DecisionTreeClassifier(**params).fit(X.toarray(), y))
    np.testing.assert_array_equal(on_dask.predict(sparse_chunks(X)).compute(), local.predict(X))


def test_csc_and_coo_chunks_are_read_as_csr(dask_client):
    X, y = sparse_data()
    coo = sparse_chunks(X).map_blocks(sp.coo_matrix, dtype=X.dtype)
    local = LeastSquaresClassifier().fit(X, y)
    on_dask = LeastSquaresClassifier().fit(coo, da.from_array(y, chunks=100))
    np.testing.assert_allclose(on_dask.coef_, local.coef_, rtol=1e-10, atol=1e-10)


def test_nan_in_a_sparse_chunk_is_the_in_memory_error(dask_client):
    X, y = sparse_data()
    X = X.copy()
    X.data[7] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        LogisticRegression().fit(sparse_chunks(X), da.from_array(y, chunks=100))


@pytest.mark.parametrize("estimator", [DualPerceptron, SVC])
def test_estimators_that_do_not_scale_out_name_the_input(estimator):
    X, y = sparse_data()
    with pytest.raises(TypeError, match="does not scale out"):
        estimator().fit(sparse_chunks(X), da.from_array(y, chunks=100))
