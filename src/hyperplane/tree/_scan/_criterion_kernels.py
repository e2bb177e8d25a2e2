"""Each regression criterion's rules, one registry: what CART's least squares
(李航《统计学习方法》§5.5.1, 式5.21) and least absolute deviation (Breiman et al.
1984, §8.11) decide differently in the one cut scan and a node's expansion
(:mod:`._regression_kernels`).

A criterion's code is an ``IntEnum`` member of a class of its own
(:class:`~._moments_kernels.SquaredError`, :class:`~._median_kernels.AbsoluteError`):
an ``int`` to Python, a type each to numba, so each chooser below
(:func:`~hyperplane._numba.by_first_type`) resolves its rule when numba types
the criterion's code and a fit compiles its own criterion's rules only.

Examples
--------
>>> from hyperplane.tree._scan._criterion_kernels import CRITERION_RULES
>>> from hyperplane.tree._scan._moments_kernels import SQUARED_ERROR
>>> CRITERION_RULES[type(SQUARED_ERROR)].beats.__name__
'_squared_beats'
"""

from __future__ import annotations

from typing import Callable, NamedTuple

import numpy as np

from ..._numba import by_first_type, jit_internal
from ..._lowered import empty
from ._median_kernels import (AbsoluteError, absolute_error_profile, mean_absolute_error,
                              put_absolute_error)
from ._moments_kernels import (SquaredError, add_row, as_moments, cut_quality, mean_squared_error,
                               no_moments, put_moments, squared_error_decrease)
from ._split_kernels import ROUND_OFF


class CriterionRules(NamedTuple):
    """What a regression criterion decides, a compiled function each: all that
    the one cut scan (:func:`ordered_regression_cut`) and a node's expansion
    (:func:`expand_regression_node`) do differently for squared and absolute
    errors. :data:`CRITERION_RULES` holds one per criterion; a kernel reaches
    a rule through the chooser of its field (:data:`cut_profile`,
    :data:`regression_cut_quality`, :data:`beats_best`,
    :data:`regression_decrease`, :data:`put_regression_value`,
    :data:`regression_impurity`), which numba resolves when it types the
    criterion's code (:class:`~._moments_kernels.SquaredError` or
    :class:`~._median_kernels.AbsoluteError`, a type each), so a fit compiles
    its own criterion's rules only."""

    #: ``(targets, order, n_known)``: what the scan reads beside the moments (None: nothing)
    profile: Callable
    #: ``(left, right, profile, pos)``: the quality of cutting after the ``pos``-th known
    #: row, larger for less error
    quality: Callable
    #: ``(quality, best)``: whether a later cut of one attribute replaces the best so far
    beats: Callable
    #: ``(known, left, profile, pos)``: the cut's decrease and children's part,
    #: ``(I(D̃) − Σ_v W_v/W̃ I(D̃_v), Σ_v W_v/W̃ I(D̃_v))``
    decrease: Callable
    #: ``(value, y, rows, w)``: write the statistic of ``rows`` into a node's ``value`` row
    value: Callable
    #: ``(value,)``: a node's impurity from its ``value`` row
    impurity: Callable


def _rule_of(field):
    """The chooser of ``field`` of the :class:`CriterionRules` of a criterion's numba type."""
    def choose(criterion):
        rules = CRITERION_RULES.get(getattr(criterion, "instance_class", None))
        if rules is None:
            raise TypeError(f"a regression criterion is SQUARED_ERROR or ABSOLUTE_ERROR, each "
                            f"typed as its own class; got the numba type {criterion}")
        return getattr(rules, field)
    return choose


#: ``cut_profile(criterion, targets, order, n_known)``: what a cut scan reads beside
#: the left side's moments (:attr:`CriterionRules.profile`)
cut_profile = by_first_type(_rule_of("profile"), "cut_profile", pass_first=False)
#: ``regression_cut_quality(criterion, left, right, profile, pos)``
#: (:attr:`CriterionRules.quality`)
regression_cut_quality = by_first_type(_rule_of("quality"), "regression_cut_quality",
                                       pass_first=False)
