"""splitter="hist" vs "best" on a high-cardinality categorical column (CPU and wall seconds).

Usage: PYTHONPATH=src python benchmarks/hist_categorical.py [--rows N] [--categories K ...]
[--repeat R] [--lean P]. The data: ``make_classification`` numeric attributes
plus one categorical column of K categories (pandas ``category``); with
``--lean P`` each category leans to one class and a row takes its category's
class with probability P (0, the default: the column is noise, so the tree
keeps scoring it at every node).
Both splitters are timed in the same run, alternating, best of ``--repeat``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd
from sklearn.datasets import make_classification

from hyperplane.tree import DecisionTreeClassifier


def data(n_rows, n_categories, lean_p=0.0, seed=0):
    X, y = make_classification(n_samples=n_rows, n_features=5, n_informative=3,
                               random_state=seed)
    rng = np.random.default_rng(seed)
    code = rng.integers(0, n_categories, n_rows)
    lean = rng.random(n_categories) < 0.5  # each category leans to one class
    y = np.where(rng.random(n_rows) < lean_p, lean[code].astype(int), y)
    frame = pd.DataFrame(X, columns=[f"x{i}" for i in range(5)])
    frame["cat"] = pd.Categorical([f"c{c}" for c in code],
                                  categories=[f"c{c}" for c in range(n_categories)])
    return frame, y


def timed(splitter, X, y, criterion):
    cpu, wall = time.process_time(), time.perf_counter()
    model = DecisionTreeClassifier(splitter=splitter, criterion=criterion).fit(X, y)
    return time.process_time() - cpu, time.perf_counter() - wall, model


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--categories", type=int, nargs="+", default=[2000, 200_000])
    parser.add_argument("--criterion", default="info_gain")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--lean", type=float, default=0.0)
    args = parser.parse_args()
    print("| rows | categories | criterion | best CPU / wall s | hist CPU / wall s | leaves best / hist |")
    print("|---:|---:|---|---|---|---|")
    for k in args.categories:
        X, y = data(args.rows, k, args.lean)
        timed("hist", X.iloc[:500], y[:500], args.criterion)  # compile
        timed("best", X.iloc[:500], y[:500], args.criterion)
        runs = {"best": [], "hist": []}
        leaves = {}
        for _ in range(args.repeat):
            for splitter in ("best", "hist"):
                cpu, wall, model = timed(splitter, X, y, args.criterion)
                runs[splitter].append((cpu, wall))
                leaves[splitter] = model.n_leaves_
        best = {s: (min(c for c, _ in r), min(w for _, w in r)) for s, r in runs.items()}
        print(f"| {args.rows} | {k} | {args.criterion} | {best['best'][0]:.2f} / {best['best'][1]:.2f} "
              f"| {best['hist'][0]:.2f} / {best['hist'][1]:.2f} | {leaves['best']} / {leaves['hist']} |",
              flush=True)


if __name__ == "__main__":
    main()
