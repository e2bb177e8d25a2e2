"""Scale-out: rows per second on worker-generated data, 1 vs 2 Dask workers,
against the in-memory fit of the same data.

Run:  PYTHONPATH=src python benchmarks/scale_out.py [--rows 20000000] [--features 20]

The data are generated on the workers (dask.array.random) and persisted there,
as a user would persist data that fit in the cluster's memory; the in-memory
fit gets the same rows as one numpy array. The overhead factor is
(Dask time) / (in-memory time); issue 7's target is ≤ 1.5 with 2 workers.
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np

from hyperplane.linear import LeastSquaresClassifier, LogisticRegression
from hyperplane.tree import DecisionTreeClassifier


def make_data(da, rows, features, chunk_rows):
    rs = da.random.RandomState(0)
    X = rs.normal(size=(rows, features), chunks=(chunk_rows, features))
    w = np.linspace(-1, 1, features)
    y = da.where(X @ w + rs.normal(size=rows, chunks=chunk_rows) >= 0, 1, 0)
    return X, y


MODELS = {
    "least squares": lambda: LeastSquaresClassifier(),
    "logistic (C=1)": lambda: LogisticRegression(C=1.0),
    "hist tree (depth 8)": lambda: DecisionTreeClassifier(criterion="gini", splitter="hist",
                                                          max_depth=8, max_bins=64),
}


def timed(fn):
    t0 = time.perf_counter()
    result = fn()
    return time.perf_counter() - t0, result


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=20_000_000)
    parser.add_argument("--features", type=int, default=20)
    parser.add_argument("--chunk-rows", type=int, default=500_000)
    args = parser.parse_args()
    import dask.array as da
    import distributed

    rows = args.rows
    print(f"{rows}×{args.features} float64 ({rows * args.features * 8 / 2**30:.1f} GiB)")
    print("| model | in-memory s | 1 worker s | 2 workers s | rows/s (2 workers) "
          "| overhead (2 workers / in-memory) | accuracy in-memory | accuracy Dask |")
    print("|---|---|---|---|---|---|---|---|")
    times = {name: {} for name in MODELS}
    models = {}
    for n_workers in (1, 2):
        with distributed.LocalCluster(n_workers=n_workers, threads_per_worker=1,
                                      processes=True, host="127.0.0.1",
                                      dashboard_address=None, memory_limit="10GiB") as cluster, \
                distributed.Client(cluster) as client:
            X, y = make_data(da, rows, args.features, args.chunk_rows)
            X, y = client.persist([X, y])
            distributed.wait([X, y])
            for name, make in MODELS.items():
                make().fit(X[:20_000], y[:20_000])             # compile on the workers
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    times[name][n_workers], models[name] = timed(lambda: make().fit(X, y))
            if n_workers == 2:
                X_local, y_local = client.compute([X, y], sync=True)
    for name, make in MODELS.items():
        make().fit(X_local[:20_000], y_local[:20_000])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t_local, local = timed(lambda: make().fit(X_local, y_local))
        t2 = times[name][2]
        print(f"| {name} | {t_local:.2f} | {times[name][1]:.2f} | {t2:.2f} | {rows / t2:,.0f} "
              f"| {t2 / t_local:.2f} | {local.score(X_local, y_local):.4f} "
              f"| {models[name].score(X_local, y_local):.4f} |", flush=True)


if __name__ == "__main__":
    main()
