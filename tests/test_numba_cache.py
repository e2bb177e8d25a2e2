"""Kernels loaded from numba's cache without numba's refresh of its registries
(``_numba_cache.py``) run as compiled: allocations (the runtime's symbols),
hashing (the hash secret's), parallel regions (the backend's); and a kernel
compiled after such loads in the same process compiles as ever."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import hyperplane

KERNELS = '''
import numpy as np
from numba import prange, typed, types

from hyperplane._numba import jit, jit_parallel


@jit
def cumulative(x):
    out = np.empty_like(x)  # an allocation: the runtime's symbols
    total = 0.0
    for i in range(x.shape[0]):
        total += x[i]
        out[i] = total
    return out


@jit
def distinct_words(words):
    seen = typed.Dict.empty(types.unicode_type, types.int64)  # hashes: the secret's symbols
    for w in words:
        seen[w] = 1
    return len(seen)


@jit_parallel
def row_sums(a):
    out = np.empty(a.shape[0])
    for i in prange(a.shape[0]):
        out[i] = a[i].sum()
    return out
'''

RUN = '''
import os, sys
import numpy as np
from numba import typed
import hyperplane
hyperplane.__path__.append(os.getcwd())  # a module of hyperplane's: loads without the refresh
from hyperplane import cache_test_kernels as kernels

x = np.linspace(0.0, 1.0, 7)
a = np.arange(12.0).reshape(4, 3)
got = (kernels.cumulative(x), kernels.row_sums(a))
refreshed = "numba.np.random.legacy" in sys.modules  # imported only by numba's refresh
import theirs
theirs.twice(1.0)  # a cached function of someone else's: loaded as numba loads
their_load_refreshed = "numba.np.random.legacy" in sys.modules
words = typed.List(["a", "b", "a", "c"])  # compiles the list's methods (not cached)
got = (got[0], kernels.distinct_words(words), got[1])
np.testing.assert_array_equal(got[0], np.cumsum(x))
assert got[1] == 3, got[1]
np.testing.assert_allclose(got[2], a.sum(axis=1))
hits = sum(sum(f.stats.cache_hits.values()) for f in
           (kernels.cumulative, kernels.distinct_words, kernels.row_sums))
import numba
assert numba.njit(lambda v: v.sum() + 1.0)(x) == x.sum() + 1.0  # a compilation afterwards
print(f"HITS {hits} REFRESHED {refreshed} {their_load_refreshed}")
'''


def last_line(script, folder):
    """The last line a fresh Python process running ``script`` in ``folder``
    prints, with this hyperplane importable wherever the test runs from (a
    relative PYTHONPATH would not reach it from ``folder``)."""
    env = dict(os.environ, PYTHONPATH=str(Path(hyperplane.__file__).parents[1]))
    done = subprocess.run([sys.executable, "-c", script], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


def test_cached_kernels_run_when_loaded_without_the_registries(tmp_path):
    """The first process compiles (and refreshes); the second loads all three
    kernels from the cache, does not refresh, and gets the same results; a
    cached function outside hyperplane still loads with numba's refresh."""
    (tmp_path / "cache_test_kernels.py").write_text(textwrap.dedent(KERNELS))
    (tmp_path / "theirs.py").write_text(
        "import numba\n\n\n@numba.njit(cache=True)\ndef twice(x):\n    return 2 * x\n")

    assert last_line(RUN, tmp_path) == "HITS 0 REFRESHED True True"
    assert last_line(RUN, tmp_path) == "HITS 3 REFRESHED False True"


def test_loading_from_the_cache_skips_the_refresh():
    from numba.core import caching

    from hyperplane._numba_cache import LOADS_WITHOUT_REFRESH, load_overload

    assert LOADS_WITHOUT_REFRESH
    assert caching.Cache.load_overload is load_overload


def test_a_cache_directory_is_made_every_time_and_tried_once(tmp_path, monkeypatch):
    """The trial file that numba makes for each kernel is made once per
    directory; the directory itself is made again when it went away, and one
    that takes no file raises every time, as in numba."""
    import tempfile

    from hyperplane import _numba_cache

    class Locator:
        def __init__(self, path):
            self.path = str(path)

        def get_cache_path(self):
            return self.path

    tried = []
    real = tempfile.TemporaryFile
    monkeypatch.setattr(tempfile, "TemporaryFile", lambda dir: tried.append(dir) or real(dir=dir))
    here = Locator(tmp_path / "cache")
    for _ in range(3):
        _numba_cache.ensure_cache_path(here)
    assert tried == [here.path]
    (tmp_path / "cache").rmdir()
    _numba_cache.ensure_cache_path(here)
    assert (tmp_path / "cache").is_dir() and tried == [here.path]

    blocked = Locator(tmp_path / "file" / "cache")
    (tmp_path / "file").write_text("not a directory")
    for _ in range(2):
        with pytest.raises(OSError):
            _numba_cache.ensure_cache_path(blocked)


def test_numba_checks_its_cache_directories_through_ours():
    from numba.core import caching

    from hyperplane import _numba_cache

    assert caching._CacheLocator.ensure_cache_path is _numba_cache.ensure_cache_path


CALLER = '''
from hyperplane._numba import jit

from hyperplane.stamp_test_callee import eta


@jit
def step(x):
    return eta() * x
'''

CALLEE = '''
from hyperplane._numba import jit


@jit
def eta():
    return {eta}
'''

RUN_STEP = '''
import os
import hyperplane
hyperplane.__path__.append(os.getcwd())  # the two modules below are hyperplane's
from hyperplane import stamp_test_caller as caller
print("STEP", caller.step(2.0), "HITS", sum(caller.step.stats.cache_hits.values()))
'''


def test_an_edit_of_a_callee_in_another_file_recompiles_its_caller(tmp_path):
    """numba stamps a cache entry with the function's own file; the caller's
    entry, compiled with the callee's old body linked in, must not outlive an
    edit of the callee's file (``step`` gave 2.0 from the cache after eta
    became 0.5 before the package's stamp)."""
    callee = tmp_path / "stamp_test_callee.py"
    (tmp_path / "stamp_test_caller.py").write_text(CALLER)
    callee.write_text(CALLEE.format(eta="1.0"))

    def run():
        return last_line(RUN_STEP, tmp_path)

    assert run() == "STEP 2.0 HITS 0"
    assert run() == "STEP 2.0 HITS 1"  # an unchanged package loads from the cache
    callee.write_text(CALLEE.format(eta="0.5"))
    later = callee.stat().st_mtime_ns + 10**9  # a later time whatever the clock's grain
    os.utime(callee, ns=(later, later))
    assert run() == "STEP 1.0 HITS 0"
    assert run() == "STEP 1.0 HITS 1"


def test_only_hyperplanes_files_get_the_package_stamp(tmp_path):
    from numba.core import caching

    from hyperplane import _numba_cache

    assert _numba_cache.STAMPS_THE_PACKAGE
    assert caching._SourceFileBackedLocatorMixin.get_source_stamp is _numba_cache.get_source_stamp

    class Locator:
        def __init__(self, path):
            self._py_file = str(path)

    theirs = tmp_path / "theirs.py"
    theirs.write_text("X = 1\n")
    assert _numba_cache.get_source_stamp(Locator(theirs)) == \
        _numba_cache.NUMBAS_SOURCE_STAMP(Locator(theirs))
    ours = Path(hyperplane.__file__).parent / "_sources.py"
    own, newest = _numba_cache.get_source_stamp(Locator(ours))
    assert own == _numba_cache.NUMBAS_SOURCE_STAMP(Locator(ours))
    assert newest >= ours.stat().st_mtime_ns
