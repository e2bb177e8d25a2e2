"""``hyperplane grid``: LIBSVM's tools/grid.py with scikit-learn underneath.

A grid of hyper-parameters (by default LIBSVM's log2 grid of C and gamma),
the cross-validated accuracy of each point from scikit-learn's
``GridSearchCV`` on all cores (joblib), the best point, and grid.py's contour
plot of the accuracy over (log2 C, log2 gamma).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ._models import UserError, one_line
from ._params import parameter_item, parse_value

#: grid.py's defaults: log2 C from -5 to 15 by 2, log2 gamma from 3 to -15 by -2
DEFAULT_C = "2^-5:2^15:2"
DEFAULT_GAMMA = "2^3:2^-15:-2"


class Axis(NamedTuple):
    """One searched parameter: its values and whether they form a log2 grid
    (then ``exponents`` holds log2 of each value, for the plot)."""

    name: str
    values: list
    exponents: list | None


class GridResult(NamedTuple):
    """The searched axes, the mean CV score per point (in ``ParameterGrid``
    order of the axes), the best point and its score, and the metric's name."""

    axes: list
    points: list
    scores: list
    best: dict
    best_score: float
    metric: str


def parse_axis(name, text):
    """Values of one parameter: ``2^a:2^b:s`` (grid.py's ``-log2c a,b,s``:
    2^a, 2^(a+s), ... up to 2^b inclusive), ``2^a,2^b,...`` (powers of
    two), or ``v1,v2,...``; ``none`` leaves the parameter out (None).

    Examples
    --------
    >>> parse_axis("C", "2^-1:2^3:2")
    Axis(name='C', values=[0.5, 2.0, 8.0], exponents=[-1.0, 1.0, 3.0])
    >>> parse_axis("gamma", "2^-1,2^1")
    Axis(name='gamma', values=[0.5, 2.0], exponents=[-1.0, 1.0])
    >>> parse_axis("kernel", "rbf,linear")
    Axis(name='kernel', values=['rbf', 'linear'], exponents=None)
    >>> parse_axis("gamma", "none") is None
    True
    """
    text = text.strip()
    if text.lower() == "none":
        return None
    if ":" in text:
        parts = text.split(":")
        if len(parts) != 3 or not all(p.strip().startswith("2^") for p in parts[:2]):
            raise UserError(f"bad grid for {name}: {text!r}; expected 2^BEGIN:2^END:STEP "
                            "(log2 exponents, e.g. 2^-5:2^15:2) or v1,v2,...")
        try:
            begin, end = (float(p.strip()[2:]) for p in parts[:2])
            step = float(parts[2])
        except ValueError:
            raise UserError(f"bad grid for {name}: {text!r}; the exponents and the step "
                            "must be numbers") from None
        if step == 0 or (end - begin) * step < 0:
            raise UserError(f"bad grid for {name}: {text!r}; the step {step:g} never goes "
                            f"from 2^{begin:g} to 2^{end:g}")
        count = int(math.floor((end - begin) / step + 1e-9)) + 1
        exponents = [begin + k * step for k in range(count)]
        return Axis(name, [2.0 ** e for e in exponents], exponents)
    items = [v.strip() for v in text.split(",") if v.strip()]
    if not items:
        raise UserError(f"bad grid for {name}: {text!r} has no values")
    if all(v.startswith("2^") for v in items):      # powers of two: a log2 axis
        try:
            exponents = [float(v[2:]) for v in items]
        except ValueError:
            raise UserError(f"bad grid for {name}: {text!r}; 2^X needs a number X") from None
        return Axis(name, [2.0 ** e for e in exponents], exponents)
    return Axis(name, [parse_value(v) for v in items], None)


def grid_axes(estimator, C, gamma, extra):
    """The axes: ``--C`` and ``--gamma`` where the estimator has those
    parameters (and they are not ``none``), then every ``-g name=v1,...``."""
    params = estimator.get_params()
    axes = []
    for name, text, default in (("C", C, DEFAULT_C), ("gamma", gamma, DEFAULT_GAMMA)):
        if name in params:
            axis = parse_axis(name, text if text is not None else default)
            if axis is not None:
                axes.append(axis)
        elif text is not None and text.strip().lower() != "none":
            raise UserError(f"--{name}: the model has no parameter {name!r}")
    for item in extra or ():
        name, values = parameter_item(
            item, params, bad="bad -g {item}: expected NAME=V1,V2,... or NAME=2^A:2^B:STEP",
            unknown="unknown parameter {name} in -g; the model's parameters are: {names}")
        axes = [a for a in axes if a.name != name]
        axis = parse_axis(name, values)
        if axis is not None:
            axes.append(axis)
    if not axes:
        raise UserError("nothing to search: give --C/--gamma or -g NAME=V1,V2,...")
    return axes


