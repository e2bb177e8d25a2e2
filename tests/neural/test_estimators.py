"""MLPClassifier / MLPRegressor: the book's claims, the peer, the sklearn API."""

import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_digits
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import Perceptron as SklearnPerceptron
from sklearn.model_selection import train_test_split
from sklearn.neural_network import MLPClassifier as SklearnMLPClassifier
from sklearn.neural_network import MLPRegressor as SklearnMLPRegressor
from sklearn.utils.estimator_checks import check_estimator

from hyperplane.datasets import load_watermelon
from hyperplane.linear import Perceptron
from hyperplane.neural import MLPClassifier, MLPRegressor

XOR_X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]], dtype=float)
XOR_Y = np.array([0, 1, 1, 0])


PERCEPTRONS = [pytest.param(lambda: SklearnPerceptron(max_iter=1000, tol=None), id="sklearn"),
               pytest.param(lambda: Perceptron(max_iter=1000), id="hyperplane")]


@pytest.mark.parametrize("make_perceptron", PERCEPTRONS)
@pytest.mark.parametrize("bp", ["standard", "accumulated", "minibatch"])
def test_one_hidden_layer_learns_xor_but_a_perceptron_cannot(bp, make_perceptron):
    """Section 5.2/5.3: a single functional layer cannot represent XOR; one hidden layer can."""
    net = MLPClassifier(hidden_layer_sizes=(4,), activation="tanh", bp=bp, batch_size=2,
                        learning_rate=0.5, max_iter=3000, tol=1e-6, random_state=0)
    net.fit(XOR_X, XOR_Y)
    assert net.score(XOR_X, XOR_Y) == 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        perceptron = make_perceptron().fit(XOR_X, XOR_Y)
    assert perceptron.score(XOR_X, XOR_Y) <= 0.75


