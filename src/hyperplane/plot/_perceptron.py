"""The perceptron's updates step by step, from a fitted model's ``trace_``.

``trace_`` (``hyperplane.linear.Perceptron(record_trace=True)``) has
one row per update: ``step``, ``sample`` (0-based row), ``w`` (weights after
the update) and ``b``. Each panel shows the hyperplane w·x + b = 0 after one
update, the positive half-plane shaded, and rings the sample that triggered
it (李航 例2.1, table 2.1).
"""

from __future__ import annotations

import math

import numpy as np

from ._common import as_2d, padded_grid, scatter_classes
from ._fonts import apply_cjk_font, cjk_rc


def _trace(model):
    trace = getattr(model, "trace_", None)
    if trace is None:
        raise ValueError(f"{type(model).__name__} has no trace_: fit it with record_trace=True")
    if not {"step", "sample", "w", "b"} <= set(trace.columns):
        raise ValueError("trace_ must have the columns step, sample, w, b (a primal perceptron)")
    if len(trace) == 0:
        raise ValueError("trace_ is empty: the perceptron made no update")
    return trace


def _draw_update(ax, values, y, classes, row, xx, yy, points):
    w = np.asarray(row.w, dtype=float).ravel()
    score = (points @ w + float(row.b)).reshape(xx.shape)
    ax.contourf(xx, yy, score >= 0, levels=[-0.5, 0.5, 1.5], colors=["white", "#cfe3f3"])
    if np.any(w != 0):
        ax.contour(xx, yy, score, levels=[0.0], colors="black", linewidths=1.4)
    scatter_classes(ax, values, y, classes)
    ax.get_legend().remove()
    sample = int(row.sample)
    ax.scatter(*values[sample], s=260, facecolors="none", edgecolors="red", linewidths=2,
               zorder=4)
    w_text = ", ".join(f"{v:g}" for v in w)
    ax.set_title(f"{int(row.step)}: x{sample + 1}  w=({w_text}) b={float(row.b):g}",
                 fontsize="small")
    ax.set_xticks([])
    ax.set_yticks([])


def plot_perceptron_updates(model, X, y, *, max_steps=None, ncols=4, resolution=120):
    """A grid of small figures, one per update of a fitted perceptron.

    Parameters
    ----------
    model : fitted perceptron with ``trace_`` (``record_trace=True``), two features
    X : array-like or DataFrame of shape (n_samples, 2)
        The training data, in the order the model was fitted on.
    y : array-like of labels
    max_steps : int, optional
        Draw only the first ``max_steps`` updates (default: all).
    ncols : int
        Panels per row.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    李航 例2.1: the first four updates, one panel each, titled with the sample
    that triggered it and the weights after it (table 2.1):

    >>> import matplotlib.pyplot as plt
    >>> from hyperplane.linear import Perceptron
    >>> from hyperplane.plot import plot_perceptron_updates
    >>> X, y = [[3, 3], [4, 3], [1, 1]], [1, 1, -1]
    >>> model = Perceptron(record_trace=True).fit(X, y)
    >>> figure = plot_perceptron_updates(model, X, y, max_steps=4, resolution=40)
    >>> for ax in figure.axes:
    ...     print(ax.get_title())
    1: x1  w=(3, 3) b=1
    2: x3  w=(2, 2) b=0
    3: x3  w=(1, 1) b=-1
    4: x3  w=(0, 0) b=-2
    >>> plt.close(figure)
    """
    import matplotlib.pyplot as plt

    trace = _trace(model)
    if max_steps is not None:
        trace = trace.iloc[:max_steps]
    values, names = as_2d(X, getattr(model, "feature_names_in_", None))
    classes = getattr(model, "classes_", np.unique(y))
    xx, yy, points = padded_grid(values, resolution, padding=0.3)
    n = len(trace)
    ncols = max(1, min(ncols, n))
    nrows = math.ceil(n / ncols)
    with cjk_rc():
        figure, axes = plt.subplots(nrows, ncols, figsize=(2.6 * ncols, 2.5 * nrows),
                                    squeeze=False)
        for ax, row in zip(axes.ravel(), trace.itertuples(index=False)):
            _draw_update(ax, values, y, classes, row, xx, yy, points)
        for ax in axes.ravel()[n:]:
            ax.set_visible(False)
        figure.suptitle(f"{type(model).__name__}: {n} updates ({names[0]}, {names[1]})")
        figure.tight_layout()
    return apply_cjk_font(figure)


def animate_perceptron_updates(model, X, y, *, interval=800, resolution=120):
    """The same updates as an animation (one frame per update).

    Returns
    -------
    matplotlib.animation.FuncAnimation
        Save it with ``anim.save("updates.gif", writer="pillow")``.

    Examples
    --------
    One frame per update of 李航 例2.1 (seven); drawing the figure draws the first:

    >>> import matplotlib.pyplot as plt
    >>> from hyperplane.linear import Perceptron
    >>> from hyperplane.plot import animate_perceptron_updates
    >>> X, y = [[3, 3], [4, 3], [1, 1]], [1, 1, -1]
    >>> model = Perceptron(record_trace=True).fit(X, y)
    >>> anim = animate_perceptron_updates(model, X, y, resolution=40)
    >>> len(list(anim.new_frame_seq()))
    7
    >>> figure = plt.gcf()
    >>> figure.canvas.draw()
    >>> figure.axes[0].get_title()
    '1: x1  w=(3, 3) b=1'
    >>> plt.close(figure)
    """
    import matplotlib.pyplot as plt
    from matplotlib.animation import FuncAnimation

    trace = _trace(model)
    rows = list(trace.itertuples(index=False))
    values, _ = as_2d(X, getattr(model, "feature_names_in_", None))
    classes = getattr(model, "classes_", np.unique(y))
    xx, yy, points = padded_grid(values, resolution, padding=0.3)
    with cjk_rc():
        figure, ax = plt.subplots(figsize=(4, 4))

    def frame(k):
        ax.clear()
        with cjk_rc():
            _draw_update(ax, values, y, classes, rows[k], xx, yy, points)
        apply_cjk_font(figure)
        return ax.collections

    return FuncAnimation(figure, frame, frames=len(rows), interval=interval, blit=False)
