"""The ``hyperplane`` Typer application and its commands."""

from __future__ import annotations

import functools
import os
import sys
import warnings
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ._models import MODELS, SHIPPED_HELP, UserError

app = typer.Typer(
    name="hyperplane",
    help="The classic supervised learners, as the textbooks define them.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

_err = Console(stderr=True, highlight=False, soft_wrap=True)

FORMAT_OPTION = typer.Option(
    None, "--format", "-f",
    help="csv, arff or libsvm (default: from the suffix .csv/.arff/.svm, else from the "
         "first line).")
ENCODING_OPTION = typer.Option(
    "utf-8", "--encoding",
    help="Text encoding of a CSV/ARFF file, e.g. gb18030 (default UTF-8, with or "
         "without BOM).")


def _one_line(exc):
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text


def user_errors(command):
    """Report any failure as ``error: <one line>`` on stderr and exit 1.

    Set ``HYPERPLANE_DEBUG=1`` to see the traceback instead.
    """
    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                result = command(*args, **kwargs)
            for warning in _unique(caught):
                _err.print(f"warning: {_one_line(warning.message)}", markup=False)
            return result
        except (typer.Exit, typer.Abort, KeyboardInterrupt):
            raise
        except Exception as exc:  # the boundary: the user sees a reason, not a traceback
            if os.environ.get("HYPERPLANE_DEBUG"):
                raise
            _err.print(f"error: {_one_line(exc)}", markup=False)
            raise typer.Exit(code=1) from None
    return wrapper


def _unique(caught):
    seen = set()
    for warning in caught:
        key = (warning.category, str(warning.message))
        if key not in seen and not issubclass(warning.category, DeprecationWarning):
            seen.add(key)
            yield warning


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
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
):
    """Fit MODEL on a CSV, ARFF or LIBSVM file and write the model file.

    Categorical (text, ARFF nominal) columns go to the trees as they are and
    are one-hot encoded for numeric models; the encoder is saved with the
    model. A LIBSVM file's features stay sparse for models that take sparse
    input.
    """
    from hyperplane.io import save

    from ._data import (build_model, categorical_columns, model_input, read_table,
                        refuse_overwriting_inputs, split_target)
    from ._models import resolve_model
    from ._params import parse_params

    refuse_overwriting_inputs(out, {"data file": data})
    cls = resolve_model(model)
    estimator = cls()
    params = parse_params(param, estimator, model)
    try:
        estimator.set_params(**params)
    except ValueError as exc:
        raise UserError(f"bad parameter for {model!r}: {_one_line(exc)}") from None
    show_progress = (not quiet and "verbose" in estimator.get_params()
                     and "verbose" not in params and cls.__module__.startswith("hyperplane."))
    table = read_table(data, index=index, fmt=fmt, encoding=encoding)
    X, y = split_target(table, target, data)
    fitted = build_model(estimator, X)
    X = model_input(fitted, X)
    try:
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
        raise UserError(f"cannot fit {model!r} on {data}: {_one_line(exc)}") from None
    metadata = {"cli_model": model, "target": str(y.name), "index": index,
                "format": table.format, "data": Path(data).name,
                "params": {k: repr(v) for k, v in params.items()}}
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
    _err.print(f"{summary}; wrote {out}", markup=False)


@app.command()
@user_errors
def predict(
    model_file: Path = typer.Argument(..., help="Model file written by fit."),
    data: str = typer.Argument(..., help=SHIPPED_HELP),
    out: Optional[Path] = typer.Option(None, "--out", "-o",
                                       help="CSV file to write (default: standard output)."),
    fmt: Optional[str] = FORMAT_OPTION,
    encoding: str = ENCODING_OPTION,
):
    """Predict every row of a table; writes it as CSV with a predicted_<target> column."""
    from hyperplane.io import load, read_header

    from ._data import (model_table, refuse_overwriting_inputs, warn_unseen_categories,
                        write_table)

    refuse_overwriting_inputs(out, {"model file": model_file, "data file": data})
    meta = read_header(model_file).get("metadata", {})
    model = load(model_file)
    frame, X = model_table(data, meta, model, fmt=fmt, encoding=encoding)
    warn_unseen_categories(model, X)
    try:
        predicted = model.predict(X)
    except (ValueError, TypeError) as exc:
        raise UserError(f"cannot predict {data}: {_one_line(exc)}") from None
    column = f"predicted_{meta.get('target', 'target')}"
    write_table(frame.assign(**{column: predicted}), out)


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

    from ._data import refuse_overwriting_inputs
    from ._show import render

    refuse_overwriting_inputs(plot, {"model file": model_file, "data file": data})
    header = read_header(model_file)
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
        _err.print(f"wrote {plot}", markup=False)


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
          ready=lambda url: _err.print(f"hyperplane playground at {url} (Ctrl-C stops)",
                                       markup=False))


def _draw(model, meta, plot, data):
    import matplotlib
    matplotlib.use("Agg")

    from hyperplane.io._files import atomic_write
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


def main():
    """Entry point of the ``hyperplane`` console script.

    It reads the command from ``sys.argv`` and exits (``SystemExit``) with the
    command's status: 0 on success, 1 after an ``error:`` line, 2 for a
    command line it cannot parse.

    Examples
    --------
    ``hyperplane models`` lists the model names ``fit`` accepts:

    >>> import contextlib, io, os, sys
    >>> from unittest import mock
    >>> from hyperplane.cli import main
    >>> out = io.StringIO()
    >>> with mock.patch.object(sys, "argv", ["hyperplane", "models"]), \\
    ...         mock.patch.dict(os.environ, {"COLUMNS": "80"}), \\
    ...         contextlib.redirect_stdout(out):
    ...     try:
    ...         main()
    ...     except SystemExit as done:
    ...         status = done.code
    >>> status
    0
    >>> for line in out.getvalue().splitlines():
    ...     if "hyperplane.svm" in line:
    ...         print(line)
    │ svc             │ hyperplane.svm:SVC                       │ yes       │
    │ svr             │ hyperplane.svm:SVR                       │ yes       │
    """
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(encoding="utf-8")
        sys.stderr.reconfigure(encoding="utf-8")
    app()
