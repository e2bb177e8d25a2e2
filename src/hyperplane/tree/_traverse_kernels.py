"""Compiled routing of samples through a node and through a fitted tree.

* :func:`branch_of_rows` / :func:`partition_node` send a node's rows to its
  branches (周志华 4.4.2: a row missing the tested value goes down every
  branch with weight ``r_v · w``) and split the presorted orders (and sorted
  values) of the exact numeric attributes without re-sorting them.
* :func:`tree_proba` walks a fitted tree; a sample missing the tested value
  combines the branches' class distributions with weights ``r_v`` (C4.5).
"""

from __future__ import annotations

import numpy as np

from numba import prange

from .._numba import (jit, jit_inline, jit_internal, jit_parallel_exact, jit_parallel_exact_internal, jit_twin)
from .._lowered import empty
from ._scan._loops_kernels import filled, filled_rows
from ._state import Orders, Partition, RowWeights, Walk

MISSING = -1


@jit_inline
def numeric_cut(x, threshold):
    """Branch of a known numeric value: ``x <= t`` is the first (周志华 4.4.1).
    Inlined: a unit of its own was compiled once for float values and once for
    bin codes."""
    return 0 if x <= threshold else 1


@jit_twin
def branch_of_rows(values, rows, kind_numeric, threshold):
    """Branch index of each row: ``x <= t`` → 0, else 1 (numeric); the code (categorical).

    A missing value (NaN, or code −1 for coded columns) gives ``MISSING``.
    """
    m = rows.shape[0]
    out = empty(m, np.int64)
    for pos in range(m):
        x = values[rows[pos]]
        if np.isnan(x):
            out[pos] = MISSING
        elif kind_numeric:
            out[pos] = numeric_cut(x, threshold)
        else:
            out[pos] = np.int64(x)
    return out


@jit_internal
def partition_rows(rows, w, branch, r):
    """Split a node's rows (int64 row ids, as every node's) and weights into its
    branches (keeping their order).

    ``branch[pos]`` is the branch of ``rows[pos]`` (``MISSING``: every branch,
    with weight ``r[v] * w``). Returns ``(child_rows, child_w, offsets)``;
    child ``v`` owns the slice ``offsets[v]:offsets[v + 1]``.
    """
    offsets = branch_offsets(branch, r.shape[0])
    child_rows = empty(offsets[-1], np.int64)
    child_w = empty(offsets[-1], np.float64)
    deal_rows(rows, w, branch, r, offsets, child_rows, child_w)
    return child_rows, child_w, offsets


@jit_inline
def branch_offsets(branch, n_branches):
    """Where each branch's rows start when the branches are laid out one after the
    other (a row missing the tested value, ``MISSING``, is in every branch).
    Inlined, as :func:`deal_rows`: :func:`partition_rows` is their one caller
    in a fit that runs on one thread (a unit each cost a whole compilation)."""
    sizes = filled(empty(n_branches, np.int64), 0)
    n_missing = 0
    for pos in range(branch.shape[0]):
        b = branch[pos]
        if b == MISSING:
            n_missing += 1
        else:
            sizes[b] += 1
    offsets = filled(empty(n_branches + 1, np.int64), 0)
    for v in range(n_branches):
        offsets[v + 1] = offsets[v] + sizes[v] + n_missing
    return offsets


@jit_inline
def deal_rows(rows, w, branch, r, offsets, child_rows, child_w):
    """Rows and weights dealt to the branches laid out at ``offsets``, keeping their
    order; a row missing the tested value goes to every branch ``v`` with weight ``r[v] * w``."""
    n_branches = r.shape[0]
    cursor = offsets[:-1].copy()
    for pos in range(rows.shape[0]):
        b = branch[pos]
        if b == MISSING:
            for v in range(n_branches):
                child_rows[cursor[v]] = rows[pos]
                child_w[cursor[v]] = r[v] * w[pos]
                cursor[v] += 1
        else:
            child_rows[cursor[b]] = rows[pos]
            child_w[cursor[b]] = w[pos]
            cursor[b] += 1


