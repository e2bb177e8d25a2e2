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
(:func:`~._numeric_cut_kernels.best_numeric_cut`); the order is computed
once at the root and partitioned, never re-sorted, as the tree grows. Scoring every attribute of
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
from ._moments_kernels import as_moments, mean_squared_error
from ._state import Scratch

ENTROPY = 0
GINI = 1
#: a regression tree's impurity: the mean squared error of a node's moments ``[Σw, Σwy, Σwy²]``
SQUARED_ERROR = 2

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
    """Ent(D) = −Σ p_k log2 p_k (``criterion=0``) or Gini(D) = 1 − Σ p_k² (1); for
    ``SQUARED_ERROR`` ``counts`` are a regression node's moments and ``total`` is unused
    (:func:`~._moments_kernels.mean_squared_error`)."""
    if criterion == SQUARED_ERROR:
        return mean_squared_error(as_moments(counts))
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
def value_split_score(table, n_rows, a, criterion, min_leaf):
    """Score CART's binary test ``A = a`` against ``A ≠ a`` from the attribute's class table.

    李航《统计学习方法》式5.25: D₁ the rows with ``A = a``, D₂ the rest, and
    ``Gini(D, A = a) = |D₁|/|D| Gini(D₁) + |D₂|/|D| Gini(D₂)`` (returned as
    ``after``; entropy for ``criterion=0``), on the rows whose value is known
    with ρ as in :func:`table_split_score`. Returns ``(score, after, valid)``
    with ``score = ρ · (I(D̃) − after)``; valid when both sides hold at least
    ``min_leaf`` rows and some weight.
    """
    known, w_known, w_total = _known_part(table)
    if w_known <= 0.0:
        return 0.0, 0.0, False
    left = table[a]
    right = known - left
    w_left = left.sum()
    w_right = w_known - w_left
    rows_left = n_rows[a]
    rows_right = n_rows[:-1].sum() - rows_left
    valid = (w_left > 0.0 and w_right > 0.0 and rows_left >= min_leaf
             and rows_right >= min_leaf)
    if not valid:
        return 0.0, 0.0, False
    decrease, after, _ = _binary_score(left, right, w_left, w_right,
                                       impurity(known, w_known, criterion), criterion)
    return w_known / w_total * decrease, after, True


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
    for k in range(n_classes):
        right[k] = known[k]
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
