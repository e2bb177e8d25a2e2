"""The entry point of the ``hyperplane`` console script and of ``python -m
hyperplane``: run the command :mod:`~._app` parses, then end the process."""

from __future__ import annotations

import os
import sys


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
    │ linear-svc      │ hyperplane.svm:LinearSVC                 │ yes       │
    │ svr             │ hyperplane.svm:SVR                       │ yes       │
    │ linear-svr      │ hyperplane.svm:LinearSVR                 │ yes       │
    │ nusvc           │ hyperplane.svm:NuSVC                     │ yes       │
    │ nusvr           │ hyperplane.svm:NuSVR                     │ yes       │
    │ one-class-svm   │ hyperplane.svm:OneClassSVM               │ yes       │
    """
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(encoding="utf-8")
        sys.stderr.reconfigure(encoding="utf-8")
    from ._app import app

    app()


def run():
    """Entry point of the ``hyperplane`` console script and ``python -m hyperplane``:
    :func:`main`, then the process ends without tearing the interpreter down.

    Python's own exit collects and frees every object of the 2,700 modules a
    ``fit`` or ``predict`` has imported (scikit-learn, skops, numba): 0.5 s of
    CPU after the command's work is done. Here the exit handlers run
    (``atexit``: temporary files, worker pools, logging), standard output and
    error are flushed, and the process exits with the command's status. When
    a thread other than the main one is still running, or the command ends
    with any exception but ``SystemExit``, Python exits as usual.

    Examples
    --------
    The process it runs in ends with the command, so here it runs in a child
    (in-process: no kept-warm worker, ``cli/_client.py``):

    >>> import os, subprocess, sys
    >>> code = "import sys; from hyperplane.cli import run; sys.argv[1:] = ['--help']; run()"
    >>> done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
    ...                       env=dict(os.environ, HYPERPLANE_WORKER="off"))
    >>> done.returncode, "Usage" in done.stdout
    (0, True)
    """
    from ._client import run_command

    try:
        status = run_command(sys.argv)  # through the kept-warm worker (cli/_client.py)
    except KeyboardInterrupt:  # Ctrl-C while a worker was starting: nothing ran
        status = 130
    if status is not None:
        sys.exit(status)
    exit_now(command_status())


def command_status():
    """Run :func:`main`: the status it exits with (as ``SystemExit`` takes it)."""
    try:
        main()
        return 0
    except SystemExit as stop:
        return stop.code


def exit_now(status, in_child=False):
    """Exit with ``status`` (as ``SystemExit`` takes it) after the exit
    handlers and a flush, skipping the interpreter's teardown.

    In a worker's child (``in_child``) the process always ends here: the
    threads the command left running are joined first, as the interpreter's
    own exit would."""
    import atexit
    import threading

    others = [t for t in threading.enumerate()
              if t is not threading.main_thread() and not t.daemon and t.is_alive()]
    run_handlers = getattr(atexit, "_run_exitfuncs", None)
    if in_child:
        for thread in others:
            thread.join()
    elif others or run_handlers is None:
        sys.exit(status)
    if status is None:
        status = 0
    elif not isinstance(status, int):
        print(status, file=sys.stderr)
        status = 1
    if run_handlers is not None:
        run_handlers()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe (``predict ... | head``)
            pass
    os._exit(status)
