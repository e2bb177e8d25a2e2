"""The perceptron lesson (李航 chapter 2): 表2.1, 表2.2 and the kernel perceptron.

Steps are the library's own updates: ``Perceptron.trace_`` grown one epoch
at a time by ``partial_fit`` (so a long run streams), and
``DualPerceptron.trace_`` with its Gram matrix; the kernel perceptron's
regions are its ``decision_function`` after each epoch.
"""

from __future__ import annotations

import numpy as np

from ..kernels import RBF
from ..linear import DualPerceptron, Perceptron, novikoff_bound
from ._fields import FieldError, choice, integer, real
from ..kernels._kernels import linear_weights
from ._plane import (box, hyperplane_picture, hyperplane_text, margin_summary, number, points,
                     regions, vector)

#: Novikoff's bound solves a least-distance problem over all the points (SciPy's nnls:
#: 0.14 s at 200,000); beyond this it is skipped
NOVIKOFF_MAX_POINTS = 20_000
#: the Gram matrix is shown for at most this many points
GRAM_MAX_POINTS = 12
#: rows the dual and kernel variants take: their Gram matrix is n × n float64
#: (5000 rows: 200 MB; a 30,000-row upload asked for 7.2 GB)
GRAM_ROWS = 5000
PRIMAL_COLUMNS = ["k", "misclassified", "w", "b", "wx_b"]
DUAL_COLUMNS = ["k", "misclassified", "alpha", "b"]


def _novikoff(X, y):
    if len(X) > NOVIKOFF_MAX_POINTS:
        return {"text": f"n > {NOVIKOFF_MAX_POINTS}: not computed", "reason": "too_many",
                "n": NOVIKOFF_MAX_POINTS}
    try:
        R, gamma, bound = novikoff_bound(X, y)
    except ValueError as exc:
        return {"text": str(exc), "reason": "not_separable"}
    return {"R": number(R), "gamma": number(gamma), "bound": number(bound),
            "text": f"R = {number(R)}, γ = {number(gamma)}, k ≤ (R/γ)² = {number(bound)}"}


def primal_steps(X, y, eta, max_epochs, low, high):
    """Algorithm 2.1, one trace row per update, one ``partial_fit`` per epoch."""
    model = Perceptron(eta=eta, record_trace=True)
    classes = np.unique(y)
    seen = 0
    for epoch in range(1, max_epochs + 1):
        model.partial_fit(X, y, classes=classes)
        rows = model.trace_.iloc[seen:]
        seen += len(rows)
        last = len(rows) - 1
        for position, (_, row) in enumerate(rows.iterrows()):
            w, b = row["w"], float(row["b"])
            step = {"row": [f"x{row['sample'] + 1}", vector(w), number(b), hyperplane_text(w, b)],
                    "plot": {**hyperplane_picture(w, b, low, high), "mark": [int(row["sample"])]},
                    "epoch": epoch, "epoch_end": position == last, "line": "update",
                    "summary": margin_summary(w, b)}
            if epoch == max_epochs and position == last:
                step.update(not_separable(epoch, model.n_updates_))
            yield step
        if len(rows) == 0:
            w, b = model.coef_[0], float(model.intercept_[0])
            yield {"row": ["0", vector(w), number(b), hyperplane_text(w, b)],
                   "plot": {**hyperplane_picture(w, b, low, high), "mark": []},
                   "epoch": epoch, "epoch_end": True, "line": "stop",
                   "summary": margin_summary(w, b), **converged(epoch, model.n_updates_)}
            return


def converged(epoch, updates):
    """The end of a run whose last epoch made no update (李航 算法2.1 step (4)),
    with its numbers for the page to tell in its language."""
    return {"say": {"key": "converged", "epoch": int(epoch), "updates": int(updates)},
            "status": f"converged: epoch {epoch} made no update; {updates} updates"}


def not_separable(epochs, updates):
    """The end of a run whose last epoch still made updates (李航 §2.3.2: the
    perceptron converges only on linearly separable data): said so, with the
    numbers, for the page to tell in its language."""
    return {"stopped": {"reason": "not_separable", "epochs": int(epochs), "updates": int(updates)},
            "status": f"not converged: points still misclassified after {epochs} epochs "
                      f"({updates} updates); the data may not be linearly separable"}


