"""Hist decision tree on Dask vs in memory: rows/s, 1 vs 2 workers, same tree?

Data are generated on the workers (never in the client) as float64 normal
attributes with a nonlinear labelling (``--task regression``: the real score
itself, for DecisionTreeRegressor's least squares) and 2% missing values. The
in-memory fit gets the same data computed into the client. Every fit uses
``splitter="hist"``; the Dask trees must equal the in-memory tree.

Run: PYTHONPATH=src python benchmarks/distributed_tree.py [--rows 2000000 --features 20]
[--task regression]
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def generated_on_workers(n_rows, n_features, chunk_rows, seed=0, task="classification"):
    import dask.array as da

    rs = da.random.RandomState(seed)
    X = rs.normal(size=(n_rows, n_features), chunks=(chunk_rows, n_features))
    score = X[:, 0] + 0.5 * X[:, 1] ** 2 - X[:, 2] * (X[:, 3] > 0) \
        + 0.5 * rs.normal(size=n_rows, chunks=chunk_rows)
    y = (score if task == "regression"
         else (score > 0.5).astype(np.int64) + (X[:, 4] > 1.0).astype(np.int64))
    X = da.where(rs.random_sample(size=X.shape, chunks=X.chunks) < 0.02, np.nan, X)
    return X, y


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=2_000_000)
    parser.add_argument("--features", type=int, default=20)
    parser.add_argument("--chunk", type=int, default=250_000)
    parser.add_argument("--depth", type=int, default=8)
    parser.add_argument("--bins", type=int, default=64)
    parser.add_argument("--task", choices=["classification", "regression"],
                        default="classification")
    args = parser.parse_args()

    import dask
    import distributed

    from hyperplane.tree import DecisionTreeClassifier, DecisionTreeRegressor, export_text

    regression = args.task == "regression"
    Tree = DecisionTreeRegressor if regression else DecisionTreeClassifier
    params = dict(splitter="hist", max_bins=args.bins, max_depth=args.depth,
                  criterion="squared_error" if regression else "gini", random_state=0)
    X, y = generated_on_workers(args.rows, args.features, args.chunk, task=args.task)
    rows = []
    trees = {}
    for n_workers in (1, 2):
        with distributed.LocalCluster(n_workers=n_workers, threads_per_worker=1,
                                      processes=True, host="127.0.0.1",
                                      dashboard_address=None, memory_limit="3GiB") as cluster, \
                distributed.Client(cluster):
            # warm the numba caches on the workers with a tiny fit
            Tree(**params).fit(*generated_on_workers(2000, args.features, 1000, task=args.task))
            t0 = time.perf_counter()
            model = Tree(**params).fit(X, y)
            seconds = time.perf_counter() - t0
            trees[n_workers] = export_text(model, show_weights=True)
            rows.append((f"dask, {n_workers} worker{'s' if n_workers > 1 else ''}", seconds,
                         model.n_leaves_))
            if n_workers == 2:
                X_mem, y_mem = dask.compute(X, y)     # one graph: X's blocks once
    local = Tree(**params)
    local.fit(X_mem[:2000], y_mem[:2000])      # compile
    t0 = time.perf_counter()
    local.fit(X_mem, y_mem)
    seconds = time.perf_counter() - t0
    rows.append(("in memory (1 process)", seconds, local.n_leaves_))
    fit_score = local.score(X_mem, y_mem)
    same = all(text == export_text(local, show_weights=True) for text in trees.values())

    print(f"{args.rows:,} rows x {args.features} float64, splitter='hist', max_bins={args.bins}, "
          f"max_depth={args.depth}, {params['criterion']}; training score {fit_score:.4f}; "
          f"Dask trees identical to in-memory: {same}")
    print("| fit | seconds | rows/s | leaves | time / in-memory |")
    print("|---|---:|---:|---:|---:|")
    for name, secs, leaves in rows:
        print(f"| {name} | {secs:.2f} | {args.rows / secs:,.0f} | {leaves} | "
              f"{secs / seconds:.2f}x |")


if __name__ == "__main__":
    main()
