"""The growing tree's storage (``_state.NodeStore``): its two rules against Python lists.

:func:`attach_children` (a node gets one child per branch) and :func:`graft`
(a subtree grown elsewhere is put under a node) are checked against a
reference that keeps every node in Python lists, on random sequences of
splits from stores of every starting capacity (so the doubling is crossed
at any point).
"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from hyperplane.tree._grow._builder import finalize, store_links
from hyperplane.tree._grow._store_kernels import attach_children, graft
from hyperplane.tree._state import NodeTest, new_store

FIELDS = ("feature", "is_numeric", "threshold", "first_child", "n_child", "branch_r", "value",
          "weight", "depth")


class ListStore:
    """The reference: one list entry per node, children ids appended on a split."""

    def __init__(self, value, weight, depth):
        self.feature, self.is_numeric, self.threshold = [-1], [False], [np.nan]
        self.first_child, self.n_child, self.branch_r = [0], [0], [1.0]
        self.value, self.weight, self.depth = [list(value)], [weight], [depth]

    def split(self, node, test, r, value, weight):
        self.feature[node], self.is_numeric[node], self.threshold[node] = test
        self.first_child[node], self.n_child[node] = len(self.feature), len(r)
        for v in range(len(r)):
            self.feature.append(-1)
            self.is_numeric.append(False)
            self.threshold.append(np.nan)
            self.first_child.append(0)
            self.n_child.append(0)
            self.branch_r.append(float(r[v]))
            self.value.append(list(value[v]))
            self.weight.append(float(weight[v]))
            self.depth.append(self.depth[node] + 1)


def assert_store_is(store, reference):
    n = len(reference.feature)
    assert store.n_nodes == n
    for name in FIELDS:
        np.testing.assert_array_equal(getattr(store, name)[:n],
                                      np.array(getattr(reference, name)), err_msg=name)


def random_splits(seed, n_splits, n_stats):
    """``(node, test, r, value, weight)`` of ``n_splits`` splits of leaves of a
    growing tree, each of the previous splits' nodes chosen at random."""
    rng = np.random.default_rng(seed)
    leaves, n_nodes, splits = [0], 1, []
    for _ in range(n_splits):
        node = leaves.pop(int(rng.integers(len(leaves))))
        k = int(rng.integers(2, 5))
        numeric = bool(rng.integers(2))
        test = (int(rng.integers(6)), numeric, float(rng.normal()) if numeric else np.nan)
        splits.append((node, test, rng.random(k), rng.random((k, n_stats)), rng.random(k)))
        leaves.extend(range(n_nodes, n_nodes + k))
        n_nodes += k
    return splits


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), n_splits=st.integers(0, 30), n_stats=st.integers(1, 4),
       capacity=st.integers(1, 70))
def test_attach_children_is_the_list_reference(seed, n_splits, n_stats, capacity):
    root_value = np.arange(1.0, n_stats + 1.0)
    store = new_store(root_value, 2.5, 0, capacity)
    reference = ListStore(root_value, 2.5, 0)
    for node, test, r, value, weight in random_splits(seed, n_splits, n_stats):
        store = attach_children(store, node, NodeTest(*test), r, value, weight)
        reference.split(node, test, r, value, weight)
    assert_store_is(store, reference)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), n_top=st.integers(0, 8), n_sub=st.integers(0, 12),
       capacity=st.integers(1, 40))
def test_graft_is_growing_the_subtree_in_place(seed, n_top, n_sub, capacity):
    """A subtree grown in its own store from a leaf and grafted there gives the
    store that growing it in place gives (its nodes in the same order)."""
    n_stats = 2
    store = new_store(np.ones(n_stats), 1.0, 0, capacity)
    reference = ListStore(np.ones(n_stats), 1.0, 0)
    for node, test, r, value, weight in random_splits(seed, n_top, n_stats):
        store = attach_children(store, node, NodeTest(*test), r, value, weight)
        reference.split(node, test, r, value, weight)
    leaves = [t for t in range(len(reference.feature)) if reference.feature[t] < 0]
    at = leaves[seed % len(leaves)]
    sub = new_store(np.array(reference.value[at]), reference.weight[at], reference.depth[at], 1)
    base = len(reference.feature) - 1     # the subtree's node s > 0 is node base + s
    for node, test, r, value, weight in random_splits(seed + 1, n_sub, n_stats):
        sub = attach_children(sub, node, NodeTest(*test), r, value, weight)
        reference.split(at if node == 0 else base + node, test, r, value, weight)
    assert_store_is(graft(store, at, sub), reference)


def test_finalize_lays_the_store_out_in_preorder():
    """A root with two children, the first split again: preorder is 0, 1, 3, 4, 2."""
    store = new_store(np.array([2.0, 2.0]), 4.0, 0, 2)
    store = attach_children(store, 0, NodeTest(0, True, 0.5), np.array([0.5, 0.5]),
                            np.array([[2.0, 0.0], [0.0, 2.0]]), np.array([2.0, 2.0]))
    store = attach_children(store, 1, NodeTest(1, False, np.nan), np.array([0.5, 0.5]),
                            np.array([[1.0, 0.0], [1.0, 0.0]]), np.array([1.0, 1.0]))
    child_start, n_child, children = store_links(store)
    assert [children[s:s + k].tolist() for s, k in zip(child_start, n_child)] == [
        [1, 2], [3, 4], [], [], []]
    tree = finalize(store, 0)
    assert tree.feature.tolist() == [0, 1, -1, -1, -1]
    assert tree.value[:, 0].tolist() == [2.0, 2.0, 1.0, 1.0, 0.0]
    assert [tree.kids(t).tolist() for t in range(5)] == [[1, 4], [2, 3], [], [], []]
    assert tree.depth.tolist() == [0, 1, 2, 2, 1]
