"""Decision trees on Dask: the tree grown level by level from summed chunk tables.

Every split the in-memory builder makes depends on the node's rows only
through *class-weight tables* (per attribute value or hist bin, per class,
plus the missing row; :mod:`hyperplane.tree._scan._split_kernels`), and tables of
disjoint chunks add up. So the Dask fit (the PLANET / Spark MLlib scheme,
Panda et al. 2009) never gathers the data:

1. **scan** (one pass): per chunk the distinct labels and categorical values
   in order of first appearance, row counts and input checks; the client
   merges them into the same classes, category encoding and tie order as the
   in-memory fit.
2. **bin edges** (``splitter="hist"``): the client fetches only the rows that
   :func:`~hyperplane.tree._encode.bin_sample_rows` picks (all rows up to
   200 000, a seeded sample above) and computes the edges with the in-memory
   :func:`~hyperplane.tree._encode.quantile_edges`.
3. **encode**: each chunk becomes compact integer codes (category index or
   bin, −1 missing), class indices and weights, persisted on the workers
   (like MLlib's cached ``TreePoint`` RDD).
4. **levels**: each level every chunk routes its rows down the tree grown so
   far (C4.5 fractional weights for missing values,
   :func:`._route_kernels.route_to_frontier`) and returns the tables of the
   frontier nodes (:func:`~hyperplane.tree._scan._table_kernels.level_class_tables`, the tree's
   own kernel); the tables are summed by a tree reduction on the cluster
   (one :meth:`~hyperplane.distributed.Chunks.reduce` round per level), the
   client scores them with the in-memory :func:`~hyperplane.tree._scan._numeric_cut_kernels.score_table`
   and expands each node with :func:`~hyperplane.tree._grow._expand_kernels.expand_node`, the step
   every grower takes, so the tree is the same. The loop is the in-memory
   one, :func:`~hyperplane.tree._grow._builder.grow_frontier` (generate_tree, 周志华 图4.2), run in
   level order with this pass as its statistic step (:func:`level_steps`),
   as LightGBM's data-parallel learner (``DataParallelTreeLearner``; Ke et
   al., NIPS 2017) reuses its serial loop and replaces only the histogram step.

Every pass is a round of :class:`~hyperplane.distributed.Chunks`, the engine
of every Dask fit. Steps 1-3 read ``X`` (:mod:`._passes`), the fit runs them
and step 4 (:mod:`._fit`: :func:`~._fit.fit_tree_dask`,
:func:`~._fit.fit_regressor_dask`); step 4 is here.

DecisionTreeRegressor (least squares, ``splitter="hist"``) takes the same
steps with the moments ``[Σw, Σwy, Σwy²]`` per value in place of the class
weights (they add up too, 李航 算法5.5 needs nothing else) and the in-memory
regression scan over a node's bins: :func:`~._fit.fit_regressor_dask`. What differs
between the two kinds of tree is one :class:`LevelKind` record. Its categorical
columns become, after the scan, the in-memory fit's 0/1 columns ``[A = a]``
(CART's tests, 李航 §5.5.2) in every chunk, binned and grown as numeric ones.

Pessimistic and cost-complexity pruning then run on the client from the node
class weights; reduced-error pre/post pruning (周志华 4.3) use validation data
held in memory. Numeric attributes need ``splitter="hist"``: exact midpoints
would need every node's sorted values.
"""

from __future__ import annotations

from typing import Callable, NamedTuple

import numpy as np

from ...distributed._dask import add_parts
from .._grow._builder import CLASS_WEIGHTS, Scored, grow_frontier, plant, store_links
from .._grow._expand_kernels import (CONSTANT_TARGET, GROW, choose_attribute, expand_node, new_splits,
                              put_split)
from ._route_kernels import route_to_frontier
from .._scan._numeric_cut_kernels import score_table
from .._scan._split_kernels import CATEGORICAL, c_log2_c
from .._state import Columns, MinDecrease, Orders, TreeArrays, new_node
from .._scan._moments_kernels import N_MOMENTS
from .._scan._regression_kernels import (BinMoments, expand_regression_node, root_reason,
                                  table_regression_scores)
from .._scan._table_kernels import MomentTables, level_class_tables, level_moment_tables

#: largest summed table (bytes) of one level pass; bigger frontiers take several passes
TABLE_BYTES = 64 * 2**20


