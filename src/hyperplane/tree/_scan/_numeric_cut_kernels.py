"""Compiled ordered scan: the best two-way cut ``x <= t`` of a numeric attribute.

One scan, :func:`ordered_class_cut`, reads a node's known values in
increasing order as *positions* and scores every cut between adjacent
distinct values (周志华 4.4.1). A position is one training row of an exact
attribute (:class:`~._positions_kernels.RowPositions`: the node's rows sorted
once at the root and partitioned as the tree grows, entered by
:func:`best_numeric_cut`) or one non-empty bin of a binned attribute
(:class:`~._positions_kernels.BinPositions`, ``splitter="hist"``: the bin's
class weights from the node's class table and its smallest and largest
training value, entered by :func:`ordered_cut`); :mod:`._positions_kernels`
holds both and their readers. The scan is compiled once per type of positions
(:func:`scan_of`: :data:`ordered_row_cut`, :data:`ordered_bin_cut`) with that
type's readers (:data:`READERS`) in its place, so the cut loop and every rule of a cut
are written once and a scan compiles only the reader its attribute needs. With one training value per bin both kinds choose the same
cut at the same threshold. The oblique tree cuts its projections with the same
scan (:func:`~hyperplane.tree._oblique_kernels.best_threshold`). Its rules:

* :func:`cut_bounds` -- the tie tolerance, C4.5's equal values and MINOBJS
  minimum per side (Quinlan 1996), and whether any cut is possible;
* :func:`separated` -- a cut lies only between values more than ``equal`` apart;
* :func:`admissible_cut` -- both sides non-empty and heavy (C4.5) or large
  (``min_samples_leaf``) enough; C4.5 counts the admissible cuts;
* :func:`gini_quality`, :func:`entropy_quality`, :func:`_lookup_quality` --
  a cut's quality −(W_L I(L) + W_R I(R)) up to a constant, from the running
  class weights of both sides;
* :func:`kept_as_best` -- the tie rule: a later cut must be better by more than
  the tolerance;
* :func:`cut_threshold` -- the midpoint between the values either side;
* :func:`finish_cut` -- the chosen cut's score, C4.5's MDL charge
  (:func:`mdl_corrected_gain`) and split information.
"""

from __future__ import annotations

import types as pytypes
import numpy as np

from ..._numba import jit_inline, jit_internal, jit_twin
from ..._lowered import empty
from ._loops_kernels import filled, sum_in_order
from ._split_kernels import (C45_EQUAL, C45_TIE, GINI, ROUND_OFF, WEIGHT_TOL,
                             _binary_score, c45_min_side, c45_split_info, impurity,
                             squared_sums, table_split_score)
from .._state import CutBounds, Scratch, Split
from ._positions_kernels import (BinPositions, KnownPart, RowPositions, entries, entry,
                                 position_bin, position_rows, values_around)

#: how the ordered scan scores a cut (:func:`ordered_class_cut`): Gini
#: from sums of squared class weights, the same sums kept up to date one position at a time
#: (integer counts), entropy from c log2 c looked up (integer counts) or computed
GINI_SUMS = 0
GINI_COUNTS = 1
CLOGC_LOOKUP = 2
LOG2_TERMS = 3
#: integer counts below this have squares and sums of squares exact in float64 (2^26)
EXACT_COUNTS = 2.0**26


@jit_inline
def no_split():
    """The entry of an attribute without an admissible split."""
    return Split(0.0, 0.0, 0.0, 0.0, np.nan, -1, False)


@jit_internal
def cut_bounds(w_known, w_total, n_known, n_classes, min_leaf, c45):
    """The :class:`~hyperplane.tree._state.CutBounds` of one scan: ties within round-off of the
    known weight ``w_known``; with C4.5's rules (``c45``, ``rules.c45`` as an argument, so
    that numba drops this branch when it is None: release 8,
    Quinlan 1996) values within ``C45_EQUAL`` are one value, each side weighs at
    least ``min(25, max(M, 0.1 W̃ / K))`` (:func:`c45_min_side`, MINOBJS, ``M`` =
    ``min_leaf``), a cut needs ``n_known`` to be at least twice that, and ties are within
    ``C45_TIE`` per unit of the node's weight ``w_total``."""
    tie = ROUND_OFF * w_known
    min_side = 0.0
    equal = 0.0
    possible = True
    if c45 is not None:
        min_side = c45_min_side(min_leaf, w_known, n_classes) - WEIGHT_TOL
        possible = n_known >= 2.0 * min_side
        equal = C45_EQUAL
        tie = C45_TIE * w_total
    return CutBounds(tie, equal, min_side, ROUND_OFF * w_known, possible)


