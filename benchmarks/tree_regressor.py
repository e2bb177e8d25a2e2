"""hyperplane's DecisionTreeRegressor against scikit-learn's, in the same run.

Usage (from the repository root)::

    PYTHONPATH=src python benchmarks/tree_regressor.py                 # 200k x 50
    PYTHONPATH=src python benchmarks/tree_regressor.py --rows 20000    # quick
    python benchmarks/tree_regressor.py --rows 20000 --src /tmp/before/src --src src --rounds 3

Fits both regression trees on ``make_regression`` data rounded to float32 (the
values scikit-learn's trees compute on), fully grown and with each
``--max-depth``, for every numba thread count of ``--threads`` (scikit-learn's
tree grows on one thread whatever the count), best of ``--repeats``, and prints
wall seconds, the ratio hyperplane / scikit-learn and whether the two predict
the same on the training rows (they may not where two cuts tie, or where the
best cut lies between two values closer than scikit-learn's 1e-7: see the user
guide). Rows, one per ``--criteria`` and ``--splitters``:
``criterion="squared_error"`` with ``splitter="best"`` and ``"hist"`` (256
bins; scikit-learn has no binned tree, so its exact tree is the peer and the
predictions differ), and ``criterion="absolute_error"`` on the first
``--mae-rows`` rows only (scikit-learn's absolute-error tree takes minutes at
200k rows).

With ``--src`` (repeatable) each source tree runs in a fresh Python process
(``PYTHONPATH`` pointed at it; the kernels compiled or loaded there before any
timing), the trees taking turns ``--rounds`` times, and the table keeps each
row's best time per source, so that before and after are timed in the same
run under the same load.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

import numba
import numpy as np
from sklearn.datasets import make_regression
from sklearn.tree import DecisionTreeRegressor as SkRegressor

from _table import header, row
from hyperplane.tree import DecisionTreeRegressor


def best_of(repeats, fit):
    """``(model, best wall seconds)`` of ``repeats`` calls of ``fit``."""
    seconds, model = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        model = fit()
        seconds.append(time.perf_counter() - start)
    return model, min(seconds)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--features", type=int, default=50)
    parser.add_argument("--max-depth", type=int, nargs="*", default=[None, 10])
    parser.add_argument("--threads", type=int, nargs="*", default=[1, numba.get_num_threads()])
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--splitters", nargs="*", default=["best", "hist"])
    parser.add_argument("--criteria", nargs="*", default=["squared_error", "absolute_error"])
    parser.add_argument("--mae-rows", type=int, default=20_000,
                        help="rows of the absolute_error fits (a prefix of the data)")
    parser.add_argument("--src", action="append", default=None,
                        help="a source tree to time (repeatable: the trees take turns)")
    parser.add_argument("--rounds", type=int, default=1,
                        help="with --src: turns of every source tree (best kept)")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.src:
        return compare_sources(args)
    X, y = make_regression(args.rows, args.features, n_informative=10, noise=10.0,
                           random_state=0)
    X = X.astype(np.float32).astype(np.float64)
    for criterion in args.criteria:                       # compile the kernels
        for splitter in args.splitters:
            DecisionTreeRegressor(criterion=criterion, splitter=splitter,
                                  max_depth=3).fit(X[:2000], y[:2000])
    print(f"{args.rows} x {args.features}, make_regression(n_informative=10, noise=10); "
          f"absolute_error on the first {min(args.mae_rows, args.rows)} rows")
    print(header(["criterion", "splitter", "rows", "max_depth", "threads", "hyperplane s",
                  "scikit-learn s (best)", "ratio", "leaves (ours / sklearn)",
                  "same training predictions"],
                 ["-", "-", "-:", "-:", "-:", "-:", "-:", "-:", "-:", "-"]))
    for criterion in args.criteria:
        n = min(args.mae_rows, args.rows) if criterion == "absolute_error" else args.rows
        Xc, yc = X[:n], y[:n]
        for depth in args.max_depth:
            theirs, sk_seconds = best_of(args.repeats, lambda: SkRegressor(
                criterion=criterion, max_depth=depth, random_state=0).fit(Xc, yc))
            for splitter in args.splitters:
                for k in args.threads:
                    numba.set_num_threads(k)
                    ours, seconds = best_of(args.repeats, lambda: DecisionTreeRegressor(
                        criterion=criterion, splitter=splitter, max_depth=depth).fit(Xc, yc))
                    same = np.allclose(ours.predict(Xc), theirs.predict(Xc), rtol=1e-12)
                    if args.json:
                        print("ROW " + json.dumps([criterion, splitter, n, depth, k, seconds,
                                                   sk_seconds, int(ours.get_n_leaves()),
                                                   int(theirs.get_n_leaves()), bool(same)]),
                              flush=True)
                        continue
                    print(row(criterion, splitter, n, depth, k, f"{seconds:.2f}",
                              f"{sk_seconds:.2f}", f"{seconds / sk_seconds:.2f}",
                              f"{ours.get_n_leaves()} / {theirs.get_n_leaves()}", same))


def compare_sources(args):
    """Time every source tree of ``args.src`` in turn, ``args.rounds`` times, in child
    processes of this script; print each row's best seconds per source."""
    forwarded = [a for a in sys.argv[1:]]
    for name in ("--src", "--rounds"):
        while name in forwarded:
            at = forwarded.index(name)
            del forwarded[at:at + 2]
    best = {}
    for _ in range(args.rounds):
        for src in args.src:
            env = dict(os.environ, PYTHONPATH=os.path.abspath(src))
            done = subprocess.run([sys.executable, os.path.abspath(__file__), *forwarded,
                                   "--json"], env=env, capture_output=True, text=True)
            if done.returncode != 0:
                sys.stderr.write(done.stdout[-4000:] + done.stderr)
                raise SystemExit(f"tree_regressor.py failed on {src}")
            for line in done.stdout.splitlines():
                if line.startswith("ROW "):
                    values = json.loads(line.removeprefix("ROW "))
                    key = (src, *values[:5])
                    if key not in best or values[5] < best[key][5]:
                        best[key] = values
    print(f"{args.rows} x {args.features}; best of {args.rounds} turns per source "
          f"({os.cpu_count()} cores, load {os.getloadavg()[0]:.1f} at the end)")
    print(header(["source", "criterion", "splitter", "rows", "max_depth", "threads",
                  "hyperplane s", "scikit-learn s (best)", "ratio", "leaves (ours / sklearn)",
                  "same training predictions"],
                 ["-", "-", "-", "-:", "-:", "-:", "-:", "-:", "-:", "-:", "-"]))
    for (src, *_), v in sorted(best.items(), key=lambda kv: (kv[0][1:3], str(kv[0][4]),
                                                              kv[0][5], kv[0][0])):
        print(row(src, v[0], v[1], v[2], v[3], v[4], f"{v[5]:.2f}", f"{v[6]:.2f}",
                  f"{v[5] / v[6]:.2f}", f"{v[7]} / {v[8]}", v[9]))

if __name__ == "__main__":
    main()
