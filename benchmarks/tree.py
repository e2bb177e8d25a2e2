"""Benchmark hyperplane.tree against scikit-learn (same data, same run).

Usage (from the repository root)::

    PYTHONPATH=src python benchmarks/tree.py                 # full sizes of issue 4
    PYTHONPATH=src python benchmarks/tree.py --rows 20000 --id3-rows 100000   # quick
    PYTHONPATH=src python benchmarks/tree.py --informative 2 10 20 50 --threads 1 2  # shapes

Prints a Markdown table: fit seconds of each (wall clock, and CPU seconds of
the process, all threads), ratios (peer / ours), and held-out accuracy of
each. Compilation is excluded (each model is fitted once on a small slice
first). The machine is shared, so only ratios measured in the same run mean
anything; the CPU ratio is the one load affects least.
"""

from __future__ import annotations

import argparse
import os
import time
import tracemalloc

import numba
import numpy as np
import pandas as pd
from sklearn.datasets import make_classification
from sklearn.tree import DecisionTreeClassifier as SkTree

from hyperplane.tree import DecisionTreeClassifier
from hyperplane.tree._scan._node_kernels import PARALLEL_ROWS


def timed(fit):
    """``(model, (wall seconds, CPU seconds of the process))``."""
    start, cpu = time.perf_counter(), time.process_time()
    model = fit()
    return model, (time.perf_counter() - start, time.process_time() - cpu)


def numeric_rows(n_rows, n_features):
    """200k×50 make_classification: fully grown gini/entropy vs scikit-learn, and hist."""
    X, y = make_classification(n_rows + n_rows // 4, n_features, random_state=0)
    X_train, y_train, X_test, y_test = X[:n_rows], y[:n_rows], X[n_rows:], y[n_rows:]
    # warm-up compiles every kernel, including the parallel one used on large nodes
    warm = slice(0, min(n_rows, PARALLEL_ROWS + 5000))
    rows = []
    for ours, theirs in (("gini", "gini"), ("info_gain", "entropy")):
        for splitter in ("best", "hist"):
            DecisionTreeClassifier(criterion=ours, splitter=splitter).fit(X_train[warm],
                                                                          y_train[warm])
        sk, t_sk = timed(lambda: SkTree(criterion=theirs, random_state=0).fit(X_train, y_train))
        hp, t_hp = timed(lambda: DecisionTreeClassifier(criterion=ours).fit(X_train, y_train))
        hist, t_hist = timed(lambda: DecisionTreeClassifier(criterion=ours, splitter="hist")
                             .fit(X_train, y_train))
        same_train = np.mean(hp.predict(X_train) == sk.predict(X_train))
        acc_sk, acc_hp, acc_hist = (m.score(X_test, y_test) for m in (sk, hp, hist))
        rows.append((f"{theirs} fully grown, best", t_sk, t_hp, acc_sk, acc_hp,
                     f"{hp.n_leaves_} vs {sk.get_n_leaves()} leaves; train predictions "
                     f"equal {same_train:.4f}"))
        rows.append((f"{theirs} fully grown, splitter=hist", t_sk, t_hist, acc_sk, acc_hist,
                     f"{hist.n_leaves_} leaves"))
    return rows


def informative_rows(n_rows, n_features, informative, threads, repeats, criteria):
    """Exact trees (fully grown gini/entropy) vs scikit-learn across ``n_informative``.

    For every ``n_informative`` and criterion: scikit-learn once per repeat
    (it grows on one thread), hyperplane ``splitter="best"`` per repeat on each
    of ``threads`` numba threads (``numba.set_num_threads``: the parallel
    scoring and the threads growing subtrees side by side); best of the
    repeats. Yields ``(n_informative, criterion, threads, sklearn (wall, CPU),
    hyperplane (wall, CPU), leaves, train predictions equal)``.
    """
    for n_inf in informative:
        X, y = make_classification(n_rows, n_features, n_informative=n_inf,
                                   n_redundant=min(2, n_features - n_inf), random_state=0)
        for ours, theirs in (("gini", "gini"), ("info_gain", "entropy")):
            if theirs not in criteria:
                continue
            DecisionTreeClassifier(criterion=ours).fit(X[:PARALLEL_ROWS + 5000],
                                                       y[:PARALLEL_ROWS + 5000])
            sk_runs, hp_runs = [], {k: [] for k in threads}
            for _ in range(repeats):
                sk, t = timed(lambda: SkTree(criterion=theirs, random_state=0).fit(X, y))
                sk_runs.append(t)
                for k in threads:
                    numba.set_num_threads(k)
                    hp, t = timed(lambda: DecisionTreeClassifier(criterion=ours).fit(X, y))
                    hp_runs[k].append(t)
            numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
            best_sk = tuple(min(t[i] for t in sk_runs) for i in range(2))
            same = np.mean(hp.predict(X) == sk.predict(X))
            for k in threads:
                best = tuple(min(t[i] for t in hp_runs[k]) for i in range(2))
                yield n_inf, theirs, k, best_sk, best, (hp.n_leaves_, sk.get_n_leaves()), same


def print_informative(args):
    print(f"## exact trees across n_informative: {args.rows}×{args.features} make_classification "
          f"(n_redundant=2), fully grown, best of {args.repeats}; {os.cpu_count()} cores\n")
    print("| n_informative | criterion | threads | sklearn s | hyperplane s | speed-up | "
          "sklearn CPU s | hyperplane CPU s | CPU speed-up | leaves (ours, sklearn) | "
          "train predictions equal |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for n_inf, crit, k, sk, hp, leaves, same in informative_rows(
            args.rows, args.features, args.informative, args.threads, args.repeats,
            args.criteria):
        print(f"| {n_inf} | {crit} | {k} | {sk[0]:.2f} | {hp[0]:.2f} | {sk[0] / hp[0]:.1f}× | "
              f"{sk[1]:.2f} | {hp[1]:.2f} | {sk[1] / hp[1]:.1f}× | {leaves[0]}, {leaves[1]} | "
              f"{same:.4f} |", flush=True)


def categorical_data(n_rows, n_features, n_values=5, seed=0):
    """n_rows × n_features categorical attributes (str values), label = rule + 2% noise."""
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, n_values, size=(n_rows, n_features), dtype=np.int8)
    y = ((codes[:, 0] + codes[:, 1] * codes[:, 2]) % 3 == 0) ^ (rng.random(n_rows) < 0.02)
    values = np.array([f"v{k}" for k in range(n_values)], dtype=object)
    frame = pd.DataFrame({f"a{j}": pd.Categorical.from_codes(codes[:, j], values)
                          for j in range(n_features)})
    return frame, np.where(y, "yes", "no")