@jit_twin
def partition_node(rows, w, branch, r, presorted, spare, dest, parallel_rows):
    """Split a node's rows, weights and presorted orders into its branches.

    :func:`partition_rows`, plus the node's :class:`~._state.Orders`
    ``presorted``: ``order`` (one row per exact numeric attribute) and the
    values ``sorted_x`` in that order: each child's are
    the parent's filtered in place, so they stay sorted. They are written
    child after child into one flat array each, so that child ``v``'s are
    contiguous (:func:`child_orders`, no copy): into the node's ``spare``
    region (flat :class:`~._state.Orders`) when it holds them
    (:func:`children_regions`). ``dest`` is scratch indexed by row
    (``None``: a tree without exact numeric attributes, whose partition numba
    compiles without the orders' code).
    From ``parallel_rows`` rows (``None``: never) the attributes are split
    side by side, the rows beside them (:func:`split_orders_parallel`; the
    same arrays). Returns the :class:`~._state.Partition`; child ``v`` owns
    the slice ``offsets[v]:offsets[v + 1]`` of the rows and
    ``child_spare(Orders(spare_order, spare_x), offsets, v, n_num)`` as its own
    spare region.
    """
    if dest is None:  # no exact numeric attribute: the orders are empty
        child_rows, child_w, offsets = partition_rows(rows, w, branch, r)
        return Partition(child_rows, child_w, spare.order[:0], spare.sorted_x[:0], offsets,
                         spare.order[:0], spare.sorted_x[:0])
    order = presorted.order
    m = rows.shape[0]
    n_num = order.shape[0]
    if n_num == 0:  # no exact numeric attribute: ``dest`` may be empty
        child_rows, child_w, offsets = partition_rows(rows, w, branch, r)
        children, child_spare = children_regions(presorted, spare, offsets[-1])
        return Partition(child_rows, child_w, children.order, children.sorted_x, offsets,
                         child_spare.order, child_spare.sorted_x)
    for pos in range(m):
        dest[rows[pos]] = branch[pos]
    if parallel_rows is not None and m >= parallel_rows:
        offsets = branch_offsets(branch, r.shape[0])
        dealt = RowWeights(empty(offsets[-1], np.int64),
                           empty(offsets[-1], np.float64))
        children, child_spare = children_regions(presorted, spare, offsets[-1])
        split_orders_parallel(presorted, dest, offsets, children, RowWeights(rows, w),
                              branch, r, dealt)
        child_rows, child_w = dealt.rows, dealt.w
    else:
        child_rows, child_w, offsets = partition_rows(rows, w, branch, r)
        children, child_spare = children_regions(presorted, spare, offsets[-1])
        for f in range(n_num):
            split_order(order[f], presorted.sorted_x[f], dest, block_starts(offsets, n_num, f),
                        children.order, children.sorted_x)
    return Partition(child_rows, child_w, children.order, children.sorted_x, offsets,
                     child_spare.order, child_spare.sorted_x)


@jit_internal
def children_regions(presorted, spare, total):
    """Where a node's children's orders and values go, and their own spare
    regions (two flat :class:`~._state.Orders`).

    A tree grows with two buffers of orders (and two of values): a node's
    ``presorted`` orders and values fill a region of one, its ``spare`` is the
    same region of the other. When the children hold the node's rows
    (``total`` of them, no more) they are written into the spare region and
    take the node's own region, free once they are written, as their spare.
    Nodes waiting to be grown never share a region (a child's lies inside
    its parent's, siblings' are disjoint), so nothing is allocated while the
    tree grows. Children holding more rows (a row missing the tested value
    goes down every branch) get fresh arrays, and no spare region.
    """
    order, sorted_x = presorted.order, presorted.sorted_x
    n_num, m = order.shape
    if (total == m and spare.order.shape[0] == n_num * m
            and spare.sorted_x.shape[0] == n_num * m):
        return spare, Orders(order.reshape(n_num * m), sorted_x.reshape(n_num * m))
    return (Orders(empty(n_num * total, order.dtype),
                   empty(n_num * total, np.float64)),
            Orders(spare.order[:0], spare.sorted_x[:0]))


@jit_inline
def child_spare(flat, offsets, v, n_num):
    """Child ``v``'s part of flat :class:`~._state.Orders` laid out as
    :func:`partition_node` writes its children (views; empty when ``flat`` is).
    Inlined, one rule for the orders and the values (a unit per array type
    compiled it twice)."""
    lo, hi = n_num * offsets[v], n_num * offsets[v + 1]
    return Orders(flat.order[lo:hi], flat.sorted_x[lo:hi])


