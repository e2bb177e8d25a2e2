"""Run a call on a given number of numba threads (tests that compare 1 and 2 threads)."""

import numba


def on_threads(n_threads, f):
    """``f()`` with ``numba.set_num_threads(n_threads)``, the old count restored after."""
    old = numba.get_num_threads()
    numba.set_num_threads(n_threads)
    try:
        return f()
    finally:
        numba.set_num_threads(old)
