"""hyperplane's DecisionTreeRegressor against scikit-learn's, in the same run.

Usage (from the repository root)::

    PYTHONPATH=src python benchmarks/tree_regressor.py                 # 200k x 50
    PYTHONPATH=src python benchmarks/tree_regressor.py --rows 20000    # quick

Fits both least-squares trees (``criterion="squared_error"``, ``splitter="best"``)
on ``make_regression`` data rounded to float32 (the values scikit-learn's trees
compute on), fully grown and with each ``--max-depth``, for every numba thread
count of ``--threads`` (scikit-learn's tree grows on one thread whatever the
count), best of ``--repeats``, and prints wall seconds, the ratio
hyperplane / scikit-learn and whether the two predict the same on the
training rows (they may not where two cuts tie, or where the best cut lies
between two values closer than scikit-learn's 1e-7: see the user guide).
"""

from __future__ import annotations

import argparse
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
    args = parser.parse_args()
    X, y = make_regression(args.rows, args.features, n_informative=10, noise=10.0,
                           random_state=0)
    X = X.astype(np.float32).astype(np.float64)
    DecisionTreeRegressor(max_depth=3).fit(X[:2000], y[:2000])      # compile the kernels
    print(f"{args.rows} x {args.features}, make_regression(n_informative=10, noise=10)")
    print(header(["max_depth", "threads", "hyperplane s", "scikit-learn s", "ratio",
                  "leaves (ours / sklearn)", "same training predictions"],
                 ["-", "-:", "-:", "-:", "-:", "-:", "-"]))
    for depth in args.max_depth:
        theirs, sk_seconds = best_of(args.repeats, lambda: SkRegressor(
            max_depth=depth, random_state=0).fit(X, y))
        for k in args.threads:
            numba.set_num_threads(k)
            ours, seconds = best_of(args.repeats, lambda: DecisionTreeRegressor(
                max_depth=depth).fit(X, y))
            same = np.allclose(ours.predict(X), theirs.predict(X), rtol=1e-12)
            print(row(depth, k, f"{seconds:.2f}", f"{sk_seconds:.2f}",
                      f"{seconds / sk_seconds:.2f}",
                      f"{ours.get_n_leaves()} / {theirs.get_n_leaves()}", same))


if __name__ == "__main__":
    main()
