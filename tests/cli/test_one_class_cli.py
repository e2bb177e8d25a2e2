"""The one-class SVM through the command line, as LIBSVM's ``svm-train -s 2``
users run it: fit on a labelled file (labels unused), predict and evaluate
against +1 (inlier) / -1 (outlier) labels; checked against scikit-learn's
OneClassSVM (LIBSVM's solver) on the same data and folds."""

import json

import numpy as np
from sklearn.model_selection import StratifiedKFold
from sklearn.svm import OneClassSVM as SkOneClassSVM

from hyperplane.datasets import load_heart_scale
from tests.cli.conftest import run_cli


def libsvm_predictions(X_train, X_test, nu):
    return SkOneClassSVM(nu=nu, gamma="scale", tol=1e-3).fit(X_train).predict(X_test)


def test_fit_ignores_labels_and_predict_prints_svm_predict_s_accuracy(tmp_path):
    X, y = load_heart_scale()
    expected = libsvm_predictions(X, X, 0.1)
    model = tmp_path / "oc.hyperplane"
    fitted = run_cli("fit", "one-class-svm", "heart_scale", "-o", model, "-q", "-p", "nu=0.1")
    assert fitted.returncode == 0, fitted.stderr
    assert f"{int(np.sum(expected == 1))} of 270 training rows inside" in fitted.stderr
    predicted = run_cli("predict", model, "heart_scale", "-o", tmp_path / "p.csv")
    assert predicted.returncode == 0, predicted.stderr
    correct = int(np.sum(expected == y))
    assert f"Accuracy = {100 * correct / 270:.4f}% ({correct}/270) (classification)" \
        in predicted.stderr


def test_cross_validation_counts_inliers_and_outliers_as_classes():
    X, y = load_heart_scale()
    predicted = np.empty_like(y)
    for train, test in StratifiedKFold(5, shuffle=True, random_state=3).split(X, y):
        predicted[test] = libsvm_predictions(X[train], X[test], 0.5)
    result = run_cli("evaluate", "one-class-svm", "heart_scale", "-x", "5", "-s", "3",
                     "-p", "nu=0.5", "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["labels"] == [-1, 1]
    expected = [[int(np.sum((y == t) & (predicted == p))) for p in (-1, 1)] for t in (-1, 1)]
    assert report["confusion"] == expected


def test_labels_other_than_plus_minus_one_are_refused_by_name():
    result = run_cli("evaluate", "one-class-svm", "watermelon-3.0alpha", "-x", "3")
    assert result.returncode != 0
    assert "+1 (inlier) and -1 (outlier)" in result.stderr
    assert "Traceback" not in result.stderr
