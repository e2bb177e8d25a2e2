"""The sorted values an exact tree carries beside its orders (``Node.sorted_x``).

Every node's ``sorted_x[f]`` must be ``num_T[f, order[f]]`` -- the values the
scan used to gather -- so trees are the ones a gathering scan grows; the root
sort must be NumPy's stable sort.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from hyperplane.tree import DecisionTreeClassifier
from hyperplane.tree._grow import _builder
from hyperplane.tree._grow._builder import grow, stable_sort
from hyperplane.tree._grow._layout import layout
from hyperplane.tree._scan._split_kernels import ENTROPY, GINI
from hyperplane.tree._state import GrowRules, Orders

# few distinct values (ties), both zeros, NaN
VALUES = st.sampled_from([0.0, -0.0, 1.0, 2.5, -3.0, 1e-300, np.nan, 7.0])


@given(arrays(np.float64, st.tuples(st.integers(1, 4), st.integers(0, 40)),
              elements=st.one_of(VALUES, st.floats(-1e3, 1e3))))
def test_stable_sort_is_numpys_stable_sort(x):
    by_x, xs = stable_sort(x)
    np.testing.assert_array_equal(by_x, np.argsort(x, axis=1, kind="stable"))
    np.testing.assert_array_equal(xs, np.sort(x, axis=1))


class NodeChecker:
    """A stand-in tracer of :func:`grow`: checks every node it is shown."""

    def __init__(self, num_T):
        self.num_T, self.seen = num_T, 0

    def check(self, node):
        for f in range(node.order.shape[0]):
            np.testing.assert_array_equal(node.sorted_x[f], self.num_T[f, node.order[f]])
        self.seen += 1

    def scored(self, node_id, node, *args):
        self.check(node)

    def leaf(self, node_id, node, reason):
        self.check(node)

    def entries(self, store):
        return []


@st.composite
def tree_data(draw):
    n = draw(st.integers(10, 80))
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    X = np.column_stack([rng.normal(size=n), rng.integers(0, 4, n).astype(float),
                         rng.integers(0, 3, n) * 0.5])
    X[rng.random(X.shape) < draw(st.sampled_from([0.0, 0.15]))] = np.nan
    y = rng.integers(0, 3, n)
    w = rng.choice([0.5, 1.0, 2.0], n) if draw(st.booleans()) else np.ones(n)
    return X, y, w


@settings(max_examples=40, deadline=None)
@given(tree_data(), st.sampled_from([GINI, ENTROPY]), st.booleans(), st.sampled_from([1.0, 3.0]),
       st.booleans())
def test_every_node_carries_the_values_of_its_order(data, criterion, c45, min_leaf, parallel):
    """The node-by-node grower (and, with ``parallel``, the attributes scored
    and partitioned side by side at every node): sorted_x[f] = x_f[order[f]]."""
    X, y, w = data
    n_cat = np.array([False, False, False])
    frame = layout(X, y, w, n_cat, np.zeros(3, np.int64), 3, "best", 16)
    checker = NodeChecker(frame.num_T)
    saved = _builder.PARALLEL_ROWS
    _builder.PARALLEL_ROWS = 0 if parallel else saved
    try:
        grow(frame, GrowRules(criterion, c45 or None, np.inf, 2.0, min_leaf, 0.0), tracer=checker)
    finally:
        _builder.PARALLEL_ROWS = saved
    assert checker.seen >= 1


def reference_orders(data, rows):
    """The root's orders and values as a gathering scan had them: NumPy's
    stable argsort, then ``x[order]``."""
    x = data.num_T[:, rows]
    by_x = np.argsort(x, axis=1, kind="stable")
    return Orders(rows[by_x].astype(np.int32), np.take_along_axis(x, by_x, axis=1))


@pytest.mark.parametrize("every_row", [True, False])
def test_sorted_orders_equal_the_reference(every_row):
    """The root's orders and values, for all rows and for a subset of them."""
    rng = np.random.default_rng(2)
    n = 500
    X = np.column_stack([rng.normal(size=n), rng.integers(0, 5, n).astype(float),
                         rng.normal(size=n)])
    X[rng.random(X.shape) < 0.1] = np.nan
    frame = layout(X, rng.integers(0, 2, n), np.ones(n), np.zeros(3, bool),
                   np.zeros(3, np.int64), 2, "best", 16)
    rows = np.arange(n) if every_row else np.flatnonzero(rng.random(n) < 0.6)
    order, sorted_x = _builder.sorted_orders(frame, rows)
    ref_order, ref_x = reference_orders(frame, rows)
    np.testing.assert_array_equal(order, ref_order)
    np.testing.assert_array_equal(sorted_x, ref_x)


@pytest.mark.parametrize("criterion", ["gini", "info_gain", "gain_ratio"])
@pytest.mark.parametrize("case", ["plain", "ties+nan+weights"])
def test_trees_from_the_fast_root_sort_equal_the_reference(monkeypatch, criterion, case):
    """Whole trees (the compiled subtree grower): the same arrays bit for bit
    whether the root is sorted by :func:`stable_sort` or by NumPy's stable sort."""
    rng = np.random.default_rng(5)
    n = 3000
    X = rng.normal(size=(n, 6))
    y = (X[:, 0] + 0.5 * rng.normal(size=n) > 0).astype(int) + (X[:, 1] > 1)
    w = None
    if case != "plain":
        X[:, 2:4] = np.round(X[:, 2:4], 1)
        X[rng.random(X.shape) < 0.05] = np.nan
        w = rng.choice([0.5, 1.0, 3.0], n)
    fast = DecisionTreeClassifier(criterion=criterion, min_samples_leaf=2).fit(X, y, sample_weight=w)
    monkeypatch.setattr(_builder, "sorted_orders", reference_orders)
    reference = DecisionTreeClassifier(criterion=criterion, min_samples_leaf=2).fit(X, y, sample_weight=w)
    for name, a in vars(reference.tree_).items():
        np.testing.assert_array_equal(getattr(fast.tree_, name), a, err_msg=name)
