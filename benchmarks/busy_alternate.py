"""Busy-machine fit times of three thread settings, alternated fit by fit in
one process while another process spins on a core: a machine whose load
changes (the shared 2-core box) makes the separate children of
``busy.py`` minutes apart; here the settings take turns every fit, so a
change of load falls on all of them.

Usage (from the repository root)::

    PYTHONPATH=src python benchmarks/busy_alternate.py --rounds 15
    PYTHONPATH=src python benchmarks/busy_alternate.py --families mlp-minibatch --scale 4

Settings:

* ``one thread``: ``numba.set_num_threads(1)`` and one BLAS thread;
* ``all threads``: ``n_jobs=-1`` (every core for numba and BLAS), and the MLP
  without its one-BLAS-thread limit -- what the defaults did before issue #30;
* ``default``: the estimator as it is (``n_jobs=None``: the cores no other
  process holds when the fit starts; the MLP on one BLAS thread).

Prints a markdown table of the best and the median wall seconds of each.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import subprocess
import sys
import time
import warnings

import numba
import numpy as np
from sklearn.datasets import make_classification
from sklearn.exceptions import ConvergenceWarning
from threadpoolctl import threadpool_limits

from hyperplane.linear import LogisticRegression
from hyperplane.neural import MLPClassifier, _mlp
from hyperplane.svm import SVC

FAMILIES = {
    # name: (rows, columns, classes, estimator factory taking n_jobs)
    "mlp-minibatch": (50_000, 50, 4, lambda n_jobs: MLPClassifier(
        hidden_layer_sizes=(64,), activation="relu", bp="minibatch", batch_size=200,
        learning_rate=0.05, max_iter=3, tol=0, n_iter_no_change=3, random_state=0)),
    "svc-rbf": (6_000, 50, 2, lambda n_jobs: SVC(kernel="rbf", n_jobs=n_jobs)),
    "logistic": (50_000, 50, 2, lambda n_jobs: LogisticRegression(n_jobs=n_jobs)),
}


@contextlib.contextmanager
def setting(name, family):
    """The thread setting ``name`` around one fit; yields the n_jobs to pass."""
    if name == "one thread":
        previous = numba.get_num_threads()
        numba.set_num_threads(1)
        try:
            with threadpool_limits(1, user_api="blas"):
                yield 1
        finally:
            numba.set_num_threads(previous)
    elif name == "all threads":
        if family.startswith("mlp"):  # the MLP as it trained before: BLAS left alone
            real = _mlp.one_blas_thread
            _mlp.one_blas_thread = contextlib.nullcontext
            try:
                yield -1
            finally:
                _mlp.one_blas_thread = real
        else:
            yield -1
    else:
        yield None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--families", nargs="+", choices=list(FAMILIES),
                        default=list(FAMILIES))
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--spinners", type=int, default=1,
                        help="processes spinning while the fits run")
    args = parser.parse_args()
    warnings.simplefilter("ignore", ConvergenceWarning)
    names = ("one thread", "all threads", "default")
    print("| family | rows x cols | setting | best s | median s | best / one thread |")
    print("|---|---|---|--:|--:|--:|", flush=True)
    for family in args.families:
        n, d, k, make = FAMILIES[family]
        n = int(n * args.scale)
        X, y = make_classification(n_samples=n, n_features=d, n_informative=d // 2,
                                   n_redundant=0, n_classes=k, random_state=0)
        for name in names:  # compile and warm up, not timed
            with setting(name, family) as n_jobs:
                make(n_jobs).fit(X[:2000], y[:2000])
        spin = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
                for _ in range(args.spinners)]
        times = {name: [] for name in names}
        try:
            time.sleep(0.5)
            for r in range(args.rounds):
                order = names if r % 2 == 0 else names[::-1]
                for name in order:
                    with setting(name, family) as n_jobs:
                        model = make(n_jobs)
                        start = time.perf_counter()
                        model.fit(X, y)
                        times[name].append(time.perf_counter() - start)
        finally:
            for p in spin:
                p.kill()
                p.wait()
        one = min(times["one thread"])
        for name in names:
            best = min(times[name])
            print(f"| {family} | {n}x{d} | {name} | {best:.3f} | "
                  f"{statistics.median(times[name]):.3f} | {best / one:.2f} |", flush=True)


if __name__ == "__main__":
    np.seterr(all="ignore")
    main()
