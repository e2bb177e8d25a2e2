"""The two growth buffers of an exact tree (``Node.spare_order``, ``Node.spare_x``).

A node's children's orders and values are written into the node's spare
region, and take the node's own region as theirs
(:func:`~hyperplane.tree._traverse_kernels.children_regions`); children that
hold more rows than their parent (rows missing the tested value) get fresh
arrays. Trees grown this way must be the trees grown with fresh arrays for
every node, and every node must hold its rows sorted by every attribute.
"""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hyperplane.tree._grow._builder as builder
import hyperplane.tree._grow._subtree as subtree
from hyperplane.tree import DecisionTreeClassifier
from hyperplane.tree._state import Orders
from hyperplane.tree._traverse_kernels import MISSING, child_orders, child_spare, partition_node

GARBAGE_ORDER = -7  # what a spare region holds before anything is written into it


@st.composite
def node_split(draw):
    """A node's orders of ``p`` attributes over ``m`` rows, each row's branch
    (``MISSING`` with probability ``missing``), and the spare region inside a
    larger buffer, at an offset."""
    m = draw(st.integers(1, 60))
    p = draw(st.integers(1, 3))
    n_branches = draw(st.integers(2, 4))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    n = m + int(rng.integers(0, 20))
    rows = np.sort(rng.choice(n, m, replace=False)).astype(np.int64)
    x = np.round(rng.normal(size=(p, n)), 1)
    x[rng.random(x.shape) < 0.1] = np.nan
    order = np.stack([rows[np.argsort(x[f, rows], kind="stable")] for f in range(p)])
    missing = draw(st.sampled_from([0.0, 0.2]))
    branch = np.where(rng.random(m) < missing, MISSING, rng.integers(0, n_branches, m))
    r = rng.random(n_branches)
    return x, rows, order.astype(np.int32), branch, r / r.sum(), int(rng.integers(0, 30))


def partition(x, rows, order, branch, r, spare):
    w = np.ones(rows.size)
    sorted_x = np.take_along_axis(x, order, axis=1)
    return partition_node(rows, w, branch, r, Orders(order, sorted_x), spare,
                          np.zeros(x.shape[1], dtype=np.int64), False)


@settings(max_examples=60, deadline=None)
@given(node_split())
def test_children_go_into_the_spare_region_unless_they_outgrow_it(split):
    """Into the spare region (a view of it, nothing written around it), the same
    children as with fresh arrays, and the node's own region as their spare;
    with a row missing the tested value, fresh arrays and no spare region."""
    x, rows, order, branch, r, at = split
    size = order.size
    buffer_order = np.full(size + 2 * at, GARBAGE_ORDER, dtype=np.int32)
    buffer_x = np.full(size + 2 * at, np.inf)
    spare = Orders(buffer_order[at:at + size], buffer_x[at:at + size])
    fresh = partition(x, rows, order, branch, r, Orders(spare[0][:0], spare[1][:0]))
    shared = partition(x, rows, order, branch, r, spare)
    for a, b in zip(fresh[:5], shared[:5]):
        np.testing.assert_array_equal(a, b)
    child_order, child_x = shared.order, shared.sorted_x
    outgrown = np.any(branch == MISSING)
    assert np.shares_memory(child_order, buffer_order) != outgrown
    assert np.shares_memory(child_x, buffer_x) != outgrown
    outside = np.r_[buffer_order[:at], buffer_order[at + size:]]
    assert np.all(outside == GARBAGE_ORDER)
    assert np.all(np.r_[buffer_x[:at], buffer_x[at + size:]] == np.inf)
    spare_out = Orders(shared.spare_order, shared.spare_x)
    if outgrown:
        assert spare_out.order.size == 0 and spare_out.sorted_x.size == 0
        assert np.all(buffer_order == GARBAGE_ORDER)
        return
    assert np.shares_memory(spare_out.order, order) and spare_out.order.size == size
    offsets = shared.offsets
    for v in range(r.size):  # child v's block and spare region: the same slice of both buffers
        block = child_orders(Orders(child_order, child_x), offsets, v, order.shape[0]).order
        region = child_spare(spare_out, offsets, v, order.shape[0]).order
        assert block.size == region.size
        if block.size:
            assert (block.__array_interface__["data"][0] - child_order.__array_interface__[
                "data"][0]) == (region.__array_interface__["data"][0]
                                - spare_out.order.__array_interface__["data"][0])