@jit_inline
def block_starts(offsets, n_num, f):
    """Where attribute ``f`` of each child starts in a flat array that holds
    the children one after the other, each as ``n_num`` rows of its size."""
    n_branches = offsets.shape[0] - 1
    starts = empty(n_branches, np.int64)
    for v in range(n_branches):
        starts[v] = n_num * offsets[v] + f * (offsets[v + 1] - offsets[v])
    return starts


@jit_inline
def child_orders(flat, offsets, v, n_num):
    """Child ``v``'s ``(n_num, size)`` blocks of the flat :class:`~._state.Orders`
    that :func:`partition_node` filled (views; inlined, as :func:`child_spare`)."""
    a, b = offsets[v], offsets[v + 1]
    return Orders(flat.order[n_num * a:n_num * b].reshape((n_num, b - a)),
                  flat.sorted_x[n_num * a:n_num * b].reshape((n_num, b - a)))


@jit_inline
def split_order(order, xs, dest, cursor, out, out_x):
    """One attribute's sorted rows ``order`` and values ``xs`` dealt to the
    branches ``dest[i]`` of the rows (``MISSING``: every branch), keeping their
    order; branch ``v`` fills ``out`` (and ``out_x``) from ``cursor[v]`` on
    (``cursor`` is advanced). Inlined, as :func:`block_starts`: a fit on one
    thread calls them at one place of :func:`partition_node`."""
    n_branches = cursor.shape[0]
    for pos in range(order.shape[0]):
        i = order[pos]
        b = dest[i]
        if b == MISSING:
            for v in range(n_branches):
                out[cursor[v]] = i
                out_x[cursor[v]] = xs[pos]
                cursor[v] += 1
        else:
            out[cursor[b]] = i
            out_x[cursor[b]] = xs[pos]
            cursor[b] += 1


@jit_parallel_exact_internal
def split_orders_parallel(presorted, dest, offsets, children, node_rows, branch, r, dealt):
    """:func:`split_order` of every attribute of the :class:`~._state.Orders`
    ``presorted`` into the flat :class:`~._state.Orders` ``children``, the
    attributes side by side, and beside them the :class:`~._state.RowWeights`
    ``node_rows`` (:func:`deal_rows` into the children's ``dealt``)."""
    order, sorted_x = presorted.order, presorted.sorted_x
    out, out_x = children.order, children.sorted_x
    rows, w = node_rows.rows, node_rows.w
    child_rows, child_w = dealt.rows, dealt.w
    n_num = order.shape[0]
    for f in prange(n_num + 1):
        if f == n_num:
            deal_rows(rows, w, branch, r, offsets, child_rows, child_w)
        else:
            split_order(order[f], sorted_x[f], dest, block_starts(offsets, n_num, f), out,
                        out_x)


@jit_internal
def push_branches(node, branch, weight, tree, walk, top):
    """Push the child(ren) a sample follows from ``node`` onto the stack ``walk``;
    return the new top.

    ``branch`` is the branch index, or ``MISSING``: then every branch ``v``
    with ``r_v > 0`` is pushed with weight ``r_v · weight`` (C4.5, 周志华 4.4.2).
    """
    start = tree.child_start[node]
    if branch == MISSING:
        for v in range(tree.n_child[node]):
            child = tree.children[start + v]
            if tree.branch_r[child] > 0.0:
                walk.node[top] = child
                walk.w[top] = weight * tree.branch_r[child]
                top += 1
        return top
    walk.node[top] = tree.children[start + branch]
    walk.w[top] = weight
    return top + 1


@jit_internal
def start_walk(walk, weight):
    """Put the root on the stack ``walk`` with the sample's weight; the new top."""
    walk.node[0] = 0
    walk.w[0] = weight
    return 1


