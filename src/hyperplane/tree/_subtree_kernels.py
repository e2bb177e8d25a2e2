"""Compiled generate_tree (周志华 4.1) for trees whose attributes are all coded.

When no attribute is exact numeric (``splitter="hist"``, or only categorical
attributes) a node's split needs nothing but the class-weight tables of its
coded attributes (:mod:`._table_kernels`), so whole subtrees are grown in one
compiled call (:func:`grow_subtree`), node by node exactly as
:func:`~._builder.grow` does in Python, without Python work per node. Two
further savings, both as in LightGBM (Ke et al. 2017, "LightGBM: a highly
efficient gradient boosting decision tree", NeurIPS, section 2.1 / algorithm 1):

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
"""

from __future__ import annotations

import numpy as np

from .._numba import jit
from ._grow_kernels import _is_leaf, choose_attribute
from ._prune_kernels import class_weights, numpy_sum
from ._split_kernels import CATEGORICAL, ordered_cut, table_split_score
from ._traverse_kernels import MISSING, branch_of_codes, partition_rows

#: nodes of at least this many rows keep their own tables and pass them on
#: to their largest child (histogram subtraction)
SUBTRACT_ROWS = 512
#: nodes with fewer rows sort their codes instead of filling tables
SORT_ROWS = 64


@jit
def accumulate_rows(codes_rows, codes_count, y, rows, w, table, counts):
    """Add rows ``rows`` (weights ``w`` by position) into every coded attribute's
    table ``table[c, code, y]`` and ``counts[c, code]`` (missing: slot ``codes_count[c]``)."""
    p = codes_rows.shape[1]
    for pos in range(rows.shape[0]):
        i = rows[pos]
        k = y[i]
        wi = w[pos]
        for c in range(p):
            code = np.int64(codes_rows[i, c])
            if code < 0:
                code = codes_count[c]
            table[c, code, k] += wi
            counts[c, code] += 1


@jit
def reset_rows(codes_rows, codes_count, rows, table, counts):
    """Zero the table entries the rows ``rows`` touched (scratch reuse)."""
    p = codes_rows.shape[1]
    for pos in range(rows.shape[0]):
        i = rows[pos]
        for c in range(p):
            code = np.int64(codes_rows[i, c])
            if code < 0:
                code = codes_count[c]
            table[c, code, :] = 0.0
            counts[c, code] = 0


@jit
def take_out_siblings(codes_rows, codes_count, y, rows, w, branch, keep, r_keep, table, counts):
    """Turn a node's tables into those of its child ``keep`` (histogram subtraction).

    Rows of other branches leave the tables; a row missing the tested value
    (``branch == MISSING``) stays in child ``keep`` with weight ``r_keep · w``,
    so it loses ``(1 − r_keep) · w`` of its weight and is still counted.
    """
    p = codes_rows.shape[1]
    for pos in range(rows.shape[0]):
        b = branch[pos]
        if b == keep:
            continue
        i = rows[pos]
        k = y[i]
        wi = w[pos] * (1.0 - r_keep) if b == MISSING else w[pos]
        for c in range(p):
            code = np.int64(codes_rows[i, c])
            if code < 0:
                code = codes_count[c]
            table[c, code, k] -= wi
            if b != MISSING:
                counts[c, code] -= 1


@jit
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


@jit
def _new_scores(p):
    """Empty per-attribute outputs ``(score, ratio, threshold, cut_bin, valid)``."""
    return (np.zeros(p), np.zeros(p), np.full(p, np.nan), np.full(p, -1, dtype=np.int64),
            np.zeros(p, dtype=np.bool_))


