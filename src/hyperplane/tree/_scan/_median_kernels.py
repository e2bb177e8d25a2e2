"""The node statistic of a least-absolute-deviation regression tree: weighted medians.

With the absolute error ``Σ w_i |y_i − c|`` in place of 李航 式5.21's squared
error (Breiman et al. 1984, §8.11, "least absolute deviation" regression;
scikit-learn's ``criterion="absolute_error"``), a region's best constant is a
weighted median of its targets and its impurity the mean absolute deviation
from it, ``Σ w_i |y_i − m| / Σ w_i``. A tree stores a node's statistic as the
row ``[Σw, m, Σw|y − m|]`` of its ``value`` array (:func:`put_absolute_error`).

A cut scan needs the absolute error of every prefix and every suffix of the
node's rows in the attribute's order. :func:`absolute_error_profile` gets them
in O(n log n): the rows' targets are ranked once, and a Fenwick tree of the
weights and weighted targets by rank (:class:`Fenwick`) gives, after each row
is added, the weighted median (:func:`fenwick_median`: the target where the
cumulative weight crosses half the total; the mid-point of two targets when
it reaches exactly half, as scikit-learn's) and the error by the identity
``Σ_{y ≥ m} w(y − m) + Σ_{y < m} w(m − y) = (wy_R − m w_R) + (m w_L − wy_L)``.
"""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

import numpy as np

from ..._numba import jit_internal, jit_twin
from ..._lowered import empty
from ._loops_kernels import filled


class AbsoluteError(IntEnum):
    """The least-absolute-deviation criterion's code (Breiman et al. 1984, §8.11),
    of a type of its own, as :class:`~._moments_kernels.SquaredError`: a
    regression kernel compiled for it compiles this criterion's rules only."""

    CODE = 3


#: a least-absolute-deviation tree's impurity: the mean absolute deviation from the weighted
#: median, from a node's ``[Σw, m, Σw|y − m|]``
ABSOLUTE_ERROR = AbsoluteError.CODE


class Fenwick(NamedTuple):
    """Prefix sums by rank (1-based; ``w[0]``, ``wy[0]`` unused) of the weights and
    weighted targets of the rows added so far, with ``total[0]`` = Σw and
    ``total[1]`` = Σwy."""

    w: np.ndarray
    wy: np.ndarray
    total: np.ndarray


class ErrorProfile(NamedTuple):
    """Absolute errors of the prefixes and suffixes of a sequence of rows:
    ``left[p]`` of rows ``0..p``, ``right[p]`` of rows ``p..n−1``;
    ``right_median[0]`` is the weighted median of all of them."""

    left: np.ndarray
    right: np.ndarray
    right_median: np.ndarray


@jit_internal
def fenwick_add(tree, rank, y, w):
    """Add a row of target ``y`` (the ``rank``-th smallest, 0-based) and weight ``w``."""
    wy = w * y
    k = rank + 1
    size = tree.w.shape[0] - 1
    while k <= size:
        tree.w[k] += w
        tree.wy[k] += wy
        k += k & -k
    tree.total[0] += w
    tree.total[1] += wy


@jit_internal
def _descend(tree, target, or_equal):
    """The largest prefix length ``k`` of ranks whose weight is ``< target``
    (``<= target`` if ``or_equal``), with that prefix's Σw and Σwy (the binary
    search of a Fenwick tree, scikit-learn's ``WeightedFenwickTree.search``)."""
    size = tree.w.shape[0] - 1
    bit = 1
    while bit <= size:
        bit <<= 1
    bit >>= 1
    k = 0
    cum_w = 0.0
    cum_wy = 0.0
    while bit != 0:
        nxt = k + bit
        if nxt <= size:
            node = tree.w[nxt]
            if target > node or (or_equal and target == node):
                target -= node
                k = nxt
                cum_w += node
                cum_wy += tree.wy[nxt]
        bit >>= 1
    return k, cum_w, cum_wy


@jit_internal
def fenwick_median(tree, sorted_y):
    """The weighted median of the rows added to ``tree`` and the weight and
    weighted targets of the rows below it, ``(m, w_below, wy_below)``.

    The median is the target of the rank where the cumulative weight first
    exceeds half the total; where a prefix weighs exactly half, the mid-point
    of the target completing it and the next added one, with that prefix
    below (scikit-learn's ``precompute_absolute_errors``).
    """
    half = 0.5 * tree.total[0]
    k, w_below, wy_below = _descend(tree, half, False)
    after, w_half, wy_half = _descend(tree, half, True)
    if after == k:
        return sorted_y[k], w_below, wy_below
    return (sorted_y[k] + sorted_y[after]) / 2.0, w_half, wy_half


