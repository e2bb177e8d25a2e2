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


def matrix(M, digits=4):
    """A small matrix written row by row, e.g. ``[(1, 2); (3, 4)]``."""
    return "[" + "; ".join(vector(row, digits) for row in np.atleast_2d(M)) + "]"


def closed_forms(X, y, positive, beta):
    """The numbers of 周志华 chapter 3's closed forms on the page's data, for the
    pseudocode panel, with x̂ = (x; 1) and y = 1 for ``positive``, else 0:

    - least squares (式3.11): X̂ᵀX̂, X̂ᵀy and ŵ* = (X̂ᵀX̂)⁻¹X̂ᵀy;
    - Fisher's LDA (式3.33, 3.39): μ₀, μ₁ (class 0: the negatives), S_w and
      w = S_w⁻¹(μ₀ − μ₁) (the pseudo-inverse, by SVD, as §3.4 advises);
    - logistic regression's Newton step (式3.29–3.31) at the fitted β = (w; b):
      ∂ℓ/∂β = −Σ x̂ᵢ(yᵢ − p₁(x̂ᵢ; β)), ∂²ℓ/∂β∂βᵀ = Σ x̂ᵢx̂ᵢᵀ p₁(1 − p₁), and the
      step −(∂²ℓ/∂β∂βᵀ)⁻¹ ∂ℓ/∂β (0 at ℓ's minimum; small but not 0 at the fitted β,
      which minimises ℓ plus a small ridge term, C = 10⁴, so that dragged points
      that become separable still give a finite β).

    Examples
    --------
    >>> X = np.array([[0.0, 0.0], [2.0, 1.0], [0.0, 2.0], [1.0, 2.0]])
    >>> out = closed_forms(X, np.array([0, 0, 1, 1]), 1, np.zeros(3))
    >>> out["ls_XtX"], out["lda_Sw"], out["lda_w"]
    ('[(5, 4, 3); (4, 9, 5); (3, 5, 4)]', '[(2.5, 1); (1, 0.5)]', '(7, -17)')
    """
    X = np.asarray(X, dtype=np.float64)
    t = (np.asarray(y) == positive).astype(np.float64)
    Xh = np.column_stack([X, np.ones(len(X))])
    gram, moment = Xh.T @ Xh, Xh.T @ t
    mu0, mu1 = X[t == 0].mean(axis=0), X[t == 1].mean(axis=0)
    S_w = (X[t == 0] - mu0).T @ (X[t == 0] - mu0) + (X[t == 1] - mu1).T @ (X[t == 1] - mu1)
    p1 = 1.0 / (1.0 + np.exp(-(Xh @ beta)))
    gradient = -Xh.T @ (t - p1)
    hessian = (Xh * (p1 * (1.0 - p1))[:, None]).T @ Xh
    return {"ls_XtX": matrix(gram), "ls_Xty": vector(moment),
            "ls_w": vector(np.linalg.pinv(gram) @ moment),
            "lda_mu0": vector(mu0), "lda_mu1": vector(mu1), "lda_Sw": matrix(S_w),
            "lda_w": vector(np.linalg.pinv(S_w) @ (mu0 - mu1)),
            "lr_beta": vector(beta, 6), "lr_gradient": vector(gradient, 6),
            "lr_hessian": matrix(hessian), "lr_step": vector(-np.linalg.pinv(hessian) @ gradient, 6)}


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
    logistic = models["logistic"]
    beta = np.append(logistic.coef_[0], logistic.intercept_[0])
    forms = closed_forms(X, y, logistic.classes_[1], beta)
    return {"rows": rows, "lines": lines, "summaries": summaries, "projection": projection,
            "closed_forms": forms,
            "points": points(X, y),
            "box": [low.tolist(), high.tolist()]}