@jit
def score_coded(table, counts, codes_count, kind, col, edges, avail, criterion, min_leaf,
                lookup, c45, scratch):
    """Score every available attribute from the node's tables (:func:`score_table`;
    a binned attribute's non-empty bins are gathered into ``scratch`` =
    ``(bins, bin_table, bin_rows, work)`` for :func:`~._split_kernels.ordered_cut`).

    Returns ``(score, ratio, threshold, cut_bin, valid)`` per attribute.
    """
    bins, bin_table, bin_rows, work = scratch
    score, ratio, threshold, cut_bin, valid = _new_scores(kind.shape[0])
    for j in range(kind.shape[0]):
        if not avail[j]:
            continue
        c = col[j]
        n_codes = codes_count[c]
        if kind[j] == CATEGORICAL:
            s, g, _, _, ok = table_split_score(table[c, :n_codes + 1], counts[c, :n_codes + 1],
                                               criterion, min_leaf, c45)
            t, b = np.nan, -1
        else:
            d = 0
            for v in range(n_codes):
                if counts[c, v] > 0:
                    bins[d] = v
                    bin_table[d] = table[c, v]
                    bin_rows[d] = counts[c, v]
                    d += 1
            s, g, _, _, t, b, ok = ordered_cut(d, bins, bin_table, bin_rows, table[c, n_codes],
                                               n_codes, edges[c], criterion, min_leaf, lookup,
                                               work)
        score[j], ratio[j], threshold[j], cut_bin[j], valid[j] = s, g, t, b, ok
    return score, ratio, threshold, cut_bin, valid


@jit
def sorted_bins(codes, y, rows, w, keys, bins, table, n_rows, missing):
    """The non-empty bins of one binned attribute at a small node, by sorting.

    ``codes[pos]`` is the code of ``rows[pos]`` (−1 missing; fewer than 2**16
    rows). Fills ``bins``, ``table``, ``n_rows`` (first ``d`` entries) and
    ``missing`` as :func:`~._split_kernels.ordered_cut` takes them and returns
    ``d``. Every bin sums its rows in the node's row order from 0, so the
    numbers are exactly those of the node's class table.
    """
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


@jit
def _insertion_sort(keys, n):
    """Sort ``keys[:n]`` in place (the few keys of a small node)."""
    for i in range(1, n):
        key = keys[i]
        j = i - 1
        while j >= 0 and keys[j] > key:
            keys[j + 1] = keys[j]
            j -= 1
        keys[j + 1] = key


@jit
def small_node_scores(codes_rows, codes_count, kind, col, edges, y, rows, w, avail, n_classes,
                      criterion, min_leaf, lookup, c45, scratch, keys):
    """:func:`score_coded` of a small node without the full tables: binned
    attributes via :func:`sorted_bins`, categorical ones via their own table."""
    bins, bin_table, bin_rows, work = scratch
    m = rows.shape[0]
    node_codes = np.empty((codes_rows.shape[1], m), dtype=codes_rows.dtype)
    for pos in range(m):
        node_codes[:, pos] = codes_rows[rows[pos]]
    score, ratio, threshold, cut_bin, valid = _new_scores(kind.shape[0])
    missing = np.empty(n_classes)
    for j in range(kind.shape[0]):
        if not avail[j]:
            continue
        c = col[j]
        if kind[j] == CATEGORICAL:
            table = np.zeros((codes_count[c] + 1, n_classes))
            n_rows = np.zeros(codes_count[c] + 1, dtype=np.int64)
            for pos in range(m):
                code = np.int64(node_codes[c, pos])
                if code < 0:
                    code = codes_count[c]
                table[code, y[rows[pos]]] += w[pos]
                n_rows[code] += 1
            s, g, _, _, ok = table_split_score(table, n_rows, criterion, min_leaf, c45)
            t, b = np.nan, -1
        else:
            d = sorted_bins(node_codes[c], y, rows, w, keys, bins, bin_table, bin_rows, missing)
            s, g, _, _, t, b, ok = ordered_cut(d, bins, bin_table, bin_rows, missing,
                                               codes_count[c], edges[c], criterion, min_leaf,
                                               lookup, work)
        score[j], ratio[j], threshold[j], cut_bin[j], valid[j] = s, g, t, b, ok
    return score, ratio, threshold, cut_bin, valid


