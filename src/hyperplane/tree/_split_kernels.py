"""Compiled split search: impurities, class-count tables and the per-node scan.

Every function here is a pure function of arrays (no self, no I/O). The
statistics a split needs are *class-weight tables*: for an attribute with
``n_codes`` values (categories, or quantile bins of a numeric attribute) the
table ``T[v, k]`` holds the total weight of the samples of class ``k`` whose
value is ``v``; the last row ``T[n_codes, k]`` holds the samples whose value
is missing. Tables of two data chunks add up (:func:`accumulate_class_table`
only ever adds), so a distributed fit can grow a tree level by level by
summing per-chunk tables and calling :func:`table_split_score` /
:func:`ordered_table_cut` on the sum.

Exact numeric attributes are scanned in the order of their sorted values
(:func:`best_numeric_cut`); the order is computed once at the root and
partitioned, never re-sorted, as the tree grows. Scoring every attribute of
a node is :mod:`._node_kernels`.

Scores follow 周志华《机器学习》4.2 and 4.4.2: with ρ the weight fraction of
samples whose value is known and ``r_v`` the fraction of known weight in
branch ``v``,

``score = ρ · (I(D̃) − Σ_v r_v I(D̃_v))``

where ``I`` is the entropy (information gain) or the Gini value (for Gini the
book's Gini index ``Σ_v r_v Gini(D̃_v)`` is returned as ``after``). The gain
ratio is ``score / IV`` with the intrinsic value ``IV = −Σ_v r_v log2 r_v``.
"""

from __future__ import annotations

import numpy as np

from .._numba import jit
from ._state import Scratch

ENTROPY = 0
GINI = 1

#: how a numeric scan scores a cut (:func:`best_numeric_cut`): Gini from sums of squared
#: class weights, the same sums kept up to date one row at a time (integer counts),
#: entropy from c log2 c looked up (integer counts) or computed
GINI_SUMS = 0
GINI_COUNTS = 1
CLOGC_LOOKUP = 2
LOG2_TERMS = 3
#: integer counts below this have squares and sums of squares exact in float64 (2^26)
EXACT_COUNTS = 2.0**26

#: numeric-kind codes of an attribute
NUMERIC = 0
CATEGORICAL = 1
BINNED = 2

#: relative round-off of a sum of weights: cuts of one attribute whose quality differs
#: by less are tied (the smaller threshold wins), and a side lighter than this is empty
ROUND_OFF = 1e-12
#: absolute slack of a "weighs at least" test (min_samples_leaf, C4.5's minimum per side)
WEIGHT_TOL = 1e-9
#: C4.5's minimum weight of each side of a numeric cut is at most this (MINOBJS cap) ...
C45_MIN_SIDE_CAP = 25.0
#: ... and at least this fraction of the node's known weight per class (Quinlan 1996)
C45_MIN_SIDE_FRACTION = 0.1
#: C4.5 release 8 (J48): numeric values closer than this are one value
C45_EQUAL = 1e-5
#: C4.5 release 8 (J48, Weka's ``Utils.SMALL``): gains (bits per unit of weight), thresholds
#: and the pruning's error estimates and branch weights closer than this are tied
C45_TIE = 1e-6


@jit
def c45_min_side(min_leaf, w_known, n_classes):
    """C4.5's minimum weight of each side of a numeric cut (release 8, Quinlan 1996):
    ``min(25, max(M, 0.1 W̃ / K))``."""
    return min(C45_MIN_SIDE_CAP, max(min_leaf, C45_MIN_SIDE_FRACTION * w_known / n_classes))


@jit
def impurity(counts, total, criterion):
    """Ent(D) = −Σ p_k log2 p_k (``criterion=0``) or Gini(D) = 1 − Σ p_k² (1)."""
    if total <= 0.0:
        return 0.0
    acc = 0.0
    if criterion == ENTROPY:
        for c in counts:
            p = c / total
            if p > 0.0:
                acc -= p * np.log2(p)
        return acc
    for c in counts:
        p = c / total
        acc += p * p
    return 1.0 - acc


@jit
def squared_sums(left, right):
    """(Σ_k left_k², Σ_k right_k²): the Gini index's sums for both sides of a cut."""
    sq_l = 0.0
    sq_r = 0.0
    for k in range(left.shape[0]):
        sq_l += left[k] * left[k]
        sq_r += right[k] * right[k]
    return sq_l, sq_r


