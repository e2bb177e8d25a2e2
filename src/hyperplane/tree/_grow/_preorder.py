"""A grown tree's nodes renumbered in preorder (depth first, children in branch order).

Plain NumPy, one step per level of the tree: the renumbering runs once per fit
over the nodes (not the rows), and a compiled kernel for it cost every first fit
~0.6 CPU s of compilation. Node ``t``'s new id is the number of nodes before it
in preorder: its parent's id, plus one, plus the sizes of the subtrees of the
siblings before it.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class PreorderLayout(NamedTuple):
    """A tree's kept nodes renumbered in preorder: ``order`` (old id of each
    new node) and the new ``child_start``, ``n_child`` and ``children``."""
    order: np.ndarray
    child_start: np.ndarray
    n_child: np.ndarray
    children: np.ndarray


def _ranges(start, count):
    """``start[i], ..., start[i] + count[i] − 1`` for every ``i``, one after the other."""
    ends = np.cumsum(count)
    return np.repeat(start - (ends - count), count) + np.arange(ends[-1] if ends.size else 0)


def preorder_layout(feature, child_start, n_child, children, keep):
    """Renumber the nodes reachable from the root in preorder (children in branch order).

    The descent stops at leaves (``feature[t] < 0``) and at nodes with
    ``keep[t]`` False (they become leaves). The children of node ``t`` are
    ``children[child_start[t]:child_start[t] + n_child[t]]``. Returns the
    :class:`PreorderLayout`: ``order[i]`` is the old id of new node ``i``.
    """
    split = (feature >= 0) & keep
    levels, parents = [], []  # the nodes of each depth, and those of them that are split
    level = np.zeros(1, dtype=np.int64)
    while level.size:
        levels.append(level)
        parents.append(level[split[level]])
        level = children[_ranges(child_start[parents[-1]], n_child[parents[-1]])].astype(np.int64)
    size = np.ones(feature.shape[0], dtype=np.int64)  # subtree sizes, from the deepest level up
    for depth in range(len(levels) - 2, -1, -1):
        kids_of = np.repeat(np.arange(parents[depth].size), n_child[parents[depth]])
        size[parents[depth]] += np.bincount(kids_of, weights=size[levels[depth + 1]],
                                            minlength=parents[depth].size).astype(np.int64)
    new_id = np.full(feature.shape[0], -1, dtype=np.int64)
    new_id[0] = 0
    for depth in range(len(levels) - 1):
        kids, counts = levels[depth + 1], n_child[parents[depth]]
        before = np.cumsum(size[kids]) - size[kids]  # nodes of the earlier subtrees of this level
        first = np.repeat(np.cumsum(counts) - counts, counts)  # each kid's first sibling
        new_id[kids] = np.repeat(new_id[parents[depth]], counts) + 1 + before - before[first]
    reached = np.concatenate(levels)
    order = np.empty(reached.size, dtype=np.int64)
    order[new_id[reached]] = reached
    new_n = np.where(split[order], n_child[order], 0).astype(np.int64)
    new_start = np.where(split[order], np.cumsum(new_n) - new_n, 0).astype(np.int64)
    inner = order[split[order]]
    new_children = new_id[children[_ranges(child_start[inner], n_child[inner])]]
    return PreorderLayout(order, new_start, new_n, new_children)
