import warnings

import numpy as np
import pandas as pd
import scipy.sparse
import pytest
from sklearn.datasets import load_breast_cancer, load_digits, load_iris, load_wine
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import Perceptron as SkPerceptron
from sklearn.preprocessing import StandardScaler
from sklearn.utils.estimator_checks import check_estimator

from hyperplane.datasets import load_perceptron_example
from hyperplane.linear import DualPerceptron, Perceptron


def separable(n=60, d=4, seed=0, integer=False):
    rng = np.random.default_rng(seed)
    X = rng.integers(-5, 6, size=(n, d)).astype(float) if integer else rng.normal(size=(n, d))
    w, b = rng.normal(size=d), 0.3
    score = X @ w + b
    keep = np.abs(score) > 0.2          # a positive margin, so the perceptron converges
    return X[keep], np.where(score[keep] >= 0, 1, -1)


def noisy(n=300, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    y = np.where(X[:, 0] + 0.5 * X[:, 1] >= 0, 1, -1)
    flip = rng.random(n) < 0.1
    y[flip] *= -1
    return X, y


def test_example_2_1_book_update_sequence():
    X, y = load_perceptron_example()
    model = Perceptron(eta=1.0, record_trace=True).fit(X, y)
    np.testing.assert_array_equal(model.coef_, [[1.0, 1.0]])
    np.testing.assert_array_equal(model.intercept_, [-3.0])
    # 李航 表2.1: misclassified points x1, x3, x3, x3, x1, x3, x3
    assert model.trace_["sample"].tolist() == [0, 2, 2, 2, 0, 2, 2]
    # the book's w and b after each update
    assert [list(w) for w in model.trace_["w"]] == [[3, 3], [2, 2], [1, 1], [0, 0],
                                                    [3, 3], [2, 2], [1, 1]]
    assert model.trace_["b"].tolist() == [1, 0, -1, -2, -1, -2, -3]
    assert model.trace_["step"].tolist() == list(range(1, 8))
    assert model.converged_ and model.n_updates_ == 7
    np.testing.assert_array_equal(model.predict(X), y)


def test_sign_zero_is_positive():
    X, y = load_perceptron_example()
    model = Perceptron().fit(X, y)
    on_line = np.array([[1.5, 1.5]])          # x(1) + x(2) - 3 = 0
    assert model.decision_function(on_line)[0] == 0
    assert model.predict(on_line)[0] == 1


def test_string_labels_positive_class_is_classes_1():
    X, y = load_perceptron_example()
    labels = np.where(y == 1, "是", "否")     # sorted: 否 < 是, so 是 is +1
    model = Perceptron().fit(X, labels)
    assert model.classes_.tolist() == ["否", "是"]
    np.testing.assert_array_equal(model.coef_, [[1.0, 1.0]])
    np.testing.assert_array_equal(model.predict(X), labels)


@pytest.mark.parametrize("integer", [True, False])
@pytest.mark.parametrize("seed", range(4))
def test_primal_and_linear_dual_agree_update_for_update(seed, integer):
    X, y = separable(seed=seed, integer=integer)
    primal = Perceptron(eta=0.5, record_trace=True).fit(X, y)
    dual = DualPerceptron(eta=0.5, record_trace=True).fit(X, y)
    assert primal.converged_ and dual.converged_
    assert primal.trace_["sample"].tolist() == dual.trace_["sample"].tolist()
    np.testing.assert_allclose(dual.coef_, primal.coef_, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(dual.intercept_, primal.intercept_)
    np.testing.assert_array_equal(dual.predict(X), primal.predict(X))


def test_same_as_scikit_learn_update_rule():
    """scikit-learn's Perceptron (eta0=1, no penalty, no shuffle) makes the
    same updates as algorithm 2.1, so the weights agree."""
    X, y = separable(n=200, d=5, seed=7)
    ours = Perceptron(max_iter=5).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        ref = SkPerceptron(max_iter=5, tol=None, shuffle=False, eta0=1.0).fit(X, y)
    np.testing.assert_allclose(ours.coef_, ref.coef_, rtol=1e-10)
    np.testing.assert_allclose(ours.intercept_, ref.intercept_, rtol=1e-10)


def test_non_separable_stops_with_warning():
    X, y = noisy()
    with pytest.warns(ConvergenceWarning, match="max_iter"):
        model = Perceptron(max_iter=7).fit(X, y)
    assert model.converged_ is False and model.n_iter_ == 7


def test_pocket_beats_standard_on_noisy_data():
    X, y = noisy(seed=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        standard = Perceptron(max_iter=50).fit(X, y)
        pocket = Perceptron(max_iter=50, variant="pocket").fit(X, y)
    assert pocket.score(X, y) > standard.score(X, y)
    assert pocket.score(X, y) >= 0.85


def test_pocket_keeps_the_best_epoch():
    X, y = noisy(seed=4)
    scores = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        for epochs in range(1, 21):
            scores.append(Perceptron(max_iter=epochs).fit(X, y).score(X, y))
        pocket = Perceptron(max_iter=20, variant="pocket").fit(X, y)
    assert pocket.score(X, y) == pytest.approx(max(scores))


def test_averaged_is_deterministic_and_is_the_average():
    X, y = noisy(n=80, seed=5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        a = Perceptron(variant="averaged", max_iter=3, shuffle=True, random_state=1).fit(X, y)
        b = Perceptron(variant="averaged", max_iter=3, shuffle=True, random_state=1).fit(X, y)
        np.testing.assert_array_equal(a.coef_, b.coef_)
        # the average over every visit, computed the slow way
        model = Perceptron(variant="averaged", max_iter=2).fit(X, y)
    w, bias, total_w, total_b = np.zeros(2), 0.0, np.zeros(2), 0.0
    for _ in range(2):
        for i in range(len(X)):
            if y[i] * (X[i] @ w + bias) <= 0:
                w, bias = w + y[i] * X[i], bias + y[i]
            total_w, total_b = total_w + w, total_b + bias
    np.testing.assert_allclose(model.coef_[0], total_w / (2 * len(X)), rtol=1e-12)
    np.testing.assert_allclose(model.intercept_[0], total_b / (2 * len(X)), rtol=1e-12)


def test_batch_rule_matches_a_numpy_reference():
    X, y = separable(n=50, d=3, seed=11)
    model = Perceptron(update="batch", eta=0.1, max_iter=500, record_trace=True).fit(X, y)
    w, b = np.zeros(3), 0.0
    for _ in range(500):
        wrong = y * (X @ w + b) <= 0
        if not wrong.any():
            break
        w, b = w + 0.1 * (y[wrong] @ X[wrong]), b + 0.1 * y[wrong].sum()
    np.testing.assert_allclose(model.coef_[0], w, rtol=1e-10)
    assert model.intercept_[0] == pytest.approx(b)
    assert model.converged_
    assert isinstance(model.trace_["sample"].iloc[0], list)


def test_shuffle_is_reproducible_and_changes_order():
    X, y = separable(seed=2)
    a = Perceptron(shuffle=True, random_state=0, record_trace=True).fit(X, y)
    b = Perceptron(shuffle=True, random_state=0, record_trace=True).fit(X, y)
    c = Perceptron(shuffle=False, record_trace=True).fit(X, y)
    assert a.trace_["sample"].tolist() == b.trace_["sample"].tolist()
    assert a.trace_["sample"].tolist() != c.trace_["sample"].tolist()


def test_multiclass_one_vs_rest():
    X, y = load_iris(return_X_y=True)
    X = StandardScaler().fit_transform(X)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model = Perceptron(max_iter=30, variant="pocket", record_trace=True).fit(X, y)
        ref = SkPerceptron(max_iter=30, tol=None, shuffle=False).fit(X, y)
    assert model.coef_.shape == (3, 4) and model.intercept_.shape == (3,)
    assert set(model.trace_["class"]) == {0, 1, 2}
    # each one-vs-rest problem is binary: class k's row is the binary fit of k vs rest
    binary = Perceptron(max_iter=30, variant="pocket").fit(X, np.where(y == 1, 1, -1))
    np.testing.assert_array_equal(model.coef_[1], binary.coef_[0])
    assert model.score(X, y) >= ref.score(X, y)


def test_partial_fit_is_one_epoch_of_fit():
    X, y = separable(seed=5)
    streamed = Perceptron()
    for _ in range(3):
        streamed.partial_fit(X, y, classes=[-1, 1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        batch = Perceptron(max_iter=3).fit(X, y)
    np.testing.assert_array_equal(streamed.coef_, batch.coef_)
    with pytest.raises(ValueError, match="not in classes"):
        streamed.partial_fit(X, np.full(len(y), 7))


@pytest.mark.parametrize("labels", [[-1, 1], ["a", "b", "c"]])
def test_streamed_trace_builds_each_row_once_and_matches_fit(monkeypatch, labels):
    """``partial_fit`` epochs extend ``trace_`` with their own updates only
    (the playground streams a run epoch by epoch); rows run class by class,
    and the trace equals that of a fit of as many epochs."""
    built = []
    rows_of = Perceptron._trace_rows

    def counted(self, *args):
        rows = rows_of(self, *args)
        built.append(len(rows))
        return rows

    monkeypatch.setattr(Perceptron, "_trace_rows", counted)
    rng = np.random.default_rng(3)
    X, y = rng.normal(size=(40, 2)), np.asarray(labels)[rng.integers(0, len(labels), 40)]
    streamed = Perceptron(record_trace=True)
    for _ in range(6):
        streamed.partial_fit(X, y, classes=labels)
    assert sum(built) == len(streamed.trace_) == streamed.n_updates_
    assert list(streamed.trace_["step"]) == list(range(1, streamed.n_updates_ + 1))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        fitted = Perceptron(record_trace=True, max_iter=6).fit(X, y)
    pd.testing.assert_frame_equal(streamed.trace_, fitted.trace_)
    trace = streamed.trace_
    groups = ([trace] if len(labels) == 2 else
              [trace[trace["class"] == label] for label in streamed.classes_])
    for k, rows in enumerate(groups):   # each problem's last row is its w, b
        last = rows.iloc[-1]
        np.testing.assert_array_equal(last["w"], streamed.coef_[k])
        assert last["b"] == streamed.intercept_[k]


def test_float32_computed_in_float32():
    X, y = separable(seed=6)
    model = Perceptron().fit(X.astype(np.float32), y)
    assert model.coef_.dtype == np.float32


def test_input_is_not_modified():
    X, y = separable(seed=8)
    X0, y0 = X.copy(), y.copy()
    Perceptron().fit(X, y)
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(y, y0)


@pytest.mark.parametrize("params, match", [
    ({"eta": 0}, "eta"), ({"eta": -1.0}, "eta"), ({"max_iter": 0}, "max_iter"),
    ({"variant": "voted"}, "variant"), ({"update": "mini"}, "update"),
])
def test_bad_parameters_are_named(params, match):
    X, y = load_perceptron_example()
    with pytest.raises((ValueError, TypeError), match=match):
        Perceptron(**params).fit(X, y)


def test_bad_data_is_named():
    X, y = load_perceptron_example()
    with pytest.raises(ValueError, match="NaN"):
        Perceptron().fit(np.array([[1.0, np.nan], [2, 3], [4, 5]]), y)
    with pytest.raises(ValueError, match="inf"):
        Perceptron().fit(np.array([[1.0, np.inf], [2, 3], [4, 5]]), y)
    with pytest.raises(ValueError, match="one class"):
        Perceptron().fit(X, [1, 1, 1])
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        Perceptron().fit(X, [1, -1])
    with pytest.raises(ValueError, match="0 sample"):
        Perceptron().fit(np.empty((0, 2)), [])
    with pytest.raises(ValueError, match="numeric"):
        Perceptron().fit([["a", "b"], ["c", "d"]], [1, -1])
    model = Perceptron().fit(X, y)
    with pytest.raises(ValueError, match="features"):
        model.predict(np.ones((2, 3)))


@pytest.mark.parametrize("loader", [load_breast_cancer, load_digits, load_wine, load_iris])
def test_accuracy_within_one_point_of_scikit_learn(loader):
    X, y = loader(return_X_y=True)
    X = StandardScaler().fit_transform(X)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        ours = Perceptron(max_iter=20).fit(X, y).score(X, y)
        ref = SkPerceptron(max_iter=20, tol=None, shuffle=False).fit(X, y).score(X, y)
    assert abs(ours - ref) <= 0.01


#: algorithm 2.1 is online: an integer weight scales one update, a repeated row makes two
ONLINE = "online rule: an integer weight scales one update, a repeated row makes two"


def test_check_estimator():
    check_estimator(Perceptron(), expected_failed_checks={
        "check_sample_weight_equivalence_on_dense_data": ONLINE,
        "check_sample_weight_equivalence_on_sparse_data": ONLINE})
    check_estimator(Perceptron(update="batch"))   # a weighted sum: weights are repeated rows


def test_sample_weights_scale_the_update_and_zero_drops_the_row():
    from hyperplane.datasets import load_perceptron_example

    X, y = load_perceptron_example()
    twice = Perceptron(eta=1.0).fit(X, y, sample_weight=[2.0, 2.0, 2.0])
    eta_two = Perceptron(eta=2.0).fit(X, y)
    np.testing.assert_array_equal(twice.coef_, eta_two.coef_)           # s = 2 is eta = 2
    X4, y4 = np.vstack([X, [[0.0, 5.0]]]), np.r_[y, -1]
    for update in ("online", "batch"):
        for variant in ("standard", "pocket", "averaged"):
            params = dict(update=update, variant=variant, max_iter=50)
            dropped = Perceptron(**params).fit(X4, y4, sample_weight=[1.0, 1.0, 1.0, 0.0])
            book = Perceptron(**params).fit(X, y)
            np.testing.assert_array_equal(dropped.coef_, book.coef_)
            np.testing.assert_array_equal(dropped.intercept_, book.intercept_)
    sparse = Perceptron().fit(scipy.sparse.csr_matrix(X4), y4, sample_weight=[1.0, 1.0, 1.0, 0.0])
    np.testing.assert_array_equal(sparse.coef_, Perceptron().fit(X, y).coef_)
    with pytest.raises(ValueError, match="non-negative; row 0"):
        Perceptron().fit(X, y, sample_weight=[-1.0, 1.0, 1.0])
    with pytest.raises(ValueError, match="zero for every sample"):
        Perceptron().partial_fit(X, y, sample_weight=[0.0, 0.0, 0.0])