@jit_internal
def absolute_error_of(tree, sorted_y):
    """``(Σw|y − m|, m)`` of the rows added to ``tree``, ``m`` their weighted median."""
    m, w_below, wy_below = fenwick_median(tree, sorted_y)
    w_above = tree.total[0] - w_below
    wy_above = tree.total[1] - wy_below
    return (wy_above - m * w_above) + (m * w_below - wy_below), m


#: runs of this many entries are sorted by insertion before :func:`ranks_of` merges them
RUN = 16


@jit_internal
def ranks_of(y_seq):
    """The sorted targets and the rank of each entry of ``y_seq`` among them, equal
    targets ranked in the order of ``y_seq`` (a stable sort: insertion sort of runs
    of ``RUN`` entries, then merges of adjacent runs, smaller target first, the
    left run's on ties), written out here rather than ``numpy.argsort(...,
    kind="mergesort")``, whose numba implementation compiled four functions
    (1.8 s of a regressor's first fit)."""
    n = y_seq.shape[0]
    by_y = empty(n, np.int64)
    spare = empty(n, np.int64)
    for lo in range(0, n, RUN):
        hi = min(lo + RUN, n)
        for r in range(lo, hi):
            i = r
            while i > lo and y_seq[by_y[i - 1]] > y_seq[r]:
                by_y[i] = by_y[i - 1]
                i -= 1
            by_y[i] = r
    width = RUN
    while width < n:
        for lo in range(0, n, 2 * width):
            mid = min(lo + width, n)
            hi = min(lo + 2 * width, n)
            a = lo
            b = mid
            for r in range(lo, hi):
                if b < hi and (a >= mid or y_seq[by_y[b]] < y_seq[by_y[a]]):
                    spare[r] = by_y[b]
                    b += 1
                else:
                    spare[r] = by_y[a]
                    a += 1
        by_y, spare = spare, by_y
        width *= 2
    sorted_y = empty(n, np.float64)
    ranks = spare
    for r in range(n):
        sorted_y[r] = y_seq[by_y[r]]
        ranks[by_y[r]] = r
    return sorted_y, ranks


@jit_twin
def absolute_error_profile(y_seq, w_seq):
    """The :class:`ErrorProfile` of the rows of targets ``y_seq`` and weights
    ``w_seq`` in this order: a forward pass adds rows ``0, 1, …`` to a
    :class:`Fenwick` tree and a backward pass rows ``n−1, n−2, …``."""
    n = y_seq.shape[0]
    sorted_y, ranks = ranks_of(y_seq)
    left = empty(n, np.float64)
    right = empty(n, np.float64)
    median = empty(n, np.float64)
    for backward in (False, True):
        tree = Fenwick(filled(empty(n + 1, np.float64), 0.0),
                       filled(empty(n + 1, np.float64), 0.0),
                       filled(empty(2, np.float64), 0.0))
        for step in range(n):
            p = n - 1 - step if backward else step
            fenwick_add(tree, ranks[p], sorted_y[ranks[p]], w_seq[p])
            error, m = absolute_error_of(tree, sorted_y)
            if backward:
                right[p], median[p] = error, m
            else:
                left[p] = error
    return ErrorProfile(left, right, median)


@jit_internal
def put_absolute_error(value, y, rows, w):
    """Write ``[Σw, m, Σw|y − m|]`` of ``rows`` (weights ``w``) into the ``value`` row
    of a node, ``m`` their weighted median (scikit-learn's node median: that of
    the backward pass of :func:`absolute_error_profile`)."""
    n = rows.shape[0]
    if n == 0:
        value[0], value[1], value[2] = 0.0, 0.0, 0.0
        return
    y_seq = empty(n, np.float64)
    for pos in range(n):
        y_seq[pos] = y[rows[pos]]
    profile = absolute_error_profile(y_seq, w)
    total = 0.0
    for pos in range(n):
        total += w[pos]
    value[0], value[1], value[2] = total, profile.right_median[0], profile.right[0]


@jit_internal
def mean_absolute_error(value):
    """``Σw|y − m| / Σw`` of a node's ``value`` row ``[Σw, m, Σw|y − m|]`` (0 without weight)."""
    return value[2] / value[0] if value[0] > 0.0 else 0.0
