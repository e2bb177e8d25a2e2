"""What the commands share: their common options, the error boundary that
turns a failure into one ``error:`` line, and the check that an output file
is not one of the inputs.

Nothing here imports scikit-learn, pandas or numba, so a command can refuse a
bad command line before it pays for them.
"""

from __future__ import annotations

import functools
import os
import warnings
from pathlib import Path

import typer
from rich.console import Console

from ._models import UserError, one_line

#: standard error, where every command writes its summary, warnings and errors
err_console = Console(stderr=True, highlight=False, soft_wrap=True)

FORMAT_OPTION = typer.Option(
    None, "--format", "-f",
    help="csv, arff or libsvm (default: from the suffix .csv/.arff/.svm, else from the "
         "first line).")
SCALE_OPTION = typer.Option(
    None, "--scale",
    help="Scale the features first, as svm-scale, and keep the scaling in the model: "
         "minmax (each feature to [-1, 1]) or standard (mean 0, variance 1); sparse "
         "(LIBSVM) data are scaled without centring (minmax: divided by max |x|).")
ENCODING_OPTION = typer.Option(
    "utf-8", "--encoding",
    help="Text encoding of a CSV/ARFF file, e.g. gb18030 (default UTF-8, with or "
         "without BOM).")


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
                err_console.print(f"warning: {one_line(warning.message)}", markup=False)
            return result
        except (typer.Exit, typer.Abort, KeyboardInterrupt):
            raise
        except Exception as exc:  # the boundary: the user sees a reason, not a traceback
            if os.environ.get("HYPERPLANE_DEBUG"):
                raise
            err_console.print(f"error: {one_line(exc)}", markup=False)
            raise typer.Exit(code=1) from None
    return wrapper


def _unique(caught):
    seen = set()
    for warning in caught:
        key = (warning.category, str(warning.message))
        if key not in seen and not issubclass(warning.category, DeprecationWarning):
            seen.add(key)
            yield warning


def refuse_overwriting_inputs(out, inputs):
    """Refuse an output path that is one of the command's input files.

    Compared as files (``os.path.samefile``: the same inode through any
    symlink or hard link) when both exist, else as resolved paths.

    Examples
    --------
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     data = os.path.join(tmp, "train.csv")
    ...     open(data, "w").close()
    ...     refuse_overwriting_inputs(os.path.join(tmp, "m.hyperplane"), {"data file": data})
    ...     refuse_overwriting_inputs(data, {"data file": data})
    Traceback (most recent call last):
    ...
    hyperplane.cli._models.UserError: --out ... is the data file ...: writing it would destroy the input; choose another output file
    """
    if out is None:
        return
    for name, source in inputs.items():
        if source is None or not Path(source).exists():
            continue                      # a shipped dataset name, or nothing to lose
        if Path(out).exists():
            same = os.path.samefile(out, source)
        else:
            same = os.path.realpath(out) == os.path.realpath(source)
        if same:
            raise UserError(f"--out {out} is the {name} {source}: writing it would destroy "
                            "the input; choose another output file")
