"""Files written atomically: a temporary file beside the target, flushed to
disk, then renamed over it (``os.replace``, atomic on POSIX and Windows), so a
write that fails or is killed leaves the previous file as it was.

Examples
--------
>>> import tempfile, pathlib
>>> from hyperplane.io._atomic import atomic_write
>>> target = pathlib.Path(tempfile.mkdtemp()) / "out.txt"
>>> with atomic_write(target) as (handle, _):
...     _ = handle.write(b"done")
>>> target.read_bytes()
b'done'
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from pathlib import Path


@contextlib.contextmanager
def atomic_write(path):
    """Yield ``(binary handle, name)`` of a new file beside ``path``; on
    success fsync it and rename it to ``path``, else delete it.

    The target is never opened: until the rename it holds its old bytes,
    whatever happens to the writer (an exception, a signal, a crash).
    """
    path = Path(path)
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
    try:
        with open(temporary, "x+b") as handle:
            yield handle, temporary
            handle.flush()
            os.fsync(handle.fileno())
        if path.exists():
            os.chmod(temporary, stat.S_IMODE(path.stat().st_mode))
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise
    _fsync_directory(path.parent)


def _fsync_directory(directory):
    """Make the rename itself durable (POSIX; a no-op where directories cannot be opened)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
