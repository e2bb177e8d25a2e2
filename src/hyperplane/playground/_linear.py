"""The linear-models lesson (周志华 chapter 3) on 西瓜数据集3.0α.

Least squares, Fisher's discriminant and logistic regression are refitted
whenever a point moves; their boundaries come from ``coef_``/``intercept_``,
Fisher's projection from ``transform``, ``projected_means_`` and ``threshold_``.
"""

from __future__ import annotations

import numpy as np

from ..linear import FisherDiscriminant, LeastSquaresClassifier, LogisticRegression
from ._plane import box, line, margin_summary, number, points, vector

#: model key -> a fresh estimator
MODELS = {
    "least_squares": lambda: LeastSquaresClassifier(),
    "fisher": lambda: FisherDiscriminant(),
    "logistic": lambda: LogisticRegression(C=1e4, max_iter=1000),
}


def start(X, y, params):
    """The linear lesson has no steps: each move refits (``fit_all``)."""
    fitted = fit_all(X, y)
    return {"columns": ["model", "w", "b", "accuracy"], **fitted}, iter(())


def moved_points(X, moved):
    """``X`` with the student's dragged coordinates (same number of rows, finite)."""
    try:
        Z = np.array(moved, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError("points must be a list of [x(1), x(2)] pairs") from None
    if Z.shape != X.shape or not np.all(np.isfinite(Z)):
        raise ValueError(f"points must be {X.shape[0]} finite [x(1), x(2)] pairs")
    return Z


def _fisher_axis(model, X, low, high):
    """The line through the data's mean along Fisher's direction w."""
    w = model.scalings_[:, 0]
    normal = np.array([w[1], -w[0]])
    centre = X.mean(axis=0)
    return line(normal, -float(normal @ centre), low, high)


def fit_all(X, y):
    """Each model's boundary, weights and accuracy, and Fisher's projection."""
    y = np.asarray(y)
    low, high = box(X, pad=0.3)
    rows, lines, summaries = [], {}, {}
    models = {}
    for name, make in MODELS.items():
        model = models[name] = make().fit(X, y)
        w, b = model.coef_[0], float(model.intercept_[0])
        rows.append([name, vector(w), number(b), number(model.score(X, y), 3)])
        lines[name] = line(w, b, low, high)
        summaries[name] = margin_summary(w, b)
    fisher = models["fisher"]
    z = fisher.transform(X)[:, 0]
    projection = {"z": z.round(5).tolist(), "label": [str(v) for v in y],
                  "means": {str(c): float(m) for c, m in zip(fisher.classes_,
                                                              fisher.projected_means_[:, 0])},
                  "threshold": float(fisher.threshold_),
                  "axis": _fisher_axis(fisher, X, low, high)}
    return {"rows": rows, "lines": lines, "summaries": summaries, "projection": projection,
            "points": points(X, y),
            "box": [low.tolist(), high.tolist()]}
