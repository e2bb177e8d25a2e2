import numpy as np
import pytest
import dask.array as da
import dask.dataframe as dd
from scipy.optimize import minimize

from hyperplane.linear import DualPerceptron, Perceptron


def separable(n=400, d=3, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    w = rng.normal(size=d)
    score = X @ w + 0.2
    keep = np.abs(score) > 0.3
    return X[keep], np.where(score[keep] >= 0, 1, -1)


def novikoff(X, y):
    """(R/γ)² with augmented vectors, γ from the hard-margin QP min ‖ŵ‖² s.t. y ŵ.x̂ ≥ 1."""
    Xh = np.hstack([X, np.ones((len(X), 1))])
    cons = {"type": "ineq", "fun": lambda w: y * (Xh @ w) - 1, "jac": lambda w: y[:, None] * Xh}
    res = minimize(lambda w: w @ w, np.zeros(Xh.shape[1]), jac=lambda w: 2 * w,
                   constraints=[cons], method="SLSQP", options={"maxiter": 500, "ftol": 1e-12})
    assert res.success
    gamma = 1.0 / np.linalg.norm(res.x)
    R = np.max(np.linalg.norm(Xh, axis=1))
    return (R / gamma) ** 2


def test_parameter_mixing_separates_and_respects_novikoff(dask_client):
    X, y = separable()
    Xd, yd = da.from_array(X, chunks=(60, 3)), da.from_array(y, chunks=60)
    model = Perceptron(max_iter=200).fit(Xd, yd)
    assert model.converged_
    np.testing.assert_array_equal(model.predict(X), y)
    assert model.mixed_mistakes_ <= novikoff(X, y)
    assert model.n_features_in_ == 3 and model.classes_.tolist() == [-1, 1]


def test_batch_rule_on_dask_equals_in_memory(dask_client):
    X, y = separable(seed=1)
    Xd, yd = da.from_array(X, chunks=(50, 3)), da.from_array(y, chunks=50)
    on_dask = Perceptron(update="batch", eta=0.1, max_iter=300).fit(Xd, yd)
    local = Perceptron(update="batch", eta=0.1, max_iter=300).fit(X, y)
    np.testing.assert_allclose(on_dask.coef_, local.coef_, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(on_dask.intercept_, local.intercept_, rtol=1e-10)
    assert on_dask.n_iter_ == local.n_iter_


def test_dataframe_input_multiclass_and_lazy_predict(dask_client):
    import pandas as pd
    rng = np.random.default_rng(2)
    X = np.vstack([rng.normal(loc=c, scale=0.5, size=(80, 2)) for c in ([0, 5], [5, 0], [-5, -5])])
    y = np.repeat(["a", "b", "c"], 80)
    frame = pd.DataFrame(X, columns=["x1", "x2"])
    Xd = dd.from_pandas(frame, npartitions=4)
    yd = dd.from_pandas(pd.Series(y), npartitions=4)
    model = Perceptron(max_iter=100).fit(Xd, yd)
    assert model.coef_.shape == (3, 2)
    lazy = model.predict(da.from_array(X, chunks=(60, 2)))
    assert hasattr(lazy, "dask")                       # still lazy
    np.testing.assert_array_equal(lazy.compute(), model.predict(X))
    assert (lazy.compute() == y).mean() > 0.95


def test_estimators_that_do_not_scale_out_refuse_dask():
    X, y = separable()
    with pytest.raises(TypeError, match="does not scale out"):
        DualPerceptron().fit(da.from_array(X, chunks=50), da.from_array(y, chunks=50))