@jit_inline
def separated(x_here, x_next, bounds):
    """A cut lies between two adjacent known values only when they are more than
    ``bounds.equal`` apart (0: distinct; C4.5: 1e-5)."""
    return x_next > x_here + bounds.equal


@jit_inline
def admissible_cut(w_left, w_right, n_left, n_right, bounds, min_leaf, c45):
    """Whether a cut with sides of weights ``w_left``, ``w_right`` and ``n_left``,
    ``n_right`` rows may be chosen: neither side empty, and each side weighs at
    least ``bounds.min_side`` (C4.5's rules, ``c45`` not None: its MDL charge counts these
    cuts) or holds at least ``min_leaf`` rows."""
    if w_left <= 0.0 or w_right <= bounds.floor:
        return False
    if c45 is not None:
        return w_left >= bounds.min_side and w_right >= bounds.min_side
    return n_left >= min_leaf and n_right >= min_leaf


@jit_inline
def gini_quality(sq_l, sq_r, w_left, w_right):
    """``Σ L_k²/W_L + Σ R_k²/W_R`` = W − (W_L Gini(L) + W_R Gini(R)) (周志华 4.5, 4.6)."""
    return sq_l / w_left + sq_r / w_right


@jit_twin
def xlog2x(c):
    """``c log2 c`` (0 at 0): one class's entropy term."""
    return c * np.log2(c) if c > 0.0 else 0.0


@jit_inline
def entropy_quality(terms, w_left, w_right):
    """``Σ_k (L_k log2 L_k + R_k log2 R_k) − W_L log2 W_L − W_R log2 W_R`` =
    −(W_L Ent(L) + W_R Ent(R)) (周志华 4.1), ``terms`` the sum over the classes."""
    return terms - (w_left * np.log2(w_left) + w_right * np.log2(w_right))


@jit_inline
def kept_as_best(quality, best, bounds, left, best_left):
    """Whether a cut of ``quality`` replaces the best so far (better by more than
    ``bounds.tie``: between tied cuts the smaller threshold stays); if so its left
    side's class weights ``left`` are kept in ``best_left``."""
    if quality > best + bounds.tie:
        for k in range(left.shape[0]):
            best_left[k] = left[k]
        return True
    return False


@jit_inline
def cut_threshold(x_here, x_next):
    """The threshold of a cut between adjacent values ``x_here < x_next``: their
    midpoint (周志华 4.7), or ``x_here`` when the midpoint rounds up to ``x_next``."""
    t = x_here + (x_next - x_here) / 2.0
    return x_here if t >= x_next else t


@jit_internal
def finish_cut(work, w_left, weights, n_cuts, threshold, cut_bin, criterion, c45):
    """The split-table entry of the chosen cut.

    ``work[0]`` holds the node's known class weights, ``work[3]`` the left
    side's (``work[2]`` is overwritten with the right side's), ``w_left`` its
    weight, ``weights.w_known`` the known rows' and ``weights.w_total`` the node's with
    missing values (the scan's known-row record). ``score = ρ ·
    (I(D̃) − Σ r̃_v I(D̃_v))`` (周志华 4.12); with C4.5's rules less the MDL
    charge of :func:`mdl_corrected_gain` over ``n_cuts`` admissible cuts (no
    split if it falls below ``C45_TIE``), and the gain ratio divides by
    :func:`c45_split_info`. ``criterion`` and ``c45`` are ``rules.criterion`` and
    ``rules.c45``: an argument None drops C4.5's branch when numba compiles it.
    """
    w_known, w_total = weights.w_known, weights.w_total
    known, right, best_left = work[0], work[2], work[3]
    for k in range(known.shape[0]):
        right[k] = known[k] - best_left[k]
    decrease, after, iv = _binary_score(best_left, right, w_left, w_known - w_left,
                                        impurity(known, w_known, criterion), criterion)
    rho = w_known / w_total
    score = rho * decrease
    if c45 is not None:
        score = mdl_corrected_gain(score, n_cuts, w_total)
        if score < C45_TIE:
            return no_split()
        sides = filled(empty(2, np.float64), w_left)
        sides[1] = w_known - w_left
        iv = c45_split_info(sides, w_total - w_known)
    ratio = score / iv if iv > 0.0 else 0.0
    return Split(score, ratio, after, rho, threshold, cut_bin, True)