#: ``beats_best(criterion, quality, best)`` (:attr:`CriterionRules.beats`)
beats_best = by_first_type(_rule_of("beats"), "beats_best", pass_first=False)
#: ``regression_decrease(criterion, known, left, profile, pos)``
#: (:attr:`CriterionRules.decrease`)
regression_decrease = by_first_type(_rule_of("decrease"), "regression_decrease",
                                    pass_first=False)
#: ``put_regression_value(criterion, value, y, rows, w)`` (:attr:`CriterionRules.value`)
put_regression_value = by_first_type(_rule_of("value"), "put_regression_value",
                                     pass_first=False)
#: ``regression_impurity(criterion, value)`` (:attr:`CriterionRules.impurity`)
regression_impurity = by_first_type(_rule_of("impurity"), "regression_impurity",
                                    pass_first=False)


@jit_internal
def _no_profile(targets, order, n_known):
    """The squared error reads nothing beside the moments (rows or bins: :class:`BinMoments`)."""
    return None


@jit_internal
def _row_profile(targets, order, n_known):
    """The absolute error's :class:`~._median_kernels.ErrorProfile` of the known rows
    in the attribute's order (prefix and suffix absolute errors). Training rows only
    (:class:`RowTargets`): a median is not a sum of bins' moments."""
    y_seq = empty(n_known, np.float64)
    w_seq = empty(n_known, np.float64)
    for pos in range(n_known):
        y_seq[pos] = targets.y[order[pos]]
        w_seq[pos] = targets.wbuf[order[pos]]
    return absolute_error_profile(y_seq, w_seq)


@jit_internal
def _squared_quality(left, right, profile, pos):
    """:func:`~._moments_kernels.cut_quality` of the sides' moments (李航 式5.21's error
    is ``Σwy²`` less it)."""
    return cut_quality(left, right)


@jit_internal
def _absolute_quality(left, right, profile, pos):
    """Minus the sides' absolute errors from their weighted medians,
    ``−(W_R · MAE_R + W_L · MAE_L)`` with ``MAE = Σw|y − m| / W`` (scikit-learn's
    arithmetic, so that cuts of equal error are told apart by the same round-off)."""
    return (-right.w * (profile.right[pos + 1] / right.w)
            - left.w * (profile.left[pos] / left.w))


@jit_internal
def _squared_beats(quality, best):
    """Beaten by more than ``ROUND_OFF`` relative: cuts of equal squared error up to
    round-off go to the smaller threshold."""
    return quality > best + ROUND_OFF * abs(best)


@jit_internal
def _absolute_beats(quality, best):
    """Beaten at all: the absolute error is piecewise linear in the cut, so exact ties
    are common and, as in scikit-learn, round-off decides."""
    return quality > best


@jit_internal
def _squared_decrease(known, left, profile, pos):
    """:func:`~._moments_kernels.squared_error_decrease` of the cut."""
    return squared_error_decrease(known, left)


@jit_internal
def _absolute_decrease(known, left, profile, pos):
    """The mean absolute deviations' decrease from the profile's prefix and suffix errors."""
    after = (profile.left[pos] + profile.right[pos + 1]) / known.w
    return profile.right[0] / known.w - after, after


@jit_internal
def _put_moments_of_rows(value, y, rows, w):
    """Write the moments ``[Σw, Σwy, Σwy²]`` of ``rows`` (weights ``w``, added in row
    order by :func:`~._moments_kernels.add_row`) into a node's ``value`` row."""
    m = no_moments()
    for pos in range(rows.shape[0]):
        m = add_row(m, y[rows[pos]], w[pos])
    put_moments(value, m)


@jit_internal
def _moments_impurity(value):
    """:func:`~._moments_kernels.mean_squared_error` of a node's ``value`` row."""
    return mean_squared_error(as_moments(value))


#: each regression criterion's rules, by the class of its code
CRITERION_RULES = {
    SquaredError: CriterionRules(_no_profile, _squared_quality, _squared_beats,
                                 _squared_decrease, _put_moments_of_rows, _moments_impurity),
    AbsoluteError: CriterionRules(_row_profile, _absolute_quality, _absolute_beats,
                                  _absolute_decrease, put_absolute_error, mean_absolute_error),
}
