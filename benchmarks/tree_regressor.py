"""hyperplane's DecisionTreeRegressor against scikit-learn's, in the same run.

Usage (from the repository root)::

    PYTHONPATH=src python benchmarks/tree_regressor.py                 # 200k x 50
    PYTHONPATH=src python benchmarks/tree_regressor.py --rows 20000    # quick

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
    parser.add_argument("--splitters", nargs="*", default=["best", "hist"])
    parser.add_argument("--criteria", nargs="*", default=["squared_error", "absolute_error"])
    parser.add_argument("--mae-rows", type=int, default=20_000,
                        help="rows of the absolute_error fits (a prefix of the data)")
    args = parser.parse_args()
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
                    print(row(criterion, splitter, n, depth, k, f"{seconds:.2f}",
                              f"{sk_seconds:.2f}", f"{seconds / sk_seconds:.2f}",
                              f"{ours.get_n_leaves()} / {theirs.get_n_leaves()}", same))

if __name__ == "__main__":
    main()
