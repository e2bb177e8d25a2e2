"""The fixed costs of a tiny SVM fit: hyperplane's OneClassSVM, SVC, NuSVC, SVR
and NuSVR against scikit-learn's (LIBSVM) on heart_scale (270 x 13), dense
and CSR, default parameters, timed in the same run.

Each fit is repeated ``--repeat`` times, the two libraries' fits taking
turns (so that a change of load on a shared machine hits both); the table gives the smallest and the median wall milliseconds and
the ratio of the medians (above 1: hyperplane is faster). ``--clock cpu``
times the CPU of the calling thread instead (``time.thread_time``; both fits
run on it), which a loaded shared machine disturbs less than wall time.
``--profile NAME LAYOUT`` then runs cProfile over 1000 fits of one of them
(cumulative time).

    PYTHONPATH=src python benchmarks/svm_tiny_fits.py
    PYTHONPATH=src python benchmarks/svm_tiny_fits.py --clock cpu
    PYTHONPATH=src python benchmarks/svm_tiny_fits.py --profile OneClassSVM csr
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import time

import numpy as np
import scipy.sparse as sp
from sklearn import svm as peer

from hyperplane import svm as ours
from hyperplane.datasets import load_heart_scale

#: the estimators timed, and whether their fit takes y
MODELS = {"OneClassSVM": False, "SVC": True, "NuSVC": True, "SVR": True, "NuSVR": True}


#: the clocks of ``--clock``
CLOCKS = {"wall": time.perf_counter, "cpu": time.thread_time}


def paired_ms(fits, repeat, clock=time.perf_counter):
    """Smallest and median milliseconds of ``repeat`` calls of each of
    ``fits`` on ``clock`` (wall time by default), the fits taking turns."""
    times = [[] for _ in fits]
    for _ in range(repeat):
        for fit, spent in zip(fits, times):
            start = clock()
            fit()
            spent.append(clock() - start)
    return [(1e3 * min(t), 1e3 * sorted(t)[len(t) // 2]) for t in times]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall")
    parser.add_argument("--profile", nargs=2, metavar=("NAME", "LAYOUT"))
    args = parser.parse_args()
    X, y = load_heart_scale()
    dense = np.asarray(X.toarray() if sp.issparse(X) else X)
    layouts = {"dense": dense, "csr": sp.csr_matrix(dense)}
    y = np.asarray(y, dtype=np.float64)
    print(f"{args.clock} milliseconds")
    print(f"{'model':12} {'layout':6} {'hp min':>8} {'hp med':>8} {'sk min':>8} {'sk med':>8} "
          f"{'sk/hp':>6}")
    for name, supervised in MODELS.items():
        for layout, data in layouts.items():
            fit_args = (data, y) if supervised else (data,)
            mine, theirs = getattr(ours, name), getattr(peer, name)
            mine().fit(*fit_args)                     # compile
            theirs().fit(*fit_args)
            hp, sk = paired_ms([lambda: mine().fit(*fit_args), lambda: theirs().fit(*fit_args)],
                               args.repeat, CLOCKS[args.clock])
            print(f"{name:12} {layout:6} {hp[0]:8.3f} {hp[1]:8.3f} {sk[0]:8.3f} {sk[1]:8.3f} "
                  f"{sk[1] / hp[1]:6.2f}")
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
    if args.profile:
        name, layout = args.profile
        data = layouts[layout]
        fit_args = (data, y) if MODELS[name] else (data,)
        profiler = cProfile.Profile()
        profiler.enable()
        for _ in range(1000):
            getattr(ours, name)().fit(*fit_args)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(30)


if __name__ == "__main__":
    main()
