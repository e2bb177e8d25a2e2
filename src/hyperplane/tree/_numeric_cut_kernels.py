"""Compiled scan of an exact numeric attribute at a node: the best midpoint cut.

:func:`best_numeric_cut` reads the node's rows in the order of the
attribute's sorted values (computed once at the root and partitioned as the
tree grows) and scores every midpoint between adjacent distinct values
(周志华 4.4.1) with the impurities and C4.5 rules of :mod:`._split_kernels`.
"""

from __future__ import annotations

import numpy as np

from .._numba import jit
from ._split_kernels import (C45_EQUAL, C45_TIE, GINI, ROUND_OFF, WEIGHT_TOL, _binary_score,
                             c45_min_side, c45_split_info, impurity, squared_sums)

#: how a numeric scan scores a cut (:func:`best_numeric_cut`): Gini from sums of squared
#: class weights, the same sums kept up to date one row at a time (integer counts),
#: entropy from c log2 c looked up (integer counts) or computed
GINI_SUMS = 0
GINI_COUNTS = 1
CLOGC_LOOKUP = 2
LOG2_TERMS = 3
#: integer counts below this have squares and sums of squares exact in float64 (2^26)
EXACT_COUNTS = 2.0**26


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
def gather_buffers(spare, n_known, unit):
    """Where a scan gathers its ``n_known`` classes and weights (none when every
    weight is 1): the scratch ``spare = (classes, weights)`` if it is long
    enough, else new arrays of its types."""
    classes, weights = spare
    n_w = 0 if unit else n_known
    if classes.shape[0] >= n_known and weights.shape[0] >= n_w:
        return classes[:n_known], weights[:n_w]
    return np.empty(n_known, dtype=classes.dtype), np.empty(n_w, dtype=weights.dtype)


@jit
def best_numeric_cut(xs, order, y, value, scan, rules, spare):
    """Best midpoint cut ``x <= t`` scanning ``order`` (node rows sorted by x, NaN
    last) and ``xs`` (their values in that order, ``xs[pos] = x[order[pos]]``).

    The candidate thresholds are the midpoints between adjacent distinct
    sorted values (周志华 eq. 4.7); between equally good cuts the smaller t
    wins. ``value`` is the node's class weights; ``scan`` a
    :class:`~._state.Scan`: ``scan.wbuf[i]`` is the weight of row ``i`` in
    this node, ``scan.unit``: every weight is 1, so counts are integers and
    entropy terms ``c log2 c`` come from the table ``scan.clogc``; ``rules``
    a :class:`~._state.GrowRules` (criterion, min_leaf, c45). The node's
    classes (and weights, unless all 1) are gathered once into contiguous
    buffers (into ``spare = (classes, weights)`` when they are long enough,
    :func:`gather_buffers`), then scanned in order with ``xs``; a cut's quality is −(W_L I(L) +
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
    while n_known > 0 and np.isnan(xs[n_known - 1]):
        i = order[n_known - 1]
        known[y[i]] -= wbuf[i]
        n_known -= 1
    if n_known < 2:
        return 0.0, 0.0, 0.0, 0.0, np.nan, False
    ys, ws = gather_buffers(spare, n_known, unit)  # the classes; the weights unless all 1
    for pos in range(n_known):
        ys[pos] = y[order[pos]]
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