@jit
def _known_part(table):
    """Class weights of the rows with a known value, their total, and the total with missing."""
    n_codes = table.shape[0] - 1
    known = np.zeros(table.shape[1])
    for v in range(n_codes):
        for k in range(table.shape[1]):
            known[k] += table[v, k]
    w_known = known.sum()
    return known, w_known, w_known + table[n_codes].sum()


@jit
def c45_split_info(w_branches, w_missing):
    """C4.5's split information: the missing weight counts as one more branch,
    ``−Σ_v W_v/W log2(W_v/W) − W_?/W log2(W_?/W)`` with ``W`` all the node's weight."""
    total = w_branches.sum() + w_missing
    iv = 0.0
    for w_v in w_branches:
        if w_v > 0.0:
            iv -= w_v / total * np.log2(w_v / total)
    if w_missing > 0.0:
        iv -= w_missing / total * np.log2(w_missing / total)
    return iv


@jit
def table_split_score(table, n_rows, criterion, min_leaf, c45=False):
    """Score a multiway split (one branch per value) from its class-weight table.

    Returns ``(score, gain_ratio, after, rho, valid)``; a split is valid when
    at least two branches are non-empty and every non-empty branch holds at
    least ``min_leaf`` rows with a known value. ``c45`` (J48's rules, for
    ``criterion="gain_ratio"``): valid when at least two branches *weigh* at
    least ``min_leaf`` (smaller and empty branches are allowed), and the gain
    ratio divides by :func:`c45_split_info`.
    """
    n_codes = table.shape[0] - 1
    known, w_known, w_total = _known_part(table)
    if w_known <= 0.0:
        return 0.0, 0.0, 0.0, 0.0, False
    after = 0.0
    iv = 0.0
    n_nonempty = 0
    n_heavy = 0
    valid = True
    w_branches = np.zeros(n_codes)
    for v in range(n_codes):
        if n_rows[v] == 0:
            continue
        w_v = table[v].sum()
        w_branches[v] = w_v
        if w_v >= min_leaf - WEIGHT_TOL:
            n_heavy += 1
        if w_v > 0.0:
            n_nonempty += 1
            if n_rows[v] < min_leaf:
                valid = False
            r_v = w_v / w_known
            after += r_v * impurity(table[v], w_v, criterion)
            iv -= r_v * np.log2(r_v)
    rho = w_known / w_total
    score = rho * (impurity(known, w_known, criterion) - after)
    if c45:
        iv = c45_split_info(w_branches, w_total - w_known)
        valid = n_heavy >= 2
    ratio = score / iv if iv > 0.0 else 0.0
    return score, ratio, after, rho, valid and n_nonempty >= 2


@jit
def _binary_score(left, right, w_left, w_right, base, criterion):
    """(I(D̃) − Σ r_v I(D̃_v), after, IV) of a two-way cut."""
    w_known = w_left + w_right
    r_l = w_left / w_known
    r_r = w_right / w_known
    after = r_l * impurity(left, w_left, criterion) + r_r * impurity(right, w_right, criterion)
    iv = -r_l * np.log2(r_l) - r_r * np.log2(r_r)
    return base - after, after, iv


@jit
def _weighted_purity(counts, total, criterion):
    """−total · I(counts): cheap to update during a scan, larger is purer.

    Gini: Σ c²/W − W; entropy: Σ c log2 c − W log2 W.
    """
    acc = 0.0
    if criterion == GINI:
        for c in counts:
            acc += c * c
        return acc / total - total
    for c in counts:
        if c > 0.0:
            acc += c * np.log2(c)
    return acc - total * np.log2(total)


@jit
def ordered_table_cut(table, n_rows, edges, criterion, min_leaf, clogc):
    """Best two-way cut ``code <= b`` of an ordered (binned) attribute's table.

    ``edges[b]`` is the real threshold of the cut after bin ``b``. Between
    equally good cuts the smaller threshold wins. ``clogc``: the table
    ``c log2 c`` when every weight is 1 (entropy terms looked up), else empty.
    The scan itself is :func:`ordered_cut` over the non-empty bins.
    Returns
    ``(score, gain_ratio, after, rho, threshold, cut_bin, valid)``.
    """
    n_codes = table.shape[0] - 1
    bins = np.flatnonzero(n_rows[:n_codes] > 0)
    scratch = Scratch(bins, table[bins], n_rows[bins], np.empty((4, table.shape[1])), bins[:0])
    return ordered_cut(bins.size, scratch, table[n_codes], n_codes, edges, criterion, min_leaf,
                       clogc)


