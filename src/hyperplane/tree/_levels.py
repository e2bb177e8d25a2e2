"""Decision trees on Dask: the tree grown level by level from summed chunk tables.

Every split the in-memory builder makes depends on the node's rows only
through *class-weight tables* (per attribute value or hist bin, per class,
plus the missing row; :mod:`hyperplane.tree._split_kernels`), and tables of
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
   :func:`._level_kernels.route_to_frontier`) and returns the tables of the
   frontier nodes (:func:`~._table_kernels.level_class_tables`, the tree's
   own kernel); the tables are summed by a tree reduction on the cluster, the
   client scores them with the in-memory :func:`~._numeric_cut_kernels.score_table`
   and expands each node with :func:`~._expand_kernels.expand_node`, the step
   every grower takes, so the tree is the same.

Steps 1-3 read ``X`` (:mod:`._level_chunks`); step 4 and the fit are here.

DecisionTreeRegressor (least squares, ``splitter="hist"``) takes the same
steps with the moments ``[Σw, Σwy, Σwy²]`` per value in place of the class
weights (they add up too, 李航 算法5.5 needs nothing else) and the in-memory
regression scan over a node's bins: :func:`fit_regressor_dask`. What differs
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
import pandas as pd

from .._progress import progress
from .._validation import is_dask_collection
from ..distributed._dask import add_parts, import_dask, tree_reduce
from ._builder import (_Nodes, attach_children, attribute_kinds, c45_split_floor, finish,
                       grown_children)
from ._encode import quantile_edges, value_indicators
from ._expand_kernels import (CONSTANT_TARGET, GROW, NO_SPLIT, PRE_PRUNED, choose_attribute,
                              expand_node, leaf_reason, new_splits, put_split)
from ._level_chunks import (chunk_bin_ranges, class_totals, column_dtypes, column_names,
                            encode_chunk, fetch_indicator_sample, fetch_sample,
                            merge_bin_ranges, positive_counts, row_blocks, sample_plan, scan,
                            target_totals, weight_blocks)
from ._level_kernels import route_to_frontier
from ._prune import PrePruner, cost_complexity_prune
from ._numeric_cut_kernels import score_table
from ._split_kernels import BINNED, CATEGORICAL, NUMERIC, c_log2_c
from ._state import Columns, Orders, TreeArrays, new_node
from ._moments_kernels import N_MOMENTS
from ._regression_kernels import (BinMoments, expand_regression_node, root_reason,
                                  table_regression_scores)
from ._table_kernels import level_class_tables, level_moment_tables
from ._weights import weight_unit

#: largest summed table (bytes) of one level pass; bigger frontiers take several passes
TABLE_BYTES = 64 * 2**20


# ---------------------------------------------------------------- 4. levels
def _routing(nodes, cut, frontier):
    """The tree grown so far as flat arrays (growing-storage ids) for :func:`route_to_frontier`."""
    m = len(nodes.feature)
    child_start, n_child, children = nodes.links()
    slot_of = np.full(m, -1, dtype=np.int64)
    slot_of[[node_id for node_id, _ in frontier]] = np.arange(len(frontier))
    depth = max(nodes.depth) + 1
    fan_out = int(n_child.max()) if m else 1
    tree = TreeArrays(np.array(nodes.feature, dtype=np.int64),
                      np.array(nodes.is_numeric, dtype=np.bool_),
                      np.array([cut.get(t, -1) for t in range(m)], dtype=np.float64),
                      child_start, n_child,
                      children if children.size else np.zeros(1, dtype=np.int64),
                      np.array(nodes.branch_r))
    return tree, slot_of, depth * max(fan_out, 1) + 2


class LevelKind(NamedTuple):
    """What a kind of tree sums per frontier node on Dask, and how the client
    grows a node from the sums (the level grower's registry entry:
    :func:`class_levels`, :func:`moment_levels`).

    Each level a chunk returns ``chunk(codes_T, codes_count, y, entry_row,
    entry_slot, entry_w, n_slots)``, a tuple of arrays whose first axis is the
    frontier slot, and two chunks' tuples are combined by ``merge``. With
    ``cells`` one slot's part of each array, ``settled(cells)`` is why the node
    is a leaf before it is scored (``GROW``: score it) and ``score(cells, node,
    context)`` its :class:`~._state.Splits`; :func:`expand_level_node` deals
    the chosen attribute's values as weighted rows (weights ``weights(table)``,
    a column per class) and ``expand(rows, splits, columns, table, count,
    context)`` splits them; ``n_stats`` numbers per table cell. ``root(value,
    n_rows, rules)`` is why the root (statistic ``value``) is a leaf (``GROW``:
    grow it) and ``weight(value)`` a node's weight.
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


