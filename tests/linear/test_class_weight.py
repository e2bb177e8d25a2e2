"""class_weight of the perceptrons, least squares and Fisher: scikit-learn's
meaning, a per-class factor on sample_weight (per one-vs-rest problem for the
perceptrons, as scikit-learn's SGD and LIBLINEAR); and the perceptron's n_jobs."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import Perceptron as SkPerceptron
from sklearn.utils.class_weight import compute_class_weight

from hyperplane.linear import (DualPerceptron, FisherDiscriminant, LeastSquaresClassifier,
                               Perceptron)


def _data(n=45, d=3, n_classes=3, seed=0):
    rng = np.random.default_rng(seed)
    y = np.sort(rng.integers(0, n_classes, n))          # unbalanced classes
    X = rng.normal(size=(n, d)) + y[:, None]
    return X, y


def _fitted_values(model):
    """What the fit produced: weights and bias (alpha_ for the dual form)."""
    if isinstance(model, DualPerceptron):
        return [model.alpha_, model.intercept_]
    return [model.coef_, model.intercept_]


PERCEPTRONS = [
    pytest.param(lambda **kw: Perceptron(max_iter=30, **kw), id="perceptron"),
    pytest.param(lambda **kw: Perceptron(max_iter=30, update="batch", variant="pocket", **kw),
                 id="batch-pocket-perceptron"),
    pytest.param(lambda **kw: DualPerceptron(max_iter=30, **kw), id="dual-perceptron"),
]
MOMENTS = [
    pytest.param(lambda **kw: LeastSquaresClassifier(**kw), id="least-squares"),
    pytest.param(lambda **kw: FisherDiscriminant(**kw), id="fisher"),
]
#: (model, classes): the row-weighted fits on 3 classes, the perceptrons on 2
MODELS = [pytest.param(p.values[0], 3, id=p.id) for p in MOMENTS] + [
    pytest.param(p.values[0], 2, id=p.id) for p in PERCEPTRONS]


def _fit(model, *args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return model.fit(*args, **kw)


@pytest.mark.parametrize("make, n_classes", MODELS)
@pytest.mark.parametrize("class_weight", ["balanced", {0: 3.0, 1: 0.25}])
@pytest.mark.parametrize("with_sample_weight", [False, True])
def test_class_weight_is_the_sample_weight_of_the_class(make, n_classes, class_weight,
                                                        with_sample_weight):
    X, y = _data(n_classes=n_classes)
    sw = np.random.default_rng(1).uniform(0.5, 2.0, len(y)) if with_sample_weight else None
    labels = np.unique(y)
    if class_weight == "balanced":
        per_class = compute_class_weight("balanced", classes=labels, y=y)
    else:
        per_class = np.array([class_weight.get(c, 1.0) for c in labels])
    by_class = _fit(make(class_weight=class_weight), X, y, sample_weight=sw)
    by_sample = _fit(make(), X, y,
                     sample_weight=(1.0 if sw is None else sw) * per_class[y])
    np.testing.assert_allclose(by_class.class_weight_, per_class, rtol=1e-15)
    for a, b in zip(_fitted_values(by_class), _fitted_values(by_sample)):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("Model", [LeastSquaresClassifier, FisherDiscriminant])
@pytest.mark.parametrize("sparse", [False, True])
def test_integer_class_weight_is_repeated_rows_of_the_class(Model, sparse):
    """The moments fits are order-free: weight 3 on a class is its rows three times."""
    X, y = _data(seed=2)
    rows = np.concatenate([np.arange(len(y))] + [np.flatnonzero(y == 0)] * 2)
    layout = sp.csr_matrix if sparse else np.asarray
    weighted = Model(class_weight={0: 3}).fit(layout(X), y)
    copies = Model().fit(layout(X[rows]), y[rows])
    np.testing.assert_allclose(weighted.decision_function(X), copies.decision_function(X),
                               rtol=1e-8, atol=1e-9)


def test_dual_perceptron_one_vs_rest_class_weight_is_the_primal_one():
    """The dual form's updates are the primal's, class weights included."""
    X, y = _data(seed=6)
    kw = dict(max_iter=30, class_weight={0: 0.5, 2: 3.0})
    primal = _fit(Perceptron(**kw), X, y)
    dual = _fit(DualPerceptron(**kw), X, y)
    np.testing.assert_allclose(dual.coef_, primal.coef_, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(dual.intercept_, primal.intercept_, rtol=1e-10)


def test_no_class_weight_changes_nothing():
    X, y = _data(seed=3)
    for Model in (Perceptron, LeastSquaresClassifier, FisherDiscriminant):
        plain = _fit(Model(), X, y)
        unit = _fit(Model(class_weight={0: 1.0}), X, y)
        np.testing.assert_array_equal(plain.coef_, unit.coef_)
        np.testing.assert_array_equal(plain.class_weight_, np.ones(3))


@pytest.mark.parametrize("n_classes", [2, 3, 4])
def test_perceptron_class_weight_as_scikit_learn(n_classes):
    """scikit-learn's Perceptron scales a sample's update by its class weight,
    as algorithm 2.1 with the weights as step factors (eta0=1, no shuffle);
    with K classes problem k weighs class k by w_k and the rest by 1."""
    X, y = _data(n=120, d=4, n_classes=n_classes, seed=4)
    class_weight = {0: 0.5, 1: 2.0} if n_classes == 2 else {0: 0.5, 2: 3.0}
    ours = _fit(Perceptron(max_iter=5, class_weight=class_weight), X, y)
    ref = _fit(SkPerceptron(max_iter=5, tol=None, shuffle=False, eta0=1.0,
                            class_weight=class_weight), X, y)
    np.testing.assert_allclose(ours.coef_, ref.coef_, rtol=1e-10)
    np.testing.assert_allclose(ours.intercept_, ref.intercept_, rtol=1e-10)


@pytest.mark.parametrize("Model", [Perceptron])
def test_balanced_is_refused_by_partial_fit(Model):
    X, y = _data()
    with pytest.raises(ValueError, match="partial_fit"):
        Model(class_weight="balanced").partial_fit(X, y, classes=[0, 1, 2])


def test_class_weight_of_an_unknown_label_is_named():
    X, y = _data()
    for Model in (Perceptron, DualPerceptron, LeastSquaresClassifier, FisherDiscriminant):
        with pytest.raises(ValueError, match="class 7"):
            Model(class_weight={7: 2.0}).fit(X, y)


def test_zero_weight_for_every_class_is_refused():
    X, y = _data(n_classes=2)
    for Model in (Perceptron, DualPerceptron, LeastSquaresClassifier, FisherDiscriminant):
        with pytest.raises(ValueError, match="zero for every sample"):
            Model(class_weight={0: 0, 1: 0}).fit(X, y)


@pytest.mark.parametrize("shuffle", [False, True])
@pytest.mark.parametrize("variant", ["standard", "averaged"])
def test_perceptron_n_jobs_does_not_change_the_weights(shuffle, variant):
    """The one-vs-rest problems run side by side; each has its own visiting orders."""
    X, y = _data(n=300, d=6, n_classes=4, seed=5)
    kw = dict(max_iter=20, shuffle=shuffle, variant=variant, random_state=0)
    one = _fit(Perceptron(n_jobs=1, **kw), X, y)
    two = _fit(Perceptron(n_jobs=2, **kw), X, y)
    again = _fit(Perceptron(n_jobs=None, **kw), X, y)
    for model in (two, again):
        np.testing.assert_array_equal(model.coef_, one.coef_)
        np.testing.assert_array_equal(model.intercept_, one.intercept_)
        assert model.n_iter_ == one.n_iter_ and model.n_updates_ == one.n_updates_


def test_dask_input_refuses_class_weight():
    da = pytest.importorskip("dask.array")
    X, y = _data()
    for Model in (Perceptron, LeastSquaresClassifier, FisherDiscriminant):
        with pytest.raises(ValueError, match="class_weight is not available for Dask"):
            Model(class_weight="balanced").fit(da.from_array(X, chunks=20),
                                               da.from_array(y, chunks=20))


@pytest.mark.parametrize("class_weight", ["balanced", {0: 4.0}])
def test_least_squares_class_weight_as_scikit_learn_ridge_without_penalty(class_weight):
    """Two classes: coef_ is w_1 - w_0, the least-squares fit of the ±1 targets,
    which is scikit-learn's RidgeClassifier(alpha=0) with the same class weights."""
    from sklearn.linear_model import RidgeClassifier

    X, y = _data(n=80, d=4, n_classes=2, seed=7)
    sw = np.random.default_rng(8).uniform(0.2, 2.0, len(y))
    ours = LeastSquaresClassifier(class_weight=class_weight).fit(X, y, sample_weight=sw)
    ref = RidgeClassifier(alpha=0.0, solver="cholesky", class_weight=class_weight).fit(
        X, y, sample_weight=sw)
    np.testing.assert_allclose(ours.coef_.ravel(), np.ravel(ref.coef_), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(ours.intercept_.ravel(), np.ravel(ref.intercept_), rtol=1e-9,
                               atol=1e-12)
