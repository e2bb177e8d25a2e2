"""The node statistic of a least-squares regression tree: its weighted moments.

李航《统计学习方法》§5.5.1 (算法5.5) grows a regression tree by choosing the
cut ``(j, s)`` that minimises

``min_{c1} Σ_{x_i ∈ R1(j,s)} (y_i − c1)² + min_{c2} Σ_{x_i ∈ R2(j,s)} (y_i − c2)²``

whose inner minima are the regions' means ``ĉ_m = ave(y_i | x_i ∈ R_m)``. All
of it follows from three sums of a set of rows, :class:`Moments`
``(Σw, Σwy, Σwy²)``: the mean ``Σwy / Σw``, the squared error ``Σw(y − ȳ)² =
Σwy² − (Σwy)² / Σw`` and the mean squared error (the impurity scikit-learn
stores). The sums of two sets add up and those of a cut's right side are the
node's less its left side's, so a scan over sorted values updates them one row
at a time (:func:`add_row`). A tree stores a node's moments as the row
``[Σw, Σwy, Σwy²]`` of its ``value`` array (:func:`as_moments`).

Each rule here is a few strict (IEEE) operations on one record, inlined into
the strict scans that call it (the same bits as a call): a unit of its own
cost each a whole compilation in a regression tree's first fit.
"""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

from ..._numba import jit_inline
from ._loops_kernels import pick_max

#: columns of a node's moments in a tree's ``value`` array
N_MOMENTS = 3


class SquaredError(IntEnum):
    """The least-squares criterion's code (李航 式5.21), of a type of its own.

    An ``int`` to Python; numba types it as this class's member, not as an
    integer, so a regression kernel compiled for it compiles this criterion's
    rules only (:data:`~._criterion_kernels.CRITERION_RULES`, chosen by the
    type) and no weighted median.
    """

    CODE = 2


#: a regression tree's impurity: the mean squared error of a node's moments ``[Σw, Σwy, Σwy²]``
SQUARED_ERROR = SquaredError.CODE


class Moments(NamedTuple):
    """The weighted moments of a set of rows."""

    w: float  # Σ w_i
    wy: float  # Σ w_i y_i
    wyy: float  # Σ w_i y_i²


@jit_inline
def no_moments():
    """The moments of no rows."""
    return Moments(0.0, 0.0, 0.0)


@jit_inline
def add_row(m, y, w):
    """``m`` with one more row of target ``y`` and weight ``w``."""
    wy = w * y
    return Moments(m.w + w, m.wy + wy, m.wyy + wy * y)


@jit_inline
def less(m, part):
    """The moments of the rows of ``m`` that are not in ``part`` (a subset of them)."""
    return Moments(m.w - part.w, m.wy - part.wy, m.wyy - part.wyy)


@jit_inline
def as_moments(value):
    """A node's ``value`` row ``[Σw, Σwy, Σwy²]`` as :class:`Moments`."""
    return Moments(value[0], value[1], value[2])


@jit_inline
def put_moments(value, m):
    """Write ``m`` into the ``value`` row of a node."""
    value[0], value[1], value[2] = m.w, m.wy, m.wyy


@jit_inline
def mean(m):
    """The region's output ``ĉ = Σwy / Σw`` (李航 式5.17's least-squares value); 0 without weight."""
    return m.wy / m.w if m.w > 0.0 else 0.0


@jit_inline
def mean_squared_error(m):
    """``Σw(y − ĉ)² / Σw = Σwy²/Σw − ĉ²``, the node's impurity (0 without weight;
    round-off below 0 is 0)."""
    if m.w <= 0.0:
        return 0.0
    c = m.wy / m.w
    return pick_max(m.wyy / m.w - c * c, 0.0)


@jit_inline
def cut_quality(left, right):
    """``(Σ_L wy)²/W_L + (Σ_R wy)²/W_R``: the squared error of the cut, 李航 式5.21,
    is ``Σwy² − quality``, so the cut of largest quality has the least error
    (both sides must have weight)."""
    return left.wy * left.wy / left.w + right.wy * right.wy / right.w


@jit_inline
def squared_error_decrease(known, left):
    """``MSE(D̃) − W_L/W̃ MSE(L) − W_R/W̃ MSE(R)`` of a cut of the known rows
    ``known`` into ``left`` and the rest, and the children's part
    ``W_L/W̃ MSE(L) + W_R/W̃ MSE(R)``."""
    right = less(known, left)
    after = (left.w * mean_squared_error(left) + right.w * mean_squared_error(right)) / known.w
    return mean_squared_error(known) - after, after


@jit_inline
def add_moments(m, part):
    """The moments of the rows of ``m`` and of ``part`` together (disjoint sets);
    ``add_moments(m, Moments(w, w·y, (w·y)·y))`` is :func:`add_row`."""
    return Moments(m.w + part.w, m.wy + part.wy, m.wyy + part.wyy)
