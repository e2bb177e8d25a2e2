"""Compiled per-chunk step of the Dask tree: route a chunk's rows to the frontier nodes.

One data chunk holds the coded attributes (categorical value index or hist
bin, −1 missing), class indices and weights of its rows. Every level of the
tree, each row walks the tree grown so far from the root
(:func:`~hyperplane.tree._traverse_kernels.next_leaf`, the walk of prediction), exactly as
the in-memory builder partitions it (周志华 4.4.2): at a test on a known value
it follows its branch; at a missing value it goes down every branch ``v``
with weight ``r_v · w``. Each arrival at a frontier node is one entry
``(row, node, weight)``; :func:`~hyperplane.tree._scan._table_kernels.level_class_tables`
turns the entries into the nodes' class-weight tables, which add up over
chunks.
"""

from __future__ import annotations

import numpy as np

from ..._numba import jit
from ..._lowered import empty
from .._state import Walk
from .._traverse_kernels import next_leaf, start_walk


@jit
def _grown(buffer, size):
    """``buffer`` copied into one twice as large (the first ``size`` entries kept)."""
    out = empty(2 * buffer.shape[0], buffer.dtype)
    for t in range(size):
        out[t] = buffer[t]
    return out


@jit
def route_to_frontier(codes, w, tree, slot_of, stack_size):
    """Every arrival of a chunk's rows at a frontier node.

    Parameters
    ----------
    codes : (n, p) int array, −1 missing; w : (n,) weights > 0.
    tree : :class:`~hyperplane.tree._state.TreeArrays`
        The tree grown so far (node ids of the growing storage);
        ``threshold[t]`` is the bin of a numeric test (``code <= cut`` →
        first branch).
    slot_of : (n_nodes,) frontier slot of a node, −1 for other nodes.

    Returns
    -------
    entry_row, entry_slot, entry_w : arrays of equal length
        Row ``entry_row[e]`` reaches frontier slot ``entry_slot[e]`` with
        weight ``entry_w[e]`` (a row missing a tested value arrives once per
        branch, with its weight scaled by the ``r_v`` on the way).
    """
    capacity = codes.shape[0] + 16
    entry_row = empty(capacity, np.int64)
    entry_slot = empty(capacity, np.int64)
    entry_w = empty(capacity, np.float64)
    m = 0
    walk = Walk(empty(stack_size, np.int64), empty(stack_size, np.float64))
    x = empty(codes.shape[1], np.float64)
    for i in range(codes.shape[0]):
        for f in range(codes.shape[1]):
            x[f] = np.nan if codes[i, f] < 0 else codes[i, f]
        leaf, weight, top = next_leaf(x, tree, walk, start_walk(walk, w[i]))
        while leaf >= 0:
            s = slot_of[leaf]
            if s >= 0:
                if m == entry_row.shape[0]:
                    entry_row = _grown(entry_row, m)
                    entry_slot = _grown(entry_slot, m)
                    entry_w = _grown(entry_w, m)
                entry_row[m] = i
                entry_slot[m] = s
                entry_w[m] = weight
                m += 1
            leaf, weight, top = next_leaf(x, tree, walk, top)
    return entry_row[:m], entry_slot[:m], entry_w[:m]
