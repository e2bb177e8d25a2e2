"""The growing tree's storage rules: a node gets its children, a subtree is grafted.

Every grower writes into a :class:`~hyperplane.tree._state.NodeStore`: the
Python growth loop (:func:`~._builder.grow_frontier`, in memory and on Dask)
and the compiled subtree growth (:func:`~._subtree_kernels.grow_subtree`)
split a node by :func:`attach_children` (周志华 图4.2, line 11: a branch, that
is a child, for every value of the chosen attribute), and a subtree grown in
one compiled call is copied under its node by :func:`graft`. A full store is
reallocated at twice its length (:func:`_reserve`, the rule of scikit-learn's
``Tree._resize``), so adding a node costs O(1) amortised.
"""

from __future__ import annotations

import numpy as np

from ..._numba import jit, jit_inline, jit_internal
from ..._lowered import empty
from .._scan._loops_kernels import pick_max
from .._state import NodeStore


@jit_internal
def _reserve(store, extra):
    """``store`` with room for ``extra`` more nodes: itself, or its nodes copied
    into arrays of twice its length (or of what it needs, if more)."""
    n = store.n_nodes
    capacity = store.feature.shape[0]
    if n + extra <= capacity:
        return store
    capacity = pick_max(2 * capacity, n + extra)
    # the nodes beyond n are written when they are made (attach_children, graft)
    grown = NodeStore(empty(capacity, np.int64), empty(capacity, np.bool_),
                      empty(capacity, np.float64), empty(capacity, np.int64),
                      empty(capacity, np.int64), empty(capacity, np.float64),
                      empty((capacity, store.value.shape[1]), np.float64),
                      empty(capacity, np.float64),
                      empty(capacity, np.int64), n)
    for t in range(n):
        _copy_node(store, t, grown, t)
    return grown


@jit_inline
def _copy_node(source, s, store, t):
    """Node ``s`` of ``source`` written as node ``t`` of ``store`` (every field;
    inlined into its two callers, no compiled unit of its own)."""
    store.feature[t] = source.feature[s]
    store.is_numeric[t] = source.is_numeric[s]
    store.threshold[t] = source.threshold[s]
    store.first_child[t] = source.first_child[s]
    store.n_child[t] = source.n_child[s]
    store.branch_r[t] = source.branch_r[s]
    for k in range(store.value.shape[1]):
        store.value[t, k] = source.value[s, k]
    store.weight[t] = source.weight[s]
    store.depth[t] = source.depth[s]


@jit_inline
def _counted(store, n_nodes):
    """``store``'s arrays holding ``n_nodes`` nodes (inlined into its callers)."""
    return NodeStore(store.feature, store.is_numeric, store.threshold, store.first_child,
                     store.n_child, store.branch_r, store.value, store.weight, store.depth,
                     n_nodes)


@jit_inline
def split_leaf(store, node, test, r, value, weight):
    """Make leaf ``node`` of ``store`` test ``test`` (a
    :class:`~hyperplane.tree._state.NodeTest`) with one child per branch ``v``:
    a leaf of ``r[v]`` (r̃_v, 周志华 4.4.2), statistic ``value[v]`` and weight
    ``weight[v]``, one level deeper. The children get the next ids, in branch
    order, from ``store.n_nodes`` on.

    Returns the store (a new one when it had to grow: use the returned one).

    Examples
    --------
    >>> import numpy as np
    >>> from hyperplane.tree._state import NodeTest, new_store
    >>> store = new_store(np.array([3.0, 1.0]), 4.0, 0, 1)
    >>> store = attach_children(store, 0, NodeTest(2, True, 0.5), np.array([0.75, 0.25]),
    ...                         np.array([[3.0, 0.0], [0.0, 1.0]]), np.array([3.0, 1.0]))
    >>> store.n_nodes, store.first_child[:1].tolist(), store.n_child[:1].tolist()
    (3, [1], [2])
    >>> store.depth[:3].tolist(), store.feature[:3].tolist()
    ([0, 1, 1], [2, -1, -1])

    Inlined into its callers (:func:`~._subtree_kernels.grow_subtree`, one site: ~300
    fewer final instructions than a unit of its own, which every first fit linked and
    called); Python calls it through :func:`attach_children`.
    """
    n_branches = r.shape[0]
    store = _reserve(store, n_branches)
    first = store.n_nodes
    store.feature[node] = test.feature
    store.is_numeric[node] = test.numeric
    store.threshold[node] = test.threshold
    store.first_child[node] = first
    store.n_child[node] = n_branches
    depth = store.depth[node] + 1
    for v in range(n_branches):
        t = first + v
        store.feature[t] = -1
        store.is_numeric[t] = False
        store.threshold[t] = np.nan
        store.first_child[t] = 0
        store.n_child[t] = 0
        store.branch_r[t] = r[v]
        for k in range(value.shape[1]):
            store.value[t, k] = value[v, k]
        store.weight[t] = weight[v]
        store.depth[t] = depth
    return _counted(store, first + n_branches)


@jit
def attach_children(store, node, test, r, value, weight):
    """:func:`split_leaf` called from Python (the node-by-node loop, the Dask
    levels): compiled only when a tree grows there, so that a compiled growth
    compiles no Python wrapper of the rule. Returns the store."""
    return split_leaf(store, node, test, r, value, weight)


@jit
def graft(store, node, subtree):
    """Put the grown ``subtree`` (a :class:`~hyperplane.tree._state.NodeStore` whose
    node 0 is ``node``'s rows) under leaf ``node`` of ``store``: ``node`` takes
    its root's test, and its node ``t > 0`` becomes node ``base + t`` of the
    store, ``base = store.n_nodes − 1`` (the ids keep their order).

    Returns the store (a new one when it had to grow: use the returned one).

    Examples
    --------
    >>> import numpy as np
    >>> from hyperplane.tree._state import NodeTest, new_store
    >>> store = new_store(np.array([3.0, 1.0]), 4.0, 0, 4)
    >>> store = attach_children(store, 0, NodeTest(0, True, 0.5), np.array([0.5, 0.5]),
    ...                         np.array([[2.0, 0.0], [1.0, 1.0]]), np.array([2.0, 2.0]))
    >>> sub = new_store(np.array([1.0, 1.0]), 2.0, 1, 4)
    >>> sub = attach_children(sub, 0, NodeTest(1, True, 2.5), np.array([0.5, 0.5]),
    ...                       np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([1.0, 1.0]))
    >>> store = graft(store, 2, sub)
    >>> store.n_nodes, store.feature[:5].tolist(), store.first_child[:5].tolist()
    (5, [0, -1, 1, -1, -1], [1, 0, 3, 0, 0])
    >>> store.depth[:5].tolist()
    [0, 1, 1, 2, 2]
    """
    m = subtree.n_nodes
    store = _reserve(store, m - 1)
    base = store.n_nodes - 1
    store.feature[node] = subtree.feature[0]
    store.is_numeric[node] = subtree.is_numeric[0]
    store.threshold[node] = subtree.threshold[0]
    store.first_child[node] = base + subtree.first_child[0] if subtree.n_child[0] > 0 else 0
    store.n_child[node] = subtree.n_child[0]
    for s in range(1, m):
        t = base + s
        _copy_node(subtree, s, store, t)
        if store.n_child[t] > 0:
            store.first_child[t] += base
    return _counted(store, base + m)