def level_pass(dask, chunks, nodes, cut, frontier, n_codes, levels):
    """The merged ``levels.chunk`` tables of the ``frontier`` nodes (one entry per slot)."""
    tree, slot_of, stack = _routing(nodes, cut, frontier)
    structure = dask.delayed((tree, slot_of), traverse=False)
    parts = [dask.delayed(_chunk_tables)(chunk, structure, stack, n_codes, len(frontier),
                                         levels.chunk) for chunk in chunks]
    return dask.compute(tree_reduce(dask, parts, levels.merge))[0]


def _chunk_tables(chunk, structure, stack, n_codes, n_slots, tables):
    codes, y, w = chunk.codes, chunk.y, chunk.w
    rows, slots, weights = route_to_frontier(codes, w, *structure, stack)
    return tables(codes.T, n_codes, y, rows, slots, weights, n_slots)


def class_levels(n_root, n_classes):
    """The classifier's :class:`LevelKind`: class-weight tables
    (:func:`~._table_kernels.level_class_tables`) summed (``add_parts``),
    scored by :func:`node_splits` with the ``c log2 c`` table of ``n_root``
    rows when every row at the node weighs 1, expanded by :func:`expand_level_node`."""
    clogc = c_log2_c(n_root)

    def chunk(codes_T, n_codes, y, rows, slots, weights, n_slots):
        tables, n_rows = level_class_tables(codes_T, n_codes, y, rows, slots, weights, n_slots,
                                            n_classes)
        return tables, n_rows, np.bincount(slots[weights != 1.0], minlength=n_slots)

    def score(cells, node, context):
        table, count, other = cells
        kind, n_codes, bin_range, rules, _ = context
        return node_splits(table, count, node, kind, n_codes, bin_range, rules,
                           clogc if other == 0 else clogc[:0])

    def expand(rows, splits, columns, table, count, context):
        return expand_node(rows, splits, columns, context[3], n_classes,
                           np.zeros(0, dtype=np.int64), None)

    def root(value, n_rows, rules):
        return leaf_reason(value, n_rows, 0, True, rules)

    return LevelKind(n_classes, root, np.sum, chunk, add_parts, lambda cells: GROW, score,
                     lambda table: table, expand)


def moment_levels(min_decrease, equal):
    """The regression tree's :class:`LevelKind` (squared error): the moments
    ``[Σw, Σwy, Σwy²]`` per bin (:func:`~._table_kernels.level_moment_tables`)
    summed, with each node's smallest and largest target (min / max: a node
    whose targets are all equal is a leaf, 李航 算法5.5); scored by
    :func:`~._regression_kernels.table_regression_scores` (the in-memory
    scan over bins; ``min_decrease = (min_impurity_decrease, root weight)``),
    split by :func:`~._regression_kernels.expand_regression_node` of the
    bins' :class:`~._regression_kernels.BinMoments`; ``equal``: all the
    training targets are equal."""

    def root(value, n_rows, rules):
        return root_reason(value, equal, n_rows, rules)

    def settled(cells):
        return CONSTANT_TARGET if cells[2] == cells[3] else GROW

    def score(cells, node, context):
        kind, n_codes, bin_range, rules, _ = context
        return table_regression_scores(cells[0], cells[1], node, bin_range, n_codes, rules,
                                       min_decrease)

    def expand(rows, splits, columns, table, count, context):
        present = count > 0
        return expand_regression_node(rows, splits, columns, context[3],
                                      np.zeros(0, dtype=np.int64), None,
                                      BinMoments(table[present], count[present]))

    return LevelKind(N_MOMENTS, root, lambda value: value[0], level_moment_tables,
                     merge_moment_parts, settled, score,
                     lambda table: table[:, :1], expand)


