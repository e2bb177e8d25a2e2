"""Compiled per-chunk step of the Dask tree: route rows to the frontier, add up node tables.

One data chunk holds the coded attributes (categorical value index or hist
bin, −1 missing), class indices and weights of its rows. Every level of the
tree, each row walks the tree grown so far from the root, exactly as the
in-memory builder partitions it (周志华 4.4.2): at a test on a known value it
follows its branch; at a missing value it goes down every branch ``v`` with
weight ``r_v · w``. Where it reaches a frontier node it adds its weight to
that node's class-weight table of every available attribute (the tables of
:mod:`hyperplane.tree._split_kernels`, last row = missing) and counts itself.
Tables of chunks add up, so the client sums them and scores the sum.
"""

from __future__ import annotations

import numpy as np

from .._numba import jit
from ..tree._traverse_kernels import MISSING, push_branches


@jit
def _add_row(codes_i, y_i, weight, slot, avail, offset, n_codes, out):
    """Add one routed row (weight ``weight``) to the tables of frontier ``slot``."""
    n_classes = out.shape[2] - 1
    for j in range(codes_i.shape[0]):
        if avail[slot, j]:
            c = codes_i[j]
            if c < 0:
                c = n_codes[j]
            out[slot, offset[j] + c, y_i] += weight
            out[slot, offset[j] + c, n_classes] += 1.0


@jit
def level_tables(codes, y, w, feature, is_numeric, cut, child_start, n_child, children,
                 branch_r, slot_of, avail, offset, n_codes, n_slots, n_classes, stack_size):
    """Class-weight tables of the frontier nodes over one chunk.

    Parameters
    ----------
    codes : (n, p) int array, −1 missing; y : (n,) class index; w : (n,) weights > 0.
    feature, is_numeric, cut, child_start, n_child, children, branch_r :
        The tree grown so far (node ids of the growing storage); ``cut[t]``
        is the bin of a numeric test (``code <= cut`` → first branch).
    slot_of : (n_nodes,) frontier slot of a node, −1 for other nodes.
    avail : (n_slots, p) attributes to tabulate at each frontier node.
    offset, n_codes : attribute ``j`` owns table rows ``offset[j] .. offset[j] + n_codes[j]``
        (the last one for a missing value).

    Returns
    -------
    out : (n_slots, offset[-1], n_classes + 1)
        ``out[s, offset[j] + v, k]``: weight of class ``k`` with value ``v``;
        ``out[s, offset[j] + v, n_classes]``: number of rows.
    """
    out = np.zeros((n_slots, offset[offset.shape[0] - 1], n_classes + 1))
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
                    _add_row(codes[i], y[i], weight, s, avail, offset, n_codes, out)
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
    return out
