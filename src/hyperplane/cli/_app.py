"""The ``hyperplane`` Typer application and its commands (the options they
share, the error boundary and the entry point are in ``_options`` and
``_entry``)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ._heap import loading
from ._models import MODELS, SHIPPED_HELP, UserError, one_line
from ._options import (ENCODING_OPTION, FORMAT_OPTION, SCALE_OPTION, err_console,
                       refuse_overwriting_inputs, user_errors)
from ._scale import with_scaling
from ._worker_commands import worker_app

app = typer.Typer(
    name="hyperplane",
    help="The classic supervised learners, as the textbooks define them.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

app.add_typer(worker_app, name="worker")


@app.callback()
def _root():
    """The classic supervised learners, as the textbooks define them."""


@app.command()
@user_errors
def tour(
    section: list[str] = typer.Option(
        None, "--section", "-s",
        help="Run only these sections (repeatable); default: all."),
):
    """Train every family on the shipped textbook data and show how it learned."""
    from ._tour import run_tour

    run_tour(Console(), sections=section or None)


@app.command()
@user_errors
def models():
    """List the model names that fit accepts, and whether each is installed."""
    from ._models import availability

    table = Table("model", "class", "available")
    for name, (target, ok) in availability().items():
        table.add_row(name, target, "yes" if ok else "no (family not installed)")
    Console().print(table)


@app.command()
@user_errors
def fit(
    model: str = typer.Argument(..., help=f"Model name: {', '.join(MODELS)}; "
                                "or module:Class of any scikit-learn estimator."),
    data: str = typer.Argument(..., help=SHIPPED_HELP),
    target: Optional[str] = typer.Option(
        None, "--target", "-t",
        help="Column to predict (default: an ARFF file's last attribute, a LIBSVM file's "
             "label, a shipped dataset's class; required for CSV)."),
    out: Path = typer.Option(..., "--out", "-o", help="Model file to write."),
    param: list[str] = typer.Option(None, "--param", "-p",
                                    help="Hyper-parameter KEY=VALUE (repeatable), e.g. "
                                         "eta=0.5, max_depth=3, kernel=rbf, C=inf."),
    index: Optional[str] = typer.Option(None, "--index",
                                        help="Column that names rows (e.g. 编号): kept "
                                             "out of the features."),
    fmt: Optional[str] = FORMAT_OPTION,
    encoding: str = ENCODING_OPTION,
    quiet: bool = typer.Option(False, "--quiet", "-q",
                               help="No progress bar (drawn only on a terminal)."),
    scale: Optional[str] = SCALE_OPTION,
    threads: Optional[int] = typer.Option(
        None, "--threads",
        help="Threads of the fit (numba's and BLAS's; as n_jobs: -1 all cores). "
             "Default: the cores no other process keeps busy."),
):
    """Fit MODEL on a CSV, ARFF or LIBSVM file and write the model file.

    Categorical (text, ARFF nominal) columns go to the trees as they are and
    are one-hot encoded for numeric models; the encoder is saved with the
    model. A LIBSVM file's features stay sparse for models that take sparse
    input.
    """
    from hyperplane.io import save
    from hyperplane.io._skops import skops_io

    if threads == 0:
        raise UserError("--threads must be a nonzero integer (-1: all cores); got 0")
    refuse_overwriting_inputs(out, {"data file": data})
    with loading():
        # the model file's writer first, before pandas, the model's family and
        # numba: skops' import looks SciPy's ufuncs up in every module loaded so far
        skops_io()
        from ._data import (build_model, categorical_columns, estimator_input, read_table,
                            split_target)
        from ._params import configured_estimator

        estimator, params = configured_estimator(model, param)
        show_progress = (not quiet and "verbose" in estimator.get_params()
                         and "verbose" not in params
                         and type(estimator).__module__.startswith("hyperplane.")
                         and _is_terminal(sys.stderr))  # where the bar is drawn
        from hyperplane._threads import fit_threads

        table = read_table(data, index=index, fmt=fmt, encoding=encoding)
        X, y = split_target(table, target, data)
        fitted = build_model(estimator, X)
        X = estimator_input(fitted, X)
        fitted = with_scaling(fitted, estimator, scale, X)
    try:
        with fit_threads(threads):  # numba's (this thread's) and BLAS's counts
            if show_progress:  # a progress bar for this fit only, not in the saved parameters
                quiet_value = estimator.get_params()["verbose"]
                estimator.set_params(verbose=True)
                try:
                    fitted.fit(X, y)
                finally:
                    estimator.set_params(verbose=quiet_value)
            else:
                fitted.fit(X, y)
    except (ValueError, TypeError) as exc:
        raise UserError(f"cannot fit {model!r} on {data}: {one_line(exc)}") from None
    metadata = {"cli_model": model, "target": str(y.name), "index": index,
                "format": table.format, "data": Path(data).name,
                "params": {k: repr(v) for k, v in params.items()}, "scale": scale}
    if table.sparse is not None:
        metadata.update(features=[], categorical=[], n_features=int(X.shape[1]))
    else:
        metadata.update(features=[str(c) for c in X.columns],
                        categorical=[str(c) for c in categorical_columns(X)])
    save(fitted, out, metadata=metadata)
    score = fitted.score(X, y) if hasattr(fitted, "score") else None
    summary = f"fitted {model} on {X.shape[0]} rows × {X.shape[1]} columns"
    if score is not None:
        summary += f"; training score {score:.4g}"
    elif _is_outlier_detector(fitted):  # labels unused: how many rows it keeps inside
        inside = int((fitted.predict(X) == 1).sum())
        summary += f"; {inside} of {X.shape[0]} training rows inside (predicted +1)"
    err_console.print(f"{summary}; wrote {out}", markup=False)


def _is_terminal(stream):
    """Whether ``stream`` is an interactive terminal (a progress bar is drawn
    there; in a pipe or a log it would only add its last frame)."""
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # replaced or closed streams
        return False


def _is_outlier_detector(model):
    from sklearn.base import is_outlier_detector

    return is_outlier_detector(model)


@app.command()
@user_errors
def grid(
    model: str = typer.Argument(..., help=f"Model name: {', '.join(MODELS)}; "
                                "or module:Class of any scikit-learn estimator."),
    data: str = typer.Argument(..., help=SHIPPED_HELP),
    C: Optional[str] = typer.Option(
        None, "--C", help="Values of C: 2^BEGIN:2^END:STEP in log2 (grid.py's -log2c; "
                          "default 2^-5:2^15:2 for a model with C), v1,v2,... or none."),
    gamma: Optional[str] = typer.Option(
        None, "--gamma", help="Values of gamma, as --C (grid.py's -log2g; default "
                              "2^3:2^-15:-2 for a model with gamma)."),
    search_param: list[str] = typer.Option(
        None, "--grid", "-g", help="Another searched parameter NAME=V1,V2,... or "
                                   "NAME=2^A:2^B:STEP (repeatable), e.g. -g degree=2,3,4."),
    param: list[str] = typer.Option(None, "--param", "-p",
                                    help="A fixed hyper-parameter KEY=VALUE (repeatable)."),
    folds: int = typer.Option(5, "--folds", "-v", min=2,
                              help="Cross-validation folds (grid.py's -v)."),
    seed: int = typer.Option(0, "--seed", help="Shuffles the (stratified) folds."),
    jobs: int = typer.Option(-1, "--jobs", "-j",
                             help="Parallel fits (joblib; -1: all cores)."),
    backend: str = typer.Option(
        "threading", "--backend",
        help="joblib backend: threading (no start-up; the SVM solvers release the GIL) or "
             "loky (worker processes: seconds to start, then no GIL)."),
    plot: Optional[Path] = typer.Option(None, "--plot",
                                        help="Write grid.py's contour plot to this PNG."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as one JSON object."),
    target: Optional[str] = typer.Option(None, "--target", "-t",
                                         help="Column to predict (as fit)."),
    fmt: Optional[str] = FORMAT_OPTION,
    encoding: str = ENCODING_OPTION,
    scale: Optional[str] = SCALE_OPTION,
):
    """Search a grid of hyper-parameters by cross-validation, as LIBSVM's grid.py.

    Prints the CV accuracy (classifiers; mean squared error for regressors)
    of every point, then the best point and its rate.
    """
    from ._grid import grid_command

    grid_command(model, data, C=C, gamma=gamma, extra=search_param, param=param,
                 folds=folds, seed=seed, jobs=jobs, plot=plot, as_json=as_json,
                 target=target, fmt=fmt, encoding=encoding, scale=scale, backend=backend,
                 err=err_console)


@app.command()
@user_errors
def predict(
    model_file: Path = typer.Argument(..., help="Model file written by fit."),
    data: str = typer.Argument(..., help=SHIPPED_HELP),
    out: Optional[Path] = typer.Option(None, "--out", "-o",
                                       help="CSV file to write (default: standard output)."),
    fmt: Optional[str] = FORMAT_OPTION,
    encoding: str = ENCODING_OPTION,
    proba: bool = typer.Option(False, "--proba",
                               help="Also write one probability column per class."),
):
    """Predict every row of a table; writes it as CSV with a predicted_<target> column.

    When the table holds the target column too, prints svm-predict's line on
    stderr: ``Accuracy = 86.6667% (234/270) (classification)``, or the mean
    squared error and squared correlation of a regression.
    """
    from hyperplane.io import load, read_header

    refuse_overwriting_inputs(out, {"model file": model_file, "data file": data})
    meta = read_header(model_file).get("metadata", {})
    with loading():
        model = load(model_file)
        from ._data import model_table, warn_unseen_categories, write_table

        frame, X = model_table(data, meta, model, fmt=fmt, encoding=encoding)
    warn_unseen_categories(model, X)
    try:
        predicted = model.predict(X)
    except (ValueError, TypeError) as exc:
        raise UserError(f"cannot predict {data}: {one_line(exc)}") from None
    target = meta.get("target", "target")
    columns = {f"predicted_{target}": predicted}
    if proba:
        columns.update(_probability_columns(model, X, target))
    write_table(frame.assign(**columns), out)
    if target in frame.columns:  # labels present: svm-predict's line
        err_console.print(_agreement(model, frame[target], predicted), markup=False)


def _probability_columns(model, X, target):
    """``{proba_<target>_<class>: column}`` of ``model.predict_proba(X)``."""
    if not hasattr(model, "predict_proba"):
        raise UserError(f"{type(model).__name__} gives no class probabilities (--proba)")
    try:
        p = model.predict_proba(X)
    except AttributeError as exc:  # e.g. SVC(probability=False)
        raise UserError(f"--proba: {one_line(exc)}") from None
    return {f"proba_{target}_{c}": p[:, j] for j, c in enumerate(model.classes_)}


def _agreement(model, y, predicted):
    """svm-predict's summary of predictions against the true column: accuracy
    (classification) or mean squared error and squared correlation (regression)."""
    import numpy as np

    from hyperplane.evaluation import predicts_classes

    if predicts_classes(model, y):
        correct = int(np.sum(np.asarray(y) == np.asarray(predicted)))
        return (f"Accuracy = {100 * correct / len(y):.4f}% ({correct}/{len(y)}) "
                "(classification)")
    y, predicted = np.asarray(y, dtype=float), np.asarray(predicted, dtype=float)
    mse = float(np.mean((y - predicted) ** 2))
    r2 = float(np.corrcoef(y, predicted)[0, 1] ** 2) if np.std(y) * np.std(predicted) > 0 else 0
    return (f"Mean squared error = {mse:.6g} (regression)\n"
            f"Squared correlation coefficient = {r2:.6g} (regression)")


@app.command()
@user_errors
def show(
    model_file: Path = typer.Argument(..., help="Model file written by fit."),
    plot: Optional[Path] = typer.Option(None, "--plot",
                                        help="Also draw the model into this PNG file."),
    data: Optional[str] = typer.Option(None, "--data",
                                       help="Table to draw with the model (decision regions, "
                                            "margins, perceptron updates): " + SHIPPED_HELP),
):
    """Show what a model file holds: tree, weights, support vectors, loss, updates."""
    from hyperplane.io import load, read_header
    from hyperplane.io._files import class_name

    from ._show import render

    refuse_overwriting_inputs(plot, {"model file": model_file, "data file": data})
    header = read_header(model_file)
    with loading():  # what show does after loading makes little garbage
        model = load(model_file)
    meta = header.get("metadata", {})
    console = Console()
    console.print(f"[bold]{escape(str(model_file))}[/]: "
                  f"{escape(str(meta.get('cli_model', '')))} {escape(class_name(model))} "
                  f"(hyperplane {header['hyperplane_version']}, format {header['format_version']})",
                  highlight=False)
    if meta.get("target"):
        features = ", ".join(meta.get("features") or [])
        if meta.get("n_features") is not None:
            features = f"{meta['n_features']} sparse features ({meta.get('format', 'libsvm')})"
        console.print(f"target {meta['target']!s} from {features}", markup=False)
    render(model, console)
    if plot is not None:
        _draw(model, meta, plot, data)
        err_console.print(f"wrote {plot}", markup=False)


@app.command()
@user_errors
def playground(
    port: Optional[int] = typer.Option(None, "--port", min=0, max=65535,
                                       help="Port, 1-65535; 0 or none: a free one."),
    host: str = typer.Option("127.0.0.1", "--host", help="Address to bind (loopback)."),
    allow_remote: bool = typer.Option(False, "--allow-remote",
                                      help="Allow a --host other than loopback."),
    no_browser: bool = typer.Option(False, "--no-browser", help="Do not open a browser."),
):
    """Start the playground: watch each learner learn, step by step, in the browser."""
    from hyperplane.playground import serve

    serve(host, port, open_browser=not no_browser, allow_remote=allow_remote,
          ready=lambda url: err_console.print(f"hyperplane playground at {url} (Ctrl-C stops); "
                                       "compiling each learner's kernels…", markup=False),
          progress=lambda line: err_console.print(line, markup=False))


@app.command()
@user_errors
def evaluate(
    model: str = typer.Argument(..., help=f"Model name ({', '.join(MODELS)}, or module:Class) "
                                "to cross-validate, or a model file written by fit to test."),
    data: str = typer.Argument(..., help=SHIPPED_HELP),
    target: Optional[str] = typer.Option(None, "--target", "-t",
                                         help="Column to predict (as for fit)."),
    folds: int = typer.Option(10, "--folds", "-x", help="Cross-validation folds (Weka's -x)."),
    seed: int = typer.Option(1, "--seed", "-s", help="Seed of the fold shuffle (Weka's -s)."),
    test: Optional[str] = typer.Option(None, "--test", "-T",
                                       help="Train on DATA and test on this table (Weka's -T)."),
    cv: str = typer.Option("stratified", "--cv",
                           help="Folds: 'stratified' (scikit-learn's StratifiedKFold) or "
                                "'weka' (Weka's own -x/-s partition)."),
    param: list[str] = typer.Option(None, "--param", "-p",
                                    help="Hyper-parameter KEY=VALUE (repeatable)."),
    index: Optional[str] = typer.Option(None, "--index", help="Column that names rows."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead."),
    fmt: Optional[str] = FORMAT_OPTION,
    encoding: str = ENCODING_OPTION,
):
    """Evaluate a model as Weka does: cross-validated (stratified, seeded), on a
    test table, or a saved model on DATA; prints Weka's summary, per-class
    accuracy and confusion matrix."""
    import json

    from ._evaluate import report_for

    report = report_for(model, data, target=target, folds=folds, seed=seed, test=test, cv=cv,
                        param=param, index=index, fmt=fmt, encoding=encoding)
    if as_json:
        print(json.dumps(report.as_dict(), ensure_ascii=False))
    else:
        print(report)


def _draw(model, meta, plot, data):
    import matplotlib
    matplotlib.use("Agg")

    from hyperplane.io._atomic import atomic_write
    from hyperplane.plot import plot_model

    from ._data import model_table

    X = y = None
    if data is not None:
        frame, X = model_table(data, meta, model)
        target = meta.get("target")
        y = frame[target] if target in frame.columns else None
    figure = plot_model(model, X, y)
    with atomic_write(plot) as (handle, _):
        figure.savefig(handle, format=Path(plot).suffix.lstrip(".").lower() or "png",
                       dpi=110, bbox_inches="tight")