@jit_internal
def next_leaf(x, tree, walk, top):
    """Walk a sample ``x`` (NaN: missing) down ``tree`` to its next leaf.

    Returns ``(leaf, weight, top)``; ``leaf`` −1 when every leaf it reaches
    has been returned. A missing tested value sends the sample down every
    branch with weight ``r_v · weight`` (:func:`push_branches`).
    """
    while top > 0:
        top -= 1
        node = walk.node[top]
        weight = walk.w[top]
        f = tree.feature[node]
        if f < 0:
            return node, weight, top
        value = x[f]
        branch = MISSING if np.isnan(value) else known_branch(value, tree, node)
        top = push_branches(node, branch, weight, tree, walk, top)
    return -1, 0.0, 0


@jit_inline
def known_branch(value, tree, node):
    """Branch of ``node`` a known tested ``value`` takes: :func:`numeric_cut` of
    a numeric test, else the value's code (inlined: one rule for every walk)."""
    if tree.is_numeric[node]:
        return numeric_cut(value, tree.threshold[node])
    return np.int64(value)


@jit_inline
def known_leaf(x, tree):
    """Leaf a row ``x`` reaches down ``tree`` (:func:`known_branch` at every
    test), −1 at the first tested value that is missing (NaN)."""
    node = 0
    while tree.feature[node] >= 0:
        value = x[tree.feature[node]]
        if np.isnan(value):
            return -1
        node = tree.children[tree.child_start[node] + known_branch(value, tree, node)]
    return node


@jit_inline
def known_row_proba(x, tree, leaf_proba, out):
    """Class distribution of a row ``x`` with no tested value missing, added
    into ``out``: it reaches one leaf (:func:`known_leaf`) with weight 1.
    Inlined into the prediction loops, which call it when ``stack_size`` is
    None, so that a NaN-free prediction (the CLI's training score) compiles no
    unit per row and no walk of the branches (:func:`row_proba`)."""
    add_leaf(out, 1.0, leaf_proba, known_leaf(x, tree))


@jit_internal
def row_proba(x, tree, leaf_proba, stack_size, out):
    """Class distribution of one row ``x`` (encoded; NaN = missing or unseen),
    added into ``out``: the leaves' distributions mixed by the weights the row
    reaches them with (C4.5's weighted branches, :func:`next_leaf`).
    ``stack_size`` bounds the pending branches (depth × widest fan-out + 1)."""
    walk = Walk(empty(stack_size, np.int64), empty(stack_size, np.float64))
    leaf, weight, top = next_leaf(x, tree, walk, start_walk(walk, 1.0))
    while leaf >= 0:
        add_leaf(out, weight, leaf_proba, leaf)
        leaf, weight, top = next_leaf(x, tree, walk, top)


@jit_inline
def add_leaf(out, weight, leaf_proba, leaf):
    """``out += weight · leaf_proba[leaf]``: a leaf's distribution mixed into a row's."""
    for k in range(out.shape[0]):
        out[k] += weight * leaf_proba[leaf, k]


@jit
def tree_proba(X, tree, leaf_proba, stack_size):
    """The class distribution of every row of ``X``, one after the other (a
    prediction of few rows: no parallel region is compiled for it).
    ``stack_size`` is None when no row of the call misses a value
    (:func:`known_row_proba`, the branch numba keeps for a None argument),
    else :func:`row_proba`'s bound of the walk."""
    out = filled_rows(empty((X.shape[0], leaf_proba.shape[1]), np.float64), 0.0)
    for i in range(X.shape[0]):
        if stack_size is None:
            known_row_proba(X[i], tree, leaf_proba, out[i])
        else:
            row_proba(X[i], tree, leaf_proba, stack_size, out[i])
    return out


@jit_parallel_exact
def tree_proba_parallel(X, tree, leaf_proba, stack_size):
    """:func:`tree_proba` with the rows side by side (the same numbers: each
    row's distribution is summed alone)."""
    out = np.zeros((X.shape[0], leaf_proba.shape[1]), dtype=np.float64)
    for i in prange(X.shape[0]):
        if stack_size is None:
            known_row_proba(X[i], tree, leaf_proba, out[i])
        else:
            row_proba(X[i], tree, leaf_proba, stack_size, out[i])
    return out


@jit_parallel_exact
def tree_apply(X, tree):
    """Leaf reached by every row with no missing tested value (−1 if one is missing)."""
    n = X.shape[0]
    out = empty(n, np.int64)
    for i in prange(n):
        out[i] = known_leaf(X[i], tree)
    return out
