"""C4.5 with pessimistic pruning vs Weka's J48 on the same train/test files.

J48 (Weka's C4.5 release 8) is run by ``_weka.run_j48``; Debian's ``weka``
package is installed when absent (root + apt-get), otherwise these tests skip
with the reason.
"""

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_breast_cancer, make_classification
from sklearn.model_selection import train_test_split

from hyperplane.tree import DecisionTreeClassifier

try:
    from ._j48_reference import Data, J48Reference
    from ._weka import mixed_dataset, parse_j48_output, run_j48, write_arff_pair
except ImportError:  # tests/tree is not a package
    from _j48_reference import Data, J48Reference
    from _weka import mixed_dataset, parse_j48_output, run_j48, write_arff_pair


def split(X, y, seed=0):
    return train_test_split(X, y, test_size=0.5, random_state=seed, stratify=y)


# J48's console output (Weka 3.6.14) for a two-leaf tree, for the parser test
J48_OUTPUT = """
Options: -C 0.25 -M 2

J48 pruned tree
------------------

a <= 2: p (3.43)
a > 2: n (4.57/0.57)

Number of Leaves  : \t2

Size of the tree : \t3


Time taken to build model: 0.01 seconds
Time taken to test model on training data: 0 seconds

=== Error on training data ===

Correctly Classified Instances           8              100      %
Incorrectly Classified Instances         0                0      %

=== Error on test data ===

Correctly Classified Instances           6               75      %
Incorrectly Classified Instances         2               25      %
"""


def test_parse_j48_output_reads_the_test_section():
    result = parse_j48_output(J48_OUTPUT)
    assert result == dict(accuracy=0.75, n_leaves=2, tree_size=3, build_seconds=0.01)
    with pytest.raises(ValueError, match="unexpected J48 output"):
        parse_j48_output("Exception in thread main")


def test_arff_files_carry_nominal_numeric_and_missing_values(tmp_path, weka_jar):
    X = pd.DataFrame({"色泽": ["青绿", "乌黑", None, "浅白", "青绿", "乌黑"] * 4,
                      "密度": [0.697, np.nan, 0.634, 0.608, 0.556, 0.403] * 4})
    y = np.array(["是", "是", "否", "否", "是", "否"] * 4)
    train, test = write_arff_pair(tmp_path, X, y, X.iloc[:6], y[:6], relation="西瓜")
    text = train.read_text(encoding="utf-8")
    assert "@attribute '密度' numeric" in text
    assert "@attribute '色泽' {'乌黑','浅白','青绿'}" in text
    assert "?,0.634,'否'" in text and "'乌黑',?,'是'" in text
    # Weka reads both files: it evaluates exactly the 6 test rows
    result = run_j48(weka_jar, train, test, options=("-U",))
    assert "Total Number of Instances                6" in result.output
    assert result.n_leaves >= 1 and 0.0 <= result.accuracy <= 1.0


def test_j48_finds_a_one_cut_tree_where_one_cut_is_exact(tmp_path, weka_jar):
    X = pd.DataFrame({"x": np.arange(40.0), "noise": np.tile([1.0, 2.0], 20)})
    y = np.where(X["x"] < 17, "a", "b")
    train, test = write_arff_pair(tmp_path, X, y, X, y)
    result = run_j48(weka_jar, train, test)
    assert (result.n_leaves, result.tree_size, result.accuracy) == (2, 3, 1.0)
    assert "x <= 16: a" in result.output  # J48 cuts at a training value, not a midpoint


# ------------------------------------------------------------------ vs J48
def datasets():
    X, y = mixed_dataset(4000, 6, 4, missing=0.05, seed=11)
    yield pytest.param("mixed 4000x10, 5% missing", X, y)
    X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    yield pytest.param("breast cancer", X, np.where(y == 1, "benign", "malignant"))
    X, y = make_classification(3000, 8, n_informative=5, flip_y=0.05, random_state=2)
    yield pytest.param("make_classification 3000x8", pd.DataFrame(X).add_prefix("f"),
                       y.astype(str))


