"""generate_tree (周志华 4.1): growing the tree node by node from index arrays.

The data never get copied per node: a node is a set of row indices with their
weights (rows missing the tested value appear in every child with weight
``r_v · w``, 周志华 4.4.2) plus, for every exact numeric attribute, the node's
rows in sorted order, obtained by partitioning the parent's order (the columns
are sorted once, at the root).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Callable, NamedTuple

import numba
import numpy as np

from ._expand_kernels import (EMPTY_BRANCH, GROW, NO_SPLIT, PRE_PRUNED, attributes_left,
                              expand_node, root_leaf_reason)
from .._scan._node_kernels import PARALLEL_ROWS, score_attributes
from .._scan._table_kernels import class_weights
from .._scan._split_kernels import C45_MIN_SIDE_CAP, CATEGORICAL, NUMERIC, WEIGHT_TOL, c_log2_c
from .._prune._pessimistic_kernels import node_impurities
from .._state import (MinDecrease, Node, NodeTest, Orders, Scan, TreeArrays, new_node,
                      new_store)
from ._preorder import preorder_layout
from ._store_kernels import attach_children
from ._subtree import compiled_growth_applies, grow_subtrees
from .._traverse_kernels import child_orders, child_spare

#: values sorted per task by :func:`sorted_orders` (columns × rows)
SORT_BLOCK_CELLS = 1 << 16
#: room for this many nodes in a tree's store at first (it doubles when full)
STORE_CAPACITY = 64


@dataclass
class Tree:
    """A fitted tree as flat arrays, nodes in preorder.

    ``children[child_start[t]:child_start[t] + n_child[t]]`` are the branches
    of node ``t`` (for a numeric test: ``x <= threshold`` first; for a
    categorical one: one per training value, in the order of
    ``FeatureSpec.categories``). ``branch_r[t]`` is ``r_v`` of the branch
    that leads to ``t``; ``value[t]`` the training class weights at ``t``.
    """

    feature: np.ndarray
    is_numeric: np.ndarray
    threshold: np.ndarray
    child_start: np.ndarray
    n_child: np.ndarray
    children: np.ndarray
    branch_r: np.ndarray
    value: np.ndarray
    weight: np.ndarray
    impurity: np.ndarray
    depth: np.ndarray

    @property
    def n_nodes(self):
        return self.feature.shape[0]

    def kids(self, t):
        start = self.child_start[t]
        return self.children[start:start + self.n_child[t]]

    @property
    def arrays(self):
        """The structure the compiled walks read (:class:`~hyperplane.tree._state.TreeArrays`)."""
        return TreeArrays(self.feature, self.is_numeric, self.threshold, self.child_start,
                          self.n_child, self.children, self.branch_r)


def c45_split_floor(kind, rules):
    """Weight under which C4.5 admits no split (0: no such bound), so the node is not scored.

    With J48's rules (``c45``) both sides of an exact numeric cut weigh
    at least ``min(25, max(M, 0.1 W̃/K)) ≥ min(25, M)`` and a categorical split
    needs two branches weighing ``M`` (Quinlan 1993, 2.4; :func:`~hyperplane.tree._scan._numeric_cut_kernels.
    best_numeric_cut`, :func:`~hyperplane.tree._scan._split_kernels.table_split_score`), so a node
    weighing less than ``2 min(25, M)`` (less those tests' ``WEIGHT_TOL``, and
    one more for round-off) stays a leaf whatever its rows; a binned cut obeys
    the same rules (:func:`~hyperplane.tree._scan._numeric_cut_kernels.ordered_cut`).
    """
    if not rules.c45:
        return 0.0
    return 2.0 * (min(C45_MIN_SIDE_CAP, float(rules.min_leaf)) - WEIGHT_TOL) - WEIGHT_TOL


def stable_sort(x):
    """``(np.argsort(x, axis=1, kind="stable"), np.sort(x, axis=1))`` (NaN last), faster.

    Without ties a sort has one result, so NumPy's quicksort (twice as fast
    as its stable sort on floats) gives the stable order; only the rows of
    ``x`` with two equal values, or two NaN, are sorted again stably (their
    sorted values are the same either way).
    """
    by_x = np.argsort(x, axis=1, kind="quicksort")
    xs = np.take_along_axis(x, by_x, axis=1)
    if x.shape[1] < 2:
        return by_x, xs
    tied = np.any(xs[:, 1:] == xs[:, :-1], axis=1) | np.isnan(xs[:, -2])
    for f in np.flatnonzero(tied):
        by_x[f] = np.argsort(x[f], kind="stable")
    return by_x, xs


def sorted_orders(data, rows):
    """Rows sorted by every exact numeric attribute (NaN last) and the attribute's
    values in that order (:class:`~hyperplane.tree._state.Orders`): done once, at the root."""
    index_dtype = np.int32 if data.X.shape[0] < 2**31 - 1 else np.int64
    order = np.empty((data.num_T.shape[0], rows.size), dtype=index_dtype)
    sorted_x = np.empty((data.num_T.shape[0], rows.size))

    p = data.num_T.shape[0]
    # NumPy sorts without the GIL: a few blocks of columns at once, one task per
    # block (not per column: a wide table of few rows would spend its time in tasks)
    block = max(1, -(-SORT_BLOCK_CELLS // max(rows.size, 1)))
    every_row = rows.size == data.num_T.shape[1]  # rows is then 0, 1, ..., n - 1

    def sort_block(start):
        stop = min(start + block, p)
        x = data.num_T[start:stop] if every_row else data.num_T[start:stop][:, rows]
        by_x, sorted_x[start:stop] = stable_sort(x)
        order[start:stop] = by_x if every_row else rows[by_x]

    with ThreadPoolExecutor(max_workers=numba.get_num_threads()) as pool:
        list(pool.map(sort_block, range(0, p, block)))
    return Orders(order, sorted_x)


def _settled(bar, w, store):
    """Report a node that became a leaf to the progress bar (if any)."""
    if bar is not None:
        bar.advance(float(w.sum()), nodes=store.n_nodes)


def class_statistic(data, rows, w):
    """A classifier's node statistic: the class weights of ``rows`` with weights ``w``
    (:func:`~hyperplane.tree._scan._table_kernels.class_weights`, run by NumPy)."""
    return class_weights.py_func(data.y, rows, w, data.n_classes)


def root_node(data, order, statistic=class_statistic):
    """The root: every positive-weight row, all attributes available, its
    ``statistic(data, rows, w)`` as its value, and the second growth buffer as
    its spare region (:func:`spare_buffers`)."""
    rows = np.flatnonzero(data.w > 0).astype(np.int64)
    w = data.w[rows].copy()
    value = statistic(data, rows, w)
    orders = order(data, rows)
    return new_node(rows, w, orders, np.zeros(0, dtype=np.int64), value, 0,
                    np.ones(data.kind.shape[0], dtype=bool), spare_buffers(orders))


def spare_buffers(orders):
    """The root's spare region (flat :class:`~hyperplane.tree._state.Orders`): the second of the
    two buffers the children's orders and values alternate between, one
    allocation per fit (:func:`~hyperplane.tree._traverse_kernels.children_regions`)."""
    return Orders(np.empty(orders.order.size, dtype=orders.order.dtype),
                  np.empty(orders.sorted_x.size))


def no_orders(data, rows):
    """The sorted :class:`~hyperplane.tree._state.Orders` of a tree without exact numeric attributes (none)."""
    return Orders(np.zeros((0, rows.size), dtype=np.int64), np.zeros((0, rows.size)))


def parallel_rows(data):
    """``PARALLEL_ROWS``, or ``None`` when no node of ``data`` can be that large
    or numba has one thread: the parallel kernels are then not compiled."""
    if data.X.shape[0] < PARALLEL_ROWS or numba.get_num_threads() == 1:
        return None
    return PARALLEL_ROWS


def score_node(data, node, rules, scan):
    """The split table of ``node`` (:func:`~hyperplane.tree._scan._node_kernels.score_attributes`: in
    parallel over the attributes from :func:`parallel_rows` rows)."""
    return score_attributes(data.columns, node, rules, scan, parallel_rows(data))


class Growth(NamedTuple):
    """What a kind of tree computes at a node; :func:`grow` runs the same loop for all.

    A classifier's node statistic is its class weights (:data:`CLASS_WEIGHTS`),
    a regression tree's the moments of its targets
    (:func:`~hyperplane.tree._regressor.regression_growth`).
    """

    statistic: Callable  # (data, rows, w) -> the root's value
    weight: Callable  # value -> the node's weight
    root_reason: Callable  # (value, n_rows, rules) -> why the root is a leaf (GROW: not)
    score: Callable  # (data, node, rules, scan) -> the node's Splits
    expand: Callable  # (node, splits, columns, rules, n_stats, dest, parallel_rows) -> Children
    compiled: bool  # grown in compiled subtrees when nothing is traced or pre-pruned
    #: what the compiled growth is told of the kind of tree (:attr:`~hyperplane.tree._state.Tuning.least`)
    least: MinDecrease | None = None


#: a classifier's growth: class weights scored by the criteria of 周志华 chapter 4
CLASS_WEIGHTS = Growth(class_statistic, np.sum, root_leaf_reason, score_node, expand_node, True)


def grow(data, rules, pre_pruner=None, bar=None, tracer=None, growth=CLASS_WEIGHTS):
    """Grow the tree depth first (generate_tree, 周志华 4.1).

    Every node is scored (``growth.score``, :func:`score_node` for a
    classifier) and expanded (``growth.expand``,
    :func:`~._expand_kernels.expand_node`) from its own rows
    (:func:`node_steps`), and the growth loop :func:`grow_frontier` makes it
    a test or a leaf. ``pre_pruner.allows(node, value,
    child_values, r, test)`` may veto a split (pre-pruning);
    ``pre_pruner.adopt(node, children)`` then routes its validation rows to
    the children. ``bar.advance(weight, nodes=...)`` (a
    :func:`hyperplane._progress.progress` reporter), if given, is told the
    weight of every node that becomes a leaf; ``tracer``
    (:class:`~hyperplane.tree._inspect._trace.Tracer`) records every node. A classifier without
    pre-pruning and a tracer (and a regression tree without a tracer) is grown in
    compiled code instead
    (:func:`~._subtree.grow_subtrees`: one compiled call per subtree).
    ``data.n_classes`` is the length of a node's statistic.
    """
    rules = rules._replace(min_weight=c45_split_floor(data.kind, rules))
    compiled = (growth.compiled and tracer is None
                and compiled_growth_applies(data, pre_pruner))
    root = root_node(data, sorted_orders if np.any(data.kind == NUMERIC) else no_orders,
                     growth.statistic)
    store, frontier = plant(root, growth.weight(root.value),
                            growth.root_reason(root.value, root.rows.size, rules), bar, tracer)
    clogc = c_log2_c(root.rows.size if growth.least is None else 0)
    if compiled and frontier:
        return finalize(grow_subtrees(data, rules, store, frontier, clogc, bar, growth.least),
                        rules.criterion)
    store = grow_frontier(store, frontier, node_steps(data, rules, growth, clogc), data.kind,
                          pre_pruner, bar, tracer)
    return finish(store, rules, tracer)


class Scored(NamedTuple):
    """A frontier node after the statistic step of a grower (:func:`grow_frontier`)."""

    node_id: int  # its id in the growing NodeStore
    node: Node  # the rows that were scored and are split (a Dask node: its tables' cells)
    reason: int  # GROW: scored; else why the node is a leaf before it is scored
    splits: object  # the node's Splits (None when not scored)
    children: object  # the expansion (Children), None when no attribute is admissible


def node_steps(data, rules, growth, clogc):
    """The in-memory statistic step of :func:`grow_frontier`: each node of a
    group scored (``growth.score``) and expanded (``growth.expand``) from its
    own rows, as a :class:`Scored` (the growing store is not read)."""
    columns = data.columns
    wbuf = np.zeros(data.X.shape[0])
    dest = np.zeros(data.X.shape[0], dtype=np.int64)

    def step(group, store):
        for node_id, node in group:
            splits = growth.score(data, node, rules,
                                  Scan(wbuf, bool(np.all(node.w == 1.0)), clogc))
            children = growth.expand(node, splits, columns, rules, data.n_classes, dest,
                                     parallel_rows(data))
            yield Scored(node_id, node, GROW, splits, children)

    return step


def plant(root, weight, reason, bar=None, tracer=None, capacity=STORE_CAPACITY):
    """The growing :class:`~hyperplane.tree._state.NodeStore` of the root (of weight
    ``weight``, room for ``capacity`` nodes) and the frontier to grow:
    ``[(0, root)]``, or ``[]`` when the root is a leaf (``reason`` is not
    ``GROW``: 周志华 图4.2 lines 2-6)."""
    store = new_store(root.value, weight, 0, capacity)
    if reason == GROW:
        return store, [(0, root)]
    _settled(bar, root.w, store)
    if tracer is not None:
        tracer.leaf(0, root, reason)
    return store, []


def grow_frontier(store, frontier, step, kind, pre_pruner=None, bar=None, tracer=None,
                  batch=None):
    """The growth loop of generate_tree (周志华 图4.2) that every grower in
    Python runs: take frontier nodes, get their :class:`Scored` from
    ``step(group, store)`` (the statistic step: the one thing the growers do
    differently), make each a test with children (:func:`split_or_leaf`) and
    put the children that grow on into the frontier. Returns the grown
    :class:`~hyperplane.tree._state.NodeStore` (``store`` or a larger one).

    ``batch`` None: depth first, one node a step (in memory, :func:`node_steps`;
    ``bar`` is told the weight of every leaf); a number: level order, up to
    ``batch`` nodes a step, whose statistics one pass over the data computes
    together (Dask, :func:`~hyperplane.tree._dask._levels.level_steps`; ``bar`` advances once a
    pass). Pre-pruning's state is per node, so either order makes the same
    decisions; the grown storage is made preorder by :func:`finalize`.
    """
    while frontier:
        if batch is None:
            group = [frontier.pop()]
        else:
            group, frontier = frontier[:batch], frontier[batch:]
        for scored in step(group, store):
            store, grown = split_or_leaf(store, scored, kind, pre_pruner,
                                         bar if batch is None else None, tracer)
            frontier.extend(reversed(grown) if batch is None else grown)
        if batch is not None and bar is not None:
            bar.advance(1, nodes=store.n_nodes, frontier=len(frontier))
    return store


def split_or_leaf(store, scored, kind, pre_pruner=None, bar=None, tracer=None):
    """Settle a :class:`Scored` node: a leaf (not scored, no admissible
    attribute, or vetoed by ``pre_pruner``) or a test on the chosen attribute
    with one child per branch (:func:`~._store_kernels.attach_children`); returns
    the store and ``[(id, Node)]`` of the children that grow on
    (:func:`grown_children`)."""
    node_id, node, reason, splits, children = scored
    if reason != GROW:
        _settled(bar, node.w, store)
        if tracer is not None:
            tracer.leaf(node_id, node, reason)
        return store, []
    j = -1 if children is None else children.attribute
    test = (NodeTest(j, bool(kind[j] != CATEGORICAL), float(splits.threshold[j])) if j >= 0
            else None)
    if j >= 0 and pre_pruner is not None and not pre_pruner.allows(
            node_id, node.value, children.value, children.r, test):
        j = -1
    if tracer is not None:
        tracer.scored(node_id, node, splits, test if j >= 0 else None,
                      NO_SPLIT if test is None else PRE_PRUNED)
    if j < 0:
        _settled(bar, node.w, store)
        return store, []
    first = store.n_nodes
    store = attach_children(store, node_id, test, children.r, children.value, children.weight)
    ids = range(first, store.n_nodes)
    if pre_pruner is not None:
        pre_pruner.adopt(node_id, ids)
    return store, grown_children(node, children, ids, kind, bar, store, tracer)


def finish(store, rules, tracer=None):
    """The grown :class:`Tree`; ``tracer.trace`` gets the trace in its node ids."""
    if tracer is not None:
        tracer.trace = tracer.entries(store)
    return finalize(store, rules.criterion)


def grown_children(node, children, ids, kind, bar, store, tracer):
    """``[(id, Node)]`` of the children to grow further; the others are settled as leaves."""
    j = children.attribute
    avail = attributes_left(node.avail, j, kind[j] != CATEGORICAL)
    pending = []
    for v, child_id in enumerate(ids):
        a, b = children.offsets[v], children.offsets[v + 1]
        n_num = node.order.shape[0]
        child = new_node(children.rows[a:b], children.w[a:b],
                         child_orders.py_func(Orders(children.order, children.sorted_x),
                                              children.offsets, v, n_num),
                         node.count, children.value[v], node.depth + 1, avail,
                         child_spare.py_func(Orders(children.spare_order, children.spare_x),
                                             children.offsets, v, n_num))
        if children.reason[v] != GROW:
            if tracer is not None:
                tracer.leaf(child_id, child, children.reason[v])
            if children.reason[v] != EMPTY_BRANCH:
                _settled(bar, child.w, store)
            continue
        pending.append((child_id, child))
    return pending


def finalize(store, criterion, keep=None):
    """The fitted :class:`Tree` of a grown :class:`~hyperplane.tree._state.NodeStore`: its
    nodes in preorder (``keep``: nodes kept as internal, :func:`tree_from_arrays`)."""
    n = store.n_nodes
    return tree_from_arrays(store.feature[:n], store.is_numeric[:n], store.threshold[:n],
                            *store_links(store), store.branch_r[:n], store.value[:n],
                            store.weight[:n], store.depth[:n], criterion, keep)


def store_links(store):
    """``(child_start, n_child, children)`` of a :class:`~hyperplane.tree._state.NodeStore`'s
    nodes, as :class:`Tree` links its nodes: the children of node ``t`` are
    ``children[child_start[t]:child_start[t] + n_child[t]]`` (a store's children
    are contiguous: ``children`` is ``0, 1, ..., n_nodes − 1``)."""
    n = store.n_nodes
    return store.first_child[:n], store.n_child[:n], np.arange(n, dtype=np.int64)


def tree_from_arrays(feature, is_numeric, threshold, child_start, n_child, children, branch_r,
                     value, weight, depth, criterion, keep=None):
    """A preorder :class:`Tree` of the nodes reachable from node 0 of the given arrays.

    Nodes with ``keep[t]`` False (and leaves, ``feature[t] < 0``) end the
    descent and become leaves; impurities are recomputed from ``value``.
    """
    if keep is None:
        keep = np.ones(feature.shape[0], dtype=np.bool_)
    order, child_start, n_child, children = preorder_layout(feature, child_start, n_child,
                                                           children, keep)
    impurity = node_impurities(np.ascontiguousarray(value), order, criterion)
    internal = (feature[order] >= 0) & keep[order]
    return Tree(np.where(internal, feature[order], -1), internal & is_numeric[order],
                np.where(internal, threshold[order], np.nan), child_start, n_child, children,
                branch_r[order], np.ascontiguousarray(value[order]), weight[order], impurity,
                depth[order])
