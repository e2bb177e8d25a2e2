"""Time DecisionTreeClassifier of several checkouts of hyperplane in the same run.

Usage (from the repository root; ``/tmp/old`` a ``git worktree`` of an earlier commit)::

    python benchmarks/tree_versions.py --checkout d39db94=/tmp/old/src --checkout new=src
    python benchmarks/tree_versions.py --checkout old=/tmp/old/src --checkout new=src \
        --splitters best hist --criteria gini gain_ratio --shapes "20k×10"
    python benchmarks/tree_versions.py --checkout old=/tmp/old/src --checkout new=src \
        --shapes "100k×4 deep" --record-trace      # the node-by-node Python loop

Each fit runs in its own subprocess with ``PYTHONPATH`` pointed at one
checkout, taking the checkouts in turn ``--repeats`` times per case, so load
on a shared machine hits all alike. A subprocess fits once on a small slice
first (compilation, read from numba's cache after the first run) and then
times one fit: CPU seconds of the process (all threads) and wall seconds,
then ``predict_proba`` of the training rows (CPU s, mean of 5): all at once
(side by side from ``PARALLEL_PREDICT_ROWS`` rows) and in chunks of fewer
(``tree_proba`` on one thread).
Prints a Markdown table of the best of the repeats of each, and each CPU
time relative to the first checkout's.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

#: shape name -> (rows, numeric columns, categorical columns, fraction missing)
SHAPES = {
    "20k×10": (20_000, 10, 0, 0.0),
    "200k×50": (200_000, 50, 0, 0.0),
    "50k×8 + 4 categorical, 5% missing": (50_000, 8, 4, 0.05),
    # a deep tree (tens of thousands of leaves: many subtree jobs to graft)
    "100k×4 deep": (100_000, 4, 0, 0.0),
}

#: DecisionTreeClassifier's criteria, and the names scikit-learn gives them
CRITERIA = ("info_gain", "gain_ratio", "gini")
ALIASES = {"entropy": "info_gain"}

CHILD = r"""
import json, sys, time
import numpy as np, pandas as pd
from sklearn.datasets import make_classification
from hyperplane.tree import DecisionTreeClassifier
n, p, n_cat, missing, criterion, splitter, trace = json.loads(sys.argv[1])
X, y = make_classification(n, p, random_state=0)
rng = np.random.default_rng(0)
if missing:
    X[rng.random(X.shape) < missing] = np.nan
if n_cat:
    X = pd.DataFrame(X, columns=[f"x{j}" for j in range(p)])
    for c in range(n_cat):
        codes = rng.integers(0, 4, n)
        X[f"c{c}"] = pd.Categorical.from_codes(codes, list("abcd"))
        X.loc[rng.random(n) < missing, f"c{c}"] = None
    y = np.where(X["c0"] == "a", 1 - y, y)
warm = slice(0, min(n, 25000))
kw = dict(criterion=criterion, splitter=splitter, record_trace=trace)
from hyperplane.tree._tree_api import PARALLEL_PREDICT_ROWS
chunk = PARALLEL_PREDICT_ROWS - 1
small = DecisionTreeClassifier(**kw).fit(X[warm], y[warm])
small.predict_proba(X[:chunk]), small.predict_proba(X)
cpu, wall = time.process_time(), time.perf_counter()
model = DecisionTreeClassifier(**kw).fit(X, y)
fit_cpu, fit_wall = time.process_time() - cpu, time.perf_counter() - wall
cpu = time.process_time()
for _ in range(5):
    model.predict_proba(X)
parallel = (time.process_time() - cpu) / 5
cpu = time.process_time()
for _ in range(5):
    for start in range(0, X.shape[0], chunk):
        model.predict_proba(X[start:start + chunk])
serial = (time.process_time() - cpu) / 5
print(json.dumps([fit_cpu, fit_wall, model.tree_.n_nodes, parallel, serial]))
"""


def fit_once(src, case):
    """``(CPU s, wall s, nodes, predict CPU s, chunked predict CPU s)`` of one fit in a subprocess importing hyperplane from ``src``."""
    env = dict(os.environ, PYTHONPATH=os.path.abspath(src))
    out = subprocess.run([sys.executable, "-c", CHILD, json.dumps(case)], env=env,
                         capture_output=True, text=True)
    if out.returncode:
        raise RuntimeError(f"fit with {src} failed:\n{out.stderr}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkout", action="append", required=True,
                        help="NAME=SRC: a checkout's src/ (the first is the baseline)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--shapes", nargs="*", default=list(SHAPES), choices=list(SHAPES))
    parser.add_argument("--criteria", nargs="*", default=["gini", "info_gain"],
                        choices=[*CRITERIA, *ALIASES], metavar="CRITERION",
                        help=f"the tree's criteria ({', '.join(CRITERIA)}); "
                             + ", ".join(f"{a} = {c}" for a, c in ALIASES.items()))
    parser.add_argument("--splitters", nargs="*", default=["best"], choices=["best", "hist"])
    parser.add_argument("--record-trace", action="store_true",
                        help="fit with record_trace=True (the node-by-node Python loop)")
    args = parser.parse_args()
    args.criteria = list(dict.fromkeys(ALIASES.get(c, c) for c in args.criteria))
    checkouts = dict(item.split("=", 1) for item in args.checkout)
    names = list(checkouts)
    print("| shape | criterion | " + " | ".join(f"{k} CPU s" for k in names) + " | "
          + " | ".join(f"{k}/{names[0]} CPU" for k in names[1:]) + " | "
          + " | ".join(f"{k} wall s" for k in names) + " | nodes | "
          + " | ".join(f"{k} predict CPU s" for k in names) + " | "
          + " | ".join(f"{k} chunked predict CPU s" for k in names) + " |")
    print("|---" * (3 + 5 * len(names) - 1) + "|")
    for shape in args.shapes:
        for criterion, splitter in ((c, s) for c in args.criteria for s in args.splitters):
            case = [*SHAPES[shape], criterion, splitter, args.record_trace]
            runs = {k: [] for k in names}
            for _ in range(args.repeats):
                for k in names:
                    runs[k].append(fit_once(checkouts[k], case))
            cpu = {k: min(r[0] for r in runs[k]) for k in names}
            wall = {k: min(r[1] for r in runs[k]) for k in names}
            nodes = sorted({r[2] for k in names for r in runs[k]})
            print(f"| {shape} | {criterion}, {splitter} | "
                  + " | ".join(f"{cpu[k]:.2f}" for k in names)
                  + " | " + " | ".join(f"{cpu[k] / cpu[names[0]]:.2f}" for k in names[1:])
                  + " | " + " | ".join(f"{wall[k]:.2f}" for k in names)
                  + f" | {', '.join(map(str, nodes))} | "
                  + " | ".join(f"{min(r[3] for r in runs[k]):.3f}" for k in names) + " | "
                  + " | ".join(f"{min(r[4] for r in runs[k]):.3f}" for k in names) + " |",
                  flush=True)


if __name__ == "__main__":
    main()
