"""Shared pieces of the 2-D pictures: data as (array, names), grids, colours."""

from __future__ import annotations

import numpy as np
import pandas as pd

#: colours of the classes (classes_[0], classes_[1], ...), colour-blind safe
CLASS_COLORS = ("#d55e00", "#0072b2", "#009e73", "#cc79a7", "#e69f00", "#56b4e9")
#: point markers, one per class
CLASS_MARKERS = ("o", "s", "^", "D", "v", "P")


def as_2d(X, feature_names=None):
    """``(array (n, 2), [name1, name2])`` or a ValueError naming the shape."""
    names = list(X.columns) if isinstance(X, pd.DataFrame) else feature_names
    values = np.asarray(X, dtype=float) if not isinstance(X, pd.DataFrame) else \
        X.to_numpy(dtype=float)
    if values.ndim != 2 or values.shape[1] != 2:
        raise ValueError(f"this picture needs 2 numeric features; X has shape {values.shape}")
    return values, [str(n) for n in (names or ["x(1)", "x(2)"])]


def padded_grid(values, resolution, padding=0.1):
    """A ``resolution``² grid covering the data with a margin of ``padding``
    times its range: (xx, yy, points)."""
    low, high = values.min(axis=0), values.max(axis=0)
    span = np.where(high > low, high - low, 1.0)
    low, high = low - padding * span - 0.5 * (span == 1.0), high + padding * span
    xx, yy = np.meshgrid(np.linspace(low[0], high[0], resolution),
                         np.linspace(low[1], high[1], resolution))
    return xx, yy, np.column_stack([xx.ravel(), yy.ravel()])


def model_input(model, points, names):
    """Grid points in the form the model was fitted on (DataFrame if it saw names)."""
    if getattr(model, "feature_names_in_", None) is not None:
        return pd.DataFrame(points, columns=list(model.feature_names_in_))
    return points


def class_codes(classes, labels):
    """Index of each label in ``classes`` (0 .. K-1)."""
    lookup = {label: k for k, label in enumerate(classes)}
    return np.array([lookup[label] for label in np.asarray(labels).tolist()])


def scatter_classes(ax, values, y, classes):
    """Draw the samples, one colour and marker per class, with a legend."""
    codes = class_codes(classes, y)
    for k, label in enumerate(classes):
        mask = codes == k
        ax.scatter(values[mask, 0], values[mask, 1], c=CLASS_COLORS[k % len(CLASS_COLORS)],
                   marker=CLASS_MARKERS[k % len(CLASS_MARKERS)], edgecolors="black",
                   linewidths=0.6, s=45, label=str(label), zorder=3)
    ax.legend(loc="best", fontsize="small", framealpha=0.8)


def new_axes(ax, figsize=(5, 4)):
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=figsize)
    return ax
