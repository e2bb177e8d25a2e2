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


def view(w, b, low, high, pad=0.1, offsets=(0.0,)):
    """The drawing area of the box ``(low, high)`` grown, when a line
    ``w·x + b = offset`` (one per ``offsets``) misses it, to that line's point
    nearest the box's centre (plus ``pad`` of the grown span), so every line
    stays on the picture; ``(low, high)`` when all cross it.

    Examples
    --------
    李航 例2.1's first update: 3x(1) + 3x(2) + 1 = 0 passes below the points' box;
    the view grows down to its point (1/12, −5/12) nearest the box's centre.

    >>> low, high = view([3, 3], 1, [0.55, 0.7], [4.45, 3.3])
    >>> [round(float(v), 2) for v in low], [round(float(v), 2) for v in high]
    ([-0.35, -0.79], [4.45, 3.3])
    >>> view([1, 1], -4, [0.55, 0.7], [4.45, 3.3])[0].tolist()   # crosses the box
    [0.55, 0.7]
    """
    w = np.ravel(np.asarray(w, dtype=float))
    low, high = np.asarray(low, dtype=float), np.asarray(high, dtype=float)
    norm2 = float(w @ w)
    if norm2 == 0 or not np.isfinite(norm2) or not np.isfinite(b):
        return low, high
    corners = np.array([[low[0], low[1]], [low[0], high[1]], [high[0], low[1]],
                        [high[0], high[1]]])
    scores = corners @ w + b
    centre = (low + high) / 2
    missed = [offset for offset in offsets if not scores.min() <= offset <= scores.max()]
    if not missed:                              # every line crosses the box
        return low, high
    nearest = np.array([centre - (centre @ w + b - offset) / norm2 * w for offset in missed])
    grown_low = np.minimum(low, nearest.min(axis=0))
    grown_high = np.maximum(high, nearest.max(axis=0))
    margin = pad * (grown_high - grown_low)
    return (np.where(grown_low < low, grown_low - margin, low),
            np.where(grown_high > high, grown_high + margin, high))


def hyperplane_picture(w, b, low, high, margins=False):
    """What the plane draws of ``w·x + b = 0`` (with ``margins``: also the
    margins ``w·x + b = ±1``, 李航 §7.1.3, 周志华 图6.2): the lines, across
    the :func:`view` that keeps them visible, and that view."""
    low, high = view(w, b, low, high, offsets=(0.0, 1.0, -1.0) if margins else (0.0,))
    # the segments reach well past the view: the page widens one axis to keep the
    # scales equal, and the figure clips whatever lies outside its axes
    centre, span = (low + high) / 2, high - low
    far_low, far_high = centre - 2 * span, centre + 2 * span
    lines = [line(w, b, far_low, far_high)]
    if lines[0] is not None:
        lines[0]["name"] = "w·x+b=0"
    if margins and lines[0] is not None:
        for offset in (1.0, -1.0):
            lines.append({**line(w, b, far_low, far_high, offset),
                          "name": f"w·x+b={offset:+g}", "margin": True})
    return {"lines": lines, "view": [low.tolist(), high.tolist()]}


def box_grid(low, high, n=GRID):
    """An ``n`` x ``n`` grid over the box ``[low, high]``: its two axes and its
    points, shape (n * n, 2)."""
    g1, g2 = np.linspace(low[0], high[0], n), np.linspace(low[1], high[1], n)
    mesh = np.stack(np.meshgrid(g1, g2), axis=-1).reshape(-1, 2)
    return g1, g2, mesh


def regions(score, low, high, n=GRID):
    """``score`` (a model's decision function) on a grid: what a contour plot draws."""
    g1, g2, mesh = box_grid(low, high, n)
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
