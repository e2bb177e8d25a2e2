"""Growing coded-only trees in compiled code (see :mod:`._subtree_kernels`).

:func:`~._builder.grow` hands the root of a tree without exact numeric
attributes (``splitter="hist"``, or only categorical attributes) and without
pre-pruning to :func:`grow_subtrees`, which grows it with
:func:`~._subtree_kernels.grow_subtree` down to the nodes below
``SUBTREE_ROWS`` rows, then grows those subtrees in a small thread pool (they
are independent and the kernel releases the GIL), and grafts every result
into the growing storage. The tree is the one the Python loop grows (up to
round-off of the histogram subtraction).
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ._split_kernels import CATEGORICAL, NUMERIC
from ._state import Tuning
from ._subtree_kernels import SORT_ROWS, SUBTRACT_ROWS, grow_subtree

#: subtrees below this many rows are grown side by side in threads
SUBTREE_ROWS = 20000
#: threads growing subtrees side by side
WORKERS = 2


def compiled_growth_applies(data, pre_pruner):
    """Coded attributes only and no pre-pruning (which routes validation rows in Python)."""
    return pre_pruner is None and not np.any(data.kind == NUMERIC)


def _grow_one(data, rules, job, tuning):
    return grow_subtree(data.columns, job[1], rules, tuning)


def grow_subtrees(data, rules, nodes, jobs, clogc, bar=None):
    """Grow ``jobs`` = ``[(node id, Node)]`` and graft them into ``nodes``.

    A job of at least ``SUBTREE_ROWS`` rows is grown down to the nodes below
    ``SUBTREE_ROWS`` rows, which are then grown side by side in ``WORKERS``
    threads. Nodes of at least ``SUBTRACT_ROWS`` rows use histogram
    subtraction (``None``: never); nodes below ``SORT_ROWS`` rows sort their codes.
    """
    subtract = np.iinfo(np.int64).max if SUBTRACT_ROWS is None else int(SUBTRACT_ROWS)
    tuning = Tuning(clogc, subtract, int(SORT_ROWS), 0)
    small = []
    for job in jobs:
        if job[1].rows.size < SUBTREE_ROWS:
            small.append(job)
            continue
        result, (ids, deferred) = _grow_one(data, rules, job, tuning._replace(
            defer_rows=SUBTREE_ROWS))
        base = _graft_and_report(nodes, job[0], result, data.kind, bar)
        small.extend((job[0] if t == 0 else base + t, node) for t, node in zip(ids, deferred))
    workers = min(WORKERS, os.cpu_count() or 1, len(small))
    if workers > 1:
        by_size = sorted(range(len(small)), key=lambda t: -small[t][1].rows.size)
        with ThreadPoolExecutor(max_workers=workers) as pool:
            futures = {t: pool.submit(_grow_one, data, rules, small[t], tuning) for t in by_size}
            results = [futures[t].result()[0] for t in range(len(small))]
    else:
        results = [_grow_one(data, rules, job, tuning)[0] for job in small]
    for job, result in zip(small, results):
        _graft_and_report(nodes, job[0], result, data.kind, bar)


def _graft_and_report(nodes, node, result, kind, bar):
    base = graft(nodes, node, result, kind)
    if bar is not None:
        bar.advance(result[-1], nodes=len(nodes.value))
    return base


def graft(nodes, node, result, kind):
    """Append a grown subtree (local node 0 = ``node``) to the growing storage;
    local node ``t > 0`` becomes ``base + t``, ``base`` is returned."""
    feature, cut, first_child, n_child, branch_r, value, weight, depth, _ = result
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
    return base