#: joblib backends ``--backend`` offers: threads (hyperplane's compiled solvers release the
#: GIL; no start-up) or loky's worker processes (each imports scikit-learn and loads the
#: compiled kernels first, seconds per worker)
BACKENDS = ("threading", "loky")


def correct_count(estimator, X, y):
    """The number of rows of ``(X, y)`` that ``estimator`` predicts right: the
    score of one fold for LIBSVM's ``-v`` rate (summed over the folds, over n).

    A plain callable rather than ``make_scorer(accuracy_score,
    normalize=False)``: the same integer, without the scorer's per-call
    checks of the target type and response method (about 1 ms a fold,
    a tenth of a fit on heart_scale's 216 training rows).

    Examples
    --------
    >>> import numpy as np
    >>> class Always:
    ...     def predict(self, X):
    ...         return np.ones(len(X))
    >>> correct_count(Always(), np.zeros((3, 1)), np.array([1.0, 0.0, 1.0]))
    2
    """
    return int(np.count_nonzero(estimator.predict(X) == np.asarray(y)))


def search_layout(X):
    """``X`` as the search passes it to the folds: a sparse matrix whose dense
    array takes no more memory than its CSR arrays (values, column indices,
    row pointers: about two thirds of the entries or more nonzero) is made
    dense; anything else is returned as it is.

    The search fits and scores every point on every fold, and on a mostly
    nonzero matrix the dense layout is the cheaper one throughout: slicing the
    folds, the kernel rows of the SMO and the kernel block of each
    prediction (measured on heart_scale's 270 x 13, 96% nonzero: the 550
    fits and predictions of the default grid take about 30% less CPU). The
    values are the same; sums over the nonzeros in another order may differ
    in the last bits (1e-10 on heart_scale's decision values, no CV accuracy
    of its default grid changes).

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> type(search_layout(sp.csr_matrix(np.ones((4, 3))))).__name__
    'ndarray'
    >>> sp.issparse(search_layout(sp.eye(100, format="csr")))
    True
    """
    import scipy.sparse as sp

    if not sp.issparse(X):
        return X
    rows = X.tocsr()
    stored = rows.data.nbytes + rows.indices.nbytes + rows.indptr.nbytes
    if rows.shape[0] * rows.shape[1] * rows.dtype.itemsize <= stored:
        return rows.toarray()
    return X


def search(model, X, y, axes, *, folds, seed, n_jobs, prefix="", backend="threading"):
    """Cross-validated score of every grid point (GridSearchCV, refit=False):
    stratified ``folds``-fold CV shuffled with ``seed`` and, for a classifier,
    the accuracy over all rows as LIBSVM's ``-v`` (correct predictions of
    all folds / n, not the mean of the folds' rates); for a regressor K-fold
    and the mean of the folds' squared errors. Ties go to the first point
    in the grid's order (C ascending, then the other axes as given). A
    mostly nonzero sparse ``X`` is searched dense (:func:`search_layout`)."""
    from sklearn.base import is_classifier
    from sklearn.model_selection import GridSearchCV, KFold, StratifiedKFold

    classifier = is_classifier(model)
    splitter = (StratifiedKFold if classifier else KFold)(folds, shuffle=True,
                                                          random_state=seed)
    scoring = correct_count if classifier else "neg_mean_squared_error"
    grid = {prefix + a.name: a.values for a in axes}
    cv = GridSearchCV(model, grid, scoring=scoring, cv=splitter, n_jobs=n_jobs, refit=False,
                      error_score="raise")
    from joblib import parallel_config

    if backend not in BACKENDS:
        raise UserError(f"--backend must be one of {', '.join(BACKENDS)}; got {backend!r}")
    X = search_layout(X)
    try:
        with parallel_config(backend=backend):
            cv.fit(X, y)
    except (ValueError, TypeError) as exc:
        raise UserError(f"cross-validation failed: {one_line(exc)}") from None
    points = [{k[len(prefix):]: v for k, v in p.items()} for p in cv.cv_results_["params"]]
    if classifier:     # the folds' correct counts summed (exact integers), over n
        correct = np.rint(cv.cv_results_["mean_test_score"] * folds)
        scores = [float(c) / len(y) for c in correct]
        best = int(np.argmax(correct))
    else:
        scores = [-float(s) for s in cv.cv_results_["mean_test_score"]]
        best = int(np.argmin(scores))
    return GridResult(axes, points, scores, points[best], scores[best],
                      "cv_accuracy" if classifier else "cv_mse")


