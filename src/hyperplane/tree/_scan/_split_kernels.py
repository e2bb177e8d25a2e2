"""Compiled split search: impurities, class-count tables and the per-node scan.

Every function here is a pure function of arrays (no self, no I/O). The
statistics a split needs are *class-weight tables*: for an attribute with
``n_codes`` values (categories, or quantile bins of a numeric attribute) the
table ``T[v, k]`` holds the total weight of the samples of class ``k`` whose
value is ``v``; the last row ``T[n_codes, k]`` holds the samples whose value
is missing. Tables of two data chunks add up (:func:`accumulate_class_table`
only ever adds), so a distributed fit can grow a tree level by level by
summing per-chunk tables and calling :func:`table_split_score` /
:func:`~._numeric_cut_kernels.ordered_table_cut` on the sum.

Numeric attributes, exact or binned, are scanned in the order of their values
(:mod:`._numeric_cut_kernels`: the two ordered scans and their shared rules);
an exact attribute's order is computed once at the root and partitioned,
never re-sorted, as the tree grows. Scoring every attribute of a node is
:mod:`._node_kernels`.

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

from ..._numba import jit, jit_inline, jit_internal, jit_twin
from ..._lowered import empty
from ._loops_kernels import filled, pick_max, pick_min, sum_in_order
from ._median_kernels import ABSOLUTE_ERROR  # noqa: F401  (every criterion's code is here)
from ._moments_kernels import SQUARED_ERROR  # noqa: F401
from .._state import Split

ENTROPY = 0
GINI = 1

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


@jit_internal
def c45_min_side(min_leaf, w_known, n_classes):
    """C4.5's minimum weight of each side of a numeric cut (release 8, Quinlan 1996):
    ``min(25, max(M, 0.1 W̃ / K))``."""
    return pick_min(C45_MIN_SIDE_CAP, pick_max(min_leaf, C45_MIN_SIDE_FRACTION * w_known / n_classes))


@jit_twin
def impurity(counts, total, criterion):
    """Ent(D) = −Σ p_k log2 p_k (``criterion=0``) or Gini(D) = 1 − Σ p_k² (1) of the
    class weights ``counts`` of total ``total`` (a regression node's impurity is its
    criterion's own rule, :data:`~._criterion_kernels.regression_impurity`)."""
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


@jit_internal
def squared_sums(left, right):
    """(Σ_k left_k², Σ_k right_k²): the Gini index's sums for both sides of a cut."""
    sq_l = 0.0
    sq_r = 0.0
    for k in range(left.shape[0]):
        sq_l += left[k] * left[k]
        sq_r += right[k] * right[k]
    return sq_l, sq_r


@jit_inline
def _known_part(table):
    """Class weights of the rows with a known value, their total, and the total with missing."""
    n_codes = table.shape[0] - 1
    known = filled(empty(table.shape[1], np.float64), 0.0)
    for v in range(n_codes):
        for k in range(table.shape[1]):
            known[k] += table[v, k]
    w_known = sum_in_order(known)
    return known, w_known, w_known + sum_in_order(table[n_codes])


@jit_internal
def c45_split_info(w_branches, w_missing):
    """C4.5's split information: the missing weight counts as one more branch,
    ``−Σ_v W_v/W log2(W_v/W) − W_?/W log2(W_?/W)`` with ``W`` all the node's weight."""
    total = sum_in_order(w_branches) + w_missing
    iv = 0.0
    for w_v in w_branches:
        if w_v > 0.0:
            iv -= w_v / total * np.log2(w_v / total)
    if w_missing > 0.0:
        iv -= w_missing / total * np.log2(w_missing / total)
    return iv


@jit_twin
def table_split_score(table, n_rows, criterion, min_leaf, c45=None):
    """Score a multiway split (one branch per value) from its class-weight table.

    Returns the attribute's :class:`~hyperplane.tree._state.Split` (no threshold, no bin); a split is valid when
    at least two branches are non-empty and every non-empty branch holds at
    least ``min_leaf`` rows with a known value. ``c45`` (True or None, as
    :class:`~hyperplane.tree._state.GrowRules` holds it; J48's rules, for
    ``criterion="gain_ratio"``): valid when at least two branches *weigh* at
    least ``min_leaf`` (smaller and empty branches are allowed), and the gain
    ratio divides by :func:`c45_split_info`.
    """
    n_codes = table.shape[0] - 1
    known, w_known, w_total = _known_part(table)
    if w_known <= 0.0:
        return Split(0.0, 0.0, 0.0, 0.0, np.nan, -1, False)
    after = 0.0
    iv = 0.0
    n_nonempty = 0
    n_heavy = 0
    valid = True
    w_branches = filled(empty(n_codes, np.float64), 0.0)
    for v in range(n_codes):
        if n_rows[v] == 0:
            continue
        w_v = sum_in_order(table[v])
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
    if c45 is not None:  # numba drops the branch when c45 is None: no C4.5 code compiled
        iv = c45_split_info(w_branches, w_total - w_known)
        valid = n_heavy >= 2
    ratio = score / iv if iv > 0.0 else 0.0
    return Split(score, ratio, after, rho, np.nan, -1, valid and n_nonempty >= 2)


@jit_twin
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
    w_left = sum_in_order(left)
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


def c_log2_c(n):
    """The table ``c log2 c`` for ``c = 0..n`` used by unit-weight entropy scans."""
    c = np.arange(n + 1, dtype=np.float64)
    out = np.zeros(n + 1, dtype=np.float64)
    out[1:] = c[1:] * np.log2(c[1:])
    return out
