"""Time LinearSVC's and LinearSVR's solvers of several checkouts of hyperplane in one run.

Usage (from the repository root; ``/tmp/before/src`` the ``src`` of an earlier commit,
e.g. ``git archive HEAD src | tar -x -C /tmp/before``)::

    python benchmarks/linear_svc_versions.py --checkout before=/tmp/before/src --checkout after=src
    python benchmarks/linear_svc_versions.py --checkout before=/tmp/before/src \\
        --checkout after=src --scale 0.5 --rounds 5

Each round runs one subprocess per checkout (``PYTHONPATH`` pointed at it), the
checkouts taking turns, so load on a shared machine hits all alike. A
subprocess compiles on a slice (read from numba's cache after the first run),
then fits every case (LinearSVC with either penalty, LinearSVR) ``--fits``
times on one BLAS thread and reports the CPU seconds of its thread
(``time.thread_time``; the solvers are single-threaded) and the md5 of
``coef_`` and ``intercept_``. The table shows the best fit of all rounds per
checkout, the ratio to the first checkout, and the md5s (one per case when
the checkouts compute the same bits). The data are those of
``benchmarks/linear_svc.py`` and ``linear_svc_sparse.py``: dense standardised
``make_classification`` rows, tf-idf-like unit rows, random sparse rows.
"""

from __future__ import annotations

import argparse
import os

from svm_versions import run_in_checkout

HERE = os.path.dirname(os.path.abspath(__file__))

#: case name -> (model, data maker, rows, columns, density or nonzeros per row, C, loss);
#: model "svc" (L2, dual coordinate descent), "l1" (penalty="l1", CDN) or "svr" (LinearSVR)
CASES = {
    "dense 10000x50 sq": ("svc", "dense", 10_000, 50, 0, 0.1, "squared_hinge"),
    "dense 10000x50 hinge": ("svc", "dense", 10_000, 50, 0, 0.1, "hinge"),
    "dense 50000x200 sq": ("svc", "dense", 50_000, 200, 0, 0.1, "squared_hinge"),
    "tf-idf 20000x50000 sq": ("svc", "text", 20_000, 50_000, 0.002, 1.0, "squared_hinge"),
    "tf-idf 20000x50000 hinge": ("svc", "text", 20_000, 50_000, 0.002, 1.0, "hinge"),
    "random 100000x10000 10/row sq": ("svc", "random", 100_000, 10_000, 10, 0.1,
                                      "squared_hinge"),
    "l1 dense 10000x50": ("l1", "dense", 10_000, 50, 0, 0.1, "squared_hinge"),
    "l1 tf-idf 20000x50000": ("l1", "text", 20_000, 50_000, 0.002, 1.0, "squared_hinge"),
    "svr dense 10000x50": ("svr", "dense", 10_000, 50, 0, 0.1, "epsilon_insensitive"),
    "svr tf-idf 20000x50000": ("svr", "text", 20_000, 50_000, 0.002, 1.0,
                               "squared_epsilon_insensitive"),
}

CHILD = r"""
import hashlib, json, sys, time, warnings
from threadpoolctl import threadpool_limits
cases, fits, scale, benchmarks = json.loads(sys.argv[1])
sys.path.insert(0, benchmarks)
from linear_svc import dense, regression, text_like
from linear_svc_sparse import random_rows
from hyperplane.svm import LinearSVC, LinearSVR
makers = {"dense": lambda n, d, _: dense(n, d, seed=d % 7),
          "text": lambda n, d, density: text_like(n, d, density),
          "random": lambda n, d, per_row: random_rows(n, d, per_row)}
out = {}
with threadpool_limits(limits=1, user_api="blas"), warnings.catch_warnings():
    warnings.simplefilter("ignore")
    for name, (what, kind, n, d, extra, C, loss) in cases.items():
        X, y = makers[kind](max(100, int(n * scale)), d, extra)
        if what == "svr":
            X, y = regression(X)
            model = LinearSVR(C=C, loss=loss, epsilon=0.1, tol=1e-4, max_iter=1000,
                              random_state=0)
        else:
            model = LinearSVC(C=C, loss=loss, penalty="l1" if what == "l1" else "l2", tol=1e-4,
                              max_iter=1000, random_state=0)
        model.fit(X[:60], y[:60])
        times = []
        for _ in range(fits):
            own = time.thread_time()
            model.fit(X, y)
            times.append(time.thread_time() - own)
        bits = model.coef_.tobytes() + model.intercept_.tobytes()
        out[name] = [min(times), model.n_iter_, hashlib.md5(bits).hexdigest()[:8]]
print(json.dumps(out))
"""


def run_checkout(src, cases, fits, scale):
    """``{case: [best CPU s, epochs, md5]}`` of one subprocess on the checkout ``src``."""
    return run_in_checkout(src, CHILD, [cases, fits, scale, HERE])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkout", action="append", required=True,
                        help="NAME=PATH of a src directory (repeatable; the first is the baseline)")
    parser.add_argument("--rounds", type=int, default=3, help="subprocesses per checkout, in turns")
    parser.add_argument("--fits", type=int, default=3, help="fits of each case per subprocess")
    parser.add_argument("--scale", type=float, default=1.0, help="fraction of the row counts")
    parser.add_argument("--case", nargs="+", default=list(CASES), choices=list(CASES))
    args = parser.parse_args()
    checkouts = dict(c.split("=", 1) for c in args.checkout)
    cases = {name: CASES[name] for name in args.case}
    best = {}
    for _ in range(args.rounds):
        for label, src in checkouts.items():
            for name, (cpu, epochs, md5) in run_checkout(src, cases, args.fits, args.scale).items():
                old = best.setdefault((name, label), [cpu, epochs, set()])
                old[0] = min(old[0], cpu)
                old[2].add(md5)
    first = next(iter(checkouts))
    print(f"load average {os.getloadavg()[0]:.1f} at the end; best of {args.rounds} rounds "
          f"x {args.fits} fits, scale {args.scale:g}")
    print("| case | checkout | CPU s | ÷ " + first + " | epochs | md5 |")
    print("|---|---|---:|---:|---:|---|")
    for name in cases:
        for label in checkouts:
            cpu, epochs, md5 = best[(name, label)]
            print(f"| {name} | {label} | {cpu:.4f} | {cpu / best[(name, first)][0]:.3f} | "
                  f"{epochs} | {' '.join(sorted(md5))} |")


if __name__ == "__main__":
    main()