@jit_internal
def mdl_corrected_gain(score, n_cuts, w_node):
    """C4.5 release 8's MDL charge for choosing a cut (Quinlan 1996, "Improved use of
    continuous attributes in C4.5"): ``gain − log2(#admissible cuts) / W`` with ``W``
    the node's weight, missing values included."""
    return score - np.log2(n_cuts) / w_node


@jit_inline
def _lookup_quality(pairs, n_left, n_right, clogc):
    """``Σ_k (L_k log2 L_k + R_k log2 R_k) − W_L log2 W_L − W_R log2 W_R`` =
    −(W_L Ent(L) + W_R Ent(R)) for integer class counts: ``pairs[k]`` holds
    ``clogc[L_k] + clogc[R_k]`` (``clogc[c] = c log2 c``), the sides hold
    ``n_left`` and ``n_right`` rows."""
    quality = 0.0
    for k in range(pairs.shape[0]):
        quality += pairs[k]
    return quality - (clogc[n_left] + clogc[n_right])


#: rows of a scan's ``(WORK_ROWS, K)`` work table: the known rows' class weights, the left
#: and right sides', the best cut's left side (the four :func:`finish_cut` reads), each
#: class's c log2 c terms of the left side (``CLOGC_LOOKUP``: of both sides) and of the right
#: side, and whether a class moved since its terms were computed (``LOG2_TERMS``)
KNOWN, LEFT, RIGHT, BEST_LEFT, LEFT_TERMS, RIGHT_TERMS, MOVED = 0, 1, 2, 3, 4, 5, 6
WORK_ROWS = 7