@jit
def ordered_cut(d, scratch, missing, n_codes, edges, criterion, min_leaf, clogc):
    """:func:`ordered_table_cut` from the non-empty bins only.

    In the :class:`~._state.Scratch` ``scratch``, ``bins[:d]`` are the
    non-empty bins in increasing order, ``bin_table[e]`` / ``bin_rows[e]``
    the class weights / rows of bin ``bins[e]`` (of ``n_codes``)
    and ``missing`` the class weights of the rows missing the value. The scan
    visits the bins in order, so it costs the node's distinct values, not the
    number of bins. ``work``: scratch of shape ``(4, K)`` (no allocation per call).
    """
    bins, table, n_rows, work = scratch.bins, scratch.bin_table, scratch.bin_rows, scratch.work
    n_classes = table.shape[1]
    known, left, right, best_left = work[0], work[1], work[2], work[3]
    known[:] = 0.0
    for e in range(d):
        for k in range(n_classes):
            known[k] += table[e, k]
    w_known = known.sum()
    w_total = w_known + missing.sum()
    if w_known <= 0.0:
        return 0.0, 0.0, 0.0, 0.0, np.nan, -1, False
    base = impurity(known, w_known, criterion)
    left[:] = 0.0
    right[:] = known
    w_left = 0.0
    n_known = 0
    for e in range(d):
        n_known += n_rows[e]
    n_left = 0
    best = -np.inf
    best_bin = -1
    best_w_left = 0.0
    best_left[:] = 0.0
    lookup = criterion == ENTROPY and clogc.shape[0] > w_known
    gini = criterion == GINI
    tie = ROUND_OFF * w_known
    for e in range(d):
        if bins[e] >= n_codes - 1:  # no cut after the last bin
            break
        w_b = 0.0
        for k in range(n_classes):
            w_b += table[e, k]
        if w_b <= 0.0:
            continue
        for k in range(n_classes):
            left[k] += table[e, k]
            right[k] -= table[e, k]
        w_left += w_b
        n_left += n_rows[e]
        w_right = w_known - w_left
        if w_right <= ROUND_OFF * w_known:
            break
        if n_left < min_leaf or n_known - n_left < min_leaf:
            continue
        # quality = −(W_L I(L) + W_R I(R)) as in _weighted_purity, larger is better
        quality = 0.0
        if gini:
            sq_l, sq_r = squared_sums(left, right)
            quality = (sq_l / w_left - w_left) + (sq_r / w_right - w_right)
        elif lookup:
            quality = -(clogc[np.int64(w_left)] + clogc[np.int64(w_right)])
            for k in range(n_classes):
                quality += clogc[np.int64(left[k])] + clogc[np.int64(right[k])]
        else:
            quality = (_weighted_purity(left, w_left, criterion)
                       + _weighted_purity(right, w_right, criterion))
        if quality > best + tie:
            best, best_bin = quality, bins[e]
            best_w_left = w_left
            for k in range(n_classes):
                best_left[k] = left[k]
    if best_bin < 0:
        return 0.0, 0.0, 0.0, 0.0, np.nan, -1, False
    for k in range(n_classes):
        right[k] = known[k] - best_left[k]
    best, best_after, best_iv = _binary_score(best_left, right, best_w_left,
                                              w_known - best_w_left, base, criterion)
    rho = w_known / w_total
    score = rho * best
    ratio = score / best_iv if best_iv > 0.0 else 0.0
    return score, ratio, best_after, rho, edges[best_bin], best_bin, True


def c_log2_c(n):
    """The table ``c log2 c`` for ``c = 0..n`` used by unit-weight entropy scans."""
    c = np.arange(n + 1, dtype=np.float64)
    out = np.zeros(n + 1)
    out[1:] = c[1:] * np.log2(c[1:])
    return out


@jit
def mdl_corrected_gain(score, n_cuts, w_node):
    """C4.5 release 8's MDL charge for choosing a cut (Quinlan 1996, "Improved use of
    continuous attributes in C4.5"): ``gain − log2(#admissible cuts) / W`` with ``W``
    the node's weight, missing values included."""
    return score - np.log2(n_cuts) / w_node


@jit
def _lookup_quality(pairs, n_left, n_right, clogc):
    """``Σ_k (L_k log2 L_k + R_k log2 R_k) − W_L log2 W_L − W_R log2 W_R`` =
    −(W_L Ent(L) + W_R Ent(R)) for integer class counts: ``pairs[k]`` holds
    ``clogc[L_k] + clogc[R_k]`` (``clogc[c] = c log2 c``), the sides hold
    ``n_left`` and ``n_right`` rows."""
    quality = 0.0
    for k in range(pairs.shape[0]):
        quality += pairs[k]
    return quality - (clogc[n_left] + clogc[n_right])


