"""Compiled per-chunk step of the Dask tree: route a chunk's rows to the frontier nodes.

One data chunk holds the coded attributes (categorical value index or hist
bin, −1 missing), class indices and weights of its rows. Every level of the
tree, each row walks the tree grown so far from the root, exactly as the
in-memory builder partitions it (周志华 4.4.2): at a test on a known value it
follows its branch; at a missing value it goes down every branch ``v`` with
weight ``r_v · w``. Each arrival at a frontier node is one entry
``(row, node, weight)``; :func:`~._table_kernels.level_class_tables`
turns the entries into the nodes' class-weight tables, which add up over
chunks.
"""

from __future__ import annotations

import numpy as np

from .._numba import jit
from ._traverse_kernels import MISSING, push_branches


@jit
def _grown(buffer, size):
    """``buffer`` copied into one twice as large (the first ``size`` entries kept)."""
    out = np.empty(2 * buffer.shape[0], dtype=buffer.dtype)
    out[:size] = buffer[:size]
    return out


@jit
def route_to_frontier(codes, w, feature, is_numeric, cut, child_start, n_child, children,
                      branch_r, slot_of, stack_size):
    """Every arrival of a chunk's rows at a frontier node.

    Parameters
    ----------
    codes : (n, p) int array, −1 missing; w : (n,) weights > 0.
    feature, is_numeric, cut, child_start, n_child, children, branch_r :
        The tree grown so far (node ids of the growing storage); ``cut[t]``
        is the bin of a numeric test (``code <= cut`` → first branch).
    slot_of : (n_nodes,) frontier slot of a node, −1 for other nodes.

    Returns
    -------
    entry_row, entry_slot, entry_w : arrays of equal length
        Row ``entry_row[e]`` reaches frontier slot ``entry_slot[e]`` with
        weight ``entry_w[e]`` (a row missing a tested value arrives once per
        branch, with its weight scaled by the ``r_v`` on the way).
    """
    capacity = codes.shape[0] + 16
    entry_row = np.empty(capacity, dtype=np.int64)
    entry_slot = np.empty(capacity, dtype=np.int64)
    entry_w = np.empty(capacity)
    m = 0
    stack_node = np.empty(stack_size, dtype=np.int64)
    stack_w = np.empty(stack_size)
    for i in range(codes.shape[0]):
        stack_node[0] = 0
        stack_w[0] = w[i]
        top = 1
        while top > 0:
            top -= 1
            node = stack_node[top]
            weight = stack_w[top]
            f = feature[node]
            if f < 0:
                s = slot_of[node]
                if s >= 0:
                    if m == entry_row.shape[0]:
                        entry_row = _grown(entry_row, m)
                        entry_slot = _grown(entry_slot, m)
                        entry_w = _grown(entry_w, m)
                    entry_row[m] = i
                    entry_slot[m] = s
                    entry_w[m] = weight
                    m += 1
                continue
            c = codes[i, f]
            if c < 0:
                branch = MISSING
            elif is_numeric[node]:
                branch = 0 if c <= cut[node] else 1
            else:
                branch = np.int64(c)
            top = push_branches(node, branch, weight, child_start, n_child, children, branch_r,
                                stack_node, stack_w, top)
    return entry_row[:m], entry_slot[:m], entry_w[:m]
