"""What a lesson draws on the plane, from fitted models: points, lines, regions.

Every value here is the fitted model's (its weights or its ``decision_function``
on a grid); the page only draws them.
"""

from __future__ import annotations

import numpy as np

#: grid points per axis for decision regions
GRID = 60


def box(X, pad=0.15):
    """``(low, high)`` corners of the drawing area: the data's box, padded."""
    low, high = X.min(axis=0), X.max(axis=0)
    span = np.where(high - low > 0, high - low, 1.0)
    return low - pad * span, high + pad * span


def number(v, digits=4):
    """A number as the book prints it: integers without a point, else rounded."""
    v = float(v)
    if not np.isfinite(v):
        return "∞" if v > 0 else ("-∞" if v < 0 else "NaN")
    r = round(v, digits)
    return str(int(r)) if float(r).is_integer() else f"{r:g}"


def vector(v, digits=4):
    return "(" + ", ".join(number(x, digits) for x in np.ravel(v)) + ")"


def hyperplane_text(w, b, digits=4):
    """``w·x + b`` written as the book writes it, e.g. ``3x(1)+3x(2)+1``."""
    terms = []
    for j, wj in enumerate(np.ravel(w), start=1):
        if wj == 0:
            continue
        coef = "" if abs(wj) == 1 else number(abs(wj), digits)
        sign = "-" if wj < 0 else ("+" if terms else "")
        terms.append(f"{sign}{coef}x({j})")
    if b != 0 or not terms:
        terms.append(("-" if b < 0 else ("+" if terms else "")) + number(abs(b), digits))
    return "".join(terms)


def line(w, b, low, high, offset=0.0):
    """End points of ``w·x + b = offset`` inside the box, or None if w = 0."""
    w = np.ravel(np.asarray(w, dtype=float))
    if np.allclose(w, 0):
        return None
    if abs(w[1]) >= abs(w[0]):
        x1 = np.array([low[0], high[0]])
        x2 = (offset - b - w[0] * x1) / w[1]
    else:
        x2 = np.array([low[1], high[1]])
        x1 = (offset - b - w[1] * x2) / w[0]
    return {"x": x1.tolist(), "y": x2.tolist()}


def grid(low, high, n=GRID):
    """The grid's axes and its points, shape (n * n, 2)."""
    g1, g2 = np.linspace(low[0], high[0], n), np.linspace(low[1], high[1], n)
    mesh = np.stack(np.meshgrid(g1, g2), axis=-1).reshape(-1, 2)
    return g1, g2, mesh


def regions(score, low, high, n=GRID):
    """``score`` (a model's decision function) on a grid: what a contour plot draws."""
    g1, g2, mesh = grid(low, high, n)
    z = np.asarray(score(mesh), dtype=float).reshape(n, n)
    return {"x": g1.round(5).tolist(), "y": g2.round(5).tolist(), "z": z.round(5).tolist()}


def points(X, y, ids=None):
    """The data as the page draws it: coordinates, labels and 编号."""
    ids = np.arange(1, len(X) + 1) if ids is None else np.asarray(ids)
    return {"x": np.asarray(X)[:, 0].tolist(), "y": np.asarray(X)[:, 1].tolist(),
            "label": [str(v) for v in np.asarray(y)], "id": [str(i) for i in ids]}


def margin_summary(w, b):
    """What the page's model summary shows of a hyperplane ``w·x + b = 0``:
    w, b, ‖w‖ and the width ``2/‖w‖`` between ``w·x + b = ±1``
    (李航 §7.1.3, 周志华 §6.1: γ = 2/‖w‖; ∞ when w = 0).

    Examples
    --------
    李航 例7.1 ends with w = (1/2, 1/2), b = -2: the margin is 2√2.

    >>> margin_summary([0.5, 0.5], -2)
    {'w': '(0.5, 0.5)', 'b': '-2', 'norm': '0.7071', 'margin': '2.8284'}
    """
    w = np.ravel(np.asarray(w, dtype=np.float64))
    norm = float(np.linalg.norm(w))
    return {"w": vector(w), "b": number(b), "norm": number(norm),
            "margin": number(2.0 / norm if norm > 0 else np.inf)}
