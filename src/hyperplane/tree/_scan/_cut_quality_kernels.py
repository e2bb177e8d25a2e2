"""How the ordered scan scores a cut, one rule record per classification criterion.

The ordered scan (:func:`~._numeric_cut_kernels.ordered_class_cut`) moves a node's
known positions to the left side one at a time and scores each cut by its quality
−(W_L I(L) + W_R I(R)) up to a constant (周志华 4.1, 4.5, 4.6). What it keeps up to
date for that, and how, is the criterion's: the Gini index's sums of squared class
weights (kept exactly for integer counts, else summed per cut), the entropy's
``c log2 c`` terms (looked up for integer counts, else recomputed for the classes that
moved). :data:`CUT_QUALITY` holds each criterion's :class:`CutQuality`; the scan
reaches a rule through the chooser of its field (:data:`start_scan`,
:data:`move_left`, :data:`class_cut_quality`), which numba
resolves when it types the criterion's code (:class:`~._split_kernels.Entropy` or
:class:`~._split_kernels.Gini`, a type each), so a Gini fit compiles no entropy
scoring and an entropy fit no sums of squares.

Examples
--------
>>> from hyperplane.tree._scan._cut_quality_kernels import CUT_QUALITY
>>> from hyperplane.tree._scan._split_kernels import GINI
>>> CUT_QUALITY[type(GINI)].quality.__name__
'_gini_cut_quality'
"""

from __future__ import annotations

from typing import Callable, NamedTuple

import numpy as np

from ..._numba import by_first_type, jit_inline, jit_internal
from ._split_kernels import Entropy, Gini

#: how the scan scores a cut (:attr:`ScanState.how`): Gini from sums of squared class
#: weights, the same sums kept up to date one position at a time (integer counts),
#: entropy from c log2 c looked up (integer counts) or computed
GINI_SUMS = 0
GINI_COUNTS = 1
CLOGC_LOOKUP = 2
LOG2_TERMS = 3
#: integer counts below this have squares and sums of squares exact in float64 (2^26)
EXACT_COUNTS = 2.0**26


class ScanState(NamedTuple):
    """How the scan scores its cuts (``GINI_SUMS``, ``GINI_COUNTS``, ``CLOGC_LOOKUP``,
    ``LOG2_TERMS``) and, kept for ``GINI_COUNTS``, the Gini index's running sums
    ``Σ_k L_k²`` and ``Σ_k R_k²`` of the two sides."""

    how: int
    sq_l: float
    sq_r: float


class ScanSides(NamedTuple):
    """The rows of a scan's work table that its criterion keeps up to date: the left and
    right sides' class weights, each class's ``c log2 c`` terms of the left side (row 0;
    ``CLOGC_LOOKUP``: of both sides) and of the right side (row 1), and whether a class
    moved since its terms were computed (``LOG2_TERMS``)."""

    left: np.ndarray
    right: np.ndarray
    terms: np.ndarray
    moved: np.ndarray


class CutQuality(NamedTuple):
    """What a classification criterion decides in the ordered scan, a compiled function
    each; :data:`CUT_QUALITY` holds one per criterion."""

    #: ``(known, sides, clogc)``: the :class:`ScanState` with every position on the right
    #: (``known`` a :class:`~._positions_kernels.KnownPart`, ``clogc`` the ``c log2 c`` table)
    start: Callable
    #: ``(state, sides, k, a, clogc)``: move weight ``a`` of class ``k`` to the left side,
    #: returning the state after it
    move: Callable
    #: ``(state, sides, w_left, w_right, n_left, n_right, clogc)``: the cut's quality
    quality: Callable


@jit_inline
def gini_quality(sq_l, sq_r, w_left, w_right):
    """``Σ L_k²/W_L + Σ R_k²/W_R`` = W − (W_L Gini(L) + W_R Gini(R)) (周志华 4.5, 4.6)."""
    return sq_l / w_left + sq_r / w_right


@jit_inline
def squared_sums(left, right):
    """(Σ_k left_k², Σ_k right_k²): the Gini index's sums for both sides of a cut."""
    sq_l = 0.0
    sq_r = 0.0
    for k in range(left.shape[0]):
        sq_l += left[k] * left[k]
        sq_r += right[k] * right[k]
    return sq_l, sq_r


@jit_inline
def xlog2x(c):
    """``c log2 c`` (0 at 0): one class's entropy term."""
    return c * np.log2(c) if c > 0.0 else 0.0


@jit_inline
def entropy_quality(terms, w_left, w_right):
    """``Σ_k (L_k log2 L_k + R_k log2 R_k) − W_L log2 W_L − W_R log2 W_R`` =
    −(W_L Ent(L) + W_R Ent(R)) (周志华 4.1), ``terms`` the sum over the classes."""
    return terms - (w_left * np.log2(w_left) + w_right * np.log2(w_right))


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