def test_without_a_hidden_layer_the_network_learns_and_but_not_xor():
    """hidden_layer_sizes=() is section 5.2's two-layer network: AND yes, XOR no."""
    kw = dict(hidden_layer_sizes=(), bp="standard", loss="squared_error", learning_rate=0.5,
              max_iter=3000, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        and_net = MLPClassifier(**kw).fit(XOR_X, [0, 0, 0, 1])
        xor_net = MLPClassifier(**kw).fit(XOR_X, XOR_Y)
    assert [W.shape for W in and_net.coefs_] == [(2, 1)] and and_net.n_layers_ == 2
    assert and_net.score(XOR_X, [0, 0, 0, 1]) == 1.0
    assert xor_net.score(XOR_X, XOR_Y) <= 0.75


def _watermelon_onehot():
    X, y = load_watermelon("3.0")
    return pd.get_dummies(X, dtype=float), y  # categorical one-hot, 密度/含糖率 as given


def _book_network(bp, epochs):
    """The book's setting: sigmoid neurons, squared error, initial weights and
    thresholds in (0, 1), samples in the given order."""
    X, y = _watermelon_onehot()
    net = MLPClassifier(hidden_layer_sizes=(10,), activation="sigmoid", bp=bp, init="book",
                        loss="squared_error", learning_rate=1.0, max_iter=epochs, tol=0,
                        n_iter_no_change=epochs, shuffle=False, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        net.fit(X, y)
    return net, net.score(X, y)


def test_watermelon_3_standard_and_accumulated_bp_reach_zero_training_error():
    """周志华 section 5.3: both rules fit 西瓜数据集3.0; standard BP updates after
    every sample (more updates per epoch) and needs far fewer epochs: after 300
    epochs it fits the data while accumulated BP still errs, and accumulated BP
    gets there too given many more epochs (same learning rate)."""
    standard, standard_accuracy = _book_network("standard", 300)
    accumulated_early, early_accuracy = _book_network("accumulated", 300)
    accumulated, accumulated_accuracy = _book_network("accumulated", 10_000)
    assert standard_accuracy == 1.0 and accumulated_accuracy == 1.0
    assert early_accuracy < 1.0
    assert standard.n_updates_ == 17 * standard.n_iter_  # one update per sample
    assert accumulated.n_updates_ == accumulated.n_iter_  # one update per epoch
    # the book's E (eq. 5.16) falls under both rules
    for net in (standard, accumulated):
        assert net.loss_curve_[-1] < 0.2 * net.loss_curve_[0]


@pytest.mark.parametrize("activation, sk_activation",
                         [("sigmoid", "logistic"), ("relu", "relu"), ("tanh", "tanh")])
def test_digits_accuracy_within_two_points_of_sklearn(activation, sk_activation):
    X, y = load_digits(return_X_y=True)
    X_train, X_test, y_train, y_test = train_test_split(X / 16, y, test_size=0.3,
                                                        random_state=0, stratify=y)
    epochs = 30
    ours = MLPClassifier(hidden_layer_sizes=(32,), activation=activation, bp="minibatch",
                         batch_size=32, learning_rate=0.1, max_iter=epochs, tol=0,
                         n_iter_no_change=epochs, random_state=0)
    peer = SklearnMLPClassifier(hidden_layer_sizes=(32,), activation=sk_activation,
                                solver="sgd", batch_size=32, learning_rate_init=0.1,
                                momentum=0.0, alpha=0.0, max_iter=epochs, tol=0,
                                n_iter_no_change=epochs, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        ours.fit(X_train, y_train)
        peer.fit(X_train, y_train)
    assert ours.n_iter_ == peer.n_iter_ == epochs
    assert abs(ours.score(X_test, y_test) - peer.score(X_test, y_test)) <= 0.02
    # same initialisation and objective: the training losses agree too
    assert ours.loss_curve_[-1] == pytest.approx(peer.loss_curve_[-1], rel=0.1)


def test_regressor_matches_sklearn_loss_on_a_smooth_function():
    rng = np.random.default_rng(0)
    X = rng.uniform(-2, 2, (300, 2))
    y = np.sin(X[:, 0]) + 0.5 * X[:, 1] ** 2
    kw = dict(hidden_layer_sizes=(16,), batch_size=20, max_iter=60, tol=0,
              n_iter_no_change=60, random_state=0)
    ours = MLPRegressor(activation="tanh", bp="minibatch", learning_rate=0.05, **kw)
    peer = SklearnMLPRegressor(activation="tanh", solver="sgd", learning_rate_init=0.05,
                               momentum=0.0, alpha=0.0, **kw)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        ours.fit(X, y)
        peer.fit(X, y)
    assert ours.score(X, y) > 0.9
    assert ours.loss_curve_[-1] == pytest.approx(peer.loss_curve_[-1], rel=0.2)


@pytest.mark.parametrize("Estimator", [MLPClassifier, MLPRegressor])
def test_check_estimator(Estimator):
    check_estimator(Estimator())


@pytest.mark.parametrize("bp", ["standard", "accumulated", "minibatch"])
def test_partial_fit_epochs_equal_fit(bp):
    X, y = load_digits(n_class=3, return_X_y=True)
    kw = dict(hidden_layer_sizes=(5, 4), bp=bp, batch_size=50, random_state=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        fitted = MLPClassifier(max_iter=4, **kw).fit(X / 16, y)
    stepped = MLPClassifier(**kw)
    for _ in range(4):
        stepped.partial_fit(X / 16, y, classes=[0, 1, 2])
    assert stepped.n_iter_ == 4
    for a, b in zip(fitted.coefs_ + fitted.intercepts_, stepped.coefs_ + stepped.intercepts_):
        np.testing.assert_allclose(a, b)
    np.testing.assert_allclose(fitted.loss_curve_, stepped.loss_curve_)


def test_attribute_shapes_with_two_hidden_layers():
    X, y = load_digits(n_class=4, return_X_y=True)
    net = MLPClassifier(hidden_layer_sizes=(7, 5), bp="minibatch", max_iter=3,
                        random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        net.fit(X, y)
    assert [W.shape for W in net.coefs_] == [(64, 7), (7, 5), (5, 4)]
    assert [b.shape for b in net.intercepts_] == [(7,), (5,), (4,)]
    assert net.n_layers_ == 4 and net.n_outputs_ == 4 and len(net.loss_curve_) == 3
    assert net.converged_ is False
    np.testing.assert_allclose(net.predict_proba(X).sum(axis=1), 1.0)


def test_binary_network_has_one_output_neuron_and_sign_zero_is_positive():
    X, y = _watermelon_onehot()
    net = MLPClassifier(hidden_layer_sizes=(3,), max_iter=5, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        net.fit(X, y)
    assert net.coefs_[-1].shape == (3, 1) and list(net.classes_) == ["否", "是"]
    assert list(net.feature_names_in_) == list(X.columns)
    net.coefs_[-1][:] = 0.0
    net.intercepts_[-1][:] = 0.0  # output exactly 0.5 everywhere
    assert (net.predict(X) == "是").all()


def test_book_initialisation_draws_weights_and_thresholds_in_0_1():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        net = MLPClassifier(hidden_layer_sizes=(5, 3), init="book", learning_rate=1e-12,
                            max_iter=1, random_state=0).fit(XOR_X, XOR_Y)
    weights = np.concatenate([W.ravel() for W in net.coefs_])
    thresholds = -np.concatenate(net.intercepts_)
    assert weights.min() > 0 and weights.max() < 1
    assert thresholds.min() > 0 and thresholds.max() < 1


def test_convergence_sets_converged_and_stops_early():
    net = MLPClassifier(hidden_layer_sizes=(4,), activation="tanh", bp="standard",
                        learning_rate=0.5, max_iter=5000, random_state=0).fit(XOR_X, XOR_Y)
    assert net.converged_ and net.n_iter_ < 5000


def test_not_converging_warns():
    with pytest.warns(ConvergenceWarning, match="max_iter"):
        net = MLPClassifier(max_iter=2, random_state=0).fit(XOR_X, XOR_Y)
    assert net.converged_ is False


def test_reg_lambda_shrinks_the_weights():
    X, y = load_digits(n_class=2, return_X_y=True)
    norms = []
    for lam in (None, 0.999, 0.99):
        net = MLPClassifier(hidden_layer_sizes=(8,), bp="minibatch", batch_size=20,
                            reg_lambda=lam, max_iter=20, random_state=0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            net.fit(X / 16, y)
        norms.append(sum(np.sum(W ** 2) + np.sum(b ** 2)
                         for W, b in zip(net.coefs_, net.intercepts_)))
    assert norms[0] > norms[1] > norms[2]


def test_early_stopping_keeps_the_best_validation_weights():
    X, y = load_digits(return_X_y=True)
    net = MLPClassifier(hidden_layer_sizes=(20,), activation="relu", bp="minibatch",
                        batch_size=32, learning_rate=0.3, max_iter=300, early_stopping=True,
                        validation_fraction=0.2, n_iter_no_change=3, random_state=0)
    net.fit(X / 16, y)
    assert net.converged_ and net.n_iter_ < 300
    assert len(net.validation_loss_curve_) == net.n_iter_
    assert net.best_validation_loss_ == min(net.validation_loss_curve_)
    assert np.argmin(net.validation_loss_curve_) == net.n_iter_ - 1 - 3


def test_early_stopping_on_too_few_samples_to_stratify():
    """20 samples, 3 classes, 10% held out: 2 validation samples cannot hold every
    class, so the split is not stratified (instead of sklearn's test_size error)."""
    rng = np.random.default_rng(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        net = MLPClassifier(early_stopping=True, max_iter=3, random_state=0).fit(
            rng.normal(size=(20, 3)), np.arange(20) % 3)
    assert len(net.validation_loss_curve_) == 3


def test_diverging_loss_names_the_learning_rate():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(50, 3)) * 1e3
    y = X.sum(axis=1) * 1e3
    net = MLPRegressor(activation="relu", bp="standard", learning_rate=10.0, random_state=0)
    with pytest.raises(ValueError, match="learning_rate=10.0"):
        net.fit(X, y)


def test_float32_is_trained_in_float32():
    X, y = load_digits(n_class=2, return_X_y=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        net = MLPClassifier(max_iter=3, random_state=0).fit(X.astype(np.float32), y)
    assert all(W.dtype == np.float32 for W in net.coefs_ + net.intercepts_)


def test_regressor_multi_output():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(60, 2))
    Y = np.column_stack([X[:, 0], X[:, 0] - X[:, 1]])
    net = MLPRegressor(hidden_layer_sizes=(6,), bp="accumulated", learning_rate=0.1,
                       max_iter=800, activation="tanh", random_state=0).fit(X, Y)
    assert net.predict(X).shape == (60, 2) and net.score(X, Y) > 0.9


def test_verbose_shows_progress_with_loss(capsys):
    MLPClassifier(hidden_layer_sizes=(4,), activation="tanh", bp="standard",
                  learning_rate=0.5, max_iter=2000, random_state=0, verbose=True).fit(XOR_X,
                                                                                     XOR_Y)
    out = capsys.readouterr().err
    assert "standard BP" in out and "loss=" in out


@pytest.mark.parametrize("param, value, error, match", [
    ("hidden_layer_sizes", (3, 0), ValueError, "hidden_layer_sizes"),
    ("hidden_layer_sizes", "big", TypeError, "hidden_layer_sizes"),
    ("activation", "step", ValueError, "activation"),
    ("bp", "online", ValueError, "bp"),
    ("init", "zeros", ValueError, "init"),
    ("loss", "hinge", ValueError, "loss"),
    ("learning_rate", 0.0, ValueError, "learning_rate"),
    ("learning_rate", np.nan, ValueError, "learning_rate"),
    ("reg_lambda", 0.0, ValueError, "reg_lambda"),
    ("reg_lambda", 1.5, ValueError, "reg_lambda"),
    ("max_iter", 0, ValueError, "max_iter"),
    ("batch_size", 2.5, TypeError, "batch_size"),
    ("validation_fraction", 1.0, ValueError, "validation_fraction"),
])
def test_bad_hyper_parameters(param, value, error, match):
    with pytest.raises(error, match=match):
        MLPClassifier(**{param: value}).fit(XOR_X, XOR_Y)


def test_bad_data():
    net = MLPClassifier(max_iter=1)
    with pytest.raises(ValueError, match="NaN"):
        net.fit(np.array([[0.0, np.nan], [1.0, 1.0]]), [0, 1])
    with pytest.raises(ValueError, match="one class"):
        net.fit(XOR_X, [1, 1, 1, 1])
    with pytest.raises(ValueError, match="numeric"):
        net.fit(load_watermelon("3.0")[0], load_watermelon("3.0")[1])
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        net.fit(XOR_X, [0, 1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        net.fit(XOR_X, XOR_Y)
    with pytest.raises(ValueError, match="features"):
        net.predict(np.ones((2, 3)))
    with pytest.raises(ValueError, match="classes must be passed"):
        MLPClassifier().partial_fit(XOR_X, XOR_Y)
    with pytest.raises(ValueError, match=r"labels \[7\]"):
        MLPClassifier().partial_fit(XOR_X, [0, 1, 7, 0], classes=[0, 1])


def test_dask_input_is_refused_not_gathered():
    import dask.array as da
    X = da.from_array(XOR_X, chunks=2)
    with pytest.raises(TypeError, match="Dask"):
        MLPClassifier().fit(X, XOR_Y)
    with pytest.raises(TypeError, match="Dask"):
        MLPRegressor().partial_fit(X, XOR_Y.astype(float))


def test_out_activation_matches_loss_and_task():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        three = np.array([0, 1, 2, 1])
        assert MLPClassifier(max_iter=1).fit(XOR_X, three).out_activation_ == "softmax"
        assert MLPClassifier(max_iter=1).fit(XOR_X, XOR_Y).out_activation_ == "logistic"
        assert MLPClassifier(max_iter=1, loss="squared_error").fit(
            XOR_X, three).out_activation_ == "logistic"
        assert MLPRegressor(max_iter=1).fit(XOR_X, XOR_Y.astype(float)).out_activation_ == \
            "identity"


def test_loss_curve_is_eq_5_17_of_the_epoch():
    """Accumulated BP: loss_curve_[0] = λ E(initial weights) + (1-λ) Σw² (after the step)."""
    from sklearn.utils import check_random_state

    from hyperplane.neural import _backprop_kernels as K
    from hyperplane.neural._network import Layout

    from ._reference import ref_objective

    X, y = load_digits(n_class=3, return_X_y=True)
    X = X / 16
    lam = 0.9
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        net = MLPClassifier(hidden_layer_sizes=(6,), bp="accumulated", reg_lambda=lam,
                            max_iter=1, random_state=0).fit(X, y)
    layout = Layout.from_sizes((64, 6, 3))
    initial = layout.initial_params("sigmoid", check_random_state(0), np.float64)
    after = layout.pack(net.coefs_, net.intercepts_, np.float64)
    Y = np.eye(3)[y]
    data_loss = ref_objective(initial, layout, X, Y, K.SIGMOID, K.SOFTMAX, K.LOG_LOSS, 1.0)
    expected = lam * data_loss + (1 - lam) * np.sum(after ** 2)
    assert net.loss_curve_[0] == pytest.approx(expected, rel=1e-10)
