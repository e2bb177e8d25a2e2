"""How many threads a fit or a prediction runs on: ``n_jobs`` and BLAS.

numba's thread count is a property of the calling thread
(:func:`numba.set_num_threads` changes it for that thread only), and BLAS
keeps one process-wide count. An estimator with an ``n_jobs`` parameter
runs its fit and predict inside :func:`fit_threads`, which sets both for
the duration of the call and restores them afterwards:

* ``n_jobs=None`` -- numba's current count (every core unless the user set
  ``NUMBA_NUM_THREADS`` or called :func:`numba.set_num_threads`), less the
  cores other processes keep busy when the call starts (:func:`idle_cores`),
  at least one; BLAS gets the same count when it is fewer than numba's;
* ``n_jobs=k >= 1`` -- ``min(k, pool)`` numba threads, where ``pool`` is
  the number numba started (``NUMBA_NUM_THREADS``), and as many BLAS threads;
* ``n_jobs=-1`` -- every thread of the pool; ``n_jobs=-k`` -- all but
  ``k - 1`` (scikit-learn's meaning), at least one.

The MLP, whose kernels are serial, trains inside :func:`one_blas_thread`.

The results do not depend on the count: the parallel kernels split their
rows into blocks fixed by the data (``ARCHITECTURE.md``, the numba policy).
"""

from __future__ import annotations

import contextlib
import functools
import os

import numpy as np  # noqa: F401  (loads numpy's BLAS before the controller looks)
import scipy.linalg.cython_blas  # noqa: F401  (the BLAS numba's np.dot calls)

from ._parameters import N_JOBS

_controller = None


def blas_controller():
    """threadpoolctl's controller of the BLAS libraries loaded when first asked
    (numpy's and scipy's OpenBLAS); made once, as inspecting the loaded
    libraries costs about 2 ms and a limit through it 0.02 ms."""
    global _controller
    if _controller is None:
        from threadpoolctl import ThreadpoolController
        _controller = ThreadpoolController()
    return _controller


def _numba():
    """numba, imported when a thread count is first asked (loading a model
    file asks none: ``hyperplane show`` imports no numba), through
    :mod:`hyperplane._numba`, which sets OpenMP's wait policy before numba's
    pool starts."""
    from hyperplane._numba import numba
    return numba


def pool_size():
    """The number of threads numba started (``NUMBA_NUM_THREADS``)."""
    return int(_numba().config.NUMBA_NUM_THREADS)


def usable_cores():
    """The cores this process may run on (its CPU affinity where the system says)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def busy_cores():
    """Runnable threads of other processes right now: Linux's count of runnable
    scheduling entities (the fourth field of ``/proc/loadavg``) less the one
    reading it; 0 where the system does not say.

    An instantaneous count, unlike the load averages, which take a minute to
    notice a process that started spinning.
    """
    try:
        with open("/proc/loadavg", encoding="ascii") as f:
            running = int(f.read().split()[3].split("/")[0])
    except (OSError, ValueError, IndexError):
        return 0
    return max(0, running - 1)


def idle_cores():
    """Usable cores that no other runnable thread holds, at least one.

    A parallel region waits for its slowest thread; a thread that shares a
    core with a busy process runs a time slice out of two, so on a machine
    with every core busy a region takes as long as its serial form plus a
    scheduler's delay per region (measured: the SMO solver, one region per
    kernel row, and the L-BFGS passes lost up to 4x against one thread on a
    two-core machine with one core spinning). Sizing the team to the idle
    cores keeps every thread on a core of its own.

    Examples
    --------
    >>> 1 <= idle_cores() <= usable_cores()
    True
    """
    return max(1, usable_cores() - busy_cores())


def resolve_n_jobs(n_jobs):
    """The thread count ``n_jobs`` stands for (scikit-learn's meaning), within
    numba's pool; ``None``: numba's current count for this thread, at most
    :func:`idle_cores`.

    Examples
    --------
    >>> resolve_n_jobs(1)
    1
    >>> resolve_n_jobs(-1) == pool_size()
    True
    """
    if n_jobs is None:
        return min(_numba().get_num_threads(), idle_cores())
    pool = pool_size()
    if n_jobs < 0:
        n_jobs = pool + 1 + n_jobs
    return max(1, min(int(n_jobs), pool))


@contextlib.contextmanager
def fit_threads(n_jobs, *, blas=None):
    """numba's and BLAS's thread counts for the body of the ``with``.

    Parameters
    ----------
    n_jobs : None or int
        The estimator's ``n_jobs`` (see the module's docstring).
    blas : None or int
        BLAS threads to use whatever ``n_jobs`` is (``1`` for small products);
        ``None``: as many as numba gets (unchanged when ``n_jobs`` is ``None``
        and every core of numba's count is idle).

    Yields
    ------
    int
        numba's thread count inside the body.

    Examples
    --------
    >>> import numba
    >>> with fit_threads(1, blas=1) as k:
    ...     k, numba.get_num_threads()
    (1, 1)
    """
    numba = _numba()
    previous = numba.get_num_threads()
    threads = resolve_n_jobs(n_jobs)
    if blas is None and (n_jobs is not None or threads < previous):
        blas = threads
    limit = (contextlib.nullcontext() if blas is None
             else blas_controller().limit(limits=int(blas), user_api="blas"))
    numba.set_num_threads(threads)
    try:
        with limit:
            yield threads
    finally:
        numba.set_num_threads(previous)


def one_blas_thread():
    """BLAS on one thread for the body of the ``with`` (restored after it),
    through the one :func:`blas_controller` (a new threadpoolctl limit
    inspects the loaded libraries: ~2 ms a fit).

    The logistic fits' Newton, TRON and L-BFGS vector algebra runs on one
    thread (:mod:`hyperplane.linear._logistic._estimator`). The MLP's training runs every matrix product on one thread: a
    mini-batch's ``A W`` (200 rows x 50 x 64: 640k multiply-adds) finishes
    before BLAS's threads wake, and on a busy machine they spin on the core
    the caller needs (measured: mini-batch BP 3.2x slower on the default
    threads than on one with one core busy); and BLAS splits the sum over the
    rows of ``A^T delta`` among its threads, so on more than one thread the
    weights would depend on the thread count.

    Examples
    --------
    >>> with one_blas_thread():
    ...     pass
    """
    return blas_controller().limit(limits=1, user_api="blas")


def uses_threads(method):
    """Run an estimator's ``method`` inside :func:`fit_threads` of its ``n_jobs``
    (checked first by its declared rule, so that a bad value is named).

    Examples
    --------
    >>> import numba
    >>> class Model:
    ...     n_jobs = 1
    ...     @uses_threads
    ...     def fit(self):
    ...         return numba.get_num_threads()
    >>> Model().fit()
    1
    """
    @functools.wraps(method)
    def threaded(self, *args, **kwargs):
        N_JOBS.check(self.n_jobs, "n_jobs")
        with fit_threads(self.n_jobs):
            return method(self, *args, **kwargs)
    return threaded


__all__ = ["uses_threads", "one_blas_thread", "fit_threads", "resolve_n_jobs", "pool_size", "blas_controller", "idle_cores",
           "busy_cores", "usable_cores"]
