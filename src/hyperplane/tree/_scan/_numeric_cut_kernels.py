"""Compiled ordered scans: the best two-way cut ``x <= t`` of a numeric attribute.

Two scans read a node's known values in increasing order and score every cut
between adjacent distinct values (周志华 4.4.1): :func:`best_numeric_cut`
over the node's rows (an exact attribute, sorted once at the root and
partitioned as the tree grows) and :func:`ordered_cut` over the node's
non-empty bins (a binned attribute, ``splitter="hist"``: its class table and
each bin's smallest and largest training value). Every rule of a cut is one
function both scans call, so with one training value per bin they choose the
same cut at the same threshold:

* :func:`cut_bounds` -- the tie tolerance, C4.5's equal values and MINOBJS
  minimum per side (Quinlan 1996), and whether any cut is possible;
* :func:`separated` -- a cut lies only between values more than ``equal`` apart;
* :func:`admissible_cut` -- both sides non-empty and heavy (C4.5) or large
  (``min_samples_leaf``) enough; C4.5 counts the admissible cuts;
* :func:`gini_quality`, :func:`entropy_quality`, :func:`_lookup_quality` --
  a cut's quality −(W_L I(L) + W_R I(R)) up to a constant;
* :func:`cut_threshold` -- the midpoint between the values either side;
* :func:`finish_cut` -- the chosen cut's score, C4.5's MDL charge
  (:func:`mdl_corrected_gain`) and split information.
"""

from __future__ import annotations

import numpy as np

from ..._numba import jit_internal, jit_twin
from ._split_kernels import (C45_EQUAL, C45_TIE, ENTROPY, GINI, ROUND_OFF, WEIGHT_TOL,
                             _binary_score, c45_min_side, c45_split_info, impurity,
                             squared_sums, table_split_score)
from .._state import CutBounds, Scratch, Split

#: how a numeric scan scores a cut (:func:`best_numeric_cut`): Gini from sums of squared
#: class weights, the same sums kept up to date one row at a time (integer counts),
#: entropy from c log2 c looked up (integer counts) or computed
GINI_SUMS = 0
GINI_COUNTS = 1
CLOGC_LOOKUP = 2
LOG2_TERMS = 3
#: integer counts below this have squares and sums of squares exact in float64 (2^26)
EXACT_COUNTS = 2.0**26


@jit_internal
def no_split():
    """The entry of an attribute without an admissible split."""
    return Split(0.0, 0.0, 0.0, 0.0, np.nan, -1, False)


@jit_internal
def cut_bounds(w_known, w_total, n_known, n_classes, rules):
    """The :class:`~hyperplane.tree._state.CutBounds` of one scan: ties within round-off of the
    known weight ``w_known``; with C4.5's rules (``rules.c45``, release 8,
    Quinlan 1996) values within ``C45_EQUAL`` are one value, each side weighs at
    least ``min(25, max(M, 0.1 W̃ / K))`` (:func:`c45_min_side`, MINOBJS), a
    cut needs ``n_known`` to be at least twice that, and ties are within
    ``C45_TIE`` per unit of the node's weight ``w_total``."""
    tie = ROUND_OFF * w_known
    min_side = c45_min_side(rules.min_leaf, w_known, n_classes) - WEIGHT_TOL
    equal = 0.0
    possible = True
    if rules.c45:
        possible = n_known >= 2.0 * min_side
        equal = C45_EQUAL
        tie = C45_TIE * w_total
    return CutBounds(tie, equal, min_side, ROUND_OFF * w_known, possible)


@jit_internal
def separated(x_here, x_next, bounds):
    """A cut lies between two adjacent known values only when they are more than
    ``bounds.equal`` apart (0: distinct; C4.5: 1e-5)."""
    return x_next > x_here + bounds.equal


@jit_internal
def admissible_cut(w_left, w_right, n_left, n_right, bounds, rules):
    """Whether a cut with sides of weights ``w_left``, ``w_right`` and ``n_left``,
    ``n_right`` rows may be chosen: neither side empty, and each side weighs at
    least ``bounds.min_side`` (C4.5, whose MDL charge counts these cuts) or
    holds at least ``rules.min_leaf`` rows."""
    if w_left <= 0.0 or w_right <= bounds.floor:
        return False
    if rules.c45:
        return w_left >= bounds.min_side and w_right >= bounds.min_side
    return n_left >= rules.min_leaf and n_right >= rules.min_leaf


