"""When hyperplane's source files last changed: one walk, for the two things
that must not outlive an edit of them.

The kept-warm worker (:func:`hyperplane.cli._client.fingerprint`) imported
the modules as they were when it started; numba's cache
(:mod:`hyperplane._numba_cache`) holds machine code compiled from them. An
editable install changes under both, and an upgrade rewrites every file.
Only the standard library is imported here (the worker's client imports it
before anything heavy).
"""

from __future__ import annotations

import os

#: hyperplane's own folder
PACKAGE = os.path.dirname(os.path.abspath(__file__))


def newest_source_change(folder=PACKAGE):
    """The newest modification time (``st_mtime_ns``) of the ``.py`` files
    under ``folder`` (``__pycache__`` left out); 0 where there are none.

    Examples
    --------
    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> newest_source_change(folder)
    0
    >>> with open(os.path.join(folder, "rule.py"), "w") as f:
    ...     _ = f.write("ETA = 1.0\\n")
    >>> os.utime(os.path.join(folder, "rule.py"), ns=(5, 7))
    >>> newest_source_change(folder)
    7
    """
    newest = 0
    for here, subfolders, files in os.walk(folder):
        subfolders[:] = [name for name in subfolders if name != "__pycache__"]
        for name in files:
            if name.endswith(".py"):
                newest = max(newest, os.stat(os.path.join(here, name)).st_mtime_ns)
    return newest
