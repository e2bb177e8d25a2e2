"""Trees on data scaled by 1e±300: the same predictions as on the unscaled data.

A tree compares values only with each other and with midpoints, so every
criterion is scale-invariant in exact arithmetic -- except the C4.5 mode's
absolute tolerance (J48's: values closer than 1e-5 are one value), which
cannot cut data in tiny units: there the fit warns that the scale is the
problem instead of returning a constant tree without a word.
"""

import warnings

import numpy as np
import pytest
from sklearn.datasets import load_iris

from hyperplane.tree import DecisionTreeClassifier

X, Y = load_iris(return_X_y=True)


def _predictions(scale, **params):
    with warnings.catch_warnings():
        warnings.simplefilter("error")         # no warning on these scales
        model = DecisionTreeClassifier(**params).fit(X * scale, Y)
    return model.predict(X * scale), model


@pytest.mark.parametrize("scale", [1e300, 1e150, 1e-150, 1e-300])
@pytest.mark.parametrize("criterion", ["info_gain", "gini"])
@pytest.mark.parametrize("splitter", ["best", "hist"])
def test_scale_invariant_criteria_predict_as_unscaled(scale, criterion, splitter):
    expected, reference = _predictions(1.0, criterion=criterion, splitter=splitter)
    got, model = _predictions(scale, criterion=criterion, splitter=splitter)
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(model.tree_.feature, reference.tree_.feature)


@pytest.mark.parametrize("scale", [1e300, 1e150, 1e3])
@pytest.mark.parametrize("pruning", [None, "pessimistic"])
def test_c45_mode_predicts_as_unscaled_on_large_scales(scale, pruning):
    expected, _ = _predictions(1.0, criterion="gain_ratio", pruning=pruning)
    got, _ = _predictions(scale, criterion="gain_ratio", pruning=pruning)
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("scale", [1e-6, 1e-300])
def test_c45_mode_on_tiny_units_warns_that_the_scale_is_the_problem(scale):
    with pytest.warns(UserWarning, match=r"column '0' spans only .* \(and 3 more column\(s\) "
                                         r"less than 1e-05\).*scale of X is the problem"):
        model = DecisionTreeClassifier(criterion="gain_ratio").fit(X * scale, Y)
    assert model.n_leaves_ == 1                # J48's answer at this scale


def test_c45_mode_warning_ignores_constant_columns_and_weight_zero_rows():
    Xc = np.column_stack([X, np.full(len(X), 7e-9)])     # constant: no cut anyway
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        DecisionTreeClassifier(criterion="gain_ratio").fit(Xc, Y)
    Xw = np.column_stack([X, np.full(len(X), 5.0)])
    Xw[0, -1] += 1e-7                             # the one different value: weight 0
    w = np.ones(len(X))
    with pytest.warns(UserWarning, match="column '4' spans only 1e-07"):
        DecisionTreeClassifier(criterion="gain_ratio").fit(Xw, Y, sample_weight=w)
    w[0] = 0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        DecisionTreeClassifier(criterion="gain_ratio").fit(Xw, Y, sample_weight=w)