def node_splits(tables, n_rows, node, kind, n_codes, bin_range, rules, lookup):
    """The split table of ``node`` from its summed class tables.

    ``tables[j, :n_codes[j] + 1]`` / ``n_rows[j, ...]`` are attribute ``j``'s
    class weights and row counts per value (last: missing); ``lookup`` is the
    ``c log2 c`` table when every row at the node weighs 1 (else empty), as
    the in-memory builder passes it; ``bin_range[j]`` the value range of each of
    a binned attribute's bins.
    """
    splits = new_splits(kind.shape[0])
    for j in np.flatnonzero(node.avail):
        width = n_codes[j] + 1
        put_split(splits, j, score_table(tables[j, :width], n_rows[j, :width],
                                         kind[j] == CATEGORICAL, bin_range[j], rules, lookup))
    return splits


def table_rows(table, n_rows, j, node, kind, n_codes, bin_range):
    """Attribute ``j``'s summed class table at ``node`` as weighted rows, and
    the :class:`~._state.Columns` they are read from.

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


def expand_level_node(node, tables, n_rows, splits, context, levels):
    """The expansion of a node known by its summed tables: ``(children, rows)``
    with the weighted rows of :func:`table_rows` (one per cell of
    ``levels.weights`` of the chosen attribute's table) split by
    ``levels.expand``, the step every grower takes, or ``(None, node)`` when no
    attribute is admissible."""
    kind, n_codes, bin_range, rules, _ = context
    j = choose_attribute(splits, rules.c45)
    if j < 0:
        return None, node
    width = n_codes[j] + 1
    table, count = tables[j, :width], n_rows[j, :width]
    rows, columns = table_rows(levels.weights(table), count, j, node, kind, n_codes, bin_range)
    return levels.expand(rows, splits, columns, table, count, context), rows


def grow_levels(dask, chunks, context, root, pre_pruner=None, bar=None, tracer=None,
                levels=None):
    """generate_tree level by level; returns the growing storage.

    ``context = (kind, n_codes, bin_range, rules, n_stats)``; ``root`` the
    root's :class:`~._state.Node` (its ``count`` holds its row
    count); ``levels`` the kind of tree (:class:`LevelKind`; None: the
    classifier's, :func:`class_levels`). ``pre_pruner``
    (:class:`~._prune.PrePruner`) may veto a split; its state is per node, so
    the level order decides as depth first does. ``bar`` (a progress reporter)
    advances once per level; ``tracer`` (:class:`~._trace.Tracer`) records
    every node.
    """
    kind, n_codes, bin_range, rules, n_stats = context
    n_root = int(root.count.sum())
    if levels is None:
        levels = class_levels(n_root, n_stats)
    nodes, cut = _Nodes(), {}
    root_id = nodes.add(root.value, 0, 1.0, levels.weight(root.value))
    frontier = [(root_id, root)]
    reason = levels.root(root.value, n_root, rules)
    if reason != GROW:
        frontier = []
        if tracer is not None:
            tracer.leaf(root_id, root, reason)
    per_slot = kind.shape[0] * (int(n_codes.max()) + 1) * (n_stats + 1) * 8
    batch = max(1, TABLE_BYTES // per_slot)
    while frontier:
        expand, frontier = frontier, []
        for start in range(0, len(expand), batch):
            group = expand[start:start + batch]
            parts = level_pass(dask, chunks, nodes, cut, group, n_codes, levels)
            for slot, (node_id, node) in enumerate(group):
                cells = tuple(part[slot] for part in parts)
                reason = levels.settled(cells)
                if reason != GROW:
                    if tracer is not None:
                        tracer.leaf(node_id, node, reason)
                    continue
                splits = levels.score(cells, node, context)
                children, rows = expand_level_node(node, cells[0], cells[1], splits, context,
                                                   levels)
                j = -1 if children is None else children.attribute
                test = (j, kind[j] != CATEGORICAL, splits.threshold[j]) if j >= 0 else None
                if j >= 0 and pre_pruner is not None and not pre_pruner.allows(
                        node_id, node.value, children.value, children.r, test):
                    j = -1
                if tracer is not None:
                    tracer.scored(node_id, rows, splits, test if j >= 0 else None,
                                  NO_SPLIT if children is None else PRE_PRUNED)
                if j < 0:
                    continue
                cut[node_id] = splits.cut_bin[j]
                ids = attach_children(nodes, node_id, test, children)
                if pre_pruner is not None:
                    pre_pruner.adopt(node_id, ids)
                frontier.extend(grown_children(rows, children, ids, kind, None, nodes, tracer))
        if bar is not None:
            bar.advance(1, nodes=len(nodes.value), frontier=len(frontier))
    return nodes


# -------------------------------------------------------------------- fit
class Encoded(NamedTuple):
    """Steps 1-3 of a Dask tree fit (:func:`encoded_chunks`)."""

    spec: object  # FeatureSpec of the tree's columns
    classes: object  # ndarray of labels, or None (real targets)
    preference: object  # class indices in order of first appearance, or None
    n_positive: np.ndarray  # positive-weight rows per chunk
    kind: np.ndarray  # CATEGORICAL or BINNED per attribute
    n_codes: np.ndarray
    bin_range: np.ndarray
    chunks: list  # persisted :class:`~._level_chunks.Chunk` objects
    input_spec: object  # FeatureSpec of ``X`` (``spec`` unless indicators)
    source: object  # the attribute of ``X`` each tree column comes from, or None


def encoded_chunks(dask, X, blocks, splitter, max_bins, random_state, labelled=True,
                   indicators=False):
    """Scan, bin and encode the row chunks ``blocks = (X_blocks, y_blocks,
    w_blocks)`` of ``X`` (steps 1-3 of the module doc; ``labelled`` False: real
    targets, kept as they are) as an :class:`Encoded`. ``indicators``: each
    categorical column becomes its 0/1 columns ``[A = a]`` once the scan knows
    its values (:func:`~._encode.value_indicators`, as the in-memory
    DecisionTreeRegressor does; 李航 §5.5.2), binned like numeric columns."""
    X_blocks, y_blocks, w_blocks = blocks
    columns = column_names(X)
    # numeric-typed columns' bin sample comes with the scan when the rows are known up front
    sample_cols = ([j for j, d in enumerate(column_dtypes(X))
                    if pd.api.types.is_numeric_dtype(d) and not pd.api.types.is_bool_dtype(d)]
                   if splitter == "hist" else [])
    counts = positive_counts(dask, X, w_blocks) if sample_cols else None
    plan = None if counts is None else sample_plan(counts, random_state)
    spec, classes, preference, n_positive, sample = scan(dask, X, X_blocks, y_blocks,
                                                         w_blocks, plan, sample_cols, labelled)
    if n_positive.sum() == 0:
        raise ValueError("sample_weight is zero for every sample; at least one weight must "
                         "be positive")
    input_spec, source = spec, None
    if indicators and spec.categorical.any():
        _, spec, source = value_indicators(np.empty((0, len(spec.names))), input_spec)
    kind = attribute_kinds(spec.categorical, splitter)
    if np.any(kind == NUMERIC):
        names = [spec.names[j] for j in np.flatnonzero(kind == NUMERIC)]
        raise ValueError(f"numeric columns {names} need splitter='hist' on Dask input "
                         "(exact midpoints need every node's sorted values in one process); "
                         f"got splitter={splitter!r}")
    binned = np.flatnonzero(kind == BINNED)
    edges = [np.empty(0)] * kind.shape[0]
    if binned.size:
        if source is not None:     # the scan's sample holds input columns, not indicators
            sample_cols = list(range(kind.shape[0]))
            sample = fetch_indicator_sample(dask, X_blocks, w_blocks, columns,
                                            sample_plan(n_positive, random_state), input_spec)
        elif sample is None or not set(binned) <= set(sample_cols):
            sample_cols = list(binned)
            sample = fetch_sample(dask, X_blocks, w_blocks, columns,
                                  sample_plan(n_positive, random_state), sample_cols)
        values, w_sample = sample
        for j in binned:
            edges[j] = quantile_edges(values[:, sample_cols.index(j)], max_bins, w_sample)
    n_codes = np.where(kind == BINNED, [e.size + 1 for e in edges], spec.n_codes).astype(np.int64)
    code_dtype = np.int16 if n_codes.max(initial=0) < 2**15 else np.int32
    chunks = [dask.delayed(encode_chunk)(xb, yb, wb, columns, input_spec, kind, edges, classes,
                                         code_dtype, source is not None)
              for xb, yb, wb in zip(X_blocks, y_blocks, weight_blocks(w_blocks, X_blocks))]
    chunks = list(dask.persist(*chunks))
    bin_range = np.full((kind.shape[0], 2, int(n_codes.max(initial=1))), np.nan)
    if binned.size:   # the values either side of a cut between bins, as in memory
        ranges = dask.compute(tree_reduce(dask, [dask.delayed(chunk_bin_ranges)(c)
                                                 for c in chunks], merge_bin_ranges))[0]
        bin_range[binned, :, :ranges.shape[2]] = ranges
    return Encoded(spec, classes, preference, n_positive, kind, n_codes, bin_range, chunks,
                   input_spec, source)


def fit_tree_dask(model, X, y, *, validation_data=None, sample_weight=None, prune_after=None,
                  tracer=None):
    """Fit ``model`` (a :class:`~hyperplane.tree.DecisionTreeClassifier`) on Dask input.

    ``prune_after(model, tree, validation, training, criterion)`` prunes the
    grown tree (None: no pruning); ``tracer`` records the growth.
    """
    dask = import_dask()
    if model.pruning == "pessimistic" and model.subtree_raising:
        raise ValueError("pruning='pessimistic' with subtree_raising=True re-splits the "
                         "training rows, which a Dask fit does not hold in memory; use "
                         "subtree_raising=False (J48's -S) on Dask input")
    if model.pruning in ("pre", "post"):
        if validation_data is None:
            raise ValueError(f"pruning={model.pruning!r} on Dask input needs "
                             "validation_data=(X_val, y_val) in memory: a hold-out of Dask "
                             "rows is not drawn")
        if any(is_dask_collection(part) for part in tuple(validation_data)):
            raise ValueError("validation_data must be in memory (numpy/pandas) for Dask input; "
                             "call .compute() on it")
    elif validation_data is not None:
        raise ValueError(f"validation_data is only used with pruning='pre' or 'post'; "
                         f"got pruning={model.pruning!r}")
    if y is None:
        raise ValueError("DecisionTreeClassifier requires y to be passed, but the target y "
                         "is None")
    spec, classes, preference, n_positive, kind, n_codes, bin_range, chunks, *_ = encoded_chunks(
        dask, X, training_blocks(dask, X, y, sample_weight), model.splitter, model.max_bins,
        model.random_state)
    params = model._check_params(int(n_positive.sum()))
    K = classes.size
    root_value = dask.compute(tree_reduce(dask, [dask.delayed(class_totals)(c, K)
                                                 for c in chunks], add_parts))[0]
    _set_fit_attributes(model, X, spec, classes, preference)
    validation = (model._encode_validation(validation_data) if validation_data is not None
                  else None)
    pre = PrePruner(*validation, model._label_of) if model.pruning == "pre" else None
    rules = params._replace(min_weight=c45_split_floor(kind, params))
    root = root_node(root_value, root_value.sum(), n_positive.sum(), kind.shape[0])
    if tracer is not None:
        tracer.names = spec.names
    with progress(None, "tree levels on Dask", enabled=bool(model.verbose)) as bar:
        nodes = grow_levels(dask, chunks, (kind, n_codes, bin_range, rules, K), root, pre,
                            bar=bar, tracer=tracer)
    tree = finish(nodes, rules, K, tracer)
    if prune_after is not None:
        tree = prune_after(model, tree, validation, None, params.criterion)
    model._set_tree(tree)
    return model


def fit_regressor_dask(model, X, y, *, sample_weight=None):
    """Fit ``model`` (a :class:`~hyperplane.tree.DecisionTreeRegressor` with
    ``splitter="hist"`` and ``criterion="squared_error"``) on Dask input: the
    classifier's steps 1-3 with the targets kept as numbers, then the levels
    grown from summed moment tables (:func:`moment_levels`), so the tree is
    the in-memory hist tree (李航 算法5.5 over the bins); ``ccp_alpha`` prunes
    it on the client."""
    dask = import_dask()
    if y is None:
        raise ValueError("DecisionTreeRegressor requires y to be passed, but the target y "
                         "is None")
    encoded = encoded_chunks(dask, X, training_blocks(dask, X, y, sample_weight), "hist",
                             model.max_bins, model.random_state, labelled=False,
                             indicators=True)
    kind = encoded.kind
    n_rows = int(encoded.n_positive.sum())
    rules = model._rules(n_rows)
    value, _, low, high = dask.compute(tree_reduce(
        dask, [dask.delayed(target_totals)(c) for c in encoded.chunks], merge_moment_parts))[0]
    levels = moment_levels((float(model.min_impurity_decrease), float(value[0])),
                           bool(low == high))
    _set_input_attributes(model, X, encoded.input_spec, encoded.spec, encoded.source)
    context = (kind, encoded.n_codes, encoded.bin_range, rules, N_MOMENTS)
    with progress(None, "tree levels on Dask", enabled=bool(model.verbose)) as bar:
        nodes = grow_levels(dask, encoded.chunks, context,
                            root_node(value, value[0], n_rows, kind.shape[0]), bar=bar,
                            levels=levels)
    tree = finish(nodes, rules, N_MOMENTS)
    if model.ccp_alpha > 0:
        tree = cost_complexity_prune(tree, model.ccp_alpha, rules.criterion)
    model._set_tree(tree)
    return model


def training_blocks(dask, X, y, sample_weight):
    """The aligned row chunks ``(X, y, weights)`` of a fit (:func:`row_blocks`),
    the weights relative to the lightest row, as in memory."""
    X_blocks, y_blocks, w_blocks = row_blocks(X, y, sample_weight)
    if w_blocks is not None:
        w_blocks = relative_weight_blocks(dask, w_blocks)
    return X_blocks, y_blocks, w_blocks


def root_node(value, weight, n_rows, p):
    """The root's :class:`~._state.Node` of a Dask fit: one weighted row of
    statistic ``value`` standing for the ``n_rows`` training rows."""
    return new_node(np.zeros(1, dtype=np.int64), np.array([weight]),
                    Orders(np.zeros((0, 1), dtype=np.int64), np.zeros((0, 1))),
                    np.array([n_rows], dtype=np.int64), value, 0, np.ones(p, dtype=bool),
                    Orders(np.zeros(0, dtype=np.int64), np.zeros(0)))


def merge_moment_parts(a, b):
    """Two chunks' moment tables, row counts (summed) and smallest and largest
    targets (min, max) together."""
    return a[0] + b[0], a[1] + b[1], np.fmin(a[2], b[2]), np.fmax(a[3], b[3])


def _positive_extremes(w_block):
    """The smallest and largest positive weight of a chunk (inf, 0 when none)."""
    w = np.asarray(w_block, dtype=np.float64).ravel()
    positive = w[w > 0]
    return (float(positive.min()), float(positive.max())) if positive.size else (np.inf, 0.0)


def _divided(w_block, unit):
    return w_block if unit == 1.0 else w_block / unit


def relative_weight_blocks(dask, w_blocks):
    """The weight chunks divided by the smallest positive weight of all of
    them (:func:`~._weights.relative_weights` of the in-memory fit; one pass
    over the weights, none over ``X``)."""
    extremes = dask.compute(*[dask.delayed(_positive_extremes)(wb) for wb in w_blocks])
    smallest = min(low for low, _ in extremes)
    if not np.isfinite(smallest):           # no positive weight: the scan says so
        return w_blocks
    unit = weight_unit(smallest, max(high for _, high in extremes))
    return [dask.delayed(_divided)(wb, unit) for wb in w_blocks]


def _set_fit_attributes(model, X, spec, classes, preference):
    model.classes_ = classes
    _set_input_attributes(model, X, spec)
    model._preference = preference


def _set_input_attributes(model, X, spec, tree_spec=None, source=None):
    """``n_features_in_``, ``feature_names_in_`` and the encodings of ``X``
    (``spec``) and of the tree's columns (``tree_spec``: ``spec`` unless
    indicators, whose attributes are ``source``), as the in-memory fit sets them."""
    model.n_features_in_ = len(spec.names)
    if hasattr(model, "feature_names_in_"):
        del model.feature_names_in_
    mixed = spec.categorical.any()
    if hasattr(X, "columns") and (mixed or all(isinstance(c, str) for c in X.columns)):
        # as in memory: always for mixed frames, like scikit-learn for numeric ones
        model.feature_names_in_ = np.asarray(spec.names, dtype=object)
    model._input_spec, model._source = spec, source
    model._spec = spec if tree_spec is None else tree_spec
