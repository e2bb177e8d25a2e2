"""Progress display for long fits (SMO iterations, BP epochs, tree growth, Dask).

The bar is drawn on stderr: stdout carries results only (``hyperplane
predict ... > out.csv``, pipes).

Estimators own a ``verbose`` parameter; when it is true they wrap their outer
Python loop in :func:`progress` and report the current loss or violation. With
``verbose=False`` the returned reporter does nothing and costs nothing.
"""

from __future__ import annotations

from contextlib import contextmanager

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
)


class _Reporter:
    def __init__(self, bar=None, task=None):
        self._bar, self._task = bar, task

    def advance(self, steps=1, **fields):
        """Move the bar ``steps`` forward and show ``fields`` (e.g. ``loss=0.3``)."""
        if self._bar is None:
            return
        status = "  ".join(f"{k}={v:.6g}" if isinstance(v, float) else f"{k}={v}"
                           for k, v in fields.items())
        self._bar.update(self._task, advance=steps, status=status)


@contextmanager
def progress(total, description, enabled=True):
    """Context manager yielding a reporter with ``advance(steps, **fields)``.

    Parameters
    ----------
    total : int or None
        Number of steps (e.g. ``max_iter`` epochs); ``None`` for unknown.
    description : str
        Shown left of the bar.
    enabled : bool
        ``False`` yields a reporter that does nothing.

    Examples
    --------
    >>> with progress(3, "epochs", enabled=False) as bar:
    ...     for epoch in range(3):
    ...         bar.advance(loss=1.0 / (epoch + 1))
    """
    if not enabled:
        yield _Reporter()
        return
    columns = (TextColumn("[bold]{task.description}"), BarColumn(),
               MofNCompleteColumn(), TimeElapsedColumn(),
               TextColumn("{task.fields[status]}"))
    with Progress(*columns, transient=False, console=Console(stderr=True)) as bar:
        task = bar.add_task(description, total=total, status="")
        yield _Reporter(bar, task)
