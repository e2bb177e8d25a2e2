"""Tour section: least squares, Fisher and logistic regression on 西瓜数据集3.0α."""

from __future__ import annotations

import numpy as np
from rich.table import Table

from ..datasets import load_watermelon
from ..linear import FisherDiscriminant, LeastSquaresClassifier, LogisticRegression


def _vector_text(v):
    return "(" + ", ".join(f"{x:+.4f}" for x in np.ravel(v)) + ")"


def linear_section(console):
    """Fit the three closed-form/convex linear classifiers on 西瓜数据集3.0α
    (密度, 含糖率 → 好瓜) and print their weights and training accuracy,
    then the Fisher direction w ∝ S_W⁻¹(m₁ − m₀) and its threshold."""
    X, y = load_watermelon("3.0alpha")
    models = {
        "least squares (W̃ = X̃⁺T)": LeastSquaresClassifier(),
        "Fisher (nearest projected mean)": FisherDiscriminant(),
        "logistic regression (C = 1e4)": LogisticRegression(C=1e4, max_iter=1000),
    }
    table = Table(title="西瓜数据集3.0α: 17 melons, 密度 and 含糖率 → 好瓜 (是 = +1)")
    for column in ("model", "w (密度, 含糖率)", "b", "training accuracy"):
        table.add_column(column)
    for name, model in models.items():
        model.fit(X, y)
        table.add_row(name, _vector_text(model.coef_), f"{model.intercept_[0]:+.4f}",
                      f"{model.score(X, y):.3f}")
    console.print(table)
    fisher = models["Fisher (nearest projected mean)"]
    w = fisher.scalings_[:, 0]
    mu_bad, mu_good = fisher.projected_means_[:, 0]
    console.print("Fisher direction S_W⁻¹(m_是 − m_否) = "
                  f"{_vector_text(fisher.coef_)} (the Fisher row of the table; 周志华 习题3.5), "
                  f"unit vector {_vector_text(w / np.linalg.norm(w))}")
    console.print(f"projection z = wᵀx with wᵀS_Ww = 1: class means 否 {mu_bad:+.4f}, "
                  f"是 {mu_good:+.4f}; predict 是 when z ≥ {fisher.threshold_:+.4f} (midpoint)")