@jit_internal
def _gini_start(known, sides, clogc):
    """Sums of squares kept up to date exactly for integer counts below ``EXACT_COUNTS``,
    else summed per cut; ``Σ_k R_k²`` of the node's known class weights, all on the right."""
    how = GINI_COUNTS if known.integer and known.w_known < EXACT_COUNTS else GINI_SUMS
    sq_r = 0.0
    right = sides.right
    for k in range(right.shape[0]):
        sq_r += right[k] * right[k]
    return ScanState(how, 0.0, sq_r)


@jit_internal
def _gini_move(state, sides, k, a, clogc):
    """Move ``a`` of class ``k`` left; for integer counts the sums change by
    ``(c + a)² − c² = 2ca + a²``, exact."""
    left, right = sides.left, sides.right
    sq_l, sq_r = state.sq_l, state.sq_r
    if state.how == GINI_COUNTS:
        sq_l += 2.0 * left[k] * a + a * a
        sq_r -= 2.0 * right[k] * a - a * a
    left[k] += a
    right[k] -= a
    return ScanState(state.how, sq_l, sq_r)


@jit_internal
def _gini_cut_quality(state, sides, w_left, w_right, n_left, n_right, clogc):
    """:func:`gini_quality` from the kept sums, or from sums of the sides' squares."""
    if state.how == GINI_COUNTS:
        return gini_quality(state.sq_l, state.sq_r, w_left, w_right)
    sq_l, sq_r = squared_sums(sides.left, sides.right)
    return gini_quality(sq_l, sq_r, w_left, w_right)


@jit_internal
def _entropy_start(known, sides, clogc):
    """``c log2 c`` looked up for integer counts the table covers, else computed; every
    class moved and, looked up, each class's terms of both sides with all on the right."""
    how = CLOGC_LOOKUP if known.integer and clogc.shape[0] > known.w_known else LOG2_TERMS
    right, terms, moved = sides.right, sides.terms, sides.moved
    for k in range(right.shape[0]):
        moved[k] = 1.0
        if how == CLOGC_LOOKUP:
            terms[0, k] = clogc[0] + clogc[np.int64(right[k])]
    return ScanState(how, 0.0, 0.0)


@jit_internal
def _entropy_move(state, sides, k, a, clogc):
    """Move ``a`` of class ``k`` left; looked up, only the moved class's terms change."""
    left, right, terms = sides.left, sides.right, sides.terms
    left[k] += a
    right[k] -= a
    sides.moved[k] = 1.0
    if state.how == CLOGC_LOOKUP:
        terms[0, k] = clogc[np.int64(left[k])] + clogc[np.int64(right[k])]
    return state


@jit_internal
def _entropy_cut_quality(state, sides, w_left, w_right, n_left, n_right, clogc):
    """:func:`_lookup_quality`, or :func:`entropy_quality` with ``c log2 c`` recomputed
    only for the classes that moved since the last cut."""
    terms, moved = sides.terms, sides.moved
    if state.how == CLOGC_LOOKUP:
        return _lookup_quality(terms[0], n_left, n_right, clogc)
    quality = 0.0
    for k in range(moved.shape[0]):
        if moved[k] != 0.0:
            terms[0, k] = xlog2x(sides.left[k])
            terms[1, k] = xlog2x(sides.right[k])
            moved[k] = 0.0
        quality += terms[0, k]
        quality += terms[1, k]
    return entropy_quality(quality, w_left, w_right)


#: each classification criterion's scan rules, by the class of its code
CUT_QUALITY = {
    Gini: CutQuality(_gini_start, _gini_move, _gini_cut_quality),
    Entropy: CutQuality(_entropy_start, _entropy_move, _entropy_cut_quality),
}


def _quality_of(field):
    """The chooser of ``field`` of the :class:`CutQuality` of a criterion's numba type."""
    def choose(criterion):
        rules = CUT_QUALITY.get(getattr(criterion, "instance_class", None))
        if rules is None:
            raise TypeError(f"a classification criterion is ENTROPY or GINI, each typed as "
                            f"its own class; got the numba type {criterion}")
        return getattr(rules, field)
    return choose


#: ``start_scan(criterion, known, sides, clogc)`` (:attr:`CutQuality.start`)
start_scan = by_first_type(_quality_of("start"), "start_scan", pass_first=False)
#: ``move_left(criterion, state, sides, k, a, clogc)`` (:attr:`CutQuality.move`)
move_left = by_first_type(_quality_of("move"), "move_left", pass_first=False)
#: ``class_cut_quality(criterion, state, sides, w_left, w_right, n_left, n_right, clogc)``
#: (:attr:`CutQuality.quality`)
class_cut_quality = by_first_type(_quality_of("quality"), "class_cut_quality",
                                  pass_first=False)
