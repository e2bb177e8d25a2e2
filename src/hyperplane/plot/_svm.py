"""Margins and support vectors of a fitted SVM (周志华 figure 6.2/6.3)."""

from __future__ import annotations

import numpy as np

from ._common import as_2d, model_input, new_axes, padded_grid, scatter_classes
from ._fonts import apply_cjk_font, cjk_rc


def plot_svm_margins(model, X, y, *, ax=None, resolution=200, title=None):
    """Draw f(x)=0 (solid), the margins f(x)=±1 (dashed) and circle the support vectors.

    Uses ``decision_function`` and ``support_vectors_`` (``hyperplane.svm``).

    Parameters
    ----------
    model : fitted binary SVM on two features
    X : array-like or DataFrame of shape (n_samples, 2)
    y : array-like of labels
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> from sklearn.svm import SVC
    >>> X, y = [[3, 3], [4, 3], [1, 1]], [1, 1, -1]
    >>> ax = plot_svm_margins(SVC(kernel="linear", C=1e6).fit(X, y), X, y)
    """
    values, names = as_2d(X, getattr(model, "feature_names_in_", None))
    xx, yy, points = padded_grid(values, resolution, padding=0.2)
    score = np.asarray(model.decision_function(model_input(model, points, names)))
    if score.ndim != 1:
        raise ValueError("plot_svm_margins draws a binary SVM; decision_function has "
                         f"shape {score.shape}")
    score = score.reshape(xx.shape)
    vectors = np.asarray(model.support_vectors_, dtype=float)
    with cjk_rc():
        ax = new_axes(ax)
        bound = max(np.abs(score).max(), 1.0)
        ax.contourf(xx, yy, score, levels=np.linspace(-bound, bound, 21), cmap="RdBu",
                    alpha=0.35)
        ax.contour(xx, yy, score, levels=[-1.0, 0.0, 1.0], colors="black",
                   linestyles=["--", "-", "--"], linewidths=[1.0, 1.8, 1.0])
        scatter_classes(ax, values, y, model.classes_)
        ax.scatter(vectors[:, 0], vectors[:, 1], s=220, facecolors="none", edgecolors="black",
                   linewidths=1.5, label="support vectors", zorder=4)
        ax.legend(loc="best", fontsize="small", framealpha=0.8)
        ax.set_xlabel(names[0])
        ax.set_ylabel(names[1])
        ax.set_title(title or f"{type(model).__name__}: {len(vectors)} support vectors")
    apply_cjk_font(ax.figure)
    return ax
