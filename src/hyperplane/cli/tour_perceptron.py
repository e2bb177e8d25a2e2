"""Tour section: the perceptron's update tables (李航 表2.1, 表2.2) and a
kernel perceptron on XOR."""

from __future__ import annotations

import numpy as np
from rich.table import Table

from ..datasets import load_perceptron_example
from ..kernels import RBF
from ..linear import DualPerceptron, Perceptron


def _num(v):
    v = float(v)
    return str(int(v)) if v.is_integer() else f"{v:g}"


def _hyperplane_text(w, b):
    """``w.x + b`` written as the book writes it, e.g. ``3x(1)+3x(2)+1``."""
    terms = []
    for j, wj in enumerate(w, start=1):
        if wj == 0:
            continue
        coef = "" if abs(wj) == 1 else _num(abs(wj))
        sign = "-" if wj < 0 else ("+" if terms else "")
        terms.append(f"{sign}{coef}x({j})")
    if b != 0 or not terms:
        terms.append(("-" if b < 0 else ("+" if terms else "")) + _num(abs(b)))
    return "".join(terms)


def table_2_1(model):
    """表2.1 from a fitted ``Perceptron(record_trace=True)``."""
    table = Table(title="例2.1  表2.1 求解的迭代过程 (primal, η=1)")
    for column in ("迭代次数", "误分类点", "w", "b", "w·x+b"):
        table.add_column(column, justify="center")
    w, b = np.zeros(model.coef_.shape[1]), 0.0
    table.add_row("0", "", _vec(w), _num(b), "0")
    for _, row in model.trace_.iterrows():
        w, b = row["w"], row["b"]
        table.add_row(str(row["step"]), f"x{row['sample'] + 1}", _vec(w), _num(b),
                      _hyperplane_text(w, b))
    table.add_row(str(len(model.trace_) + 1), "0", _vec(w), _num(b), _hyperplane_text(w, b))
    return table


def table_2_2(model):
    """表2.2 from a fitted ``DualPerceptron(record_trace=True)``."""
    trace = model.trace_
    table = Table(title="例2.2  表2.2 求解的迭代过程 (dual, η=1)")
    table.add_column("k", justify="center")
    for k in range(len(trace) + 1):
        table.add_column(str(k), justify="center")
    n = len(model.alpha_)
    alphas = [np.zeros(n)] + list(trace["alpha"])
    table.add_row("x", "", *[f"x{i + 1}" for i in trace["sample"]])
    for i in range(n):
        table.add_row(f"α{i + 1}", *[_num(a[i]) for a in alphas])
    table.add_row("b", "0", *[_num(b) for b in trace["b"]])
    return table


def _vec(w):
    return "(" + ", ".join(_num(v) for v in w) + ")ᵀ"


def perceptron_section(console):
    """Print 表2.1, 表2.2, the Gram matrix and a kernel perceptron on XOR."""
    X, y = load_perceptron_example()
    primal = Perceptron(eta=1.0, record_trace=True).fit(X, y)
    console.print(table_2_1(primal))
    w, b = primal.coef_[0], primal.intercept_[0]
    console.print(f"分离超平面 {_hyperplane_text(w, b)} = 0, "
                  f"感知机模型 f(x) = sign({_hyperplane_text(w, b)})")

    dual = DualPerceptron(eta=1.0, record_trace=True).fit(X, y)
    console.print(f"Gram 矩阵 G = {dual.gram_.astype(int).tolist()}")
    console.print(table_2_2(dual))
    console.print(f"α = {[_num(a) for a in dual.alpha_]}, b = {_num(dual.intercept_[0])}, "
                  f"w = Σ αᵢyᵢxᵢ = {_vec(dual.coef_[0])}")

    rng = np.random.default_rng(0)
    corners = np.array([[1, 1], [-1, -1], [1, -1], [-1, 1]], dtype=float)
    X_xor = np.vstack([c + 0.25 * rng.normal(size=(25, 2)) for c in corners])
    y_xor = np.repeat([1, 1, -1, -1], 25)
    kernel_model = DualPerceptron(kernel=RBF(sigma=0.5)).fit(X_xor, y_xor)
    console.print(
        f"kernel perceptron (RBF σ=0.5) on XOR, 100 points: converged={kernel_model.converged_} "
        f"after {kernel_model.n_iter_} epochs, {kernel_model.n_updates_} updates, "
        f"{int(np.count_nonzero(kernel_model.alpha_))} points with α>0, "
        f"training accuracy {kernel_model.score(X_xor, y_xor):.3f}")
