"""C4.5 mode = Weka's J48 on every classification ARFF file Weka ships.

With Weka's own 10-fold partition (``J48 -x 10 -s 1``, produced by Weka itself
in ``J48Folds.java``), ``DecisionTreeClassifier(criterion="gain_ratio",
pruning="pessimistic")`` must build J48's tree on every training part (same
tests, thresholds, branches, leaf labels and leaf weights as J48 prints them)
and predict J48's class for every test row. Files are read by
:func:`hyperplane.datasets.load_arff` (nominal values as categories in their
declared order). Debian's ``weka`` package is installed when absent (root +
apt-get); otherwise these tests skip.
"""


import numpy as np
import pytest

from hyperplane.datasets import load_arff
from hyperplane.tree import DecisionTreeClassifier

try:
    from ._weka import (WEKA_EXAMPLES, cv_confusion, fitted_tree, j48_folds, parse_j48_tree,
                        tree_difference, weka_arff_files)
except ImportError:  # tests/tree is not a package
    from _weka import (WEKA_EXAMPLES, cv_confusion, fitted_tree, j48_folds, parse_j48_tree,
                       tree_difference, weka_arff_files)

#: the classification files of Debian's weka 3.6 package (all must be found)
EXPECTED = {"breast-cancer", "contact-lenses", "credit-g", "diabetes", "glass", "ionosphere",
            "iris", "iris.2D", "labor", "segment-challenge", "segment-test", "soybean",
            "supermarket", "unbalanced", "vote", "weather.nominal", "weather.numeric"}
FOLDS = 10


@pytest.fixture(scope="module")
def folds(weka_jar, tmp_path_factory):
    """{file stem: fold directories} for every classification ARFF file Weka ships."""
    files = weka_arff_files()
    return j48_folds(weka_jar, files, tmp_path_factory.mktemp("j48folds"), folds=FOLDS)


def c45():
    """The C4.5 mode with J48's defaults ``-C 0.25 -M 2``."""
    return DecisionTreeClassifier(criterion="gain_ratio", pruning="pessimistic",
                                  confidence=0.25, min_samples_leaf=2)


def test_every_classification_file_weka_ships_is_compared(weka_jar):
    found = {path.stem for path in weka_arff_files()}
    assert EXPECTED <= found, (EXPECTED - found, WEKA_EXAMPLES)


def test_the_folds_are_wekas_own_cross_validation(folds):
    """The folds' J48 predictions add up to the confusion matrix of Weka's ``-x 10 -s 1``."""
    for stem, fold_dirs in folds.items():
        cv = cv_confusion((fold_dirs[0].parent / "cv.txt").read_text(encoding="utf-8"))
        _, y = load_arff(fold_dirs[0] / "train.arff")
        labels = [str(c) for c in y.cat.categories]
        ours = np.zeros_like(cv)
        total = 0
        for fold in fold_dirs:
            _, y_test = load_arff(fold / "test.arff")
            predicted = (fold / "pred.txt").read_text(encoding="utf-8").splitlines()
            for truth, guess in zip(y_test.astype(str), predicted):
                ours[labels.index(truth), labels.index(guess)] += 1
            total += len(y_test)
        assert np.array_equal(ours, cv), stem
        assert total == ours.sum()


def compare_fold(fold):
    """(same tree, number of test rows predicted as J48 does, test rows) on one fold."""
    X, y = load_arff(fold / "train.arff")
    X_test, _ = load_arff(fold / "test.arff")
    est = c45().fit(X, y)
    j48 = parse_j48_tree((fold / "tree.txt").read_text(encoding="utf-8"), list(X.columns))
    difference = tree_difference(fitted_tree(est), j48)
    expected = (fold / "pred.txt").read_text(encoding="utf-8").splitlines()
    agree = int(np.sum(est.predict(X_test).astype(str) == np.asarray(expected)))
    return difference, agree, len(expected)


@pytest.mark.parametrize("stem", sorted(EXPECTED))
def test_c45_builds_j48s_tree_on_every_fold(stem, folds):
    differences, agree, total = [], 0, 0
    for i, fold in enumerate(folds[stem]):
        difference, a, n = compare_fold(fold)
        agree, total = agree + a, total + n
        if difference:
            differences.append(f"fold {i}: {difference}")
    assert not differences, "\n".join(differences)
    assert agree == total
