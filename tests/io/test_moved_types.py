"""Model files written before a class moved to another module still load.

``data/tree_iris_before_stage_folders.hyperplane`` was written by hyperplane
when the tree's storage lived in ``hyperplane.tree._builder`` (before the
tree's modules went into stage folders): a ``DecisionTreeClassifier()`` fitted
on the whole iris data set.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import zipfile
from pathlib import Path

import numpy as np
import pytest
from sklearn.datasets import load_iris

from hyperplane.io import load
from hyperplane.io._files import MOVED_TYPES
from hyperplane.tree import DecisionTreeClassifier

OLD_FILE = Path(__file__).parent / "data" / "tree_iris_before_stage_folders.hyperplane"


def _schema_modules(path):
    with zipfile.ZipFile(path) as archive:
        text = archive.read("schema.json").decode("utf-8")
    return set(re.findall(r'"__module__": "(hyperplane[\w.]*)"', text))


def test_the_old_file_names_the_old_module():
    """The fixture really is an old file (else the next test proves nothing)."""
    assert "hyperplane.tree._builder" in _schema_modules(OLD_FILE)
    assert "hyperplane.tree._grow._builder" not in _schema_modules(OLD_FILE)


def test_an_old_tree_file_loads_and_predicts_as_the_tree_it_holds(tmp_path):
    path = tmp_path / OLD_FILE.name
    shutil.copyfile(OLD_FILE, path)
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    model = load(path)
    X, y = load_iris(return_X_y=True)
    fresh = DecisionTreeClassifier().fit(X, y)
    assert type(model).__name__ == "DecisionTreeClassifier"
    assert type(model.tree_).__module__ == "hyperplane.tree._grow._builder"
    np.testing.assert_array_equal(model.predict(X), fresh.predict(X))
    np.testing.assert_array_equal(model.predict_proba(X), fresh.predict_proba(X))
    assert model.get_n_leaves() == fresh.get_n_leaves()
    # loading reads a renamed copy in memory and never rewrites the file
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before


@pytest.mark.parametrize("old, new", sorted(MOVED_TYPES.items()))
def test_every_moved_name_points_at_a_class_of_that_name(old, new):
    import importlib

    module, _, name = new.rpartition(".")
    cls = getattr(importlib.import_module(module), name)
    assert cls.__module__ == module and cls.__qualname__ == name == old.rpartition(".")[2]


#: written by hyperplane before ``svm/_linear_svc.py`` and ``tree/_classes.py``
#: were split into modules named after their contents (the estimators stayed):
#: ``LinearSVC(random_state=0)`` and ``DecisionTreeClassifier(pruning="post",
#: random_state=0)`` fitted on the whole iris data set
BEFORE_SPLIT = {
    "linear_svc_iris_before_split.hyperplane": "LinearSVC",
    "tree_iris_before_split.hyperplane": "DecisionTreeClassifier",
}


@pytest.mark.parametrize("name", sorted(BEFORE_SPLIT))
def test_a_file_written_before_the_split_loads_and_predicts_as_a_fresh_fit(name, tmp_path):
    import warnings

    from hyperplane.svm import LinearSVC

    path = tmp_path / name
    shutil.copyfile(Path(__file__).parent / "data" / name, path)
    model = load(path)
    X, y = load_iris(return_X_y=True)
    fresh = {"LinearSVC": LinearSVC(random_state=0),
             "DecisionTreeClassifier": DecisionTreeClassifier(pruning="post", random_state=0)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # LinearSVC on unscaled iris does not converge
        fresh = fresh[BEFORE_SPLIT[name]].fit(X, y)
    assert type(model) is type(fresh)
    np.testing.assert_array_equal(model.predict(X), fresh.predict(X))
    if hasattr(fresh, "decision_function"):
        np.testing.assert_array_equal(model.decision_function(X), fresh.decision_function(X))
    else:
        np.testing.assert_array_equal(model.predict_proba(X), fresh.predict_proba(X))
