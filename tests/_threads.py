"""Run a call on a given number of numba threads (tests that compare 1 and 2 threads)."""

import numba

from hyperplane import _threads


def on_threads(n_threads, f):
    """``f()`` with ``numba.set_num_threads(n_threads)``, the old count restored after.

    Inside, no core counts as busy: an estimator's default (``n_jobs=None``)
    leaves out the cores other processes hold, which on a loaded machine would
    turn the 2-thread arm of a comparison into a 1-thread one."""
    old, busy = numba.get_num_threads(), _threads.busy_cores
    numba.set_num_threads(n_threads)
    _threads.busy_cores = lambda: 0
    try:
        return f()
    finally:
        numba.set_num_threads(old)
        _threads.busy_cores = busy
