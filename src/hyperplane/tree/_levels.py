"""DecisionTreeClassifier on Dask: the tree grown level by level from summed chunk tables.

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

Pessimistic and cost-complexity pruning then run on the client from the node
class weights; reduced-error pre/post pruning (周志华 4.3) use validation data
held in memory. Numeric attributes need ``splitter="hist"``: exact midpoints
would need every node's sorted values.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._progress import progress
from .._validation import is_dask_collection
from ..distributed._dask import add_parts, import_dask, tree_reduce
from ._builder import (_Nodes, attach_children, attribute_kinds, c45_split_floor, finish,
                       grown_children)
from ._encode import quantile_edges
from ._expand_kernels import (GROW, NO_SPLIT, PRE_PRUNED, choose_attribute, expand_node,
                              leaf_reason, new_splits, put_split)
from ._level_chunks import (chunk_bin_ranges, class_totals, column_dtypes, column_names,
                            encode_chunk, fetch_sample, merge_bin_ranges, positive_counts,
                            row_blocks, sample_plan, scan, weight_blocks)
from ._level_kernels import route_to_frontier
from ._prune import PrePruner
from ._numeric_cut_kernels import score_table
from ._split_kernels import BINNED, CATEGORICAL, NUMERIC, c_log2_c
from ._state import Columns, Node, TreeArrays
from ._table_kernels import level_class_tables
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


def level_pass(dask, chunks, nodes, cut, frontier, n_codes, n_classes):
    """Summed class tables of the ``frontier`` nodes (:func:`level_class_tables` layout).

    Returns ``(tables, n_rows, n_not_unit)`` of shapes ``(len(frontier), p,
    width + 1, K)``, ``(len(frontier), p, width + 1)`` and ``(len(frontier),)``;
    ``n_not_unit`` counts the rows at a node whose weight is not 1.
    """
    tree, slot_of, stack = _routing(nodes, cut, frontier)
    structure = dask.delayed((tree, slot_of), traverse=False)
    parts = [dask.delayed(_chunk_tables)(chunk, structure, stack, n_codes, len(frontier),
                                         n_classes) for chunk in chunks]
    return dask.compute(tree_reduce(dask, parts, add_parts))[0]


def _chunk_tables(chunk, structure, stack, n_codes, n_slots, n_classes):
    codes, y, w = chunk.codes, chunk.y, chunk.w
    rows, slots, weights = route_to_frontier(codes, w, *structure, stack)
    tables, n_rows = level_class_tables(codes.T, n_codes, y, rows, slots, weights, n_slots,
                                        n_classes)
    return tables, n_rows, np.bincount(slots[weights != 1.0], minlength=n_slots)


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
    rows = Node(np.arange(m, dtype=np.int64), table.ravel()[cells],
                np.zeros((0, m), dtype=np.int64), np.zeros((0, m)),
                np.where(first, n_rows[value_of], 0).astype(np.int64), node.value, node.depth,
                node.avail, np.zeros(0, dtype=np.int64), np.zeros(0))
    return rows, columns


def expand_level_node(node, tables, n_rows, splits, context):
    """:func:`~._expand_kernels.expand_node` of a node known by its summed tables:
    ``(children, rows)`` with the weighted rows of :func:`table_rows`, or
    ``(None, node)`` when no attribute is admissible."""
    kind, n_codes, bin_range, rules, n_classes = context
    j = choose_attribute(splits, rules.c45)
    if j < 0:
        return None, node
    width = n_codes[j] + 1
    rows, columns = table_rows(tables[j, :width], n_rows[j, :width], j, node, kind, n_codes,
                               bin_range)
    return expand_node(rows, splits, columns, rules, n_classes, np.zeros(0, dtype=np.int64),
                       None), rows


def grow_levels(dask, chunks, context, root, pre_pruner=None, bar=None, tracer=None):
    """generate_tree level by level; returns the growing storage.

    ``context = (kind, n_codes, bin_range, rules, n_classes)``; ``root`` the
    root's :class:`~._state.Node` (its ``count`` holds its row
    count). ``pre_pruner`` (:class:`~._prune.PrePruner`) may veto a split;
    its state is per node, so the level order decides as depth first does.
    ``bar`` (a progress reporter) advances once per level; ``tracer``
    (:class:`~._trace.Tracer`) records every node.
    """
    kind, n_codes, bin_range, rules, n_classes = context
    nodes, cut = _Nodes(), {}
    root_id = nodes.add(root.value, 0, 1.0, root.value.sum())
    n_root = int(root.count.sum())
    clogc = c_log2_c(n_root)
    frontier = [(root_id, root)]
    reason = leaf_reason(root.value, n_root, 0, True, rules)
    if reason != GROW:
        frontier = []
        if tracer is not None:
            tracer.leaf(root_id, root, reason)
    per_slot = kind.shape[0] * (int(n_codes.max()) + 1) * (n_classes + 1) * 8
    batch = max(1, TABLE_BYTES // per_slot)
    while frontier:
        expand, frontier = frontier, []
        for start in range(0, len(expand), batch):
            group = expand[start:start + batch]
            tables, counts, not_unit = level_pass(dask, chunks, nodes, cut, group, n_codes,
                                                  n_classes)
            for (node_id, node), table, count, other in zip(group, tables, counts, not_unit):
                splits = node_splits(table, count, node, kind, n_codes, bin_range, rules,
                                     clogc if other == 0 else clogc[:0])
                children, rows = expand_level_node(node, table, count, splits, context)
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
    X_blocks, y_blocks, w_blocks = row_blocks(X, y, sample_weight)
    if w_blocks is not None:                # the lightest row weighs 1, as in memory
        w_blocks = relative_weight_blocks(dask, w_blocks)
    columns = column_names(X)
    # numeric-typed columns' bin sample comes with the scan when the rows are known up front
    sample_cols = ([j for j, d in enumerate(column_dtypes(X))
                    if pd.api.types.is_numeric_dtype(d) and not pd.api.types.is_bool_dtype(d)]
                   if model.splitter == "hist" else [])
    counts = positive_counts(dask, X, w_blocks) if sample_cols else None
    plan = None if counts is None else sample_plan(counts, model.random_state)
    spec, classes, preference, n_positive, sample = scan(dask, X, X_blocks, y_blocks,
                                                         w_blocks, plan, sample_cols)
    if n_positive.sum() == 0:
        raise ValueError("sample_weight is zero for every sample; at least one weight must "
                         "be positive")
    params = model._check_params(int(n_positive.sum()))
    kind = attribute_kinds(spec.categorical, model.splitter)
    if np.any(kind == NUMERIC):
        names = [spec.names[j] for j in np.flatnonzero(kind == NUMERIC)]
        raise ValueError(f"numeric columns {names} need splitter='hist' on Dask input "
                         "(exact midpoints need every node's sorted values in one process); "
                         f"got splitter={model.splitter!r}")
    binned = np.flatnonzero(kind == BINNED)
    edges = [np.empty(0)] * kind.shape[0]
    if binned.size:
        if sample is None or not set(binned) <= set(sample_cols):
            sample_cols = list(binned)
            sample = fetch_sample(dask, X_blocks, w_blocks, columns,
                                  sample_plan(n_positive, model.random_state), sample_cols)
        values, w_sample = sample
        for j in binned:
            edges[j] = quantile_edges(values[:, sample_cols.index(j)], model.max_bins, w_sample)
    n_codes = np.where(kind == BINNED, [e.size + 1 for e in edges], spec.n_codes).astype(np.int64)
    code_dtype = np.int16 if n_codes.max(initial=0) < 2**15 else np.int32
    chunks = [dask.delayed(encode_chunk)(xb, yb, wb, columns, spec, kind, edges, classes,
                                         code_dtype)
              for xb, yb, wb in zip(X_blocks, y_blocks, weight_blocks(w_blocks, X_blocks))]
    chunks = list(dask.persist(*chunks))
    bin_range = np.full((kind.shape[0], 2, int(n_codes.max(initial=1))), np.nan)
    if binned.size:   # the values either side of a cut between bins, as in memory
        ranges = dask.compute(tree_reduce(dask, [dask.delayed(chunk_bin_ranges)(c)
                                                 for c in chunks], merge_bin_ranges))[0]
        bin_range[binned, :, :ranges.shape[2]] = ranges
    K = classes.size
    root_value = dask.compute(tree_reduce(dask, [dask.delayed(class_totals)(c, K)
                                                 for c in chunks], add_parts))[0]
    _set_fit_attributes(model, X, spec, classes, preference)
    validation = (model._encode_validation(validation_data) if validation_data is not None
                  else None)
    pre = PrePruner(*validation, model._label_of) if model.pruning == "pre" else None
    rules = params._replace(min_weight=c45_split_floor(kind, params))
    root = Node(np.zeros(1, dtype=np.int64), np.array([root_value.sum()]),
                np.zeros((0, 1), dtype=np.int64), np.zeros((0, 1)),
                np.array([n_positive.sum()], dtype=np.int64),
                root_value, 0, np.ones(kind.shape[0], dtype=bool), np.zeros(0, dtype=np.int64),
                np.zeros(0))
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
    model.n_features_in_ = len(spec.names)
    if hasattr(model, "feature_names_in_"):
        del model.feature_names_in_
    mixed = spec.categorical.any()
    if hasattr(X, "columns") and (mixed or all(isinstance(c, str) for c in X.columns)):
        # as in memory: always for mixed frames, like scikit-learn for numeric ones
        model.feature_names_in_ = np.asarray(spec.names, dtype=object)
    model._spec = spec
    model._input_spec, model._source = spec, None     # multiway splits only (no indicators)
    model._preference = preference
