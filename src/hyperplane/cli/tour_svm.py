"""Tour section of the SVM family: 李航 例7.1 and an RBF SVC on 西瓜数据集3.0α."""

from __future__ import annotations

import numpy as np
from rich.table import Table

from ..datasets import load_watermelon, load_perceptron_example
from ..linear import novikoff_bound
from ..svm import SVC


def _example_7_1(console):
    X, y = load_perceptron_example()
    svc = SVC(kernel="linear", C=np.inf, tol=1e-10).fit(X, y)
    table = Table(title="李航 例7.1: hard-margin linear SVM (C = inf)")
    for column in ("point", "x", "y", "alpha", "support vector"):
        table.add_column(column)
    for i, (x, label) in enumerate(zip(X, y)):
        table.add_row(f"x{i + 1}", str(x.tolist()), f"{label:+d}", f"{svc.alpha_[i]:.4f}",
                      "yes" if i in svc.support_ else "")
    console.print(table)
    w, b = svc.coef_[0], svc.intercept_[0]
    console.print(f"separating hyperplane: {w[0]:.4g} x(1) + {w[1]:.4g} x(2) "
                  f"{'-' if b < 0 else '+'} {abs(b):.4g} = 0"
                  f"   (book: 1/2 x(1) + 1/2 x(2) - 2 = 0, alpha1 = alpha3 = 1/4)")
    R, gamma, bound = novikoff_bound(X, y)
    console.print(f"Novikoff: R = {R:.4f}, gamma = {gamma:.4f}, "
                  f"perceptron updates <= (R/gamma)^2 = {bound:.2f}")


def _watermelon_rbf(console):
    X, y = load_watermelon("3.0alpha")
    svc = SVC(kernel="rbf", gamma=10.0, C=10.0).fit(X, y)
    table = Table(title="西瓜数据集3.0α: RBF SVC (gamma = 10, C = 10)")
    for column in ("编号", *X.columns, "好瓜", "alpha", "y f(x)"):
        table.add_column(str(column))
    signs = np.where(y.to_numpy() == svc.classes_[1], 1.0, -1.0)
    margins = signs * svc.decision_function(X)
    for i in svc.support_:
        table.add_row(str(X.index[i]), *(f"{v:.3f}" for v in X.iloc[i]), y.iloc[i],
                      f"{svc.alpha_[i]:.3f}", f"{margins[i]:.3f}")
    console.print(table)
    accuracy = float(np.mean(svc.predict(X) == y.to_numpy()))
    console.print(f"{len(svc.support_)} support vectors of {len(X)} samples; "
                  f"training accuracy {accuracy:.3f}; SMO iterations {svc.n_iter_}")


def svm_section(console):
    """Print 例7.1's support vectors and multipliers, Novikoff's bound, and
    an RBF SVC on 西瓜数据集3.0α with its support vectors."""
    _example_7_1(console)
    _watermelon_rbf(console)
