"""The command line's garbage-collection policy: no collection while a
command imports its libraries, and none of what they loaded is scanned again.

CPython's cyclic collector runs a full collection each time the objects that
survived younger collections grow by a quarter; every full collection walks
every tracked object. The imports of a ``fit`` (scikit-learn, skops, pandas,
numba: ~260,000 tracked objects) set off 4-5 full collections of 70-90 ms
each, 0.35-0.6 s of CPU of a warm ``hyperplane fit svc heart_scale`` on a
2-core machine, and none of them frees anything: a module, class or function
stays alive until the process ends. The commands therefore load with the
collector paused and then freeze what they loaded (:func:`gc.freeze`: moved to
a generation that no collection scans), so that the command's own work, a
first fit's compilation included, is collected as usual and each collection
walks only the objects made after the imports.
"""

from __future__ import annotations

import contextlib
import gc


@contextlib.contextmanager
def loading():
    """Pause the cyclic collector while the block imports and loads; on
    leaving, freeze every object alive and resume it.

    A collector the caller had disabled stays disabled, and then nothing is
    frozen.

    Examples
    --------
    >>> import gc
    >>> with loading():
    ...     import json
    ...     gc.isenabled()
    False
    >>> gc.isenabled(), gc.get_freeze_count() > 0
    (True, True)
    >>> gc.unfreeze()  # this process goes on: let collections see them again
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.freeze()
            gc.enable()
