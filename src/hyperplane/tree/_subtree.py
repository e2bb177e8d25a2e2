"""Growing the subtrees of coded-only trees in compiled code (see :mod:`._subtree_kernels`).

:func:`~._builder.grow` hands every node below ``SUBTREE_ROWS`` rows of a
tree without exact numeric attributes (``splitter="hist"``, or only
categorical attributes) to :func:`grow_subtrees`, which grows them with
:func:`~._subtree_kernels.grow_subtree` -- in a small thread pool, as the
subtrees are independent and the kernel releases the GIL -- and grafts the
results into the growing storage. The tree is the one the Python loop grows
(up to round-off of the histogram subtraction).
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ._split_kernels import CATEGORICAL, NUMERIC
from ._subtree_kernels import SORT_ROWS, SUBTRACT_ROWS, grow_subtree

#: nodes with fewer rows than this are grown by :func:`grow_subtrees`
SUBTREE_ROWS = 20000
#: threads growing subtrees side by side
WORKERS = 2


def compiled_growth_applies(data, pre_pruner):
    """Coded attributes only and no pre-pruning (which routes validation rows in Python)."""
    return pre_pruner is None and not np.any(data.kind == NUMERIC)


def _grow_one(data, params, job, clogc, tie, subtract_rows, sort_rows):
    _, rows, w, avail, value, depth = job
    return grow_subtree(data.codes_rows, data.codes_T, data.codes_count, data.kind, data.col,
                        data.edges, data.y, rows, w, avail, value, depth, data.n_classes,
                        params.criterion, params.use_ratio, float(params.max_depth),
                        float(params.min_split), float(params.min_leaf), clogc, tie,
                        subtract_rows, sort_rows)


def grow_subtrees(data, params, nodes, jobs, clogc, tie, bar=None):
    """Grow ``jobs`` = ``[(node, rows, w, avail, value, depth)]`` and graft them into ``nodes``.

    Nodes of at least ``SUBTRACT_ROWS`` rows use histogram subtraction
    (``None``: never); nodes below ``SORT_ROWS`` rows sort their codes.
    """
    workers = min(WORKERS, os.cpu_count() or 1, len(jobs))
    by_size = sorted(range(len(jobs)), key=lambda t: -jobs[t][1].size)
    subtract = np.iinfo(np.int64).max if SUBTRACT_ROWS is None else int(SUBTRACT_ROWS)
    args = (clogc, tie, subtract, int(SORT_ROWS))
    if workers > 1:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            futures = {t: pool.submit(_grow_one, data, params, jobs[t], *args)
                       for t in by_size}
            results = [futures[t].result() for t in range(len(jobs))]
    else:
        results = [_grow_one(data, params, job, *args) for job in jobs]
    for job, result in zip(jobs, results):
        leaf_weight = graft(nodes, job[0], result, data.kind)
        if bar is not None:
            bar.advance(leaf_weight, nodes=len(nodes.value))


def graft(nodes, node, result, kind):
    """Append a grown subtree (local node 0 = ``node``) to the growing storage."""
    feature, cut, first_child, n_child, branch_r, value, weight, depth, leaf_weight = result
    base = len(nodes.feature) - 1  # local node t > 0 becomes base + t
    internal = feature >= 0
    numeric = np.zeros(feature.size, dtype=bool)
    numeric[internal] = kind[feature[internal]] != CATEGORICAL
    kids = [list(range(base + s, base + s + k)) for s, k in zip(first_child.tolist(),
                                                                 n_child.tolist())]
    nodes.feature[node] = int(feature[0])
    nodes.is_numeric[node] = bool(numeric[0])
    nodes.threshold[node] = float(cut[0])
    nodes.kids[node] = kids[0]
    nodes.feature.extend(feature[1:].tolist())
    nodes.is_numeric.extend(numeric[1:].tolist())
    nodes.threshold.extend(cut[1:].tolist())
    nodes.kids.extend(kids[1:])
    nodes.branch_r.extend(branch_r[1:].tolist())
    nodes.value.extend(list(value[1:]))
    nodes.weight.extend(weight[1:].tolist())
    nodes.depth.extend(depth[1:].tolist())
    return leaf_weight