@jit_internal
def gini_quality(sq_l, sq_r, w_left, w_right):
    """``Σ L_k²/W_L + Σ R_k²/W_R`` = W − (W_L Gini(L) + W_R Gini(R)) (周志华 4.5, 4.6)."""
    return sq_l / w_left + sq_r / w_right


@jit_twin
def xlog2x(c):
    """``c log2 c`` (0 at 0): one class's entropy term."""
    return c * np.log2(c) if c > 0.0 else 0.0


@jit_internal
def entropy_quality(terms, w_left, w_right):
    """``Σ_k (L_k log2 L_k + R_k log2 R_k) − W_L log2 W_L − W_R log2 W_R`` =
    −(W_L Ent(L) + W_R Ent(R)) (周志华 4.1), ``terms`` the sum over the classes."""
    return terms - (w_left * np.log2(w_left) + w_right * np.log2(w_right))


@jit_internal
def kept_as_best(quality, best, bounds, left, best_left):
    """Whether a cut of ``quality`` replaces the best so far (better by more than
    ``bounds.tie``: between tied cuts the smaller threshold stays); if so its left
    side's class weights ``left`` are kept in ``best_left``."""
    if quality > best + bounds.tie:
        for k in range(left.shape[0]):
            best_left[k] = left[k]
        return True
    return False


@jit_internal
def cut_threshold(x_here, x_next):
    """The threshold of a cut between adjacent values ``x_here < x_next``: their
    midpoint (周志华 4.7), or ``x_here`` when the midpoint rounds up to ``x_next``."""
    t = x_here + (x_next - x_here) / 2.0
    return x_here if t >= x_next else t


@jit_internal
def finish_cut(work, w_left, w_known, w_total, n_cuts, threshold, cut_bin, rules):
    """The split-table entry of the chosen cut.

    ``work[0]`` holds the node's known class weights, ``work[3]`` the left
    side's (``work[2]`` is overwritten with the right side's), ``w_left`` its
    weight, ``w_known`` the known rows' and ``w_total`` the node's with missing values. ``score = ρ ·
    (I(D̃) − Σ r̃_v I(D̃_v))`` (周志华 4.12); with C4.5's rules less the MDL
    charge of :func:`mdl_corrected_gain` over ``n_cuts`` admissible cuts (no
    split if it falls below ``C45_TIE``), and the gain ratio divides by
    :func:`c45_split_info`.
    """
    known, right, best_left = work[0], work[2], work[3]
    for k in range(known.shape[0]):
        right[k] = known[k] - best_left[k]
    decrease, after, iv = _binary_score(best_left, right, w_left, w_known - w_left,
                                        impurity(known, w_known, rules.criterion),
                                        rules.criterion)
    rho = w_known / w_total
    score = rho * decrease
    if rules.c45:
        score = mdl_corrected_gain(score, n_cuts, w_total)
        if score < C45_TIE:
            return no_split()
        sides = np.array([w_left, w_known - w_left])
        iv = c45_split_info(sides, w_total - w_known)
    ratio = score / iv if iv > 0.0 else 0.0
    return Split(score, ratio, after, rho, threshold, cut_bin, True)


@jit_internal
def mdl_corrected_gain(score, n_cuts, w_node):
    """C4.5 release 8's MDL charge for choosing a cut (Quinlan 1996, "Improved use of
    continuous attributes in C4.5"): ``gain − log2(#admissible cuts) / W`` with ``W``
    the node's weight, missing values included."""
    return score - np.log2(n_cuts) / w_node


@jit_internal
def _lookup_quality(pairs, n_left, n_right, clogc):
    """``Σ_k (L_k log2 L_k + R_k log2 R_k) − W_L log2 W_L − W_R log2 W_R`` =
    −(W_L Ent(L) + W_R Ent(R)) for integer class counts: ``pairs[k]`` holds
    ``clogc[L_k] + clogc[R_k]`` (``clogc[c] = c log2 c``), the sides hold
    ``n_left`` and ``n_right`` rows."""
    quality = 0.0
    for k in range(pairs.shape[0]):
        quality += pairs[k]
    return quality - (clogc[n_left] + clogc[n_right])


