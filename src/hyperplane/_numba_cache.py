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
"""

from __future__ import annotations

import os
import tempfile

__all__ = ["LOADS_WITHOUT_REFRESH", "ensure_cache_path", "load_overload"]

#: numba's own ``Cache.load_overload`` (None where it is not replaced)
NUMBAS_LOAD_OVERLOAD = None

#: cache directories a file was written to in this process
_WRITABLE = set()


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


#: whether loading a cached kernel skips numba's refresh of its registries
LOADS_WITHOUT_REFRESH = _replace_numbas_loading()