@pytest.fixture(scope="module")
def j48_runs(weka_jar, tmp_path_factory):
    """J48 -C 0.25 -M 2 once per dataset: name -> (split data, J48Result)."""
    runs = {}

    def run(name, X, y):
        if name not in runs:
            Xtr, Xte, ytr, yte = split(X, y)
            files = write_arff_pair(tmp_path_factory.mktemp("arff"), Xtr, ytr, Xte, yte)
            runs[name] = (Xtr, Xte, ytr, yte), run_j48(weka_jar, *files, confidence=0.25,
                                                       min_leaf=2)
        return runs[name]
    return run


@pytest.mark.parametrize("name, X, y", list(datasets()),
                         ids=["mixed-missing", "breast-cancer", "make-classification"])
def test_c45_pessimistic_pruning_matches_j48(name, X, y, j48_runs):
    (Xtr, Xte, ytr, yte), j48 = j48_runs(name, X, y)
    ours = DecisionTreeClassifier(criterion="gain_ratio", pruning="pessimistic",
                                  confidence=0.25, min_samples_leaf=2)
    ours.fit(Xtr, ytr)
    accuracy = ours.score(Xte, yte)
    size = ours.tree_.n_nodes
    assert abs(accuracy - j48.accuracy) <= 0.01, (name, accuracy, j48.accuracy)
    assert abs(size - j48.tree_size) <= 0.2 * j48.tree_size, (name, size, j48.tree_size)


@pytest.mark.parametrize("name, X, y", [p.values for p in datasets()],
                         ids=["mixed-missing", "breast-cancer", "make-classification"])
def test_the_j48_reference_reproduces_j48_exactly(name, X, y, j48_runs):
    """The rules written down in _j48_reference.py are all of J48 on these data."""
    (Xtr, Xte, ytr, yte), j48 = j48_runs(name, X, y)
    data = Data(Xtr, ytr, pd.concat([Xtr, Xte]), np.r_[ytr, yte])
    reference = J48Reference(M=2, cf=0.25).fit(data)
    predicted = np.asarray(data.classes)[reference.predict(data.encode(Xte))]
    accuracy = np.mean(predicted == np.asarray(yte).astype(str))
    assert (reference.leaves(), reference.size()) == (j48.n_leaves, j48.tree_size)
    assert accuracy == pytest.approx(j48.accuracy, abs=1e-4)


#: the J48 reference with the core tree's growth rules (midpoint thresholds, no collapse):
#: only pruning is compared
CORE_GROWTH = dict(relocate=False, collapse=False)


@pytest.mark.parametrize("seed", [0, 15, 17])
def test_pessimistic_pruning_raises_subtrees_as_c45(seed):
    """On numeric data with missing values where subtree raising changes J48's tree, the
    pruned tree is the reference's with raising (R8), not the one without it."""
    X, y = make_classification(600, 6, n_informative=4, flip_y=0.1, random_state=seed)
    X[np.random.default_rng(seed).random(X.shape) < 0.05] = np.nan
    X, y = pd.DataFrame(X).add_prefix("f"), y.astype(str)
    ours = DecisionTreeClassifier(criterion="gain_ratio", pruning="pessimistic",
                                  min_samples_leaf=2).fit(X, y)
    data = Data(X, y, X, y)
    raised = J48Reference(M=2, cf=0.25, **CORE_GROWTH).fit(data)
    not_raised = J48Reference(M=2, cf=0.25, raising=False, **CORE_GROWTH).fit(data)
    assert (ours.n_leaves_, ours.tree_.n_nodes) == (raised.leaves(), raised.size())
    assert raised.size() != not_raised.size()
    expected = np.asarray(data.classes)[raised.predict(data.encode(X))]
    assert np.array_equal(ours.predict(X), expected)
