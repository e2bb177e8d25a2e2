"""``hyperplane show``: what a fitted model learned, as Rich tables.

Each section is a function ``(estimator, feature_names) -> renderable or
None`` in :data:`SECTIONS`; a section returns None when the model has
nothing of that kind (no tree, no support vectors, ...).
"""

from __future__ import annotations

import numpy as np
from rich.table import Table
from rich.text import Text

#: rows shown at most in long tables (support vectors, traces)
MAX_ROWS = 20


def unwrap(model):
    """``(estimator, feature names it sees)`` for an estimator or a CLI pipeline."""
    from sklearn.pipeline import Pipeline

    if isinstance(model, Pipeline):
        estimator = model.steps[-1][1]
        names = model[:-1].get_feature_names_out()
    else:
        estimator = model
        names = getattr(model, "feature_names_in_", None)
    if names is None:
        n = getattr(estimator, "n_features_in_", 0)
        names = [f"x{i + 1}" for i in range(n)]
    return estimator, [str(n) for n in names]


def _fmt(value):
    if isinstance(value, (float, np.floating)):
        return f"{value:.6g}"
    if isinstance(value, np.ndarray):
        return "[" + ", ".join(_fmt(v) for v in value.ravel()) + "]"
    return str(value)


def _table(title, columns, rows, total=None):
    table = Table(title=title, title_justify="left")
    for column in columns:
        table.add_column(str(column))
    for row in rows[:MAX_ROWS]:
        table.add_row(*(_fmt(v) for v in row))
    if total is not None and total > MAX_ROWS:
        table.caption = f"first {MAX_ROWS} of {total} rows"
    return table


def show_summary(estimator, names):
    facts = [("parameters", ", ".join(f"{k}={v!r}" for k, v in
                                      estimator.get_params(deep=False).items()))]
    for attr in ("classes_", "n_features_in_", "n_iter_", "n_updates_", "converged_",
                 "n_leaves_", "depth_", "intercept_"):
        if hasattr(estimator, attr):
            facts.append((attr, _fmt(np.asarray(getattr(estimator, attr)))
                          if attr in ("classes_", "intercept_") else _fmt(getattr(estimator, attr))))
    return _table("fit", ["attribute", "value"], facts)


def show_tree(estimator, names):
    if not type(estimator).__module__.startswith("hyperplane.tree"):
        return None
    if hasattr(estimator, "export_text"):  # the oblique tree draws its own tests
        return Text(estimator.export_text())
    from hyperplane.tree import export_text

    return Text(export_text(estimator))


def show_weights(estimator, names):
    coef = getattr(estimator, "coef_", None)
    if coef is None:
        return None
    coef = np.atleast_2d(np.asarray(coef))
    if coef.shape[1] != len(names):
        names = [f"x{i + 1}" for i in range(coef.shape[1])]
    classes = getattr(estimator, "classes_", None)
    if coef.shape[0] == 1:
        heads = ["w"]
    elif classes is not None and len(classes) == coef.shape[0]:
        heads = [f"w[{c}]" for c in classes]
    else:
        heads = [f"w{k}" for k in range(coef.shape[0])]
    rows = [[name, *coef[:, j]] for j, name in enumerate(names)]
    intercept = getattr(estimator, "intercept_", None)
    if intercept is not None:
        rows.append(["b (intercept)", *np.atleast_1d(np.asarray(intercept, dtype=float))])
    return _table("weights", ["feature", *heads], rows, total=len(rows))


def show_support_vectors(estimator, names):
    vectors = getattr(estimator, "support_vectors_", None)
    if vectors is None:
        return None
    if hasattr(vectors, "toarray"):  # fitted on sparse input (a LIBSVM file)
        vectors = vectors.toarray()
    vectors = np.asarray(vectors)
    index = getattr(estimator, "support_", np.arange(len(vectors)))
    dual = np.atleast_2d(np.asarray(getattr(estimator, "dual_coef_", np.full((1, len(vectors)),
                                                                                np.nan))))
    if vectors.shape[1] != len(names):
        names = [f"x{i + 1}" for i in range(vectors.shape[1])]
    rows = [[index[i], dual[0, i], *vectors[i]] for i in range(len(vectors))]
    return _table(f"support vectors ({len(vectors)})", ["sample", "α·y", *names], rows,
                  total=len(rows))


def show_dual(estimator, names):
    alpha = getattr(estimator, "alpha_", None)
    if alpha is None or hasattr(estimator, "support_vectors_"):
        return None
    alpha = np.asarray(alpha)
    nonzero = np.flatnonzero(alpha)
    rows = [[i, alpha[i]] for i in nonzero]
    return _table(f"dual coefficients α (non-zero: {len(nonzero)} of {alpha.size})",
                  ["sample", "α"], rows, total=len(rows))


def show_network(estimator, names):
    coefs = getattr(estimator, "coefs_", None)
    if coefs is None:
        return None
    rows = [[f"layer {k} → {k + 1}", "×".join(map(str, np.shape(w))),
             float(np.abs(w).max())] for k, w in enumerate(coefs)]
    return _table("network", ["weights", "shape", "max |w|"], rows)


def show_loss(estimator, names):
    curve = getattr(estimator, "loss_curve_", None)
    if curve is None or len(curve) == 0:
        return None
    curve = np.asarray(curve, dtype=float)
    picks = sorted(set(np.linspace(0, len(curve) - 1, min(len(curve), 10)).astype(int)))
    return _table(f"loss curve ({len(curve)} epochs)", ["epoch", "loss"],
                  [[i + 1, curve[i]] for i in picks])


def show_trace(estimator, names):
    trace = getattr(estimator, "trace_", None)
    if trace is None or len(trace) == 0:
        return None
    return _table(f"updates ({len(trace)})", list(trace.columns),
                  [list(row) for row in trace.itertuples(index=False)], total=len(trace))


#: section name -> function(estimator, feature names) -> renderable or None
SECTIONS = {
    "fit": show_summary,
    "tree": show_tree,
    "weights": show_weights,
    "support vectors": show_support_vectors,
    "dual": show_dual,
    "network": show_network,
    "loss": show_loss,
    "updates": show_trace,
}


def render(model, console):
    """Print every section that applies to ``model``."""
    estimator, names = unwrap(model)
    for section in SECTIONS.values():
        renderable = section(estimator, names)
        if renderable is not None:
            console.print(renderable)
