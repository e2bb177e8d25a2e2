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
   :func:`._tree_kernels.route_to_frontier`) and returns the tables of the
   frontier nodes (:func:`~hyperplane.tree._table_kernels.level_class_tables`,
   the tree's own kernel); the tables are
   summed by a tree reduction on the cluster and the client scores them with
   the in-memory :func:`~hyperplane.tree._split_kernels.score_table` and
   :func:`~hyperplane.tree._builder.select_attribute` and grows the nodes with
   the in-memory helpers, so the tree is the same.

Steps 1-3 read ``X`` (:mod:`._tree_chunks`); step 4 and the fit are here.

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
from ..tree._builder import (_Nodes, attach_children, attribute_kinds, branch_weights,
                             child_availability, finalize, is_final, select_attribute)
from ..tree._encode import quantile_edges
from ..tree._classes import AFTER_GROWTH
from ..tree._prune import PrePruner
from ..tree._split_kernels import BINNED, CATEGORICAL, NUMERIC, c_log2_c, score_table
from ..tree._table_kernels import level_class_tables
from ._dask import add_parts, import_dask, tree_reduce
from ._tree_chunks import (class_totals, column_dtypes, column_names, encode_chunk,
                           fetch_sample, positive_counts, row_blocks, sample_plan, scan,
                           weight_blocks)
from ._tree_kernels import route_to_frontier

#: largest summed table (bytes) of one level pass; bigger frontiers take several passes
TABLE_BYTES = 64 * 2**20


# ---------------------------------------------------------------- 4. levels
def _routing(nodes, cut, frontier):
    """The tree grown so far as flat arrays (growing-storage ids) for :func:`route_to_frontier`."""
    m = len(nodes.feature)
    child_start, n_child, children = nodes.links()
    slot_of = np.full(m, -1, dtype=np.int64)
    slot_of[[node for node, _, _ in frontier]] = np.arange(len(frontier))
    depth = max(nodes.depth) + 1
    fan_out = int(n_child.max()) if m else 1
    return (np.array(nodes.feature, dtype=np.int64), np.array(nodes.is_numeric, dtype=np.bool_),
            np.array([cut.get(t, -1) for t in range(m)], dtype=np.int64), child_start, n_child,
            children if children.size else np.zeros(1, dtype=np.int64),
            np.array(nodes.branch_r), slot_of, depth * max(fan_out, 1) + 2)


def level_pass(dask, chunks, nodes, cut, frontier, n_codes, n_classes):
    """Summed class tables of the ``frontier`` nodes (:func:`level_class_tables` layout).

    Returns ``(tables, n_rows, n_not_unit)`` of shapes ``(len(frontier), p,
    width + 1, K)``, ``(len(frontier), p, width + 1)`` and ``(len(frontier),)``;
    ``n_not_unit`` counts the rows at a node whose weight is not 1.
    """
    *structure, stack = _routing(nodes, cut, frontier)
    structure = dask.delayed(tuple(structure), traverse=False)
    parts = [dask.delayed(_chunk_tables)(chunk, structure, stack, n_codes, len(frontier),
                                         n_classes) for chunk in chunks]
    return dask.compute(tree_reduce(dask, parts, add_parts))[0]


def _chunk_tables(chunk, structure, stack, n_codes, n_slots, n_classes):
    codes, y, w = chunk
    rows, slots, weights = route_to_frontier(codes, w, *structure, stack)
    tables, n_rows = level_class_tables(codes.T, n_codes, y, rows, slots, weights, n_slots,
                                        n_classes)
    return tables, n_rows, np.bincount(slots[weights != 1.0], minlength=n_slots)


def split_node(tables, n_rows, avail, kind, n_codes, edges, params, lookup):
    """Score every available attribute from a node's summed tables; the chosen test or None.

    ``tables[j, :n_codes[j] + 1]`` / ``n_rows[j, ...]`` are attribute ``j``'s
    class weights and row counts per value (last: missing); ``lookup`` is the
    ``c log2 c`` table when every row at the node weighs 1 (else empty), as
    the in-memory builder passes it. Returns ``(j,
    numeric, threshold, cut_bin, w_branch, r, child_values, child_rows)`` with
    the same rules as the in-memory builder.
    """
    p = kind.shape[0]
    score, ratio = np.zeros(p), np.zeros(p)
    threshold, cut_bin, valid = np.full(p, np.nan), np.full(p, -1), np.zeros(p, dtype=bool)
    for j in np.flatnonzero(avail):
        width = n_codes[j] + 1
        s, g, _, _, t, b, ok = score_table(tables[j, :width], n_rows[j, :width],
                                           kind[j] == CATEGORICAL, edges[j], params.criterion,
                                           params.min_leaf, lookup, params.use_ratio)
        score[j], ratio[j], threshold[j], cut_bin[j], valid[j] = s, g, t, b, ok
    j = select_attribute(score, ratio, valid, params.use_ratio)
    if j < 0:
        return None
    counts, rows = tables[j, :n_codes[j] + 1], n_rows[j, :n_codes[j] + 1]
    if kind[j] == CATEGORICAL:
        branches, branch_rows = counts[:-1], rows[:-1]
    else:
        b = cut_bin[j] + 1
        branches = np.stack([counts[:b].sum(axis=0), counts[b:-1].sum(axis=0)])
        branch_rows = np.array([rows[:b].sum(), rows[b:-1].sum()])
    w_branch, r = branch_weights(branches.sum(axis=1))
    child_values = [branches[v] + r[v] * counts[-1] for v in range(len(r))]
    child_rows = branch_rows + rows[-1]
    return j, kind[j] != CATEGORICAL, threshold[j], cut_bin[j], w_branch, r, child_values, \
        child_rows


def grow_levels(dask, chunks, kind, n_codes, edges, params, n_classes, root_value, n_rows,
                pre_pruner=None, bar=None):
    """generate_tree level by level; returns the growing storage.

    ``pre_pruner`` (:class:`~hyperplane.tree._prune.PrePruner`) may veto a
    split; its state is per node, so the level order decides as depth first does.
    ``bar`` (a progress reporter) advances once per level.
    """
    nodes, cut = _Nodes(), {}
    root = nodes.add(root_value, 0, 1.0, root_value.sum())
    frontier = [(root, np.ones(kind.shape[0], dtype=bool), n_rows)]
    clogc = c_log2_c(n_rows)
    per_slot = kind.shape[0] * (int(n_codes.max()) + 1) * (n_classes + 1) * 8
    batch = max(1, TABLE_BYTES // per_slot)
    while frontier:
        expand = [(t, a, n) for t, a, n in frontier
                  if not is_final(nodes.value[t], nodes.depth[t], n, a, params)]
        frontier = []
        for start in range(0, len(expand), batch):
            group = expand[start:start + batch]
            tables, counts, not_unit = level_pass(dask, chunks, nodes, cut, group, n_codes,
                                                  n_classes)
            for (node, avail, _), table, count, other in zip(group, tables, counts, not_unit):
                found = split_node(table, count, avail, kind, n_codes, edges, params,
                                   clogc if other == 0 else clogc[:0])
                if found is None:
                    continue
                j, numeric, threshold, cut_bin, w_branch, r, child_values, child_rows = found
                test = (j, numeric, threshold)
                if pre_pruner is not None and not pre_pruner.allows(
                        node, nodes.value[node], child_values, r, test):
                    continue
                cut[node] = cut_bin
                grown = attach_children(nodes, node, test, nodes.value[node], w_branch, r,
                                        child_values)
                if pre_pruner is not None:
                    pre_pruner.adopt(node, nodes.kids[node])
                child_avail = child_availability(avail, j, numeric)
                frontier.extend((child, child_avail, child_rows[v]) for v, child in grown)
        if bar is not None:
            bar.advance(1, nodes=len(nodes.value), frontier=len(frontier))
    return nodes


# -------------------------------------------------------------------- fit
def fit_tree_dask(model, X, y, *, validation_data=None, sample_weight=None):
    """Fit ``model`` (a :class:`~hyperplane.tree.DecisionTreeClassifier`) on Dask input."""
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
    K = classes.size
    root_value = dask.compute(tree_reduce(dask, [dask.delayed(class_totals)(c, K)
                                                 for c in chunks], add_parts))[0]
    _set_fit_attributes(model, X, spec, classes, preference)
    validation = (model._encode_validation(validation_data) if validation_data is not None
                  else None)
    pre = PrePruner(*validation, model._label_of) if model.pruning == "pre" else None
    with progress(None, "tree levels on Dask", enabled=bool(model.verbose)) as bar:
        nodes = grow_levels(dask, chunks, kind, n_codes, edges, params, K, root_value,
                            int(n_positive.sum()), pre, bar=bar)
    tree = finalize(nodes, params.criterion, K)
    prune_after = AFTER_GROWTH.get(model.pruning)
    if prune_after is not None:
        tree = prune_after(model, tree, validation, None, params.criterion)
    model._set_tree(tree)
    return model


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
    model._preference = preference
