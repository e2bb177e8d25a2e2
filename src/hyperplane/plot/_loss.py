"""Loss curves of iterative learners (``loss_curve_``)."""

from __future__ import annotations

import numpy as np

from ._common import new_axes
from ._fonts import apply_cjk_font, cjk_rc


def plot_loss_curves(*models, labels=None, ax=None, log=False, title=None):
    """Plot each model's ``loss_curve_`` (or a given sequence of losses) per epoch.

    Parameters
    ----------
    *models : fitted estimators with ``loss_curve_``, or sequences of losses
    labels : list of str, optional
        Legend entries; default: the class names.
    ax : matplotlib Axes, optional
    log : bool
        Logarithmic loss axis.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> ax = plot_loss_curves([1.0, 0.5, 0.25], labels=["standard BP"])
    """
    if not models:
        raise ValueError("plot_loss_curves needs at least one model or loss sequence")
    if labels is not None and len(labels) != len(models):
        raise ValueError(f"got {len(labels)} labels for {len(models)} curves")
    with cjk_rc():
        ax = new_axes(ax)
        for k, model in enumerate(models):
            curve = getattr(model, "loss_curve_", model)
            if isinstance(curve, str) or not np.iterable(curve):
                raise TypeError(f"{type(model).__name__} has no loss_curve_")
            curve = np.asarray(curve, dtype=float)
            name = labels[k] if labels is not None else type(model).__name__
            ax.plot(np.arange(1, len(curve) + 1), curve, label=name)
        if log:
            ax.set_yscale("log")
        ax.set_xlabel("epoch")
        ax.set_ylabel("loss")
        ax.set_title(title or "loss curve")
        ax.legend(loc="best", fontsize="small")
        ax.grid(alpha=0.3)
    apply_cjk_font(ax.figure)
    return ax
