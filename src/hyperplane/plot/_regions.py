"""Decision regions of any fitted classifier on 2-D data."""

from __future__ import annotations

import numpy as np
from matplotlib.colors import ListedColormap

from ._common import (CLASS_COLORS, as_2d, class_codes, model_input, new_axes, padded_grid,
                      scatter_classes)
from ._fonts import apply_cjk_font, cjk_rc


def plot_decision_regions(model, X, y=None, *, ax=None, resolution=200, title=None):
    """Colour the plane by the class ``model`` predicts, and draw the samples.

    Parameters
    ----------
    model : fitted classifier
        Anything with ``predict`` (and ``classes_``) fitted on two features.
    X : array-like or DataFrame of shape (n_samples, 2)
    y : array-like, optional
        True labels: the samples are drawn in their class's colour.
    ax : matplotlib Axes, optional
    resolution : int
        Grid points per axis.
    title : str, optional

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> from sklearn.linear_model import Perceptron
    >>> X, y = [[3, 3], [4, 3], [1, 1]], [1, 1, -1]
    >>> ax = plot_decision_regions(Perceptron().fit(X, y), X, y)
    """
    values, names = as_2d(X, getattr(model, "feature_names_in_", None))
    xx, yy, points = padded_grid(values, resolution)
    predicted = model.predict(model_input(model, points, names))
    classes = getattr(model, "classes_", None)
    if classes is None:
        classes = np.unique(predicted)
    codes = class_codes(classes, predicted).reshape(xx.shape)
    colors = ListedColormap([CLASS_COLORS[k % len(CLASS_COLORS)] for k in range(len(classes))])
    with cjk_rc():
        ax = new_axes(ax)
        ax.contourf(xx, yy, codes, levels=np.arange(len(classes) + 1) - 0.5, cmap=colors,
                    alpha=0.25)
        ax.contour(xx, yy, codes, levels=np.arange(len(classes)) + 0.5, colors="black",
                   linewidths=1.0)
        if y is not None:
            scatter_classes(ax, values, y, classes)
        ax.set_xlabel(names[0])
        ax.set_ylabel(names[1])
        ax.set_title(title or f"{type(model).__name__}: decision regions")
    apply_cjk_font(ax.figure)
    return ax
