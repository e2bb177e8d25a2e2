"""Carry pandas DataFrames/Series through skops, which cannot store them.

Fitted attributes such as the perceptron's ``trace_`` are DataFrames. skops
refuses them (their block manager has no safe state), so before saving every
DataFrame/Series found in an estimator's attributes (also inside lists,
tuples, dicts and dataclasses such as a tree's per-node trace) is replaced by a
:class:`FrameState` (plain NumPy columns) on a *shallow copy* of the
estimator -- the user's model is never modified -- and turned back on load.
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
        self.index = _column_values(pd.Series(as_frame.index))
        self.index_name = as_frame.index.name

    def to_pandas(self):
        frame = pd.DataFrame({name: values for name, values in zip(self.columns, self.values)},
                             columns=self.columns)
        frame.index = pd.Index(self.index, name=self.index_name)
        if self.is_series:
            series = frame.iloc[:, 0]
            series.name = self.series_name
            return series
        return frame


def _column_values(column):
    values = column.to_numpy()
    if values.dtype == object:
        # cells may be arrays (trace_["w"]) or str: keep them as an object array
        cells = np.empty(len(values), dtype=object)
        cells[:] = [np.asarray(v) if isinstance(v, (list, np.ndarray)) else v for v in values]
        return cells
    return np.asarray(values)


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