def ordered_class_cut(positions, known, work, rules, clogc):
    """The best cut ``x <= t`` of a numeric attribute, its known values read in
    increasing order as ``positions``: rows
    (:class:`~._positions_kernels.RowPositions`, an exact attribute) or non-empty
    bins (:class:`~._positions_kernels.BinPositions`, a binned one).

    ``known`` (:class:`~._positions_kernels.KnownPart`): the known rows' weight, the
    node's, their rows and positions and whether their class weights are integer counts; ``work`` a
    ``(WORK_ROWS, K)`` table whose row ``KNOWN`` holds their class weights; ``rules``
    a :class:`~hyperplane.tree._state.GrowRules` (criterion, min_leaf, c45);
    ``clogc`` the table ``c log2 c`` (looked up for integer counts it covers).

    Each position in turn moves its class weights to the left side
    (:func:`~._positions_kernels.entries`, :func:`~._positions_kernels.entry`), and a
    cut after it lies between its largest value and the next position's smallest
    (:func:`~._positions_kernels.values_around`):
    only between separated values (:func:`separated`), only where both sides
    are admissible (:func:`admissible_cut`, C4.5 counting those cuts), scored
    by its quality (Gini, :func:`gini_quality`: sums of squares kept up to date
    exactly for integer counts below ``EXACT_COUNTS``, else summed per cut;
    entropy: ``c log2 c`` looked up for integer counts, :func:`_lookup_quality`,
    else recomputed for the classes that moved, :func:`entropy_quality`), the
    smaller threshold kept between tied cuts (:func:`kept_as_best`). Returns
    :func:`finish_cut`'s :class:`~hyperplane.tree._state.Split` of the best cut
    at :func:`cut_threshold` (``cut_bin``: :func:`~._positions_kernels.position_bin`), or
    :func:`no_split`. Compiled, with the readers of one type of positions
    (:func:`scan_of`: :data:`ordered_row_cut`, :data:`ordered_bin_cut`), in the place
    of each entry (:func:`best_numeric_cut`, :func:`ordered_cut`, the oblique tree's
    ``best_threshold``).
    """
    if known.positions < 2 or known.w_known <= 0.0:
        return no_split()
    n_classes = work.shape[1]
    bounds = cut_bounds(known.w_known, known.w_total, known.n_known, n_classes, rules.min_leaf,
                        rules.c45)
    if not bounds.possible:
        return no_split()
    how = LOG2_TERMS
    if rules.criterion == GINI:
        how = GINI_COUNTS if known.integer and known.w_known < EXACT_COUNTS else GINI_SUMS
    elif known.integer and clogc.shape[0] > known.w_known:
        how = CLOGC_LOOKUP
    left, right, best_left = work[LEFT], work[RIGHT], work[BEST_LEFT]
    terms, moved = work[LEFT_TERMS:MOVED], work[MOVED]  # CLOGC_LOOKUP: terms[0] both sides'
    sq_l = 0.0
    sq_r = 0.0
    for k in range(n_classes):
        left[k] = 0.0
        right[k] = work[KNOWN, k]
        moved[k] = 1.0
        sq_r += right[k] * right[k]
        if how == CLOGC_LOOKUP:
            terms[0, k] = clogc[0] + clogc[np.int64(right[k])]
    w_left = 0.0
    n_left = 0
    n_cuts = 0
    best = -np.inf
    best_pos = -1
    best_w_left = 0.0
    for pos in range(known.positions - 1):
        for e in range(entries(positions)):  # move the position's class weights left
            k, a = entry(positions, pos, e)
            if a == 0.0:
                continue
            if how == GINI_COUNTS:  # (c + a)² − c² = 2ca + a²: exact for integer counts
                sq_l += 2.0 * left[k] * a + a * a
                sq_r -= 2.0 * right[k] * a - a * a
            left[k] += a
            right[k] -= a
            w_left += a
            moved[k] = 1.0
            if how == CLOGC_LOOKUP:  # only the moved class's terms change
                terms[0, k] = clogc[np.int64(left[k])] + clogc[np.int64(right[k])]
        n_left += position_rows(positions, pos)
        x_here, x_next = values_around(positions, pos)
        if not separated(x_here, x_next, bounds):
            continue
        w_right = known.w_known - w_left
        n_right = known.n_known - n_left
        if not admissible_cut(w_left, w_right, n_left, n_right, bounds, rules.min_leaf,
                              rules.c45):
            continue
        n_cuts += 1
        if how == GINI_COUNTS:
            quality = gini_quality(sq_l, sq_r, w_left, w_right)
        elif how == GINI_SUMS:
            sq_l, sq_r = squared_sums(left, right)
            quality = gini_quality(sq_l, sq_r, w_left, w_right)
        elif how == CLOGC_LOOKUP:
            quality = _lookup_quality(terms[0], n_left, n_right, clogc)
        else:  # c log2 c recomputed only for the classes that moved since the last cut
            quality = 0.0
            for k in range(n_classes):
                if moved[k] != 0.0:
                    terms[0, k] = xlog2x(left[k])
                    terms[1, k] = xlog2x(right[k])
                    moved[k] = 0.0
                quality += terms[0, k]
                quality += terms[1, k]
            quality = entropy_quality(quality, w_left, w_right)
        if kept_as_best(quality, best, bounds, left, best_left):
            best, best_pos, best_w_left = quality, pos, w_left
    if best_pos < 0:
        return no_split()
    x_here, x_next = values_around(positions, best_pos)
    return finish_cut(work, best_w_left, known, n_cuts,
                      cut_threshold(x_here, x_next), position_bin(positions, best_pos),
                      rules.criterion, rules.c45)


#: the readers :func:`ordered_class_cut` calls, each chosen by the positions' type
READERS = ("entries", "entry", "position_rows", "values_around", "position_bin")


def scan_of(kind):
    """:func:`ordered_class_cut` for positions of type ``kind``
    (:class:`~._positions_kernels.RowPositions` or
    :class:`~._positions_kernels.BinPositions`): the same code with each of
    :data:`READERS` bound to its reader of that type, compiled in each caller's place with the readers in its own (numba's
    untyped inlining, :data:`~hyperplane._numba.jit_inline`). A call passing the positions,
    the work table and the rules cost a small node's scan 10-30%; choosing the readers
    while typing (an ``overload(..., inline="always")``) had numba type the whole scan
    again at every round of its caller's type inference (2.7x the compilation)."""
    scope = dict(globals())
    scope.update({name: globals()[name].readers[kind] for name in READERS})
    name = f"ordered_{'bin' if kind is BinPositions else 'row'}_cut"
    scan = pytypes.FunctionType(ordered_class_cut.__code__, scope, name)
    scan.__qualname__, scan.__doc__ = name, ordered_class_cut.__doc__
    return jit_inline(scan)


#: the scan over an exact attribute's rows (:func:`best_numeric_cut`, the oblique tree's
#: projections) and over a binned attribute's bins (:func:`ordered_cut`)
ordered_row_cut = scan_of(RowPositions)
ordered_bin_cut = scan_of(BinPositions)


