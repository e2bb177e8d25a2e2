import numpy as np
import pandas as pd
import pytest
import dask.array as da
import dask.dataframe as dd

from hyperplane.linear import FisherDiscriminant, LeastSquaresClassifier, LogisticRegression


def blobs(n=3000, d=6, k=3, seed=0, offset=20.0):
    rng = np.random.default_rng(seed)
    centers = rng.normal(scale=3, size=(k, d)) + offset   # a large mean tests the centring
    y = rng.integers(0, k, size=n)
    return centers[y] + rng.normal(size=(n, d)), y


@pytest.mark.parametrize("k", [2, 4])
@pytest.mark.parametrize("estimator", [LeastSquaresClassifier, FisherDiscriminant])
def test_moment_models_equal_in_memory_fit(dask_client, estimator, k):
    X, y = blobs(k=k)
    local = estimator().fit(X, y)
    on_dask = estimator().fit(da.from_array(X, chunks=(700, 6)), da.from_array(y, chunks=500))
    np.testing.assert_allclose(on_dask.coef_, local.coef_, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(on_dask.intercept_, local.intercept_, rtol=1e-10, atol=1e-10)
    lazy = on_dask.predict(da.from_array(X, chunks=(1000, 6)))
    assert hasattr(lazy, "dask")
    np.testing.assert_array_equal(lazy.compute(), local.predict(X))


def test_fisher_transform_on_dask_is_lazy_and_equal(dask_client):
    X, y = blobs(k=3)
    model = FisherDiscriminant().fit(da.from_array(X, chunks=(1000, 6)), da.from_array(y, chunks=1000))
    local = FisherDiscriminant().fit(X, y)
    Z = model.transform(da.from_array(X, chunks=(900, 6)))
    assert hasattr(Z, "dask") and Z.shape == (len(X), 2)
    np.testing.assert_allclose(Z.compute(), local.transform(X), rtol=1e-8, atol=1e-8)


@pytest.mark.parametrize("k", [2, 3])
def test_logistic_equal_in_memory_fit(dask_client, k):
    X, y = blobs(n=2000, k=k, offset=0.0, seed=3)
    local = LogisticRegression(C=0.5, solver="lbfgs").fit(X, y)  # the solver Dask uses
    on_dask = LogisticRegression(C=0.5).fit(da.from_array(X, chunks=(600, 6)),
                                            da.from_array(y, chunks=600))
    np.testing.assert_allclose(on_dask.coef_, local.coef_, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(on_dask.intercept_, local.intercept_, rtol=1e-6, atol=1e-8)
    proba = on_dask.predict_proba(da.from_array(X, chunks=(500, 6)))
    assert hasattr(proba, "dask")
    np.testing.assert_allclose(proba.compute(), local.predict_proba(X), rtol=1e-6, atol=1e-9)


def test_dataframe_input_keeps_feature_names(dask_client):
    X, y = blobs(n=800, k=2)
    frame = pd.DataFrame(X, columns=[f"f{j}" for j in range(X.shape[1])])
    Xd = dd.from_pandas(frame, npartitions=3)
    yd = dd.from_pandas(pd.Series(np.where(y == 1, "是", "否")), npartitions=3)
    model = LeastSquaresClassifier().fit(Xd, yd)
    local = LeastSquaresClassifier().fit(frame, np.where(y == 1, "是", "否"))
    assert model.classes_.tolist() == ["否", "是"]
    assert model.feature_names_in_.tolist() == frame.columns.tolist()
    np.testing.assert_allclose(model.coef_, local.coef_, rtol=1e-10, atol=1e-10)


def test_kernel_fisher_refuses_dask():
    X, y = blobs(n=100, k=2)
    with pytest.raises(TypeError, match="does not scale out"):
        FisherDiscriminant(kernel="rbf").fit(da.from_array(X, chunks=50), da.from_array(y, chunks=50))
