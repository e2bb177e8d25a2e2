"""Growing trees in compiled code (see :mod:`._subtree_kernels`).

:func:`~._builder.grow` hands the root of a tree without pre-pruning (and
without a per-node trace) to :func:`grow_subtrees`, which grows it with
:func:`~._subtree_kernels.grow_subtree` down to the nodes below
:func:`subtree_rows` rows, then grows those subtrees side by side in a thread
pool of numba's thread count (they are independent and the kernel releases
the GIL), and grafts every result into the growing storage. The tree is the
one the Python loop grows: bit for bit with exact numeric attributes, up to
round-off of the histogram subtraction for coded-only trees.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import threading

import numba
import numpy as np

from ._node_kernels import PARALLEL_ROWS
from ._split_kernels import CATEGORICAL, NUMERIC
from ._state import Tuning, Workspace
from ._subtree_kernels import SORT_ROWS, SUBTRACT_ROWS, grow_subtree

#: subtrees below this many rows are grown side by side in threads (at most
#: ``PARALLEL_ROWS``: those threads never start numba's parallel loops) ...
SUBTREE_ROWS = 20000
#: ... or, in trees with exact numeric attributes, below fewer rows, down to
#: this many, when the threads would otherwise get fewer than
#: ``JOBS_PER_THREAD`` subtrees each (:func:`subtree_rows`)
MIN_SUBTREE_ROWS = 2000
JOBS_PER_THREAD = 4


def subtree_rows(n_rows, threads, exact):
    """Nodes below this many rows become jobs grown side by side.

    ``SUBTREE_ROWS``; for a tree with exact numeric attributes
    ``n_rows / (JOBS_PER_THREAD · threads)`` when that is smaller (not below
    ``MIN_SUBTREE_ROWS``), so that many threads get jobs small enough to share
    the work evenly: larger nodes are grown one at a time with their
    attributes scored and partitioned in parallel, work that grows with the
    node's rows times its attributes. A coded-only node (histogram
    subtraction) costs too little to share, so those trees keep
    ``SUBTREE_ROWS``.
    """
    if not exact:
        return SUBTREE_ROWS
    return int(min(SUBTREE_ROWS, max(MIN_SUBTREE_ROWS, n_rows // (JOBS_PER_THREAD * threads))))


def compiled_growth_applies(data, pre_pruner):
    """No pre-pruning (which routes validation rows in Python)."""
    return pre_pruner is None


def workspace(data):
    """Row-indexed scratch of one growing thread (none without exact numeric attributes).

    The branch of each row (``dest``) is held in the smallest integer type
    that holds every branch index: the partition reads it once per row and
    attribute in sorted order, so a small type keeps it in cache.
    """
    n = data.X.shape[0] if np.any(data.kind == NUMERIC) else 0
    branches = int(data.n_codes[data.kind == CATEGORICAL].max(initial=2))
    dest_type = np.int8 if branches <= np.iinfo(np.int8).max else np.int64
    return Workspace(np.zeros(n), np.zeros(n, dtype=dest_type))


def _grow_one(data, rules, job, tuning, space):
    return grow_subtree(data.columns, job[1], rules, tuning, space)


def grow_subtrees(data, rules, nodes, jobs, clogc, bar=None):
    """Grow ``jobs`` = ``[(node id, Node)]`` and graft them into ``nodes``.

    A job of at least :func:`subtree_rows` rows is grown down to the nodes
    below that many rows (scoring and partitioning the attributes of
    its nodes in parallel), which are then grown side by side in
    ``numba.get_num_threads()`` threads (numba's default: every core). Nodes
    of at least ``SUBTRACT_ROWS`` rows use histogram subtraction (``None``:
    never); nodes below ``SORT_ROWS`` rows sort their codes.
    """
    subtract = np.iinfo(np.int64).max if SUBTRACT_ROWS is None else int(SUBTRACT_ROWS)
    serial = np.iinfo(np.int64).max
    tuning = Tuning(clogc, subtract, int(SORT_ROWS), 0, serial)
    defer = subtree_rows(sum(job[1].rows.size for job in jobs), numba.get_num_threads(),
                         bool(np.any(data.kind == NUMERIC)))
    small = []
    for job in jobs:
        if job[1].rows.size < defer:
            small.append(job)
            continue
        result, (ids, deferred) = _grow_one(data, rules, job, tuning._replace(
            defer_rows=defer, parallel_rows=min(defer, PARALLEL_ROWS)), workspace(data))
        base = _graft_and_report(nodes, job[0], result, data.kind, bar)
        small.extend((job[0] if t == 0 else base + t, node) for t, node in zip(ids, deferred))
    results = _grow_side_by_side(data, rules, small, tuning)
    for job, result in zip(small, results):
        _graft_and_report(nodes, job[0], result, data.kind, bar)


def _grow_side_by_side(data, rules, jobs, tuning):
    """The subtrees of ``jobs``, largest first, in ``numba.get_num_threads()``
    threads (each with its own :func:`workspace`); results in job order."""
    workers = min(numba.get_num_threads(), len(jobs))
    if workers <= 1:
        space = workspace(data)
        return [_grow_one(data, rules, job, tuning, space)[0] for job in jobs]
    local = threading.local()

    def grow_job(job):
        if not hasattr(local, "space"):
            local.space = workspace(data)
        return _grow_one(data, rules, job, tuning, local.space)[0]

    by_size = sorted(range(len(jobs)), key=lambda t: -jobs[t][1].rows.size)
    with ThreadPoolExecutor(max_workers=workers) as pool:
        futures = {t: pool.submit(grow_job, jobs[t]) for t in by_size}
        return [futures[t].result() for t in range(len(jobs))]


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