@jit_internal
def gather_buffers(spare, n_known, unit):
    """Where a scan gathers its ``n_known`` classes and weights (none when every
    weight is 1): the scratch ``spare`` (a
    :class:`~hyperplane.tree._state.GatherBuffers`) if it is long enough, else new
    arrays of its types."""
    n_w = 0 if unit else n_known
    if spare.classes.shape[0] >= n_known and spare.weights.shape[0] >= n_w:
        return spare.classes[:n_known], spare.weights[:n_w]
    return (np.empty(n_known, dtype=spare.classes.dtype),
            np.empty(n_w, dtype=spare.weights.dtype))


@jit_twin
def best_numeric_cut(xs, order, y, value, scan, rules, spare):
    """Best midpoint cut ``x <= t`` scanning ``order`` (node rows sorted by x, NaN
    last) and ``xs`` (their values in that order, ``xs[pos] = x[order[pos]]``).

    The candidate thresholds are the midpoints between adjacent distinct
    sorted values (周志华 eq. 4.7); between equally good cuts the smaller t
    wins. ``value`` is the node's class weights; ``scan`` a
    :class:`~hyperplane.tree._state.Scan`: ``scan.wbuf[i]`` is the weight of row ``i`` in
    this node, ``scan.unit``: every weight is 1, so counts are integers and
    entropy terms ``c log2 c`` come from the table ``scan.clogc``; ``rules``
    a :class:`~hyperplane.tree._state.GrowRules` (criterion, min_leaf, c45). The node's
    classes (and weights, unless all 1) are gathered once into contiguous
    buffers (into ``spare``, a :class:`~hyperplane.tree._state.GatherBuffers`, when
    they are long enough,
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
    Returns the attribute's :class:`~hyperplane.tree._state.Split` (``cut_bin`` −1).
    """
    wbuf, unit, clogc = scan.wbuf, scan.unit, scan.clogc
    criterion = rules.criterion
    n_classes = value.shape[0]
    m = order.shape[0]
    # rows: known, left, right, best_left (finish_cut's work), entropy terms of left, right, moved
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
        return no_split()
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
        return no_split()
    how = LOG2_TERMS
    if criterion == GINI:
        how = GINI_COUNTS if unit and w_known < EXACT_COUNTS else GINI_SUMS
    elif unit and clogc.shape[0] > m:
        how = CLOGC_LOOKUP
    bounds = cut_bounds(w_known, w_total, n_known, n_classes, rules)
    if not bounds.possible:
        return no_split()
    n_cuts = 0
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
        if not separated(xs[pos], xs[pos + 1], bounds):
            continue
        w_right = w_known - w_left
        if not admissible_cut(w_left, w_right, pos + 1, n_known - pos - 1, bounds, rules):
            continue
        n_cuts += 1
        if how == GINI_COUNTS:
            quality = gini_quality(sq_l, sq_r, w_left, w_right)
        elif how == GINI_SUMS:
            sq_l, sq_r = squared_sums(left, right)
            quality = gini_quality(sq_l, sq_r, w_left, w_right)
        elif how == CLOGC_LOOKUP:
            quality = _lookup_quality(pairs, pos + 1, n_known - pos - 1, clogc)
        else:  # c log2 c recomputed only for the classes that moved since the last cut
            quality = 0.0
            for k in range(n_classes):
                if terms[2, k] != 0.0:
                    terms[0, k] = xlog2x(left[k])
                    terms[1, k] = xlog2x(right[k])
                    terms[2, k] = 0.0
                quality += terms[0, k]
                quality += terms[1, k]
            quality = entropy_quality(quality, w_left, w_right)
        if kept_as_best(quality, best, bounds, left, best_left):
            best, best_pos, best_w_left = quality, pos, w_left
    if best_pos < 0:
        return no_split()
    return finish_cut(table, best_w_left, w_known, w_total, n_cuts,
                      cut_threshold(xs[best_pos], xs[best_pos + 1]), -1, rules)


@jit_twin
def ordered_table_cut(table, n_rows, bin_range, rules, clogc):
    """Best two-way cut ``code <= b`` of a binned attribute from its class table.

    ``table[b]`` / ``n_rows[b]``: the class weights and rows of bin ``b``
    (the last row: missing values); ``bin_range[0, b]`` / ``bin_range[1, b]``
    the bin's smallest and largest training value. ``clogc``: the table
    ``c log2 c`` when every weight is 1 (entropy terms looked up), else empty.
    The scan itself is :func:`ordered_cut` over the non-empty bins.
    """
    n_codes = table.shape[0] - 1
    bins = np.flatnonzero(n_rows[:n_codes] > 0)
    scratch = Scratch(bins, table[bins], n_rows[bins], np.empty((5, table.shape[1])), bins[:0])
    return ordered_cut(bins.size, scratch, table[n_codes], bin_range, rules, clogc)


