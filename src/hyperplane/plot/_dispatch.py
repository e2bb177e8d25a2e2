"""``plot_model``: the picture that fits a model (used by ``hyperplane show --plot``)."""

from __future__ import annotations

import numpy as np


def _final(model):
    from sklearn.pipeline import Pipeline

    return model.steps[-1][1] if isinstance(model, Pipeline) else model


def _is_tree(model, X, y):
    return _final(model).__class__.__name__.endswith("TreeClassifier") or \
        hasattr(_final(model), "tree_")


def _has_trace(model, X, y):
    trace = getattr(model, "trace_", None)
    return X is not None and y is not None and trace is not None and "w" in trace


def _has_support_vectors(model, X, y):
    return (X is not None and y is not None and hasattr(model, "support_vectors_")
            and len(getattr(model, "classes_", ())) == 2)


def _is_2d_classifier(model, X, y):
    return X is not None and hasattr(model, "classes_") and np.shape(X)[1] == 2


def _has_loss(model, X, y):
    return getattr(_final(model), "loss_curve_", None) is not None


def _draw_tree(model, X, y):
    from ._tree import plot_tree
    return plot_tree(_final(model)).figure


def _draw_trace(model, X, y):
    from ._perceptron import plot_perceptron_updates
    return plot_perceptron_updates(model, X, y, max_steps=24)


def _draw_margins(model, X, y):
    from ._svm import plot_svm_margins
    return plot_svm_margins(model, X, y).figure


def _draw_regions(model, X, y):
    from ._regions import plot_decision_regions
    return plot_decision_regions(model, X, y).figure


def _draw_loss(model, X, y):
    from ._loss import plot_loss_curves
    return plot_loss_curves(_final(model)).figure


#: (applies(model, X, y), draw(model, X, y) -> Figure), first match wins
PICTURES = (
    (_is_tree, _draw_tree),
    (_has_trace, _draw_trace),
    (_has_support_vectors, _draw_margins),
    (_is_2d_classifier, _draw_regions),
    (_has_loss, _draw_loss),
)


def plot_model(model, X=None, y=None):
    """The most telling picture of ``model``: tree, updates, margins, regions or loss.

    ``X``/``y`` (the data to draw with) are needed for the pictures in the
    data's plane: perceptron updates, SVM margins, decision regions (2 features).

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    A classifier on two features gets its decision regions, a tree its tree:

    >>> import matplotlib.pyplot as plt
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from hyperplane.linear import LeastSquaresClassifier
    >>> from hyperplane.plot import plot_model
    >>> X, y = [[3, 3], [4, 3], [1, 1]], [1, 1, -1]
    >>> figure = plot_model(LeastSquaresClassifier().fit(X, y), X, y)
    >>> figure.axes[0].get_title()
    'LeastSquaresClassifier: decision regions'
    >>> plt.close(figure)
    >>> figure = plot_model(DecisionTreeClassifier(random_state=0).fit(X, y))
    >>> figure.axes[0].get_title()
    'DecisionTreeClassifier: 2 leaves'
    >>> plt.close(figure)
    >>> plot_model(LeastSquaresClassifier().fit(X, y))
    Traceback (most recent call last):
    ...
    ValueError: no picture for LeastSquaresClassifier (pass the data: decision regions need X with 2 features)
    """
    for applies, draw in PICTURES:
        if applies(model, X, y):
            return draw(model, X, y)
    need = "" if X is not None else " (pass the data: decision regions need X with 2 features)"
    raise ValueError(f"no picture for {type(_final(model)).__name__}{need}")
