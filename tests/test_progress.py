"""verbose=True shows progress on the long fits (SMO, tree growth, perceptron epochs)."""

import numpy as np
import pytest

from hyperplane._progress import progress
from hyperplane.linear import LogisticRegression, Perceptron
from hyperplane.svm import SVC, SVR
from hyperplane.tree import DecisionTreeClassifier


def data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 3))
    return X, np.where(X[:, 0] + X[:, 1] > 0, 1, -1)


@pytest.mark.parametrize("estimator, text", [
    (SVC(verbose=True), "SMO iterations"),
    (DecisionTreeClassifier(criterion="gini", verbose=True), "tree growth"),
    (Perceptron(verbose=True), "perceptron epochs"),
    (LogisticRegression(verbose=True), "Newton iterations"),
    (LogisticRegression(solver="lbfgs", verbose=True), "L-BFGS evaluations"),
])
def test_verbose_fit_shows_a_progress_bar(capsys, estimator, text):
    X, y = data()
    estimator.fit(X, y)
    captured = capsys.readouterr()  # on stderr: stdout carries results only
    assert text in captured.err and captured.out == ""


def test_quiet_by_default(capsys):
    X, y = data()
    for estimator in (SVC(), SVR(), DecisionTreeClassifier(), Perceptron()):
        estimator.fit(X, y)
    assert capsys.readouterr() == ("", "")


def test_disabled_reporter_accepts_advance():
    with progress(3, "x", enabled=False) as bar:
        bar.advance(1, loss=0.5)