class SortedChecker:
    """A stand-in tracer of the node-by-node grower: every node it is shown holds
    its rows sorted by every attribute (NaN last, ties by row), recomputed from
    the data, with their values."""

    def __init__(self, num_T):
        self.num_T, self.seen = num_T, 0

    def check(self, node):
        rows = np.sort(node.rows)
        for f in range(node.order.shape[0]):
            expected = rows[np.argsort(self.num_T[f, rows], kind="stable")]
            np.testing.assert_array_equal(node.order[f], expected)
            np.testing.assert_array_equal(node.sorted_x[f], self.num_T[f, expected])
        self.seen += 1

    def scored(self, node_id, node, *args):
        self.check(node)

    def leaf(self, node_id, node, reason):
        self.check(node)

    def entries(self, store):
        return []


def fresh_buffers(node):
    """``node`` with copies of its orders and values and a spare region of its own
    (filled with garbage): what growing with fresh arrays at every node gives."""
    return node._replace(order=node.order.copy(), sorted_x=node.sorted_x.copy(),
                         spare_order=np.full(node.order.size, GARBAGE_ORDER,
                                             dtype=node.order.dtype),
                         spare_x=np.full(node.sorted_x.size, np.nan))


def grown_with_fresh_buffers(grown_children):
    def fresh(*args):
        return [(i, fresh_buffers(node)) for i, node in grown_children(*args)]
    return fresh


@st.composite
def frames(draw):
    """Numeric columns with ties and missing values, a multiway categorical
    column (missing values too), classes and weights."""
    n = draw(st.integers(200, 900))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    X = rng.normal(size=(n, 4))
    X[:, 2] = np.round(X[:, 2], 1)
    X[rng.random(X.shape) < draw(st.sampled_from([0.0, 0.03]))] = np.nan
    frame = pd.DataFrame(X, columns=["a", "b", "c", "d"])
    colour = np.array(["red", "green", "blue", "grey"], dtype=object)[rng.integers(0, 4, n)]
    if draw(st.booleans()):
        frame["colour"] = np.where(rng.random(n) < 0.05, None, colour)
    y = (X[:, 0] + np.nan_to_num(X[:, 1]) * (colour == "red") > 0).astype(int)
    y[rng.random(n) < 0.2] = 2
    w = rng.choice([0.5, 1.0, 2.0], n) if draw(st.booleans()) else None
    return frame, y, w


@pytest.mark.parametrize("criterion", ["gini", "info_gain", "gain_ratio"])
@settings(max_examples=12, deadline=None)
@given(data=frames())
def test_shared_buffers_grow_the_tree_of_fresh_buffers(criterion, data):
    """The compiled growth (top nodes partitioned in parallel, then subtrees side
    by side in threads, all in the two shared buffers) and the node-by-node
    grower give the tree grown with fresh arrays for every node, bit for bit;
    every node held its rows in sorted order."""
    X, y, w = data
    params = dict(criterion=criterion, min_samples_leaf=2)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(builder, "compiled_growth_applies", lambda data, pre_pruner: False)
        m.setattr(builder, "grown_children", grown_with_fresh_buffers(builder.grown_children))
        reference = DecisionTreeClassifier(**params).fit(X, y, sample_weight=w)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(subtree, "SUBTREE_ROWS", 150)
        m.setattr(subtree, "MIN_SUBTREE_ROWS", 50)
        m.setattr(subtree, "PARALLEL_ROWS", 300)
        compiled = DecisionTreeClassifier(**params).fit(X, y, sample_weight=w)
    python = DecisionTreeClassifier(record_trace=True, **params).fit(X, y, sample_weight=w)
    for model in (compiled, python):
        for name in ("feature", "threshold", "children", "branch_r", "value", "weight"):
            np.testing.assert_array_equal(getattr(model.tree_, name),
                                          getattr(reference.tree_, name))


@pytest.mark.parametrize("missing", [0.0, 0.05])
def test_every_node_holds_its_rows_sorted(missing):
    """The node-by-node grower, the nodes' orders partitioned into the shared
    buffers: each node's orders are its rows sorted afresh (NaN last, ties by row)."""
    from hyperplane.tree._grow._builder import grow
    from hyperplane.tree._grow._layout import layout
    from hyperplane.tree._scan._split_kernels import GINI
    from hyperplane.tree._state import GrowRules

    rng = np.random.default_rng(6)
    n = 600
    X = np.column_stack([rng.normal(size=n), np.round(rng.normal(size=n), 1),
                         rng.integers(0, 4, n).astype(float)])
    X[rng.random(X.shape) < missing] = np.nan
    y = (np.nan_to_num(X[:, 0]) + 0.5 * rng.normal(size=n) > 0).astype(int)
    frame = layout(X, y, np.ones(n), np.zeros(3, bool), np.zeros(3, np.int64), 2, "best", 16)
    checker = SortedChecker(frame.num_T)
    grow(frame, GrowRules(GINI, None, np.inf, 2.0, 1.0, 0.0), tracer=checker)
    assert checker.seen > 50
