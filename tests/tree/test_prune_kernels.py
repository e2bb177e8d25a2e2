"""Compiled C4.5 pruning (hyperplane.tree._prune._pessimistic_kernels) vs the slow NumPy reference.

The reference (``_raising_reference.py``) is the pure-Python pruner the
package used before: the compiled pruning must give the *identical* tree
(same arrays, bit for bit) on random data, trees and weights.
"""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hyperplane.tree import DecisionTreeClassifier
from hyperplane.tree._grow._builder import finalize, tree_from_arrays
from hyperplane.tree._encode import encode_predict
from hyperplane.tree._prune._kinds import added_errors, prune_with_raising
from hyperplane.tree._scan._numpy_sum_kernels import numpy_sum

try:
    from ._raising_reference import (added_errors as added_errors_reference, as_nodes, as_store,
                                     finalize_reference, prune_with_raising_reference)
except ImportError:  # tests/tree is not a package
    from _raising_reference import (added_errors as added_errors_reference, as_nodes, as_store,
                                    finalize_reference, prune_with_raising_reference)

TREE_FIELDS = ("feature", "is_numeric", "threshold", "child_start", "n_child", "children",
               "branch_r", "value", "weight", "impurity", "depth")


def assert_same_tree(a, b):
    for name in TREE_FIELDS:
        x, z = getattr(a, name), getattr(b, name)
        assert x.dtype == z.dtype, name
        np.testing.assert_array_equal(x, z, err_msg=name)


def random_problem(seed, n, n_num, n_cat, n_classes, missing, weighted):
    """Encoded (X, y, w) with numeric and coded categorical columns, NaN missing."""
    rng = np.random.default_rng(seed)
    num = rng.normal(size=(n, n_num)).round(1)  # ties between values
    cat = rng.integers(0, 4, size=(n, n_cat)).astype(float)
    X = np.hstack([num, cat])
    logits = X[:, :1].sum(axis=1) if n_num else X[:, 0]
    y = (np.floor(logits + rng.normal(scale=1.5, size=n)) % n_classes).astype(np.int64)
    y[:n_classes] = np.arange(n_classes)  # every class present
    X[rng.random(X.shape) < missing] = np.nan
    w = rng.choice([0.5, 1.0, 2.0], size=n) if weighted else np.ones(n)
    return X, y, w


def grown_tree(X, y, w, n_cat, criterion):
    """An unpruned tree on (X, y, w) (the last ``n_cat`` columns categorical)."""
    frame = pd.DataFrame(X)
    for j in range(X.shape[1] - n_cat, X.shape[1]):
        frame[j] = pd.Series([None if np.isnan(v) else f"v{int(v)}" for v in X[:, j]],
                             dtype=object)
    model = DecisionTreeClassifier(criterion=criterion, min_samples_leaf=1)
    model.fit(frame, y, sample_weight=w)
    # the encoding codes categories by first appearance: re-read them from the model
    return model.tree_, encode_predict(model, frame, model._spec)


@settings(max_examples=40)
@given(seed=st.integers(0, 10_000), n=st.integers(10, 160), n_num=st.integers(0, 3),
       n_cat=st.integers(0, 2), n_classes=st.integers(2, 9),
       missing=st.sampled_from([0.0, 0.1, 0.3]), weighted=st.booleans(),
       confidence=st.sampled_from([0.05, 0.25, 0.5]),
       criterion=st.sampled_from(["gain_ratio", "info_gain", "gini"]))
def test_compiled_raising_equals_reference(seed, n, n_num, n_cat, n_classes, missing, weighted,
                                           confidence, criterion):
    if n_num + n_cat == 0:
        n_num = 1
    X, y, w = random_problem(seed, n, n_num, n_cat, n_classes, missing, weighted)
    tree, X_enc = grown_tree(X, y, w, n_cat, criterion)
    crit = 1 if criterion == "gini" else 0
    ours = prune_with_raising(tree, confidence, crit, X_enc, y, w)
    reference = prune_with_raising_reference(tree, confidence, crit, X_enc, y, w)
    assert_same_tree(ours, reference)


def test_raising_changes_the_tree_and_matches_the_reference():
    """A case where raising happens (the pruned tree is not a pruned subtree of the grown one)."""
    X, y, w = random_problem(3, 3000, 3, 2, 3, 0.05, False)
    tree, X_enc = grown_tree(X, y, w, 2, "gain_ratio")
    ours = prune_with_raising(tree, 0.25, 0, X_enc, y, w)
    assert_same_tree(ours, prune_with_raising_reference(tree, 0.25, 0, X_enc, y, w))
    assert ours.n_nodes < tree.n_nodes
    # raising refits class weights: some leaf holds weights no node of the grown tree had
    grown = {tuple(v) for v in tree.value}
    assert any(tuple(v) not in grown for v in ours.value)


@given(n=st.floats(0.0, 500.0), frac=st.floats(0.0, 1.0),
       confidence=st.sampled_from([1e-4, 0.1, 0.25, 0.5]))
def test_added_errors_equals_reference(n, frac, confidence):
    e = round(n * frac, 2)
    assert added_errors(n, e, confidence) == pytest.approx(
        added_errors_reference(n, e, confidence), rel=1e-9, abs=1e-9)


def test_added_errors_rejects_confidence_above_half():
    with pytest.raises(ValueError, match="confidence"):
        added_errors(5, 1, 0.6)


@given(st.lists(st.floats(-1e6, 1e6), min_size=0, max_size=128))
def test_numpy_sum_is_numpys_order(values):
    a = np.array(values, dtype=np.float64)
    assert numpy_sum(a) == a.sum()


@settings(max_examples=30)
@given(seed=st.integers(0, 10_000), n_classes=st.integers(2, 9),
       criterion=st.sampled_from([0, 1]))
def test_tree_layout_equals_reference(seed, n_classes, criterion):
    """finalize/tree_from_arrays (compiled preorder) vs the Python finalize, random keep masks."""
    X, y, w = random_problem(seed, 120, 2, 1, n_classes, 0.1, True)
    tree, _ = grown_tree(X, y, w, 1, "info_gain")
    keep = np.random.default_rng(seed).random(tree.n_nodes) < 0.7
    nodes = as_nodes(tree)
    store, tree_id = as_store(tree)
    assert_same_tree(finalize(store, criterion, keep=keep[tree_id]),
                     finalize_reference(nodes, criterion, n_classes, keep=keep))
    assert_same_tree(tree_from_arrays(tree.feature, tree.is_numeric, tree.threshold,
                                      tree.child_start, tree.n_child, tree.children,
                                      tree.branch_r, tree.value, tree.weight, tree.depth,
                                      criterion, keep),
                     finalize_reference(nodes, criterion, n_classes, keep=keep))