@jit_internal
def gather_buffers(spare, n_known, unit):
    """Where a scan gathers its ``n_known`` classes and weights (none when every
    weight is 1): the scratch ``spare`` (a
    :class:`~hyperplane.tree._state.GatherBuffers`) if it is long enough, else new
    arrays of its types."""
    n_w = 0 if unit else n_known
    if spare.classes.shape[0] >= n_known and spare.weights.shape[0] >= n_w:
        return spare.classes[:n_known], spare.weights[:n_w]
    return (empty(n_known, spare.classes.dtype),
            empty(n_w, spare.weights.dtype))


@jit_twin
def best_numeric_cut(xs, order, y, value, scan, rules, spare):
    """Best midpoint cut ``x <= t`` of an exact attribute: :func:`ordered_class_cut`
    over the node's rows ``order`` (sorted by x, NaN last) with values ``xs``
    (``xs[pos] = x[order[pos]]``).

    ``value`` is the node's class weights; ``scan`` a
    :class:`~hyperplane.tree._state.Scan`: ``scan.wbuf[i]`` is the weight of row ``i`` in
    this node, ``scan.unit``: every weight is 1, so counts are integers (rounded here)
    and entropy terms ``c log2 c`` come from the table ``scan.clogc``; ``rules``
    a :class:`~hyperplane.tree._state.GrowRules` (criterion, min_leaf, c45). The known
    rows' class weights are the node's less those of the rows missing the value; their
    classes (and weights, unless all 1) are gathered once into contiguous buffers
    (into ``spare``, a :class:`~hyperplane.tree._state.GatherBuffers`, when they are
    long enough, :func:`gather_buffers`), one scan position per row.
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
    wbuf, unit = scan.wbuf, scan.unit
    n_classes = value.shape[0]
    m = order.shape[0]
    work = empty((WORK_ROWS, n_classes), np.float64)
    known = work[KNOWN]
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
        w_known = sum_in_order(known)
    return ordered_row_cut(RowPositions(xs, ys, ws),
                           KnownPart(w_known, w_total, n_known, n_known, unit), work, rules,
                           scan.clogc if unit else scan.clogc[:0])


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
    scratch = Scratch(bins, table[bins], n_rows[bins],
                      empty((WORK_ROWS, table.shape[1]), np.float64),
                      bins[:0])
    return ordered_cut(bins.size, scratch, table[n_codes], bin_range, rules, clogc)


@jit_internal
def ordered_cut(d, scratch, missing, bin_range, rules, clogc):
    """The best cut between the non-empty bins of a binned attribute:
    :func:`ordered_class_cut` with one position per bin.

    In the :class:`~hyperplane.tree._state.Scratch` ``scratch``, ``bins[:d]`` are the
    non-empty bins in increasing order, ``bin_table[e]`` / ``bin_rows[e]``
    the class weights / rows of bin ``bins[e]``, ``work`` a ``(WORK_ROWS, K)``
    buffer; ``missing`` the class weights of the rows missing the value;
    ``bin_range`` as :func:`ordered_table_cut` takes it; ``clogc`` the table
    ``c log2 c``, given (longer than the node's weight) only when every weight
    is 1, so that the bins' class weights are integer counts. A cut after bin
    ``bins[e]`` lies between its largest value and the next non-empty bin's
    smallest, and is scored by the same rules as :func:`best_numeric_cut`'s
    cut between those values, so with one training value per bin both
    choose the same cut and threshold (and bins of several values hold the
    rows the exact scan would move together). The scan costs the node's
    distinct bins, not the number of bins. Returns the attribute's
    :class:`~hyperplane.tree._state.Split`. A ``work`` of fewer than ``WORK_ROWS`` rows
    raises ``ValueError`` (the scan would write past its end).
    """
    work = scratch.work
    if work.shape[0] < WORK_ROWS:
        raise ValueError("ordered_cut: scratch.work needs WORK_ROWS rows (new_scratch makes it)")
    table, n_rows = scratch.bin_table, scratch.bin_rows
    known = work[KNOWN]
    known[:] = 0.0
    n_known = 0
    for e in range(d):
        n_known += n_rows[e]
        for k in range(table.shape[1]):
            known[k] += table[e, k]
    w_known = sum_in_order(known)
    w_total = w_known + sum_in_order(missing)
    return ordered_bin_cut(BinPositions(scratch.bins, table, n_rows, bin_range),
                           KnownPart(w_known, w_total, n_known, d, clogc.shape[0] > w_known),
                           work, rules, clogc)


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