@jit_internal
def ordered_cut(d, scratch, missing, bin_range, rules, clogc):
    """:func:`best_numeric_cut` over bins: the best cut between the non-empty bins
    of a binned attribute.

    In the :class:`~hyperplane.tree._state.Scratch` ``scratch``, ``bins[:d]`` are the
    non-empty bins in increasing order, ``bin_table[e]`` / ``bin_rows[e]``
    the class weights / rows of bin ``bins[e]``, ``work`` a ``(5, K)``
    buffer; ``missing`` the class weights of the rows missing the value;
    ``bin_range`` as :func:`ordered_table_cut` takes it. A cut after bin
    ``bins[e]`` lies between its largest value and the next non-empty bin's
    smallest, and is scored by the same rules as :func:`best_numeric_cut`'s
    cut between those values, so with one training value per bin both scans
    choose the same cut and threshold (and bins of several values hold the
    rows the exact scan would move together). The scan costs the node's
    distinct bins, not the number of bins. Returns the attribute's
    :class:`~hyperplane.tree._state.Split`.
    """
    bins, table, n_rows, work = scratch.bins, scratch.bin_table, scratch.bin_rows, scratch.work
    criterion = rules.criterion
    n_classes = table.shape[1]
    known, left, right, best_left, pairs = work[0], work[1], work[2], work[3], work[4]
    known[:] = 0.0
    n_known = 0
    for e in range(d):
        n_known += n_rows[e]
        for k in range(n_classes):
            known[k] += table[e, k]
    w_known = known.sum()
    w_total = w_known + missing.sum()
    if d < 2 or w_known <= 0.0:
        return no_split()
    bounds = cut_bounds(w_known, w_total, n_known, n_classes, rules)
    if not bounds.possible:
        return no_split()
    lookup = criterion == ENTROPY and clogc.shape[0] > w_known
    left[:] = 0.0
    for k in range(n_classes):  # element copies: see ARCHITECTURE (numba policy)
        right[k] = known[k]
    w_left = 0.0
    n_left = 0
    n_cuts = 0
    best = -np.inf
    best_e = -1
    best_w_left = 0.0
    for e in range(d - 1):
        for k in range(n_classes):
            left[k] += table[e, k]
            right[k] -= table[e, k]
            w_left += table[e, k]
        n_left += n_rows[e]
        if not separated(bin_range[1, bins[e]], bin_range[0, bins[e + 1]], bounds):
            continue
        w_right = w_known - w_left
        if not admissible_cut(w_left, w_right, n_left, n_known - n_left, bounds, rules):
            continue
        n_cuts += 1
        if criterion == GINI:
            sq_l, sq_r = squared_sums(left, right)
            quality = gini_quality(sq_l, sq_r, w_left, w_right)
        elif lookup:
            for k in range(n_classes):
                pairs[k] = clogc[np.int64(left[k])] + clogc[np.int64(right[k])]
            quality = _lookup_quality(pairs, n_left, n_known - n_left, clogc)
        else:
            quality = 0.0
            for k in range(n_classes):
                quality += xlog2x(left[k])
                quality += xlog2x(right[k])
            quality = entropy_quality(quality, w_left, w_right)
        if kept_as_best(quality, best, bounds, left, best_left):
            best, best_e, best_w_left = quality, e, w_left
    if best_e < 0:
        return no_split()
    b = bins[best_e]
    return finish_cut(work, best_w_left, w_known, w_total, n_cuts,
                      cut_threshold(bin_range[1, b], bin_range[0, bins[best_e + 1]]), b, rules)


@jit_twin
def score_table(table, n_rows, is_categorical, bin_range, rules, clogc):
    """Score a coded attribute from its (summed) class-weight table.

    Categorical: multiway split (:func:`table_split_score`); binned numeric:
    the best cut between bins (:func:`ordered_table_cut`). ``clogc``:
    :func:`~._split_kernels.c_log2_c` table when every weight is 1, else
    empty. This is all a node needs of a coded attribute, so tables summed
    over data chunks give exactly the single-process hist/categorical split.
    """
    if is_categorical:
        return table_split_score(table, n_rows, rules.criterion, rules.min_leaf, rules.c45)
    return ordered_table_cut(table, n_rows, bin_range, rules, clogc)