def id3_rows(n_rows, n_features, max_depth):
    """ID3 on categorical data: rows/s and peak memory of the fit."""
    X, y = categorical_data(n_rows, n_features)
    DecisionTreeClassifier(max_depth=2).fit(X.iloc[:PARALLEL_ROWS + 5000],
                                            y[:PARALLEL_ROWS + 5000])
    data_bytes = X.memory_usage(deep=True).sum()
    as_float = n_rows * n_features * 8
    tree, (seconds, _) = timed(lambda: DecisionTreeClassifier(max_depth=max_depth).fit(X, y))
    # a second fit under tracemalloc (which slows allocation down) for the peak memory
    tracemalloc.start()
    DecisionTreeClassifier(max_depth=max_depth).fit(X, y)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    acc = tree.score(X, y)
    return {"rows": n_rows, "features": n_features, "seconds": seconds,
            "rows_per_s": n_rows / seconds, "peak_mb": peak / 2**20,
            "data_mb": data_bytes / 2**20, "float64_mb": as_float / 2**20,
            "leaves": tree.n_leaves_, "train_accuracy": acc}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--features", type=int, default=50)
    parser.add_argument("--id3-rows", type=int, default=1_000_000)
    parser.add_argument("--id3-features", type=int, default=20)
    parser.add_argument("--id3-depth", type=int, default=8)
    parser.add_argument("--skip-numeric", action="store_true")
    parser.add_argument("--informative", type=int, nargs="*",
                        help="only the exact-tree table across these n_informative values")
    parser.add_argument("--threads", type=int, nargs="*", default=[numba.get_num_threads()],
                        help="numba thread counts of the --informative table")
    parser.add_argument("--repeats", type=int, default=1, help="of the --informative table")
    parser.add_argument("--criteria", nargs="*", default=["gini", "entropy"],
                        help="scikit-learn's names, of the --informative table")
    args = parser.parse_args()
    if args.informative:
        print_informative(args)
        return
    if not args.skip_numeric:
        print(f"## numeric: {args.rows}×{args.features} make_classification "
              f"(test: {args.rows // 4} rows)\n")
        print("| model | sklearn s | hyperplane s | speed-up | sklearn CPU s | hyperplane CPU s "
              "| CPU speed-up | sklearn acc | hyperplane acc | notes |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        for name, t_sk, t_hp, a_sk, a_hp, notes in numeric_rows(args.rows, args.features):
            print(f"| {name} | {t_sk[0]:.2f} | {t_hp[0]:.2f} | {t_sk[0] / t_hp[0]:.1f}× | "
                  f"{t_sk[1]:.2f} | {t_hp[1]:.2f} | {t_sk[1] / t_hp[1]:.1f}× | {a_sk:.4f} | "
                  f"{a_hp:.4f} | {notes} |", flush=True)
    r = id3_rows(args.id3_rows, args.id3_features, args.id3_depth)
    print(f"\n## ID3 (info_gain, max_depth={args.id3_depth}) on {r['rows']}×{r['features']} "
          "categorical attributes (5 values each, pandas category dtype)\n")
    print(f"- fit {r['seconds']:.2f} s = {r['rows_per_s']:,.0f} rows/s; {r['leaves']} leaves, "
          f"training accuracy {r['train_accuracy']:.4f}")
    print(f"- peak traced memory during fit {r['peak_mb']:.0f} MiB; input DataFrame "
          f"{r['data_mb']:.0f} MiB (category codes), same data as float64 {r['float64_mb']:.0f} "
          f"MiB -> peak/float64 = {r['peak_mb'] / r['float64_mb']:.2f}×")


if __name__ == "__main__":
    main()
