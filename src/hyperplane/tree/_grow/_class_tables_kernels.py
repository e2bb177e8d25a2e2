"""A coded-only compiled growth's class tables (周志华 4.1 with LightGBM's savings).

When no attribute is exact numeric (``splitter="hist"``, or only categorical
attributes) a node's split needs nothing but the class-weight tables of its
coded attributes (:mod:`hyperplane.tree._scan._table_kernels`), and two further savings apply,
both as in LightGBM (Ke et al. 2017, "LightGBM: a highly efficient gradient
boosting decision tree", NeurIPS, section 2.1 / algorithm 1):

* **histogram subtraction**: the tables of a node's largest child are the
  parent's minus the rows of its other children, so only the smaller children
  are counted. With C4.5 missing values a row missing the tested value is in
  every child ``v`` with weight ``r_v · w``; as ``Σ_v r_v = 1`` the children's
  weights still add up to the parent's, but the row is *counted* in every
  child, so it is taken out of the weights only. The difference is exact for
  row counts and integer weights and within round-off otherwise
  (:func:`clean_derived_tables`).
* **small nodes** do not scan every bin: below ``SORT_ROWS`` rows a node sorts
  its rows by each binned attribute's code and scans only the bins present
  (:func:`sorted_bins`, the same sums in the same order as a table); other
  nodes add their rows into one scratch table and zero exactly the entries
  they touched afterwards, instead of a fresh zeroed table per node.

The tables' buffers live in a :class:`~hyperplane.tree._state.TablePool` the
growth reuses from node to node (:data:`new_pool`); a node a growth defers to a
further call takes its tables along (:func:`hand_down`, :data:`adopt_tables`).
A growth without class tables has no pool (None) and every node's slot is −1:
its pool's steps (:data:`node_tables`, :data:`pass_tables_on`,
:data:`release_slot`, :data:`adopt_tables`) are then constants numba lowers in
place (:mod:`~.._absent`), no compiled unit.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..._numba import by_none, jit_internal, jit_twin
from ..._lowered import empty
from .._scan._hist_node_kernels import (accumulate_rows_parallel, add_rows, score_coded_attribute,
                                        score_coded_parallel, take_out_siblings_parallel,
                                        take_out_rows)
from ._expand_kernels import EMPTY_BRANCH, GROW, new_splits, put_split
from .._scan._loops_kernels import all_unit, filled, filled_rows, pick_max
from .._scan._numeric_cut_kernels import ordered_cut
from .._scan._split_kernels import CATEGORICAL, table_split_score
from .._absent import no_slot, nothing
from .._state import Kept, Span, TablePool, Tables
from .._scan._table_kernels import table_slot


#: nodes of at least this many rows keep their own tables and pass them on
#: to their largest child (histogram subtraction)
SUBTRACT_ROWS = 512
#: nodes with fewer rows sort their codes instead of filling tables
SORT_ROWS = 64


@jit_twin
def accumulate_rows(codes_rows, codes_count, y, rows, w, table, counts):
    """Add rows ``rows`` (weights ``w`` by position) into every coded attribute's
    table ``table[c, code, y]`` and ``counts[c, code]`` (missing: slot ``codes_count[c]``)."""
    add_rows(codes_rows, codes_count, y, rows, w, Span(0, codes_rows.shape[1]), table, counts)


@jit_internal
def reset_rows(codes_rows, codes_count, rows, table, counts):
    """Zero the table entries the rows ``rows`` touched (scratch reuse)."""
    p = codes_rows.shape[1]
    for pos in range(rows.shape[0]):
        i = rows[pos]
        for c in range(p):
            code = table_slot(codes_rows[i, c], codes_count[c])
            table[c, code, :] = 0.0
            counts[c, code] = 0


@jit_twin
def take_out_siblings(columns, node, branch, keep, r_keep, table, counts):
    """Turn ``node``'s tables into those of its child ``keep`` (histogram subtraction).

    ``branch[pos]`` is the branch of the node's row ``pos``. Rows of other
    branches leave the tables; a row missing the tested value (``branch ==
    MISSING``) stays in child ``keep`` with weight ``r_keep · w``, so it loses
    ``(1 − r_keep) · w`` of its weight and is still counted
    (:func:`weight_taken_out`).
    """
    take_out_rows(columns, node, branch, Kept(keep, r_keep), Span(0, columns.codes_rows.shape[1]),
                  table, counts)


@jit_twin
def clean_derived_tables(table, counts, unit):
    """Remove the round-off a subtraction leaves: an entry with no rows is 0, no
    weight is negative, and unit-weight tables hold whole counts."""
    for c in range(table.shape[0]):
        for v in range(table.shape[1]):
            for k in range(table.shape[2]):
                t = table[c, v, k]
                if counts[c, v] == 0 or t < 0.0:
                    t = 0.0
                elif unit:
                    t = np.round(t)
                table[c, v, k] = t


@jit_twin
def score_coded(table, counts, columns, avail, rules, lookup, scratch):
    """The split table of a node from its class tables
    (:func:`~hyperplane.tree._scan._hist_node_kernels.score_coded_attribute` of every available attribute;
    ``scratch`` None: no attribute is binned)."""
    splits = new_splits(columns.kind.shape[0])
    for j in range(columns.kind.shape[0]):
        if avail[j]:
            put_split(splits, j, score_coded_attribute(table, counts, columns, j, rules,
                                                       lookup, scratch))
    return splits


@jit_twin
def sorted_bins(codes, y, rows, w, scratch, missing):
    """The non-empty bins of one binned attribute at a small node, by sorting.

    ``codes[pos]`` is the code of ``rows[pos]`` (−1 missing; fewer than 2**16
    rows). Fills ``scratch.bins``, ``scratch.bin_table``, ``scratch.bin_rows``
    (first ``d`` entries) and ``missing`` as :func:`~hyperplane.tree._scan._numeric_cut_kernels.ordered_cut`
    takes them and returns ``d``. Every bin sums its rows in the node's row order from 0, so the
    numbers are exactly those of the node's class table.
    """
    keys, bins, table, n_rows = scratch.keys, scratch.bins, scratch.bin_table, scratch.bin_rows
    m = rows.shape[0]
    missing[:] = 0.0
    n_known = 0
    for pos in range(m):
        if codes[pos] < 0:
            missing[y[rows[pos]]] += w[pos]
        else:
            keys[n_known] = (np.int64(codes[pos]) << 16) | pos  # by code, then position
            n_known += 1
    _insertion_sort(keys, n_known)
    d = -1
    for e in range(n_known):
        code = keys[e] >> 16
        pos = keys[e] & 0xFFFF
        if d < 0 or bins[d] != code:
            d += 1
            bins[d] = code
            for k in range(table.shape[1]):
                table[d, k] = 0.0
            n_rows[d] = 0
        table[d, y[rows[pos]]] += w[pos]
        n_rows[d] += 1
    return d + 1


@jit_internal
def _insertion_sort(keys, n):
    """Sort ``keys[:n]`` in place (the few keys of a small node)."""
    for i in range(1, n):
        key = keys[i]
        j = i - 1
        while j >= 0 and keys[j] > key:
            keys[j + 1] = keys[j]
            j -= 1
        keys[j + 1] = key


@jit_twin
def small_node_scores(columns, node, rules, lookup, scratch):
    """:func:`score_coded` of a small node without the full tables: binned
    attributes via :func:`sorted_bins`, categorical ones via their own table
    (``scratch`` None: the tree has no binned attribute, and numba compiles no
    binned scan)."""
    rows, w = node.rows, node.w
    n_classes = node.value.shape[0]
    m = rows.shape[0]
    node_codes = empty((columns.codes_rows.shape[1], m), columns.codes_rows.dtype)
    for pos in range(m):
        for j in range(node_codes.shape[0]):
            node_codes[j, pos] = columns.codes_rows[rows[pos], j]
    splits = new_splits(columns.kind.shape[0])
    missing = empty(n_classes, np.float64)
    for j in range(columns.kind.shape[0]):
        if not node.avail[j]:
            continue
        c = columns.col[j]
        if scratch is None or columns.kind[j] == CATEGORICAL:
            table = filled_rows(empty((columns.codes_count[c] + 1, n_classes), np.float64),
                                0.0)
            n_rows = filled(empty(columns.codes_count[c] + 1, np.int64), 0)
            for pos in range(m):
                code = table_slot(node_codes[c, pos], columns.codes_count[c])
                table[code, columns.y[rows[pos]]] += w[pos]
                n_rows[code] += 1
            put_split(splits, j, table_split_score(table, n_rows, rules.criterion,
                                                   rules.min_leaf, rules.c45))
        else:
            d = sorted_bins(node_codes[c], columns.y, rows, w, scratch, missing)
            put_split(splits, j, ordered_cut(d, scratch, missing, columns.bin_range[c], rules,
                                             lookup))
    return splits


@jit_internal
def _release_slot(pool, slot):
    """Give a table buffer back (zeroed) to the pool (:func:`_table_pool`)."""
    if slot >= 0:
        pool.tables[slot][:] = 0.0
        pool.counts[slot][:] = 0
        pool.free.append(slot)


#: ``release_slot(pool, slot)``: :func:`_release_slot`, nothing when ``pool`` is None (a
#: growth without class tables: :data:`~.._absent.nothing`)
release_slot = by_none(nothing, _release_slot)


@jit_internal
def _acquire(pool):
    """A zeroed table buffer from the pool (a new one if none is free)."""
    if len(pool.free) > 0:
        return pool.free.pop()
    _scratch_tables(pool)
    pool.tables.append(np.zeros_like(pool.tables[0]))
    pool.counts.append(np.zeros_like(pool.counts[0]))
    return len(pool.tables) - 1


@jit_internal
def _scratch_tables(pool):
    """Slot 0's tables, allocated at their first use: a subtree of small nodes (the
    many children of a wide categorical split) never pays for tables as wide as
    the widest attribute."""
    p_coded, n_cells = pool.tables[0].shape[0], pool.counts[0].shape[1]
    if pool.tables[0].shape[1] < n_cells:
        pool.tables[0] = np.zeros((p_coded, n_cells, pool.tables[0].shape[2]), dtype=np.float64)
        pool.counts[0] = np.zeros((p_coded, n_cells), dtype=np.int64)


@jit_internal
def _table_pool(codes_count, n_classes):
    """The table pool of a growth whose nodes hold class tables of ``width + 1``
    cells per coded column (``width`` the most codes of a column in
    ``codes_count``; a :class:`~hyperplane.tree._state.TablePool`; slot 0 is the
    small nodes' scratch, allocated at its first use and never handed out)."""
    p_coded = codes_count.shape[0]
    width = 0
    for c in range(p_coded):
        width = pick_max(width, codes_count[c])
    free = [0]
    free.pop()  # typed by its first element
    return TablePool([np.zeros((p_coded, 0, n_classes), dtype=np.float64)],
                     [np.zeros((0, width + 1), dtype=np.int64)], free)


#: ``new_pool(tables, codes_count, n_classes)``: the growth's table pool
#: (:func:`_table_pool`), or None (:data:`~.._absent.nothing`) when ``tables`` is None: a growth without class
#: tables, which numba then compiles without their code, nor the pool's width (an ``is None``
#: test drops a branch only when the argument is None, so the choice is made here)
new_pool = by_none(nothing, _table_pool, pass_first=(False, False))


@jit_internal
def _pooled_node_tables(pool, columns, node, slot, tuning):
    """The slot of ``node``'s own class tables, made ready to score: a slot ≥ 0
    handed down by the parent (histogram subtraction) cleaned of the
    subtraction's round-off (:func:`clean_derived_tables`); for a node of at
    least ``tuning.subtract_rows`` (and ``tuning.sort_rows``) rows a new slot
    with its rows counted (from ``tuning.parallel_rows`` rows in
    ``tuning.groups`` groups of columns side by side: the same numbers); else
    −1, the node is scored from scratch tables or by sorting
    (:func:`node_table_scores`)."""
    if slot >= 0:
        clean_derived_tables(pool.tables[slot], pool.counts[slot], all_unit(node.w))
    elif (node.rows.shape[0] >= tuning.sort_rows
          and node.rows.shape[0] >= tuning.subtract_rows):
        slot = _acquire(pool)
        _count_tables(columns, node, pool.tables[slot], pool.counts[slot],
                      tuning.parallel_rows, tuning.groups)
    return slot


#: ``node_tables(pool, columns, node, slot, tuning)``: :func:`_pooled_node_tables`, or −1 when
#: ``pool`` is None (a growth without class tables holds no slot: :data:`~.._absent.no_slot`)
node_tables = by_none(no_slot, _pooled_node_tables)


@jit_internal
def node_table_scores(scratch, columns, node, rules, tuning, pool, slot):
    """The split table of ``node`` from its own tables in ``slot`` (≥ 0, made
    ready by :data:`node_tables`), from scratch tables, or, when small, by
    sorting (always when ``pool`` is None: every node of the growth is small).
    A node of at least ``tuning.parallel_rows`` rows scores its attributes side
    by side (:mod:`hyperplane.tree._scan._hist_node_kernels`: the same numbers);
    ``tuning.parallel_rows`` is ``None`` unless ``tuning.groups`` > 1.
    ``scratch``: the bin scans' buffers (None: no attribute is binned)."""
    unit = all_unit(node.w)
    lookup = tuning.clogc if unit else tuning.clogc[:0]
    if pool is None:
        return small_node_scores(columns, node, rules, lookup, scratch)
    if slot < 0 and node.rows.shape[0] < tuning.sort_rows:
        return small_node_scores(columns, node, rules, lookup, scratch)
    if slot < 0:
        _scratch_tables(pool)
        accumulate_rows(columns.codes_rows, columns.codes_count, columns.y, node.rows, node.w,
                        pool.tables[0], pool.counts[0])
    at = max(slot, 0)
    splits = _scores_of_tables(pool.tables[at], pool.counts[at], columns, node, rules, lookup,
                               scratch, tuning.parallel_rows)
    if slot < 0:
        reset_rows(columns.codes_rows, columns.codes_count, node.rows, pool.tables[0],
                   pool.counts[0])
    return splits


@jit_internal
def _scores_of_tables(table, counts, columns, node, rules, lookup, scratch, parallel_rows):
    """The split table of a node from its class tables: :func:`score_coded`, or
    the attributes side by side from ``parallel_rows`` rows (``None``: never;
    the same split table)."""
    if parallel_rows is not None and node.rows.shape[0] >= parallel_rows:
        splits = new_splits(columns.kind.shape[0])
        score_coded_parallel(table, counts, columns, node.avail, rules, lookup, splits)
        return splits
    return score_coded(table, counts, columns, node.avail, rules, lookup, scratch)


@jit_internal
def _count_tables(columns, node, table, counts, parallel_rows, groups):
    """A node's rows added into its (zeroed) tables; from ``parallel_rows`` rows
    (``None``: never) in ``groups`` groups of columns side by side."""
    if parallel_rows is not None and node.rows.shape[0] >= parallel_rows and groups > 1:
        accumulate_rows_parallel(columns.codes_rows, columns.codes_count, columns.y, node.rows,
                                 node.w, table, counts, groups)
    else:
        accumulate_rows(columns.codes_rows, columns.codes_count, columns.y, node.rows, node.w,
                        table, counts)


@jit_internal
def _pass_tables_on(pool, slot, columns, node, children, subtract_rows, parallel_rows, groups):
    """The branch whose child takes over the tables in ``slot`` (histogram
    subtraction): the growing child of the most rows (the first of them, among
    the non-empty branches), when it has at least ``subtract_rows``. Its
    tables are then the node's with its siblings' rows taken out
    (:func:`take_out_siblings`; from ``parallel_rows`` rows, ``None``: never,
    and ``groups`` > 1: that many groups of columns side by side, the same
    numbers). Else −1, and the slot goes back to the pool (:func:`_release_slot`)."""
    offsets = children.offsets
    keep = -1
    for v in range(children.r.shape[0]):
        if children.reason[v] != EMPTY_BRANCH and (
                keep < 0 or offsets[v + 1] - offsets[v] > offsets[keep + 1] - offsets[keep]):
            keep = v
    if not (slot >= 0 and keep >= 0 and children.reason[keep] == GROW
            and offsets[keep + 1] - offsets[keep] >= subtract_rows):
        _release_slot(pool, slot)
        return -1
    table, counts = pool.tables[slot], pool.counts[slot]
    if parallel_rows is not None and node.rows.shape[0] >= parallel_rows and groups > 1:
        take_out_siblings_parallel(columns, node, children.branch, keep, children.r[keep],
                                   table, counts, groups)
    else:
        take_out_siblings(columns, node, children.branch, keep, children.r[keep], table, counts)
    return keep


#: ``pass_tables_on(pool, slot, columns, node, children, subtract_rows, parallel_rows,
#: groups)``: the branch whose child takes the node's tables over
#: (:func:`_pass_tables_on`), −1 when ``pool`` is None (a growth without class tables: an
#: exact or regression tree, or one whose every node sorts; :data:`~.._absent.no_slot`,
#: no largest child sought)
pass_tables_on = by_none(no_slot, _pass_tables_on)


#: a deferred node's hand-down when it has no tables to hand down
NO_TABLES = Tables(np.zeros((0, 0, 0), dtype=np.float64), np.zeros((0, 0), dtype=np.int64))


class Handoff(NamedTuple):
    """How :func:`grow_subtree` hands nodes to further calls (jobs)."""

    min_rows: int  # nodes below ``tuning.defer_rows`` and at least this large are deferred
    always: bool  # a deferred node of fractional weights takes its tables along (else: none)


@jit_internal
def hand_down(node, slot, pool, handoff):
    """The :class:`~hyperplane.tree._state.Tables` a deferred node takes to its own job (its
    slot's) or none (:data:`NO_TABLES`; always with ``pool`` None).

    With fractional weights, when ``handoff.always``: then the job grows with
    the numbers one call would use. With unit weights the counts are integers,
    the same numbers the job would count afresh, so they go along only when
    they are no larger than that count's work (rows × columns; a very wide
    table stays behind). The slot goes back to the pool.
    """
    if pool is None:
        return Tables(np.zeros((0, 0, 0), dtype=np.float64), np.zeros((0, 0), dtype=np.int64))
    unit = all_unit(node.w)
    cells = pool.counts[0].shape[1] * pool.tables[0].shape[0] * pool.tables[0].shape[2]
    worth = cells <= node.rows.shape[0] * pool.tables[0].shape[0]
    if slot < 0 or not (unit and worth or handoff.always and not unit):
        release_slot(pool, slot)
        return Tables(np.zeros((0, 0, 0), dtype=np.float64), np.zeros((0, 0), dtype=np.int64))
    table, counts = pool.tables[slot], pool.counts[slot]
    pool.tables[slot] = np.zeros_like(table)
    pool.counts[slot] = np.zeros_like(counts)
    pool.free.append(slot)
    return Tables(table, counts)


@jit_internal
def _adopt_tables(tables, pool):
    """The slot of a job root's handed-down :class:`~hyperplane.tree._state.Tables` (−1: none
    handed down)."""
    if tables.table.shape[0] == 0:
        return -1
    pool.tables.append(tables.table)
    pool.counts.append(tables.counts)
    return len(pool.tables) - 1


#: ``adopt_tables(tables, pool)``: :func:`_adopt_tables`, or −1 when ``tables`` is None (a
#: growth without class tables holds no slot: :data:`~.._absent.no_slot`)
adopt_tables = by_none(no_slot, _adopt_tables)
