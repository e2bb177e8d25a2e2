"""numba loads a cached kernel without first loading everything it could compile.

numba's ``Cache.load_overload`` begins with ``target_context.refresh()``,
which imports and installs every typing and lowering registry numba has
(arrays, strings, sets, typed containers, random generators, polynomials,
datetimes, jitclasses: ~330 modules, 0.2-0.45 s of CPU, the largest step of
a warm ``hyperplane fit`` after the imports). That is what a *compilation*
needs, and numba's compiler refreshes the contexts itself before each one
(``CompilerBase.__init__``). A cached kernel is machine code compiled
already: loading it unpickles its signature, its function descriptor and its
object code and links the object code, which needs only the symbols that
code calls:

* numba's C helpers, the Python exceptions and ``None`` (installed when the
  target context is made, before any load);
* the runtime's (NRT: allocation, reference counts), installed by
  ``rtsys.initialize``, which numba otherwise runs from the refresh;
* the hash secret that ``numba.cpython.hashing`` registers when imported
  (a kernel that hashes, as a typed dict's lookup does);
* the parallel backend's, installed by the ``reload_init`` hooks a parallel
  kernel carries in its cache entry, which numba's loading runs.

:func:`load_overload` does these two steps instead of the refresh, then
numba's own loading, for hyperplane's kernels only. A cache miss compiles as
before (the compiler refreshes first), and a later compilation in the same
process finds the registries as it always does.

Each cached kernel's decoration also asks its cache directory whether it
takes a file (numba's ``ensure_cache_path``: a temporary file made and
removed), 246 times for the tree's modules (20 ms of CPU), all for one
``__pycache__`` folder or two. :func:`ensure_cache_path` makes the directory
as numba does every time, and makes the trial file once per directory and
process.

numba stamps a kernel's cache entry with its own source file only, so an edit
of a function it calls in another file (an editable install, a ``git
checkout``) left the caller's entry valid, holding the callee's old machine
code: a fit silently ran code that was no longer in the source. For the
files of hyperplane's folders (``hyperplane.__path__``) :func:`get_source_stamp`
adds the newest change to any source file of that folder
(:func:`~hyperplane._sources.newest_source_change`): an edit anywhere in
the package recompiles every kernel once, and an installed package, whose
files do not change, keeps its cache.
"""

from __future__ import annotations

import os
import tempfile
import time

import hyperplane
from hyperplane._sources import newest_source_change

__all__ = ["LOADS_WITHOUT_REFRESH", "STAMPS_THE_PACKAGE", "ensure_cache_path", "get_source_stamp",
           "load_overload"]

#: numba's own ``Cache.load_overload`` (None where it is not replaced)
NUMBAS_LOAD_OVERLOAD = None

#: numba's own ``get_source_stamp`` of its file-backed locators (None where not replaced)
NUMBAS_SOURCE_STAMP = None

#: cache directories a file was written to in this process
_WRITABLE = set()

#: seconds a folder's newest change is reused: the decorations of one import
#: share a walk, a module reloaded after an edit sees the edit
STAMP_REUSE = 2.0

#: folder -> (monotonic time of the walk, its newest change)
_NEWEST = {}


def load_overload(self, sig, target_context):
    """numba's ``Cache.load_overload`` without the registries' refresh, for
    hyperplane's kernels: the runtime's symbols and the hash secret's, then
    numba's lookup in the index and loading of the entry (None when the cache
    holds no entry for ``sig``). Other functions (a user's, which may hold a
    third-party extension's types) load as numba loads them.
    """
    if not getattr(self._py_func, "__module__", "").startswith("hyperplane."):
        return NUMBAS_LOAD_OVERLOAD(self, sig, target_context)
    from numba.core.runtime import rtsys
    import numba.cpython.hashing  # noqa: F401  (registers the hash secret's symbols)

    rtsys.initialize(target_context)
    with self._guard_against_spurious_io_errors():
        return self._load_overload(sig, target_context)


def ensure_cache_path(self):
    """numba's ``_CacheLocator.ensure_cache_path``: make the cache directory
    and check that it takes a file (:class:`OSError` if not), the check once
    per directory."""
    path = self.get_cache_path()
    os.makedirs(path, exist_ok=True)
    if path not in _WRITABLE:
        tempfile.TemporaryFile(dir=path).close()
        _WRITABLE.add(path)


def _package_folder(path):
    """The folder of ``hyperplane.__path__`` that holds ``path``, or None."""
    path = os.path.abspath(path)
    for folder in hyperplane.__path__:
        folder = os.path.abspath(folder)
        if path.startswith(folder + os.sep):
            return folder
    return None


def _newest_change(folder):
    now = time.monotonic()
    walked = _NEWEST.get(folder)
    if walked is None or now - walked[0] > STAMP_REUSE:
        walked = _NEWEST[folder] = (now, newest_source_change(folder))
    return walked[1]


def get_source_stamp(self):
    """numba's stamp of a cached function's source file (its hash) and, for a
    file of hyperplane's, the newest change to any source file of its folder:
    an entry compiled before an edit of a callee's file no longer matches."""
    own = NUMBAS_SOURCE_STAMP(self)
    folder = _package_folder(getattr(self, "_py_file", ""))
    return own if folder is None else (own, _newest_change(folder))


def _names(function):
    return set(getattr(getattr(function, "__code__", None), "co_names", ()))


def _replace_numbas_loading():
    """Make :func:`load_overload` and :func:`ensure_cache_path` numba's;
    whether numba's ``load_overload`` has the shape it replaces (a refresh,
    then ``_load_overload`` in the I/O guard)."""
    global NUMBAS_LOAD_OVERLOAD
    from numba.core import caching

    ensure = getattr(caching._CacheLocator, "ensure_cache_path", None)
    if _names(ensure) == {"get_cache_path", "os", "makedirs", "tempfile", "TemporaryFile",
                          "close"}:
        caching._CacheLocator.ensure_cache_path = ensure_cache_path
    method = getattr(caching.Cache, "load_overload", None)
    if not {"refresh", "_guard_against_spurious_io_errors", "_load_overload"} <= _names(method):
        return False
    NUMBAS_LOAD_OVERLOAD = method
    caching.Cache.load_overload = load_overload
    return True


def _replace_numbas_stamp():
    """Make :func:`get_source_stamp` numba's file-backed locators'; whether
    numba's has the shape it extends (a stat of the file, then its hash)."""
    global NUMBAS_SOURCE_STAMP
    from numba.core import caching

    mixin = getattr(caching, "_SourceFileBackedLocatorMixin", None)
    method = getattr(mixin, "get_source_stamp", None)
    if not {"_py_file", "stat"} <= _names(method):
        return False
    NUMBAS_SOURCE_STAMP = method
    mixin.get_source_stamp = get_source_stamp
    return True


#: whether loading a cached kernel skips numba's refresh of its registries
LOADS_WITHOUT_REFRESH = _replace_numbas_loading()
#: whether a kernel's cache entry is stamped with its package's newest change
STAMPS_THE_PACKAGE = _replace_numbas_stamp()
