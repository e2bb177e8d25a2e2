"""Property tests: every estimator on random shapes, dtypes, NaN/inf positions,
labels and parameters.

The only allowed outcomes are a correct fit (checked against invariants every
fitted model must satisfy) or a ``ValueError``/``TypeError`` whose message
names what the example got wrong: the parameter it set, the non-finite entries
of ``X``, the single class or mixed label types of ``y``, or too few samples.
A case with nothing wrong must fit. Fixed example budget, no deadline (numba
compiles on first use), derandomised so that CI sees the same examples.
"""

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from sklearn.base import is_outlier_detector

from hyperplane._numerics import SAFE_MAGNITUDE
from hyperplane.utils import all_estimators

#: the supervised estimators (the invariants below read classes and targets; the
#: outlier detector OneClassSVM is checked against LIBSVM in tests/svm/test_one_class.py)
ESTIMATORS = {name: cls for name, cls in all_estimators()
              if not is_outlier_detector(cls())}
REGRESSORS = {"SVR", "LinearSVR", "NuSVR", "MLPRegressor", "DecisionTreeRegressor"}
#: estimators that take NaN in X as a missing value (周志华 §4.4.2)
MISSING_VALUES_OK = {"DecisionTreeClassifier", "DecisionTreeRegressor"}
#: values a parameter is set to: valid for some parameters, invalid for others
PARAMETER_VALUES = [-1, 0, 1, 2, 0.5, 3.0, 1e-3, np.inf, np.nan, True, False, None,
                    "bogus", "gini", "rbf", "batch", (3,), np.int64(2)]
LABELS = {"int": [0, 1, 2], "str": ["否", "是", "maybe"], "mixed": [0, "是", 2]}
EXAMPLES = int(__import__("os").environ.get("HYPERPLANE_PROPERTY_EXAMPLES", 20))


def fast(name):
    """Keep each fit short: the budget is examples, not epochs."""
    caps = {"MLPClassifier": {"max_iter": 20}, "MLPRegressor": {"max_iter": 20},
            "Perceptron": {"max_iter": 50}, "DualPerceptron": {"max_iter": 50},
            "Adaline": {"max_iter": 50}, "SVC": {"max_iter": 10_000},
            "SVR": {"max_iter": 10_000}, "NuSVC": {"max_iter": 10_000},
            "NuSVR": {"max_iter": 10_000}}
    return caps.get(name, {})


@st.composite
def cases(draw, name):
    n = draw(st.integers(1, 20))
    d = draw(st.integers(1, 4))
    dtype = draw(st.sampled_from([np.float64, np.float32, np.int64]))
    if dtype is np.int64:
        X = draw(arrays(dtype, (n, d), elements=st.integers(-50, 50)))
    else:
        X = draw(arrays(dtype, (n, d), elements=st.floats(-100, 100, width=32)))
    bad_cells = []                    # a later cell may overwrite an earlier one
    if dtype is not np.int64:
        for _ in range(draw(st.sampled_from([0, 0, 1, 2]))):
            i, j = draw(st.integers(0, n - 1)), draw(st.integers(0, d - 1))
            X[i, j] = draw(st.sampled_from([np.nan, np.inf, -np.inf]))
            bad_cells.append(X[i, j])
    if name in REGRESSORS:
        y = draw(arrays(np.float64, n, elements=st.floats(-10, 10)))
        kind = "real"
    else:
        kind = draw(st.sampled_from(sorted(LABELS)))
        k = draw(st.sampled_from([2, 3, 2, 3, 1]))         # one class now and then
        order = draw(st.permutations(range(n)))
        y = np.array([LABELS[kind][i % k] for i in order],
                     dtype=object if kind == "mixed" else None)
    params = fast(name)
    drawn = None
    if draw(st.sampled_from([False, False, True])):
        drawn = draw(st.sampled_from(sorted(ESTIMATORS[name]._parameter_rules)))
        params = {**params, drawn: draw(st.sampled_from(PARAMETER_VALUES))}
    return X, y, kind, bad_cells, params, drawn


