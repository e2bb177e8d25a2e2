"""Growing trees in compiled code (see :mod:`._subtree_kernels`).

:func:`~._builder.grow` hands the root of a tree without pre-pruning (and
without a per-node trace) to :func:`grow_subtrees`, which grows it with
:func:`~._subtree_kernels.grow_subtree` down to the nodes below
:func:`subtree_rows` rows, then grows those subtrees side by side in a thread
pool of numba's thread count (they are independent and the kernel releases
the GIL; on many threads a hist tree's larger jobs hand their smaller nodes on
as further jobs, :func:`job_split_rows`), and grafts every result into the
growing storage (:func:`~._store_kernels.graft`, one compiled copy per job). The tree is the
one the Python loop grows: bit for bit with exact numeric attributes, up to
round-off of the histogram subtraction for coded-only trees.
"""

from __future__ import annotations

import heapq
import itertools
import threading
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from typing import NamedTuple

import numba
import numpy as np

from .._scan._hist_node_kernels import new_scratch
from .._scan._node_kernels import PARALLEL_ROWS
from .._scan._split_kernels import BINNED, CATEGORICAL, NUMERIC
from .._state import Node, NodeStore, Tables, Tuning, Workspace, new_store
from ._store_kernels import graft
from ._class_tables_kernels import NO_TABLES, SORT_ROWS, SUBTRACT_ROWS, Handoff
from ._subtree_kernels import grow_subtree

#: subtrees below this many rows are grown side by side in threads (at most
#: ``PARALLEL_ROWS``: those threads never start numba's parallel loops) ...
SUBTREE_ROWS = 20000
#: ... or, in trees with exact numeric attributes, below fewer rows, down to
#: this many, when the threads would otherwise get fewer than
#: ``JOBS_PER_THREAD`` subtrees each (:func:`subtree_rows`)
MIN_SUBTREE_ROWS = 2000
JOBS_PER_THREAD = 4
#: a split job defers only its nodes of at least ``1 / SPLIT_FRACTION`` of
#: :func:`job_split_rows` rows (smaller ones cost less than a job's start)
SPLIT_FRACTION = 16
#: from this many threads the top's large nodes count their tables in parallel
PARALLEL_TABLE_THREADS = 4
#: room for this many nodes in a job's store at first (it doubles when full)
STORE_CAPACITY = 64


