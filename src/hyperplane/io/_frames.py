"""Carry pandas DataFrames/Series through skops, which cannot store them.

Fitted attributes such as the perceptron's ``trace_`` are DataFrames. skops
refuses them (their block manager has no safe state), so before saving every
DataFrame/Series found in an estimator's attributes (also inside lists,
tuples, dicts and dataclasses such as a tree's per-node trace) is replaced by a
:class:`FrameState` (plain NumPy columns) on a *shallow copy* of the
estimator -- the user's model is never modified -- and turned back on load.

A column whose cells are arrays of one shape and dtype (a trace's weight
vectors) is kept as one stacked 2-D array: skops writes every array of an
object array as its own archive member, so a 100,000-update trace would be
100,000 members (format version 2; a version-1 file's object columns still
load).
"""

from __future__ import annotations

import copy
import dataclasses

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator


class FrameState:
    """The columns, index and names of a DataFrame or Series as NumPy arrays."""

    def __init__(self, frame):
        self.is_series = isinstance(frame, pd.Series)
        as_frame = frame.to_frame() if self.is_series else frame
        self.columns = [str(c) for c in as_frame.columns]
        self.series_name = frame.name if self.is_series else None
        self.values = [_column_values(as_frame.iloc[:, i]) for i in range(as_frame.shape[1])]
        #: positions in ``values`` holding a stacked column (one row per cell)
        self.stacked = [i for i, values in enumerate(self.values) if values.dtype != object
                        and as_frame.iloc[:, i].dtype == object]
        self.index = _column_values(pd.Series(as_frame.index))
        self.index_name = as_frame.index.name

    def to_pandas(self):
        stacked = getattr(self, "stacked", [])   # absent in a version-1 file
        values = [_cells(v) if i in stacked else v for i, v in enumerate(self.values)]
        frame = pd.DataFrame({name: v for name, v in zip(self.columns, values)},
                             columns=self.columns)
        frame.index = pd.Index(self.index, name=self.index_name)
        if self.is_series:
            series = frame.iloc[:, 0]
            series.name = self.series_name
            return series
        return frame


def _column_values(column):
    """A column's cells as a NumPy array: an object column whose cells are
    all arrays of one shape and dtype becomes their stack (one row per
    cell, see :func:`_cells`); other object columns (str, lists of
    unequal length) stay object arrays, lists made arrays."""
    values = column.to_numpy()
    if values.dtype != object:
        return np.asarray(values)
    items = [np.asarray(v) if isinstance(v, (list, np.ndarray)) else v for v in values]
    if items and all(isinstance(v, np.ndarray) and v.ndim >= 1 and v.dtype != object
                     and v.shape == items[0].shape and v.dtype == items[0].dtype
                     for v in items):
        return np.stack(items)
    cells = np.empty(len(items), dtype=object)
    cells[:] = items
    return cells


def _cells(stack):
    """The object column :func:`_column_values` stacked: one array per row."""
    cells = np.empty(len(stack), dtype=object)
    for i, row in enumerate(stack):
        cells[i] = row
    return cells


def _convert(value, forward, seen):
    """Return ``value`` with frames converted (``forward``) or restored."""
    if forward and isinstance(value, (pd.DataFrame, pd.Series)):
        return FrameState(value)
    if not forward and isinstance(value, FrameState):
        return value.to_pandas()
    if isinstance(value, BaseEstimator):
        if id(value) in seen:
            return seen[id(value)]
        twin = copy.copy(value) if forward else value
        seen[id(value)] = twin
        for key, item in vars(value).items():
            converted = _convert(item, forward, seen)
            if converted is not item:
                setattr(twin, key, converted)
        return twin
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        if id(value) in seen:
            return seen[id(value)]
        fields = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
        converted = {key: _convert(item, forward, seen) for key, item in fields.items()}
        twin = value
        if any(converted[key] is not fields[key] for key in fields):
            twin = copy.copy(value) if forward else value
            for key, item in converted.items():
                setattr(twin, key, item)
        seen[id(value)] = twin
        return twin
    if isinstance(value, (list, tuple)):
        items = [_convert(item, forward, seen) for item in value]
        if all(a is b for a, b in zip(items, value)):
            return value
        return type(value)(items) if isinstance(value, list) else tuple(items)
    if isinstance(value, dict):
        items = {key: _convert(item, forward, seen) for key, item in value.items()}
        if all(items[key] is value[key] for key in value):
            return value
        return items
    return value


def frames_to_states(model):
    """A shallow copy of ``model`` with every DataFrame/Series made storable."""
    return _convert(model, True, {})


def states_to_frames(model):
    """Undo :func:`frames_to_states` in place on a freshly loaded model."""
    return _convert(model, False, {})
