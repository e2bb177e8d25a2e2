"""Sample and class weights of the MLPs: repeated rows, dropped rows, the
class weights' meaning, and scikit-learn's MLP with sample weights."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning
from sklearn.neural_network import MLPClassifier as SklearnMLPClassifier
from sklearn.neural_network import MLPRegressor as SklearnMLPRegressor
from sklearn.utils.class_weight import compute_class_weight

from hyperplane.neural import MLPClassifier, MLPRegressor


def _data(n=40, d=4, seed=0, n_classes=3):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = rng.integers(0, n_classes, n)
    return X, y


def _params(net):
    return net.coefs_ + net.intercepts_


def _fit(est, *args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return est.fit(*args, **kw)


def _assert_same_network(a, b, **tol):
    for p, q in zip(_params(a), _params(b)):
        np.testing.assert_allclose(p, q, **tol)


LAYOUTS = [pytest.param(np.asarray, id="dense"), pytest.param(sp.csr_matrix, id="csr")]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("reg_lambda", [None, 0.9])
def test_integer_weights_are_repeated_rows_for_accumulated_bp(layout, reg_lambda):
    """Accumulated BP descends sum_k s_k E_k / sum_k s_k: an integer weight is
    that many copies of the row (the mean over the repeated data)."""
    X, y = _data()
    counts = np.random.default_rng(1).integers(1, 4, len(y))
    kw = dict(hidden_layer_sizes=(5,), bp="accumulated", learning_rate=0.5, max_iter=25,
              tol=0, reg_lambda=reg_lambda, random_state=0)
    weighted = _fit(MLPClassifier(**kw), layout(X), y, sample_weight=counts)
    repeated = _fit(MLPClassifier(**kw), layout(np.repeat(X, counts, axis=0)),
                    np.repeat(y, counts))
    _assert_same_network(weighted, repeated, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(weighted.loss_curve_, repeated.loss_curve_, rtol=1e-10)


def test_integer_weights_are_repeated_rows_in_the_row_space():
    """Wide data (fewer rows than columns) trains in the row space of X: the
    weights enter the same way."""
    rng = np.random.default_rng(2)
    X, y = rng.normal(size=(12, 30)), rng.normal(size=12)
    counts = rng.integers(3, 6, 12)  # the repeated data is tall: trained directly
    kw = dict(hidden_layer_sizes=(4,), activation="tanh", bp="accumulated",
              learning_rate=0.05, max_iter=20, tol=0, random_state=0)
    weighted = _fit(MLPRegressor(**kw), X, y, sample_weight=counts)
    repeated = _fit(MLPRegressor(**kw), np.repeat(X, counts, axis=0), np.repeat(y, counts))
    assert X.shape[0] < X.shape[1] < np.repeat(X, counts, axis=0).shape[0]
    _assert_same_network(weighted, repeated, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("bp", ["standard", "accumulated"])
def test_zero_weight_is_a_dropped_row(layout, bp):
    X, y = _data(seed=3)
    weights = np.ones(len(y))
    weights[[2, 7, 19]] = 0.0
    keep = weights > 0
    kw = dict(hidden_layer_sizes=(5,), bp=bp, learning_rate=0.1, max_iter=15, tol=0,
              shuffle=False, random_state=0)
    weighted = _fit(MLPClassifier(**kw), layout(X), y, sample_weight=weights)
    dropped = _fit(MLPClassifier(**kw), layout(X[keep]), y[keep])
    _assert_same_network(weighted, dropped, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(weighted.loss_curve_, dropped.loss_curve_, rtol=1e-12)


def test_unit_weights_change_nothing():
    X, y = _data(seed=4)
    for bp in ("standard", "accumulated", "minibatch"):
        kw = dict(hidden_layer_sizes=(5,), bp=bp, batch_size=7, max_iter=5, tol=0,
                  random_state=0)
        plain = _fit(MLPClassifier(**kw), X, y)
        ones = _fit(MLPClassifier(**kw), X, y, sample_weight=np.ones(len(y)))
        for p, q in zip(_params(plain), _params(ones)):
            np.testing.assert_array_equal(p, q)


def test_standard_bp_step_scales_with_the_weight():
    """Standard BP on s_k E_k: weight 2 on every row is the step of eta 2 eta."""
    X, y = _data(seed=5)
    kw = dict(hidden_layer_sizes=(5,), bp="standard", max_iter=3, tol=0, shuffle=False,
              random_state=0)
    doubled = _fit(MLPClassifier(learning_rate=0.05, **kw), X, y,
                   sample_weight=np.full(len(y), 2.0))
    faster = _fit(MLPClassifier(learning_rate=0.1, **kw), X, y)
    _assert_same_network(doubled, faster, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("class_weight", ["balanced", {0: 3.0, 2: 0.5}])
@pytest.mark.parametrize("bp", ["standard", "accumulated", "minibatch"])
def test_class_weight_is_the_sample_weight_of_the_class(class_weight, bp):
    X, y = _data(seed=6)
    y = np.where(y == 1, 0, y)  # unbalanced: class 0 has about twice the rows
    sw = np.random.default_rng(0).uniform(0.5, 2.0, len(y))
    kw = dict(hidden_layer_sizes=(5,), bp=bp, batch_size=8, max_iter=6, tol=0,
              random_state=0)
    labels = np.unique(y)
    if class_weight == "balanced":
        per_class = compute_class_weight("balanced", classes=labels, y=y)
    else:
        per_class = np.array([class_weight.get(c, 1.0) for c in labels])
    by_class = _fit(MLPClassifier(class_weight=class_weight, **kw), X, y, sample_weight=sw)
    by_sample = _fit(MLPClassifier(**kw), X, y,
                     sample_weight=sw * per_class[np.searchsorted(labels, y)])
    np.testing.assert_allclose(by_class.class_weight_, per_class)
    for p, q in zip(_params(by_class), _params(by_sample)):
        np.testing.assert_array_equal(p, q)


def test_balanced_class_weight_is_refused_by_partial_fit():
    X, y = _data()
    with pytest.raises(ValueError, match="partial_fit"):
        MLPClassifier(class_weight="balanced").partial_fit(X, y, classes=[0, 1, 2])


def test_partial_fit_takes_sample_weight_as_fit():
    X, y = _data(seed=7)
    sw = np.random.default_rng(1).uniform(0, 2, len(y))
    kw = dict(hidden_layer_sizes=(4,), bp="minibatch", batch_size=9, random_state=0)
    fitted = _fit(MLPClassifier(max_iter=3, tol=0, **kw), X, y, sample_weight=sw)
    stepped = MLPClassifier(**kw)
    for _ in range(3):
        stepped.partial_fit(X, y, classes=[0, 1, 2], sample_weight=sw)
    _assert_same_network(fitted, stepped, rtol=1e-12)


@pytest.mark.parametrize("bad, match", [(-np.ones(40), "non-negative"),
                                        (np.zeros(40), "zero for every sample"),
                                        (np.ones(3), "shape")])
def test_bad_sample_weight(bad, match):
    X, y = _data()
    with pytest.raises(ValueError, match=match):
        MLPRegressor().fit(X, y.astype(float), sample_weight=bad)


def test_early_stopping_weighs_the_validation_error():
    X, y = _data(n=60, seed=8)
    sw = np.random.default_rng(2).uniform(0.5, 2.0, len(y))
    net = _fit(MLPClassifier(hidden_layer_sizes=(4,), early_stopping=True, max_iter=5,
                             random_state=0), X, y, sample_weight=sw)
    assert len(net.validation_loss_curve_) == net.n_iter_


# ---------------------------------------------------------------------------
# the peer: scikit-learn's MLP (sample_weight since 1.7) on full-batch plain
# gradient descent, a deterministic solver: the same initial weights, steps
# and weighted mean loss as accumulated BP
# ---------------------------------------------------------------------------
def _peer_kw(n, epochs, eta):
    return dict(solver="sgd", batch_size=n, learning_rate_init=eta, momentum=0.0,
                nesterovs_momentum=False, alpha=0.0, max_iter=epochs, tol=0,
                n_iter_no_change=epochs + 1, shuffle=False, random_state=0)


def _assert_equals_peer(Ours, Peer, X, y, sw, activation, eta, epochs=20):
    """Accumulated BP and scikit-learn's full-batch gradient descent, from the
    same initial weights, on the same weighted data: the same networks."""
    ours = _fit(Ours(hidden_layer_sizes=(6,), activation=activation, bp="accumulated",
                     learning_rate=eta, max_iter=epochs, tol=0, n_iter_no_change=epochs + 1,
                     shuffle=False, random_state=0), X, y, sample_weight=sw)
    peer = _fit(Peer(hidden_layer_sizes=(6,), activation=activation,
                     **_peer_kw(len(y), epochs, eta)), X, y, sample_weight=sw)
    _assert_same_network(ours, peer, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(ours.loss_curve_, peer.loss_curve_, rtol=1e-9)


@pytest.mark.parametrize("n_classes", [2, 3])
def test_classifier_equals_scikit_learn_full_batch_gd_with_sample_weight(n_classes):
    X, y = _data(n=50, seed=9, n_classes=n_classes)
    sw = np.random.default_rng(3).uniform(0.0, 3.0, len(y))
    _assert_equals_peer(MLPClassifier, SklearnMLPClassifier, X, y, sw, "tanh", 0.3)


def test_regressor_equals_scikit_learn_full_batch_gd_with_sample_weight():
    rng = np.random.default_rng(10)
    X = rng.uniform(-2, 2, (60, 3))
    y = np.sin(X[:, 0]) + X[:, 1] * X[:, 2]
    sw = rng.uniform(0.0, 3.0, len(y))
    _assert_equals_peer(MLPRegressor, SklearnMLPRegressor, X, y, sw, "relu", 0.05)


def test_minibatch_matches_scikit_learn_sgd_with_sample_weight_unshuffled():
    """Mini-batches in the given order: each batch's weighted mean, as scikit-learn."""
    X, y = _data(n=45, seed=11)
    sw = np.random.default_rng(4).uniform(0.1, 3.0, len(y))
    epochs, eta = 5, 0.2
    ours = _fit(MLPClassifier(hidden_layer_sizes=(6,), activation="relu", bp="minibatch",
                              batch_size=10, learning_rate=eta, max_iter=epochs, tol=0,
                              n_iter_no_change=epochs + 1, shuffle=False, random_state=0),
                X, y, sample_weight=sw)
    kw = {**_peer_kw(len(y), epochs, eta), "batch_size": 10}
    peer = _fit(SklearnMLPClassifier(hidden_layer_sizes=(6,), activation="relu", **kw),
                X, y, sample_weight=sw)
    _assert_same_network(ours, peer, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("bp", ["standard", "accumulated"])
def test_zero_weight_is_a_dropped_row_in_the_row_space(bp):
    """Wide data trains in the row space (W_0 = c W_0^0 + X^T A): a zero-weight
    row leaves its row of A at zero, as if it were not there."""
    rng = np.random.default_rng(12)
    X, y = rng.normal(size=(10, 25)), rng.normal(size=10)
    weights = np.ones(10)
    weights[[1, 6]] = 0.0
    keep = weights > 0
    kw = dict(hidden_layer_sizes=(4,), activation="tanh", bp=bp, learning_rate=0.05,
              max_iter=8, tol=0, shuffle=False, random_state=0)
    weighted = _fit(MLPRegressor(**kw), X, y, sample_weight=weights)
    dropped = _fit(MLPRegressor(**kw), X[keep], y[keep])
    _assert_same_network(weighted, dropped, rtol=1e-9, atol=1e-12)
