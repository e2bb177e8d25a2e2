"""Weka's summary numbers, checked against values worked out by hand, and the
cross-validation against scikit-learn's folds."""

import numpy as np
import pytest
from sklearn.model_selection import StratifiedKFold, cross_val_predict
from sklearn.tree import DecisionTreeClassifier as SkTree

from hyperplane.evaluation import (classification_report, cross_validate_report,
                                   regression_report)


def test_a_small_confusion_by_hand():
    # a a b b classified as a b b b: p_o = 3/4, p_e = (2·1 + 2·3)/16 = 1/2, kappa = 1/2
    r = classification_report(["a", "a", "b", "b"], ["a", "b", "b", "b"])
    assert r.confusion.tolist() == [[1, 1], [0, 2]]
    assert (r.n, r.correct, r.accuracy) == (4, 3, 0.75)
    assert r.kappa == pytest.approx(0.5)
    # one-hot probabilities: only the second row errs, |0-1| + |1-0| = 2 over 4·2 cells
    assert r.mean_absolute_error == pytest.approx(2 / 8)
    assert r.root_mean_squared_error == pytest.approx(np.sqrt(2 / 8))
    # prior from the same rows with Laplace: (2+1)/(4+2) = 1/2 per class, |1/2 - t| = 1/2
    assert r.relative_absolute_error == pytest.approx(100 * 2 / 4)
    a, b = r.per_class
    assert (a.tp_rate, a.fp_rate, a.precision) == (0.5, 0.0, 1.0)
    assert a.f_measure == pytest.approx(2 / 3)
    assert (b.tp_rate, b.fp_rate) == (1.0, 0.5)
    assert b.precision == pytest.approx(2 / 3) and b.f_measure == pytest.approx(0.8)
    # MCC of a 2x2 table [[1,1],[0,2]]: (1·2 − 1·0)/sqrt(1·3·2·2)
    assert a.mcc == pytest.approx(2 / np.sqrt(12)) and b.mcc == pytest.approx(a.mcc)
    assert r.weighted.precision == pytest.approx((1.0 * 2 + 2 / 3 * 2) / 4)


def test_the_summary_reads_as_weka_s():
    text = str(classification_report(["yes", "no", "yes"], ["yes", "yes", "yes"]))
    for line in ("=== Summary ===", "Correctly Classified Instances", "Kappa statistic",
                 "=== Detailed Accuracy By Class ===", "Weighted Avg.",
                 "=== Confusion Matrix ===", "<-- classified as", "a = no", "b = yes"):
        assert line in text


def test_regression_numbers_by_hand():
    r = regression_report([1.0, 2.0, 3.0, 4.0], [1.5, 2.0, 3.0, 3.5])
    assert r.mean_absolute_error == 0.25
    assert r.root_mean_squared_error == pytest.approx(np.sqrt(0.5 / 4))
    # errors relative to the mean 2.5: Σ|2.5 − y| = 4, Σ(2.5 − y)² = 5
    assert r.relative_absolute_error == pytest.approx(100 * 1.0 / 4)
    assert r.root_relative_squared_error == pytest.approx(100 * np.sqrt(0.5 / 5))
    assert r.correlation == pytest.approx(np.corrcoef([1, 2, 3, 4], [1.5, 2, 3, 3.5])[0, 1])


def test_cross_validation_predicts_every_row_once_with_scikit_learn_s_folds():
    from sklearn.datasets import load_breast_cancer

    X, y = load_breast_cancer(return_X_y=True)
    report = cross_validate_report(SkTree(random_state=0), X, y, folds=5, seed=3)
    folds = StratifiedKFold(5, shuffle=True, random_state=3)
    predicted = cross_val_predict(SkTree(random_state=0), X, y, cv=folds)
    assert report.n == len(y)
    assert report.correct == int(np.sum(predicted == y))
    assert report.confusion.sum() == len(y)