def dual_steps(X, y, eta, max_epochs, low, high, kernel="linear"):
    """Algorithm 2.2, one ``trace_`` row per update; each epoch is a fit with
    ``max_iter`` one higher (no shuffling, so the updates replay exactly). With
    the linear kernel each step also has w = Σ α_i y_i x_i and its margin."""
    seen = 0
    linear = isinstance(kernel, str) and kernel == "linear"
    signs = np.where(np.asarray(y) == np.unique(y)[-1], 1.0, -1.0) if linear else None
    for epoch in range(1, max_epochs + 1):
        model = DualPerceptron(eta=eta, kernel=kernel, max_iter=epoch,
                               record_trace=True).fit(X, y)
        rows = model.trace_.iloc[seen:]
        seen += len(rows)
        last = len(rows) - 1
        for position, (_, row) in enumerate(rows.iterrows()):
            end = position == last
            step = {"row": [f"x{row['sample'] + 1}", vector(row["alpha"]), number(row["b"])],
                    "plot": {"mark": [int(row["sample"])]},
                    "epoch": epoch, "epoch_end": end, "line": "update"}
            if signs is not None:   # w of this step: its line, so that stepping back redraws it
                w = linear_weights([np.asarray(row["alpha"]) * signs], X)[0]
                step["summary"] = margin_summary(w, row["b"])
                step["plot"].update(hyperplane_picture(w, float(row["b"]), low, high))
            if end and epoch == max_epochs:
                step.update(not_separable(epoch, model.n_updates_))
            if end:
                step["draw"] = lambda model=model: {"plot": _dual_picture(model, kernel, low,
                                                                          high)}
            yield step
        if len(rows) == 0:
            step = {"row": ["0", vector(model.alpha_), number(model.intercept_[0])],
                    "plot": {"mark": []}, "epoch": epoch, "epoch_end": True, "line": "stop",
                    "draw": lambda: {"plot": _dual_picture(model, kernel, low, high)},
                    **converged(epoch, model.n_updates_)}
            if signs is not None:
                step["summary"] = margin_summary(model.coef_[0], model.intercept_[0])
            yield step
            return


def _dual_picture(model, kernel, low, high):
    if isinstance(kernel, str) and kernel == "linear":
        return hyperplane_picture(model.coef_[0], float(model.intercept_[0]), low, high)
    return {"regions": regions(model.decision_function, low, high)}


#: variant -> (trace columns, steps)
VARIANTS = {"primal": PRIMAL_COLUMNS, "dual": DUAL_COLUMNS, "kernel": DUAL_COLUMNS}


def start(X, y, params):
    """``(info, steps)`` of the perceptron lesson."""
    variant = choice(params, "variant", "primal", tuple(VARIANTS))
    eta = real(params, "eta", 1.0, above=0, high=1e6)
    max_epochs = integer(params, "max_epochs", 1000, low=1, high=100_000)
    if variant != "primal" and len(X) > GRAM_ROWS:
        raise FieldError("dataset", f"the {variant} perceptron keeps the Gram matrix of all "
                                    f"rows: at most {GRAM_ROWS} rows here, the data has "
                                    f"{len(X)}; take the primal variant or a sample",
                         "gram_rows", limit=GRAM_ROWS, rows=len(X))
    if np.unique(y).size != 2:
        raise FieldError("dataset", "the perceptron lesson needs two classes", "two_classes",
                         classes=int(np.unique(y).size))
    low, high = box(X)
    info = {"columns": VARIANTS[variant], "points": points(X, y),
            "novikoff": _novikoff(X, y), "box": [low.tolist(), high.tolist()]}
    if variant == "primal":
        return info, primal_steps(X, y, eta, max_epochs, low, high)
    kernel = "linear" if variant == "dual" else RBF(sigma=real(params, "sigma", 1.0, low=1e-6, high=1e6))
    if len(X) <= GRAM_MAX_POINTS:
        first = DualPerceptron(eta=eta, kernel=kernel, max_iter=1).fit(X, y)
        info["gram"] = [[number(v) for v in row] for row in first.gram_]
    return info, dual_steps(X, y, eta, max_epochs, low, high, kernel=kernel)