def reasons(name, X, y, kind, bad_cells, params, drawn):
    """``(must_fail, words)``: whether the case is certainly wrong, and the words
    of which an error message must contain one."""
    estimator = ESTIMATORS[name]
    words, must_fail = set(), False
    if drawn is not None:
        words.add(drawn)
        try:
            estimator._parameter_rules[drawn].check(params[drawn], drawn)
        except (TypeError, ValueError):
            must_fail = True
    nan = bool(np.isnan(X).any()) if X.dtype.kind == "f" else False
    inf = bool(np.isinf(X).any()) if X.dtype.kind == "f" else False
    if nan and name not in MISSING_VALUES_OK:
        words.add("NaN")
        must_fail = True
    if inf:
        words.add("infinity")
        must_fail = True
    if name not in REGRESSORS:
        types = {type(v) for v in y.tolist()}
        if kind == "mixed" and str in types and len(types) > 1:
            words.add("mixes")
            must_fail = True
        elif len(set(y.tolist())) < 2:
            words.add("one class")
            must_fail = name not in ONE_CLASS_OK
        elif name == "NuSVC":          # LIBSVM: nu (n_a + n_b) / 2 <= min(n_a, n_b) per pair
            # r = 0 (no margin at all): the decision values (.. - rho) / r are not
            # finite, which scikit-learn's NuSVC refuses too
            words.add("told apart")
            nu = params.get("nu", 0.5)
            counts = np.unique(np.asarray(y, dtype=str), return_counts=True)[1]
            if isinstance(nu, float) and 0 < nu <= 1 and any(
                    nu * (a + b) / 2 > min(a, b) for k, a in enumerate(counts)
                    for b in counts[k + 1:]):
                words.add("infeasible")
                must_fail = True
    if name in REGRESSORS:
        low, high = SAFE_MAGNITUDE
        magnitudes = np.abs(np.asarray(y, dtype=np.float64))
        if np.any((magnitudes > high) | ((magnitudes > 0) & (magnitudes < low))):
            words.add("the target y")      # a learner whose answer depends on y's scale
    if X.shape[0] < 6:
        words.update({"sample", "rows"})
    return must_fail, words


#: classifiers that fit a single class as one leaf (as scikit-learn's and Weka's trees do)
ONE_CLASS_OK = {"DecisionTreeClassifier"}


def check_fitted(name, model, X, y):
    """The invariants of a fitted model."""
    assert model.n_features_in_ == X.shape[1]
    Xf = X if name in MISSING_VALUES_OK else np.nan_to_num(X.astype(np.float64))
    prediction = np.asarray(model.predict(Xf))
    assert prediction.shape == (X.shape[0],)
    if name in REGRESSORS:
        assert np.all(np.isfinite(prediction))
        return
    assert model.classes_.tolist() == sorted(set(y.tolist()))
    assert set(prediction.tolist()) <= set(model.classes_.tolist())
    if hasattr(model, "predict_proba"):
        proba = model.predict_proba(Xf)
        np.testing.assert_allclose(proba.sum(axis=1), 1.0, rtol=1e-6)
    for weights in ("coef_", "intercept_"):
        if hasattr(model, weights):
            assert np.all(np.isfinite(getattr(model, weights))), weights


@pytest.mark.parametrize("name", sorted(ESTIMATORS))
def test_fit_is_correct_or_a_clear_error(name):
    @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(cases(name))
    def run(case):
        X, y, kind, bad_cells, params, drawn = case
        must_fail, words = reasons(name, *case)
        model = ESTIMATORS[name](**params)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                model.fit(X, y)
            except (TypeError, ValueError) as exc:
                assert any(word in str(exc) for word in words), \
                    f"{name}({params}) on X{X.shape} {X.dtype}, y={y.tolist()}: {exc!r}; " \
                    f"expected one of {sorted(words)}"
                return
        assert not must_fail, f"{name}({params}) fitted a case that should fail: {words}"
        check_fitted(name, model, X, y)

    run()


def test_every_estimator_is_covered():
    assert len(ESTIMATORS) >= 12 and REGRESSORS <= set(ESTIMATORS)