def subtree_rows(n_rows, threads, exact):
    """Nodes below this many rows become jobs grown side by side.

    ``SUBTREE_ROWS``; for a tree with exact numeric attributes
    ``n_rows / (JOBS_PER_THREAD · threads)`` when that is smaller (not below
    ``MIN_SUBTREE_ROWS``), so that many threads get jobs small enough to share
    the work evenly: larger nodes are grown one at a time with their
    attributes scored and partitioned in parallel, work that grows with the
    node's rows times its attributes. A coded-only node (histogram
    subtraction) costs too little to share one at a time, so those trees keep
    ``SUBTREE_ROWS`` and split their jobs instead (:func:`job_split_rows`).
    """
    if not exact:
        return SUBTREE_ROWS
    return int(min(SUBTREE_ROWS, max(MIN_SUBTREE_ROWS, n_rows // (JOBS_PER_THREAD * threads))))


def table_groups(threads):
    """Column groups side by side in a large node's table kernels: one per thread
    from ``PARALLEL_TABLE_THREADS`` threads, else 1 (the serial kernels).

    The top's nodes cost a few milliseconds each; on two threads their share
    of a fit is small and a parallel region per node waits for a core that a
    loaded machine may not give back at once.
    """
    return threads if threads >= PARALLEL_TABLE_THREADS else 1


def job_split_rows(n_rows, threads, exact):
    """Jobs of at least this many rows hand their nodes below it on as further jobs (0: never).

    A coded-only tree's job costs about its rows (every row is counted again
    at every small node it passes), so on many threads one job of
    ``SUBTREE_ROWS`` rows would set the pace: jobs of at least
    ``n_rows / (JOBS_PER_THREAD · threads)`` rows (not below
    ``MIN_SUBTREE_ROWS``) grow their nodes of that size and defer the
    smaller ones of at least ``1 / SPLIT_FRACTION`` of it, with their tables
    (:func:`~._subtree_kernels.grow_subtree`), so the tree is the same.
    Exact trees already get small jobs (:func:`subtree_rows`): 0.
    """
    if exact:
        return 0
    return int(min(SUBTREE_ROWS, max(MIN_SUBTREE_ROWS, n_rows // (JOBS_PER_THREAD * threads))))


def compiled_growth_applies(data, pre_pruner):
    """No pre-pruning (which routes validation rows in Python)."""
    return pre_pruner is None


def workspace(data, least=None):
    """Scratch of one growing thread: row-indexed (:class:`~hyperplane.tree._state.Workspace`)
    for a tree with exact numeric attributes and a regression tree (``least``
    not None, which scores every node by its rows, binned or not); for a
    classifier without exact numeric attributes (coded-only growth, compiled
    without the exact scans) the bin scans' :class:`~hyperplane.tree._state.Scratch`, or
    ``None`` when no attribute is binned either (numba then compiles no bin scan).

    The branch of each row (``dest``) is held in the smallest integer type
    that holds every branch index: the partition reads it once per row and
    attribute in sorted order, so a small type keeps it in cache.
    """
    if least is None and not np.any(data.kind == NUMERIC):
        if not np.any(data.kind == BINNED):
            return None
        width = int(data.codes_count.max(initial=0))
        return new_scratch.py_func(width, int(SORT_ROWS), data.n_classes)
    n = data.X.shape[0]
    branches = int(data.n_codes[data.kind == CATEGORICAL].max(initial=2))
    dest_type = np.int8 if branches <= np.iinfo(np.int8).max else np.int64
    return Workspace(np.zeros(n), np.zeros(n, dtype=dest_type))


class Job(NamedTuple):
    """A subtree to grow in one compiled call: its node id in the growing
    storage, its root, the root's handed-down tables (None: the tree keeps no
    class tables, :func:`keeps_tables`), how it hands on its own deferred
    nodes (:func:`~._subtree_kernels.grow_subtree`) and the store it grows into:
    None, its own (:func:`job_store`, grafted into the tree's), or the tree's
    store itself when the job is the whole tree (:func:`whole_tree_store`)."""

    node_id: int
    node: Node
    tables: Tables | None
    handoff: Handoff
    store: NodeStore | None = None


def keeps_tables(n_rows, exact):
    """Whether a tree of ``n_rows`` rows grows with class tables: a coded-only
    classifier (``exact`` False) whose root is not small enough to sort
    (``SORT_ROWS``); every other growth is compiled without the tables' code."""
    return not exact and n_rows >= SORT_ROWS


def job_store(node):
    """The :class:`~hyperplane.tree._state.NodeStore` a job grows into: node 0 is the
    job's ``node``, which the tree already holds (:func:`~._store_kernels.graft`
    takes only its test, so its weight is left NaN), with room for
    ``STORE_CAPACITY`` nodes at first."""
    return new_store(node.value, np.nan, node.depth, STORE_CAPACITY)


def whole_tree_store(store, jobs):
    """``store`` when the one job of ``jobs`` is its root and it holds nothing
    else: that job grows the whole tree in the tree's own store, which then
    needs no graft (a small fit compiles no :func:`~._store_kernels.graft`);
    else None."""
    return store if len(jobs) == 1 and jobs[0][0] == 0 and store.n_nodes == 1 else None


def _grow_one(data, rules, job, tuning, space):
    return grow_subtree(data.columns, job.node, rules, tuning, space, job.tables, job.handoff,
                        job_store(job.node) if job.store is None else job.store)


def grow_subtrees(data, rules, store, jobs, clogc, bar=None, least=None):
    """Grow ``jobs`` = ``[(node id, Node)]`` and graft them into ``store`` (a
    :class:`~hyperplane.tree._state.NodeStore`); returns the store.

    A job of at least :func:`subtree_rows` rows is grown down to the nodes
    below that many rows (scoring and partitioning the attributes of
    its nodes in parallel), which are then grown side by side in
    ``numba.get_num_threads()`` threads (numba's default: every core),
    jobs of at least :func:`job_split_rows` rows handing on their smaller
    nodes as further jobs. Nodes of at least ``SUBTRACT_ROWS`` rows use
    histogram subtraction (``None``: never); nodes below ``SORT_ROWS`` rows
    sort their codes. ``least``: None for a classifier, a regression tree's
    :class:`~hyperplane.tree._state.MinDecrease` (:attr:`~hyperplane.tree._state.Tuning.least`).
    """
    subtract = np.iinfo(np.int64).max if SUBTRACT_ROWS is None else int(SUBTRACT_ROWS)
    n_rows = sum(job[1].rows.size for job in jobs)
    exact = bool(np.any(data.kind == NUMERIC)) or least is not None   # no class tables
    threads = numba.get_num_threads()
    defer = subtree_rows(n_rows, threads, exact)
    split = job_split_rows(n_rows, threads, exact)
    tuning = Tuning(clogc, subtract, int(SORT_ROWS), 0 if defers_any(n_rows, defer, split)
                    else None, None, 1, least)
    groups = table_groups(threads)
    parallel_top = threads > 1 and (exact or groups > 1)  # else the serial kernels
    top = tuning._replace(defer_rows=defer, groups=groups,
                          parallel_rows=min(defer, PARALLEL_ROWS) if parallel_top else None)
    tables = keeps_tables(n_rows, exact)
    grown = [store]  # the store so far: each graft may hand back a larger one

    def settle(job, subtree):
        grown[0] = (graft(grown[0], job.node_id, subtree.store) if job.store is None
                    else subtree.store)
        if bar is not None:
            bar.advance(subtree.leaf_weight, nodes=grown[0].n_nodes)
        return _deferred_jobs(grown[0], job, subtree, split, tables)

    small = []
    whole = whole_tree_store(store, jobs)
    for node_id, node in jobs:
        job = Job(node_id, node, NO_TABLES if tables else None, Handoff(0, False), whole)
        if node.rows.size < defer:
            small.append(job)
            continue
        small.extend(settle(job, _grow_one(data, rules, job, top, workspace(data, least))))
    _grow_side_by_side(data, rules, small, tuning, settle, split)
    return grown[0]


def defers_any(n_rows, defer, split):
    """Whether a growth of ``n_rows`` rows may defer nodes: a job of at least
    ``defer`` rows (:func:`subtree_rows`) or of at least ``split`` rows
    (:func:`job_split_rows`, 0: never). Else every call gets
    :attr:`~hyperplane.tree._state.Tuning.defer_rows` None, and the growth is compiled
    without the deferred nodes' lists (a small fit's compilation is ~14% smaller)."""
    return n_rows >= defer or 0 < split <= n_rows


def _deferred_jobs(store, job, subtree, split, tables):
    """The jobs of the nodes a grown ``job`` deferred, just grafted into ``store``
    (with their handed-down tables when the tree keeps ``tables``, else None)."""
    if subtree.deferred is None:
        return []
    base = store.n_nodes - subtree.store.n_nodes   # the job's node t > 0 is base + t
    handoff = Handoff(max(split // SPLIT_FRACTION, 1), True)
    deferred = subtree.deferred
    return [Job(job.node_id if t == 0 else base + t, node, handed if tables else None, handoff)
            for t, node, handed in zip(deferred.ids, deferred.nodes, deferred.tables)]


def _job_tuning(tuning, job, split):
    """A job of at least ``split`` rows defers its nodes below that (``split`` 0: none;
    a growth that defers none keeps ``defer_rows`` None)."""
    if tuning.defer_rows is None:
        return tuning
    return tuning._replace(defer_rows=split if 0 < split <= job.node.rows.size else 0)


def _grow_side_by_side(data, rules, jobs, tuning, settle, split=0):
    """Grow ``jobs``, largest first, in ``numba.get_num_threads()`` threads (each
    with its own :func:`workspace`); ``settle(job, subtree)`` grafts a grown job
    (in this thread) and returns the further jobs it deferred."""
    pending, queued = [], itertools.count()
    for job in jobs:
        _push(pending, job, queued)
    workers = numba.get_num_threads()
    if workers <= 1 or len(jobs) <= 1 and split == 0:
        space = workspace(data, tuning.least)
        while pending:
            job = heapq.heappop(pending)[-1]
            for new in settle(job, _grow_one(data, rules, job, _job_tuning(tuning, job, split),
                                             space)):
                _push(pending, new, queued)
        return
    local = threading.local()

    def grow_job(job):
        if not hasattr(local, "space"):
            local.space = workspace(data, tuning.least)
        return _grow_one(data, rules, job, _job_tuning(tuning, job, split), local.space)

    running = {}
    with ThreadPoolExecutor(max_workers=workers) as pool:
        while pending or running:
            while pending and len(running) < workers:
                job = heapq.heappop(pending)[-1]
                running[pool.submit(grow_job, job)] = job
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                for new in settle(running.pop(future), future.result()):
                    _push(pending, new, queued)


def _push(pending, job, queued):
    """Queue ``job`` (a heap: the most rows first, then the earliest queued)."""
    heapq.heappush(pending, (-job.node.rows.size, next(queued), job))
