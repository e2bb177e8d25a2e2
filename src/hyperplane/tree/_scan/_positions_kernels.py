"""What the ordered scan reads: a numeric attribute's known values as *positions*.

:func:`~._numeric_cut_kernels.ordered_class_cut` moves positions to the left
side of a cut one at a time, in increasing order of value (周志华 4.4.1). A
position is one training row of an exact attribute (:class:`RowPositions`), or
one non-empty bin of a binned one (:class:`BinPositions`, ``splitter="hist"``:
the bin's class weights from the node's class table and its smallest and
largest training value). The scan reads them only through the readers below
(:func:`entries`, :func:`entry`, :func:`position_rows`, :func:`values_around`,
:func:`position_bin`), one expression per type each, which
:func:`~._numeric_cut_kernels.scan_of` binds into the scan compiled for that
type; :class:`KnownPart` says what the scan knows of the known rows beforehand.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..._numba import jit_inline


class RowPositions(NamedTuple):
    """An exact attribute's known rows as the positions of
    :func:`~._numeric_cut_kernels.ordered_class_cut`, in increasing order of value: ``values[pos]``, ``classes[pos]`` and ``weights[pos]`` are the
    value, class and weight in the node of the row at position ``pos`` (``weights`` empty:
    every weight is 1)."""

    values: np.ndarray
    classes: np.ndarray
    weights: np.ndarray


class BinPositions(NamedTuple):
    """A binned attribute's non-empty bins as the positions of
    :func:`~._numeric_cut_kernels.ordered_class_cut`, in increasing order: position ``e`` is bin ``bins[e]``, ``table[e]`` / ``rows[e]`` its class
    weights / rows in the node; ``bin_range[0, b]`` / ``bin_range[1, b]`` bin ``b``'s smallest
    and largest training value."""

    bins: np.ndarray
    table: np.ndarray
    rows: np.ndarray
    bin_range: np.ndarray


class KnownPart(NamedTuple):
    """The rows of a scanned attribute whose value is known (their class weights: row
    ``KNOWN`` of the scan's work table)."""

    w_known: float  # their weight
    w_total: float  # the node's weight, missing values included
    n_known: int  # their rows
    positions: int  # their positions: rows, or non-empty bins
    integer: bool  # every class weight is an integer count (every row weighs 1)


def by_positions(of_bins, of_rows):
    """A function of ``(positions, ...)`` running ``of_bins`` for :class:`BinPositions` and
    ``of_rows`` for :class:`RowPositions` (plain Python functions of the same parameters).
    Called from Python it chooses on the value; its ``readers`` map each type of positions
    to its function compiled in its callers' place (:data:`~hyperplane._numba.jit_inline`),
    which :func:`~._numeric_cut_kernels.scan_of` binds into the compiled scan of that
    type. The readers are one expression each, so that no local name of theirs meets one of the caller's.

    Examples
    --------
    In Python the choice is made on the value (:func:`position_rows`):

    >>> import numpy as np
    >>> from hyperplane.tree._scan._positions_kernels import (
    ...     BinPositions, RowPositions, position_rows)
    >>> rows = RowPositions(np.array([0.5, 2.0]), np.array([1, 0]), np.empty(0))
    >>> bins = BinPositions(np.array([0, 3]), np.array([[2.0, 1.0], [0.0, 4.0]]),
    ...                     np.array([3, 4]), np.zeros((2, 4)))
    >>> [int(position_rows(p, 1)) for p in (rows, bins)]
    [1, 4]
    """
    def choose(positions, *args):
        return (of_bins if isinstance(positions, BinPositions) else of_rows)(positions, *args)

    choose.readers = {BinPositions: jit_inline(of_bins), RowPositions: jit_inline(of_rows)}
    return choose


def _row_entries(positions):
    """:func:`entries` of a row: its class."""
    return 1


def _bin_entries(positions):
    """:func:`entries` of a bin: every class."""
    return positions.table.shape[1]


def _row_entry(positions, pos, e):
    """:func:`entry` of a row: its class and weight."""
    return (positions.classes[pos],
            1.0 if positions.weights.shape[0] == 0 else positions.weights[pos])


def _bin_entry(positions, pos, e):
    """:func:`entry` of a bin: class ``e`` and its weight in the bin."""
    return e, positions.table[pos, e]


def _row_rows(positions, pos):
    """:func:`position_rows` of a row."""
    return 1


def _bin_rows(positions, pos):
    """:func:`position_rows` of a bin."""
    return positions.rows[pos]


def _row_values(positions, pos):
    """:func:`values_around` a row: its value and the next row's."""
    return positions.values[pos], positions.values[pos + 1]


def _bin_values(positions, pos):
    """:func:`values_around` a bin: its largest value and the next bin's smallest."""
    return (positions.bin_range[1, positions.bins[pos]],
            positions.bin_range[0, positions.bins[pos + 1]])


def _row_bin(positions, pos):
    """:func:`position_bin` of a row: none."""
    return -1


def _bin_bin(positions, pos):
    """:func:`position_bin` of a bin: its code."""
    return positions.bins[pos]


#: ``entries(positions)``: how many (class, weight) entries a position holds: 1 for a
#: row, the number of classes for a bin
entries = by_positions(_bin_entries, _row_entries)
#: ``entry(positions, pos, e)``: entry ``e`` of position ``pos``, ``(class, weight)``
entry = by_positions(_bin_entry, _row_entry)
#: ``position_rows(positions, pos)``: how many rows position ``pos`` holds
position_rows = by_positions(_bin_rows, _row_rows)
#: ``values_around(positions, pos)``: the largest training value at position ``pos`` and the
#: smallest at ``pos + 1``, between which a cut after ``pos`` lies
values_around = by_positions(_bin_values, _row_values)
#: ``position_bin(positions, pos)``: the bin of position ``pos`` (−1: a row)
position_bin = by_positions(_bin_bin, _row_bin)