@jit
def _release(slot, pool_t, pool_n, free):
    """Give a table buffer back (zeroed) to the pool."""
    if slot >= 0:
        pool_t[slot][:] = 0.0
        pool_n[slot][:] = 0
        free.append(slot)


@jit
def _acquire(pool_t, pool_n, free):
    """A zeroed table buffer from the pool (a new one if none is free)."""
    if len(free) > 0:
        return free.pop()
    pool_t.append(np.zeros_like(pool_t[0]))
    pool_n.append(np.zeros_like(pool_n[0]))
    return len(pool_t) - 1


@jit
def grow_subtree(codes_rows, codes_T, codes_count, kind, col, edges, y, rows, w, avail, value,
                 depth, n_classes, criterion, use_ratio, max_depth, min_split, min_leaf, clogc,
                 min_weight, subtract_rows, sort_rows, defer_rows):
    """Grow the subtree below one node depth first (generate_tree, 周志华 4.1).

    The node has rows ``rows`` with weights ``w``, class weights ``value``,
    depth ``depth`` and attributes ``avail`` left. Every step is the one
    :func:`~._builder.grow` takes in Python: the leaf conditions
    (``_is_leaf``, ``min_weight`` as :func:`~._builder.c45_split_floor`), the
    scores of :func:`score_table`, the attribute of ``choose_attribute``, C4.5's
    fractional rows (:func:`partition_rows`), an empty branch as a leaf with
    the parent's class weights. Nodes of at least ``subtract_rows`` rows pass
    their tables on to their largest child (:func:`take_out_siblings`); nodes
    below ``sort_rows`` rows are scored by :func:`small_node_scores`.

    Returns local node arrays ``(feature, cut, first_child, n_child, branch_r,
    value, weight, depth, leaf_weight)``: node 0 is the given node, the
    children of node ``t`` are ``first_child[t] .. first_child[t] + n_child[t] − 1``,
    ``cut`` is the threshold of a binned test (NaN: categorical) and
    ``leaf_weight`` the total weight that ended in leaves. Nodes below
    ``defer_rows`` rows (other than node 0) are left unexpanded and returned
    as ``(ids, rows, w, avail)`` lists, to be grown by further calls
    (side by side, as they are independent).
    """
    p_coded = codes_rows.shape[1]
    width = 0
    for c in range(p_coded):
        width = max(width, codes_count[c])
    pool_t = [np.zeros((p_coded, width + 1, n_classes))]
    pool_n = [np.zeros((p_coded, width + 1), dtype=np.int64)]
    free = [0]
    free.pop()  # slot 0 is the small nodes' scratch, never handed out
    size = max(width, sort_rows)
    scratch = (np.empty(size, dtype=np.int64), np.empty((size, n_classes)),
               np.empty(size, dtype=np.int64), np.empty((4, n_classes)))
    keys = np.empty(sort_rows, dtype=np.int64)
    empty = clogc[:0]
    feature = [-1]
    cut = [np.nan]
    first_child = [0]
    n_child = [0]
    branch_r = [1.0]
    values = [value]
    weight = [numpy_sum(value)]
    depths = [depth]
    leaf_weight = 0.0
    deferred_ids = [0]
    deferred_rows = [rows]
    deferred_w = [w]
    deferred_avail = [avail]
    deferred_ids.pop()  # typed by their first element, which goes again
    deferred_rows.pop()
    deferred_w.pop()
    deferred_avail.pop()
    stack = [(0, rows, w, avail, -1)]
    while len(stack) > 0:
        node, rows, w, avail, slot = stack.pop()
        value = values[node]
        m = rows.shape[0]
        if node > 0 and m < defer_rows:
            _release(slot, pool_t, pool_n, free)
            deferred_ids.append(node)
            deferred_rows.append(rows)
            deferred_w.append(w)
            deferred_avail.append(avail)
            continue
        if _is_leaf(value, m, depths[node], np.any(avail), use_ratio, max_depth, min_split,
                    min_weight):
            _release(slot, pool_t, pool_n, free)
            leaf_weight += w.sum()
            continue
        unit = np.all(w == 1.0)
        lookup = clogc if unit else empty
        if slot < 0 and m < sort_rows:
            score, ratio, threshold, cut_bin, valid = small_node_scores(
                codes_rows, codes_count, kind, col, edges, y, rows, w, avail, n_classes,
                criterion, min_leaf, lookup, use_ratio, scratch, keys)
        else:
            if slot >= 0:
                clean_derived_tables(pool_t[slot], pool_n[slot], unit)
            elif m >= subtract_rows:
                slot = _acquire(pool_t, pool_n, free)
                accumulate_rows(codes_rows, codes_count, y, rows, w, pool_t[slot], pool_n[slot])
            else:
                accumulate_rows(codes_rows, codes_count, y, rows, w, pool_t[0], pool_n[0])
            score, ratio, threshold, cut_bin, valid = score_coded(
                pool_t[max(slot, 0)], pool_n[max(slot, 0)], codes_count, kind, col, edges,
                avail, criterion, min_leaf, lookup, use_ratio, scratch)
            if slot < 0:
                reset_rows(codes_rows, codes_count, rows, pool_t[0], pool_n[0])
        j = choose_attribute(score, ratio, valid, use_ratio)
        if j < 0:
            _release(slot, pool_t, pool_n, free)
            leaf_weight += w.sum()
            continue
        c = col[j]
        numeric = kind[j] != CATEGORICAL
        branch = branch_of_codes(codes_T[c], rows, numeric, cut_bin[j])
        n_branches = 2 if numeric else codes_count[c]
        w_branch = np.zeros(n_branches)
        for pos in range(m):
            if branch[pos] != MISSING:
                w_branch[branch[pos]] += w[pos]
        r = w_branch / numpy_sum(w_branch)
        child_rows, child_w, offsets = partition_rows(rows, w, branch, r)
        child_avail = avail
        if not numeric:
            child_avail = avail.copy()
            child_avail[j] = False
        feature[node] = j
        cut[node] = threshold[j]
        first_child[node] = len(feature)
        n_child[node] = n_branches
        largest = -1
        for v in range(n_branches):
            if w_branch[v] > 0.0 and (largest < 0 or offsets[v + 1] - offsets[v]
                                      > offsets[largest + 1] - offsets[largest]):
                largest = v
        child_slot = -1
        if slot >= 0 and largest >= 0 and offsets[largest + 1] - offsets[largest] >= subtract_rows:
            take_out_siblings(codes_rows, codes_count, y, rows, w, branch, largest, r[largest],
                              pool_t[slot], pool_n[slot])
            child_slot = slot
        else:
            _release(slot, pool_t, pool_n, free)
        first = len(feature)
        for v in range(n_branches):
            grown = w_branch[v] > 0.0
            a, b = offsets[v], offsets[v + 1]
            child_value = class_weights(y, child_rows[a:b], child_w[a:b], n_classes) \
                if grown else value
            feature.append(-1)
            cut.append(np.nan)
            first_child.append(0)
            n_child.append(0)
            branch_r.append(r[v])
            values.append(child_value)
            weight.append(numpy_sum(child_value) if grown else 0.0)
            depths.append(depths[node] + 1)
        for v in range(n_branches - 1, -1, -1):
            if w_branch[v] > 0.0:
                a, b = offsets[v], offsets[v + 1]
                stack.append((first + v, child_rows[a:b].copy(), child_w[a:b].copy(),
                              child_avail, child_slot if v == largest else -1))
    n_nodes = len(feature)
    value_out = np.empty((n_nodes, n_classes))
    for t in range(n_nodes):
        value_out[t] = values[t]
    nodes = (np.array(feature), np.array(cut), np.array(first_child), np.array(n_child),
             np.array(branch_r), value_out, np.array(weight), np.array(depths), leaf_weight)
    return nodes, (deferred_ids, deferred_rows, deferred_w, deferred_avail)