# ---------------------------------------------------------------- 4. levels
def _routing(store, cut, frontier):
    """The tree grown so far (the growing :class:`~hyperplane.tree._state.NodeStore`'s
    nodes, their ids, each split node's bin cut from ``cut``) as the flat
    arrays of :func:`route_to_frontier`."""
    m = store.n_nodes
    child_start, n_child, children = store_links(store)
    slot_of = np.full(m, -1, dtype=np.int64)
    slot_of[[node_id for node_id, _ in frontier]] = np.arange(len(frontier))
    bin_cut = np.full(m, -1.0)
    bin_cut[list(cut)] = list(cut.values())
    depth = int(store.depth[:m].max()) + 1
    fan_out = int(n_child.max())
    tree = TreeArrays(store.feature[:m], store.is_numeric[:m], bin_cut, child_start, n_child,
                      children, store.branch_r[:m])
    return tree, slot_of, depth * max(fan_out, 1) + 2


class LevelContext(NamedTuple):
    """What the client knows of the encoded columns when it scores a node from
    its summed tables, and the rules it grows by."""

    kind: np.ndarray  # CATEGORICAL or BINNED per attribute
    n_codes: np.ndarray  # values (bins) per attribute; slot ``n_codes[j]``: missing
    bin_range: np.ndarray  # (p, 2, width) each bin's smallest and largest training value
    rules: object  # the tree's rules (``_state.Rules``)
    n_stats: int  # numbers per table cell: K class weights, or the 3 moments


class ClassTables(NamedTuple):
    """One level's classification statistics: per frontier node, attribute and
    value (last: missing) the class weights (``tables``) and row counts
    (``n_rows``), and how many of the node's arrivals weigh other than 1
    (``n_weighted``: 0 lets the scan use the ``c log2 c`` table)."""

    tables: np.ndarray
    n_rows: np.ndarray
    n_weighted: np.ndarray


class LevelKind(NamedTuple):
    """What a kind of tree sums per frontier node on Dask, and how the client
    grows a node from the sums (the level grower's registry entry:
    :func:`class_levels`, :func:`moment_levels`).

    Each level a chunk returns ``chunk(codes_T, codes_count, y, entry_row,
    entry_slot, entry_w, n_slots)``, a named record of arrays whose first axis
    is the frontier slot (:class:`ClassTables`,
    :class:`~hyperplane.tree._scan._table_kernels.MomentTables`), and two chunks' records are
    combined by ``merge``. With ``cells`` one slot's part of each array (the
    same record), ``settled(cells)`` is why the node is a leaf before it is
    scored (``GROW``: score it) and ``score(cells, node, context)`` its
    :class:`~hyperplane.tree._state.Splits` (``context``: a :class:`LevelContext`);
    :func:`expand_level_node` deals the chosen attribute's values as weighted
    rows (weights ``weights(table)``, a column per class) and ``expand(rows,
    splits, columns, table, count, context)`` splits them; ``n_stats`` numbers
    per table cell. ``root(value, n_rows, rules)`` is why the root (statistic
    ``value``) is a leaf (``GROW``: grow it) and ``weight(value)`` a node's
    weight, as in memory (:class:`~hyperplane.tree._grow._builder.Growth`).
    """

    n_stats: int
    root: Callable
    weight: Callable
    chunk: Callable
    merge: Callable
    settled: Callable
    score: Callable
    weights: Callable
    expand: Callable


def slot_cells(parts, slot):
    """Frontier slot ``slot``'s part of every array of a level's merged record."""
    return type(parts)(*(part[slot] for part in parts))


def level_pass(chunks, store, cut, frontier, n_codes, levels):
    """The merged ``levels.chunk`` tables of the ``frontier`` nodes (one entry per
    slot): one :meth:`~hyperplane.distributed.Chunks.reduce` round of
    :func:`frontier_tables` over the encoded chunks, merged by ``levels.merge``."""
    tree, slot_of, stack = _routing(store, cut, frontier)
    return chunks.reduce(frontier_tables, levels.merge, tree, slot_of, stack, n_codes,
                         len(frontier), levels.chunk)


def frontier_tables(chunk, tree, slot_of, stack, n_codes, n_slots, tables):
    """One encoded chunk's ``tables`` of the frontier nodes: its rows routed
    down the tree grown so far (:func:`~._route_kernels.route_to_frontier`)."""
    codes, y, w = chunk.codes, chunk.y, chunk.w
    rows, slots, weights = route_to_frontier(codes, w, tree, slot_of, stack)
    return tables(codes.T, n_codes, y, rows, slots, weights, n_slots)


