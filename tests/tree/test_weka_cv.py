"""``cross_validate_report(cv="weka")`` / ``hyperplane evaluate --cv weka`` against Weka run here.

Three checks, each against Java or Weka itself, never against numbers of the
code under test: :class:`~hyperplane.evaluation.JavaRandom` draws what
``java.util.Random`` draws (a small Java program compiled here);
:func:`~hyperplane.evaluation.weka_folds` gives, fold by fold, the test and the
training rows (in their order) that Weka's ``Evaluation.crossValidateModel``
gives (``J48Folds.java`` writes them); and the C4.5 mode (= J48 ``-C 0.25 -M 2``)
cross-validated on Weka's partition prints the summary and confusion matrix of
Weka's own ``J48 -t FILE -x 10 -s 1``.
"""

import re
import shutil
import subprocess

import numpy as np
import pytest

from hyperplane.datasets import load_arff
from hyperplane.evaluation import JavaRandom, cross_validate_report, weka_folds
from hyperplane.tree import DecisionTreeClassifier

try:
    from ._weka import WEKA_EXAMPLES, cv_confusion, j48_folds
except ImportError:  # tests/tree is not a package
    from _weka import WEKA_EXAMPLES, cv_confusion, j48_folds

FOLDS = 10
#: every classification file of Debian's weka 3.6 package
STEMS = ["breast-cancer", "contact-lenses", "credit-g", "diabetes", "glass", "ionosphere", "iris",
         "iris.2D", "labor", "segment-challenge", "segment-test", "soybean", "supermarket",
         "unbalanced", "vote", "weather.nominal", "weather.numeric"]

JAVA_RANDOM = """
import java.util.Random;
public class Draws {
    public static void main(String[] args) {
        long[] seeds = {1, 0, 42, -7, 123456789L, 4294967296L};
        int[] bounds = {10, 7, 16, 1000000007, 3, 435, 2, 1 << 30, 2147483647};
        for (long s : seeds) {
            Random r = new Random(s);
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < 200; i++) {
                b.append(r.nextInt(bounds[i % bounds.length])).append(" ");
            }
            System.out.println(b.toString().trim());
        }
    }
}
"""


def test_java_random_draws_what_java_draws(tmp_path):
    if shutil.which("javac") is None or shutil.which("java") is None:
        pytest.skip("no JDK")
    (tmp_path / "Draws.java").write_text(JAVA_RANDOM, encoding="utf-8")
    subprocess.run(["javac", "Draws.java"], cwd=tmp_path, check=True, timeout=300)
    java = subprocess.run(["java", "-cp", str(tmp_path), "Draws"], check=True, timeout=300,
                          capture_output=True, text=True).stdout.split("\n")
    bounds = [10, 7, 16, 1000000007, 3, 435, 2, 1 << 30, 2147483647]
    for line, seed in zip(java, [1, 0, 42, -7, 123456789, 4294967296]):
        r = JavaRandom(seed)
        ours = " ".join(str(r.next_int(bounds[i % len(bounds)])) for i in range(200))
        assert ours == line, seed


@pytest.fixture(scope="module")
def folds(weka_jar, tmp_path_factory):
    files = [WEKA_EXAMPLES / f"{stem}.arff" for stem in STEMS]
    files = [f for f in files if f.exists()]
    if not files:
        pytest.skip(f"no Weka example files in {WEKA_EXAMPLES}")
    return j48_folds(weka_jar, files, tmp_path_factory.mktemp("wekacv"), folds=FOLDS)


def same_rows(ours, weka):
    """Whether two frames hold the same rows in the same order (Weka prints six decimals)."""
    if ours.shape != weka.shape:
        return False
    for column in ours.columns:
        a, b = ours[column], weka[column]
        if a.dtype.kind in "fiu" and b.dtype.kind in "fiu":
            if not np.allclose(a.to_numpy(float), b.to_numpy(float), rtol=1e-6, atol=1e-6,
                               equal_nan=True):
                return False
        elif not np.array_equal(a.astype(object).where(a.notna(), "?").astype(str).to_numpy(),
                                b.astype(object).where(b.notna(), "?").astype(str).to_numpy()):
            return False
    return True


def test_the_partition_is_wekas_fold_by_fold(folds):
    for stem, fold_dirs in folds.items():
        X, y = load_arff(WEKA_EXAMPLES / f"{stem}.arff")
        data = X.assign(_class=y.to_numpy())
        splits = weka_folds(y.astype(str).to_numpy(), FOLDS, 1)
        for i, ((train, test), fold) in enumerate(zip(splits, fold_dirs)):
            for part, rows in (("test", test), ("train", train)):
                Xw, yw = load_arff(fold / f"{part}.arff")
                weka = Xw.assign(_class=yw.to_numpy())
                assert same_rows(data.iloc[rows].reset_index(drop=True),
                                 weka.reset_index(drop=True)), (stem, i, part)


SUMMARY = ["Correctly Classified Instances", "Incorrectly Classified Instances",
           "Kappa statistic", "Mean absolute error", "Root mean squared error",
           "Relative absolute error", "Root relative squared error",
           "Total Number of Instances"]


def summary(text):
    """{line name: the numbers Weka prints on it} of the cross-validation section."""
    part = text.split("=== Stratified cross-validation ===", 1)[1]
    numbers = {}
    for name in SUMMARY:
        match = re.search(rf"^{re.escape(name)}\s+(.*)$", part, re.MULTILINE)
        numbers[name] = match.group(1).replace("%", "").split()
    return numbers


def summary_lines(text):
    """The summary lines of the cross-validation section, as printed."""
    part = text.split("=== Stratified cross-validation ===", 1)[1]
    return [line.rstrip("\n") for line in part.splitlines()
            if any(line.startswith(name) for name in SUMMARY)]


def c45():
    """The C4.5 mode with J48's defaults ``-C 0.25 -M 2``."""
    return DecisionTreeClassifier(criterion="gain_ratio", pruning="pessimistic",
                                  confidence=0.25, min_samples_leaf=2)


@pytest.mark.parametrize("stem", STEMS)
def test_c45_cross_validated_as_weka_prints_j48s_summary(stem, folds):
    if stem not in folds:
        pytest.skip(f"{stem}.arff not shipped here")
    weka = (folds[stem][0].parent / "cv.txt").read_text(encoding="utf-8")
    X, y = load_arff(WEKA_EXAMPLES / f"{stem}.arff")
    report = str(cross_validate_report(c45(), X, y, folds=FOLDS, seed=1, cv="weka"))
    assert summary(report) == summary(weka)
    assert summary_lines(report) == summary_lines(weka)  # Weka's layout, byte for byte
    assert np.array_equal(cv_confusion(report), cv_confusion(weka))
