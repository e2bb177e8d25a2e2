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
numba's own loading. A cache miss compiles as before (the compiler refreshes
first), and a later compilation in the same process finds the registries as
it always does.
"""

from __future__ import annotations

__all__ = ["LOADS_WITHOUT_REFRESH", "load_overload"]

#: numba's own ``Cache.load_overload`` (None where it is not replaced)
NUMBAS_LOAD_OVERLOAD = None


def load_overload(self, sig, target_context):
    """numba's ``Cache.load_overload`` without the registries' refresh: the
    runtime's symbols and the hash secret's, then numba's lookup in the index
    and loading of the entry (None when the cache holds no entry for ``sig``).
    """
    from numba.core.runtime import rtsys
    import numba.cpython.hashing  # noqa: F401  (registers the hash secret's symbols)

    rtsys.initialize(target_context)
    with self._guard_against_spurious_io_errors():
        return self._load_overload(sig, target_context)


def _install():
    """Make :func:`load_overload` numba's; whether numba's has the shape it
    replaces (a refresh, then ``_load_overload`` in the I/O guard)."""
    global NUMBAS_LOAD_OVERLOAD
    from numba.core import caching

    method = getattr(caching.Cache, "load_overload", None)
    names = getattr(getattr(method, "__code__", None), "co_names", ())
    if not {"refresh", "_guard_against_spurious_io_errors", "_load_overload"} <= set(names):
        return False
    NUMBAS_LOAD_OVERLOAD = method
    caching.Cache.load_overload = load_overload
    return True


#: whether loading a cached kernel skips numba's refresh of its registries
LOADS_WITHOUT_REFRESH = _install()