def class_levels(n_root, n_classes):
    """The classifier's :class:`LevelKind`: class-weight tables
    (:func:`~hyperplane.tree._scan._table_kernels.level_class_tables`) summed (``add_parts``),
    scored by :func:`node_splits` with the ``c log2 c`` table of ``n_root``
    rows when every row at the node weighs 1, expanded by :func:`expand_level_node`."""
    clogc = c_log2_c(n_root)

    def chunk(codes_T, n_codes, y, rows, slots, weights, n_slots):
        tables, n_rows = level_class_tables(codes_T, n_codes, y, rows, slots, weights, n_slots,
                                            n_classes)
        return ClassTables(tables, n_rows, np.bincount(slots[weights != 1.0], minlength=n_slots))

    def merge(a, b):
        return ClassTables(*add_parts(a, b))

    def score(cells, node, context):
        return node_splits(cells.tables, cells.n_rows, node, context,
                           clogc if cells.n_weighted == 0 else clogc[:0])

    def expand(rows, splits, columns, table, count, context):
        return expand_node(rows, splits, columns, context.rules, n_classes,
                           np.zeros(0, dtype=np.int64), None)

    return LevelKind(n_classes, CLASS_WEIGHTS.root_reason, CLASS_WEIGHTS.weight, chunk, merge,
                     lambda cells: GROW, score, lambda table: table, expand)


def moment_levels(min_impurity_decrease, root_weight, equal):
    """The regression tree's :class:`LevelKind` (squared error): the moments
    ``[Σw, Σwy, Σwy²]`` per bin (:func:`~hyperplane.tree._scan._table_kernels.level_moment_tables`)
    summed, with each node's smallest and largest target (min / max: a node
    whose targets are all equal is a leaf, 李航 算法5.5); scored by
    :func:`~hyperplane.tree._scan._regression_kernels.table_regression_scores` (the in-memory
    scan over bins: a split must decrease the tree's weighted impurity by
    ``min_impurity_decrease``, ``root_weight`` the training rows' weight),
    split by :func:`~hyperplane.tree._scan._regression_kernels.expand_regression_node` of the
    bins' :class:`~hyperplane.tree._scan._regression_kernels.BinMoments`; ``equal``: all the
    training targets are equal."""
    min_decrease = MinDecrease(float(min_impurity_decrease), float(root_weight))

    def root(value, n_rows, rules):
        return root_reason(value, equal, n_rows, rules)

    def settled(cells):
        return CONSTANT_TARGET if cells.low == cells.high else GROW

    def score(cells, node, context):
        return table_regression_scores(cells.tables, cells.n_rows, node, context.bin_range,
                                       context.n_codes, context.rules, min_decrease)

    def expand(rows, splits, columns, table, count, context):
        present = count > 0
        bins = columns._replace(y=BinMoments(table[present], count[present]))
        return expand_regression_node(rows, splits, bins, context.rules, N_MOMENTS,
                                      np.zeros(0, dtype=np.int64), None)

    return LevelKind(N_MOMENTS, root, lambda value: value[0], level_moment_tables,
                     merge_moment_parts, settled, score,
                     lambda table: table[:, :1], expand)


def node_splits(tables, n_rows, node, context, lookup):
    """The split table of ``node`` from its summed class tables.

    ``tables[j, :n_codes[j] + 1]`` / ``n_rows[j, ...]`` are attribute ``j``'s
    class weights and row counts per value (last: missing); ``lookup`` is the
    ``c log2 c`` table when every row at the node weighs 1 (else empty), as
    the in-memory builder passes it; ``context.bin_range[j]`` the value range
    of each of a binned attribute's bins (:class:`LevelContext`).
    """
    kind, n_codes, bin_range, rules, _ = context
    splits = new_splits(kind.shape[0])
    for j in np.flatnonzero(node.avail):
        width = n_codes[j] + 1
        put_split(splits, j, score_table(tables[j, :width], n_rows[j, :width],
                                         kind[j] == CATEGORICAL, bin_range[j], rules, lookup))
    return splits


def table_rows(table, n_rows, j, node, kind, n_codes, bin_range):
    """Attribute ``j``'s summed class table at ``node`` as weighted rows, and
    the :class:`~hyperplane.tree._state.Columns` they are read from.

    Every cell ``(v, k)`` of a value that some row has is one row of class
    ``k``, code ``v`` (−1: the missing row) and weight ``table[v, k]``; the
    first cell of value ``v`` stands for its ``n_rows[v]`` rows. Expanding
    these rows adds the same weights in the same order as the cells' sums.
    """
    n_values, n_classes = table.shape
    cells = np.flatnonzero(np.repeat(n_rows > 0, n_classes))
    value_of, y = np.divmod(cells, n_classes)
    first = np.r_[True, value_of[1:] != value_of[:-1]] if cells.size else np.zeros(0, bool)
    m, p = cells.size, kind.shape[0]
    codes_T = np.full((p, m), -1, dtype=np.int32)
    codes_T[j] = np.where(value_of == n_values - 1, -1, value_of)
    columns = Columns(np.zeros((0, m)), codes_T, np.zeros((m, 0), dtype=np.int32), n_codes,
                      kind, np.arange(p, dtype=np.int64), bin_range, y.astype(np.int64))
    rows = new_node(np.arange(m, dtype=np.int64), table.ravel()[cells],
                    Orders(np.zeros((0, m), dtype=np.int64), np.zeros((0, m))),
                    np.where(first, n_rows[value_of], 0).astype(np.int64), node.value,
                    node.depth, node.avail, Orders(np.zeros(0, dtype=np.int64), np.zeros(0)))
    return rows, columns