def plot_grid(result, path):
    """grid.py's picture: contour lines of the CV score over the two log2
    axes (or the score against the one axis), written atomically."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from hyperplane.io._atomic import atomic_write

    numeric = [a for a in result.axes if a.exponents is not None]
    if len(result.axes) > 2 or not numeric or len(numeric) != len(result.axes):
        raise UserError("--plot draws one or two log2 axes (e.g. C and gamma); this grid "
                        f"has {', '.join(a.name for a in result.axes)}")
    label = "CV accuracy (%)" if result.metric == "cv_accuracy" else "CV mean squared error"
    scale = 100.0 if result.metric == "cv_accuracy" else 1.0
    lookup = {tuple(p[a.name] for a in result.axes): s * scale
              for p, s in zip(result.points, result.scores)}
    figure, ax = plt.subplots(figsize=(6.4, 4.8))
    if len(result.axes) == 1:
        axis = result.axes[0]
        ax.plot(axis.exponents, [lookup[(v,)] for v in axis.values], marker="o")
        ax.set_xlabel(f"log2({axis.name})")
        ax.set_ylabel(label)
    else:
        first, second = result.axes
        Z = np.array([[lookup[(u, v)] for u in first.values] for v in second.values])
        if min(Z.shape) >= 2:
            lines = ax.contour(first.exponents, second.exponents, Z, levels=10)
            ax.clabel(lines, inline=True, fontsize=8, fmt="%.1f")
        else:
            ax.scatter(np.repeat([first.exponents], len(second.values), axis=0),
                       np.repeat(np.array(second.exponents)[:, None], len(first.values), 1),
                       c=Z)
        best = result.best
        ax.plot(math.log2(best[first.name]), math.log2(best[second.name]), "r*", ms=12,
                label=f"best {result.best_score * scale:.4g}")
        ax.legend(loc="best")
        ax.set_xlabel(f"log2({first.name})")
        ax.set_ylabel(f"log2({second.name})")
    ax.set_title(label)
    with atomic_write(path) as (handle, _):
        figure.savefig(handle, format="png", dpi=110, bbox_inches="tight")
    plt.close(figure)


def point_text(point, axes):
    """``C=2^3 gamma=2^-7`` (log2 axes as powers of two, as grid.py prints)."""
    parts = []
    for axis in axes:
        value = point[axis.name]
        if axis.exponents is not None:
            parts.append(f"{axis.name}=2^{math.log2(value):g}")
        else:
            parts.append(f"{axis.name}={value!r}")
    return " ".join(parts)


def json_value(value):
    """A JSON-safe parameter value (numbers stay numbers)."""
    if isinstance(value, (np.generic,)):
        return value.item()
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    return repr(value)


def grid_command(model, data, *, C, gamma, extra, param, folds, seed, jobs, plot, as_json,
                 target, fmt, encoding, scale, backend, err):
    """The body of ``hyperplane grid`` (its options, see :func:`~._app.grid`):
    read the table, search the grid by cross-validation, print every point
    and the best one (or one JSON object), and with ``plot`` draw grid.py's
    contour plot (its path reported on the console ``err``)."""
    import json

    from sklearn.pipeline import Pipeline

    from ._scale import with_scaling
    from ._data import build_model, estimator_input, read_table, split_target
    from ._options import refuse_overwriting_inputs
    from ._params import configured_estimator

    refuse_overwriting_inputs(plot, {"data file": data})
    estimator, _ = configured_estimator(model, param)
    axes = grid_axes(estimator, C, gamma, extra)
    table = read_table(data, fmt=fmt, encoding=encoding)
    X, y = split_target(table, target, data)
    fitted = build_model(estimator, X)
    X = estimator_input(fitted, X)
    fitted = with_scaling(fitted, estimator, scale, X)
    prefix = "model__" if isinstance(fitted, Pipeline) else ""
    result = search(fitted, X, y, axes, folds=folds, seed=seed, n_jobs=jobs, prefix=prefix,
                    backend=backend)
    if plot is not None:
        plot_grid(result, plot)
        err.print(f"wrote {plot}", markup=False)
    if as_json:
        print(json.dumps({
            "best": {k: json_value(v) for k, v in result.best.items()},
            result.metric: result.best_score,
            "folds": folds,
            "grid": [{**{k: json_value(v) for k, v in p.items()}, result.metric: s}
                     for p, s in zip(result.points, result.scores)],
        }))
        return
    percent = result.metric == "cv_accuracy"
    for point, score in zip(result.points, result.scores):
        print(f"{point_text(point, axes)}  {score * 100:.4f}%" if percent
              else f"{point_text(point, axes)}  mse {score:.6g}")
    best = ("{:.4f}%".format(result.best_score * 100) if percent
            else f"mse {result.best_score:.6g}")
    print(f"best {point_text(result.best, axes)}  {best}  "
          f"({folds}-fold CV, {len(result.points)} points)")