@jit
def best_numeric_cut(x, order, y, value, scan, rules):
    """Best midpoint cut ``x <= t`` scanning ``order`` (node rows sorted by x, NaN last).

    The candidate thresholds are the midpoints between adjacent distinct
    sorted values (周志华 eq. 4.7); between equally good cuts the smaller t
    wins. ``value`` is the node's class weights; ``scan`` a
    :class:`~._state.Scan`: ``scan.wbuf[i]`` is the weight of row ``i`` in
    this node, ``scan.unit``: every weight is 1, so counts are integers and
    entropy terms ``c log2 c`` come from the table ``scan.clogc``; ``rules``
    a :class:`~._state.GrowRules` (criterion, min_leaf, c45). The node's
    values are gathered once into contiguous buffers (the weights only when
    they are not all 1), then scanned in order; a cut's quality is −(W_L I(L) +
    W_R I(R)) up to a constant: Gini ``Σ L_k²/W_L + Σ R_k²/W_R`` (integer counts:
    sums of squares kept up to date, exactly), entropy as :func:`_lookup_quality`.
    One function, three allocations, no array-taking calls in the scan.
    ``rules.c45`` (C4.5 / J48 rules, for ``criterion="gain_ratio"``): two values
    closer than ``C45_EQUAL`` (1e-5) are equal (no cut between them, and
    they do not count as a cut in the MDL charge); a cut is admissible when
    both sides *weigh* at least ``min(25, max(min_leaf, 0.1 W̃ / K))``
    (C4.5's MINOBJS rule; otherwise rows are counted against ``min_leaf``)
    and the node has at least twice that many known rows; a later cut
    replaces the best so far only when its gain is larger by more than
    ``C45_TIE`` (1e-6, in bits per unit of the node's weight); the score of
    the best cut gets the MDL correction of :func:`mdl_corrected_gain` (the
    attribute is invalid if it is below ``C45_TIE``) and the gain ratio
    divides by :func:`c45_split_info`.
    Returns ``(score, gain_ratio, after, rho, threshold, valid)``.
    """
    wbuf, unit, clogc = scan.wbuf, scan.unit, scan.clogc
    criterion, min_leaf, c45 = rules.criterion, rules.min_leaf, rules.c45
    n_classes = value.shape[0]
    m = order.shape[0]
    # rows: known, left, right, best_left, entropy terms of left, right, moved
    table = np.empty((7, n_classes))
    known, left, right, best_left = table[0], table[1], table[2], table[3]
    terms = table[4:7]
    w_total = 0.0
    for k in range(n_classes):
        known[k] = value[k]
        w_total += value[k]
    n_known = m
    while n_known > 0 and np.isnan(x[order[n_known - 1]]):
        i = order[n_known - 1]
        known[y[i]] -= wbuf[i]
        n_known -= 1
    if n_known < 2:
        return 0.0, 0.0, 0.0, 0.0, np.nan, False
    gathered = np.empty((1 if unit else 2, n_known))  # x, and the weights unless all 1
    xs, ws = gathered[0], gathered[-1]
    ys = np.empty(n_known, dtype=y.dtype)
    for pos in range(n_known):
        i = order[pos]
        xs[pos] = x[i]
        ys[pos] = y[i]
    if not unit:
        for pos in range(n_known):
            ws[pos] = wbuf[order[pos]]
    w_known = float(n_known)
    if unit:
        for k in range(n_classes):
            known[k] = np.round(known[k])
    else:
        w_known = known.sum()
    if w_known <= 0.0:
        return 0.0, 0.0, 0.0, 0.0, np.nan, False
    how = LOG2_TERMS
    if criterion == GINI:
        how = GINI_COUNTS if unit and w_known < EXACT_COUNTS else GINI_SUMS
    elif unit and clogc.shape[0] > m:
        how = CLOGC_LOOKUP
    tie = ROUND_OFF * w_known
    n_cuts = 0
    min_side = c45_min_side(min_leaf, w_known, n_classes) - WEIGHT_TOL
    equal = 0.0
    if c45:
        if n_known < 2.0 * min_side:
            return 0.0, 0.0, 0.0, 0.0, np.nan, False
        equal = C45_EQUAL
        tie = C45_TIE * w_total
    sq_l = 0.0
    sq_r = 0.0
    pairs = table[4]  # CLOGC_LOOKUP: clogc[L_k] + clogc[R_k] of every class
    for k in range(n_classes):
        left[k] = 0.0
        right[k] = known[k]
        terms[2, k] = 1.0
        sq_r += known[k] * known[k]
        if how == CLOGC_LOOKUP:
            pairs[k] = clogc[0] + clogc[np.int64(known[k])]
    w_left = 0.0
    best = -np.inf
    best_pos = -1
    best_w_left = 0.0
    floor = ROUND_OFF * w_known
    for pos in range(n_known - 1):
        k0 = ys[pos]
        w_i = 1.0 if unit else ws[pos]
        if how == GINI_COUNTS:  # (c + 1)² − c² = 2c + 1: exact for integer counts
            sq_l += 2.0 * left[k0] + 1.0
            sq_r -= 2.0 * right[k0] - 1.0
        left[k0] += w_i
        right[k0] -= w_i
        w_left += w_i
        terms[2, k0] = 1.0
        if how == CLOGC_LOOKUP:  # only the moved class's terms change
            pairs[k0] = clogc[np.int64(left[k0])] + clogc[np.int64(right[k0])]
        if xs[pos + 1] <= xs[pos] + equal:
            continue
        w_right = w_known - w_left
        if w_left <= 0.0 or w_right <= floor:
            continue
        if c45:
            if w_left < min_side or w_right < min_side:
                continue
            n_cuts += 1
        elif pos + 1 < min_leaf or n_known - pos - 1 < min_leaf:
            continue
        if how == GINI_COUNTS:
            quality = sq_l / w_left + sq_r / w_right
        elif how == GINI_SUMS:
            sq_l, sq_r = squared_sums(left, right)
            quality = sq_l / w_left + sq_r / w_right
        elif how == CLOGC_LOOKUP:
            quality = _lookup_quality(pairs, pos + 1, n_known - pos - 1, clogc)
        else:  # c log2 c recomputed only for the classes that moved since the last cut
            quality = 0.0
            for k in range(n_classes):
                if terms[2, k] != 0.0:
                    terms[0, k] = left[k] * np.log2(left[k]) if left[k] > 0.0 else 0.0
                    terms[1, k] = right[k] * np.log2(right[k]) if right[k] > 0.0 else 0.0
                    terms[2, k] = 0.0
                quality += terms[0, k]
                quality += terms[1, k]
            quality -= w_left * np.log2(w_left) + w_right * np.log2(w_right)
        if quality > best + tie:
            best, best_pos, best_w_left = quality, pos, w_left
            for k in range(n_classes):
                best_left[k] = left[k]
    if best_pos < 0:
        return 0.0, 0.0, 0.0, 0.0, np.nan, False
    x_here = xs[best_pos]
    x_next = xs[best_pos + 1]
    best_t = x_here + (x_next - x_here) / 2.0
    if best_t >= x_next:
        best_t = x_here
    for k in range(n_classes):
        right[k] = known[k] - best_left[k]
    decrease, after, iv = _binary_score(best_left, right, best_w_left,
                                        w_known - best_w_left,
                                        impurity(known, w_known, criterion),
                                        criterion)
    rho = w_known / w_total
    score = rho * decrease
    if c45:
        score = mdl_corrected_gain(score, n_cuts, w_total)
        if score < C45_TIE:
            return 0.0, 0.0, 0.0, 0.0, np.nan, False
        sides = np.array([best_w_left, w_known - best_w_left])
        iv = c45_split_info(sides, w_total - w_known)
    ratio = score / iv if iv > 0.0 else 0.0
    return score, ratio, after, rho, best_t, True


@jit
def score_table(table, n_rows, is_categorical, edges, criterion, min_leaf, clogc, c45=False):
    """Score a coded attribute from its (summed) class-weight table.

    Categorical: multiway split; binned numeric: best cut between bins.
    ``clogc``: :func:`c_log2_c` table when every weight is 1, else empty.
    Returns ``(score, ratio, after, rho, threshold, cut_bin, valid)``. This is
    all a node needs of a coded attribute, so tables summed over data chunks
    give exactly the single-process hist/categorical split. ``c45``: J48's
    rules for a multiway split (see :func:`table_split_score`).
    """
    if is_categorical:
        s, g, a, r, ok = table_split_score(table, n_rows, criterion, min_leaf, c45)
        return s, g, a, r, np.nan, -1, ok
    return ordered_table_cut(table, n_rows, edges, criterion, min_leaf, clogc)