def expand_level_node(node, cells, splits, context, levels):
    """The expansion of a node known by its summed tables ``cells``:
    ``(children, rows)`` with the weighted rows of :func:`table_rows` (one per
    cell of ``levels.weights`` of the chosen attribute's table) split by
    ``levels.expand``, the step every grower takes, or ``(None, node)`` when no
    attribute is admissible."""
    kind, n_codes, bin_range, rules, _ = context
    j = choose_attribute(splits, rules)
    if j < 0:
        return None, node
    width = n_codes[j] + 1
    table, count = cells.tables[j, :width], cells.n_rows[j, :width]
    rows, columns = table_rows(levels.weights(table), count, j, node, kind, n_codes, bin_range)
    return levels.expand(rows, splits, columns, table, count, context), rows


def level_steps(chunks, context, levels):
    """The Dask statistic step of :func:`~hyperplane.tree._grow._builder.grow_frontier`: the tables
    of a whole group of frontier nodes from one pass over the chunks
    (:func:`level_pass`, routed down the ``store`` grown so far), then each node settled (``levels.settled``), scored
    (``levels.score``) and expanded (:func:`expand_level_node`) from its
    tables alone, as a :class:`~hyperplane.tree._grow._builder.Scored`. The chosen bin cuts are
    kept for the routing of the next passes."""
    cut = {}

    def step(group, store):
        parts = level_pass(chunks, store, cut, group, context.n_codes, levels)
        for slot, (node_id, node) in enumerate(group):
            cells = slot_cells(parts, slot)
            reason = levels.settled(cells)
            if reason != GROW:
                yield Scored(node_id, node, reason, None, None)
                continue
            splits = levels.score(cells, node, context)
            children, rows = expand_level_node(node, cells, splits, context, levels)
            if children is not None:
                cut[node_id] = splits.cut_bin[children.attribute]
            yield Scored(node_id, rows, GROW, splits, children)

    return step


def grow_levels(chunks, context, root, pre_pruner=None, bar=None, tracer=None,
                levels=None):
    """generate_tree level by level (the growth loop
    :func:`~hyperplane.tree._grow._builder.grow_frontier` with the statistic step
    :func:`level_steps`); returns the grown :class:`~hyperplane.tree._state.NodeStore`.

    ``context`` a :class:`LevelContext`; ``root`` the root's
    :class:`~hyperplane.tree._state.Node` (its ``count`` holds its row count); ``levels``
    the kind of tree (:class:`LevelKind`; None: the classifier's,
    :func:`class_levels`). ``pre_pruner`` (:class:`~hyperplane.tree._prune._kinds.PrePruner`) may
    veto a split; ``bar`` (a progress reporter) advances once a pass;
    ``tracer`` (:class:`~hyperplane.tree._inspect._trace.Tracer`) records every node. A pass sums the
    tables of as many frontier nodes as ``TABLE_BYTES`` holds.
    """
    n_root = int(root.count.sum())
    if levels is None:
        levels = class_levels(n_root, context.n_stats)
    store, frontier = plant(root, levels.weight(root.value),
                            levels.root(root.value, n_root, context.rules), tracer=tracer)
    per_slot = (context.kind.shape[0] * (int(context.n_codes.max()) + 1)
                * (context.n_stats + 1) * 8)
    return grow_frontier(store, frontier, level_steps(chunks, context, levels),
                         context.kind, pre_pruner, bar, tracer,
                         batch=max(1, TABLE_BYTES // per_slot))


def merge_moment_parts(a, b):
    """Two chunks' :class:`~hyperplane.tree._scan._table_kernels.MomentTables`: moment tables and row
    counts summed, smallest and largest targets by min and max."""
    return MomentTables(a.tables + b.tables, a.n_rows + b.n_rows, np.fmin(a.low, b.low),
                        np.fmax(a.high, b.high))
