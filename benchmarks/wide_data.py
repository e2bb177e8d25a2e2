"""Wide data: 3 rows x 10^6 columns, two classes (the speed trap of wide inputs).

Fits ``DecisionTreeClassifier`` (default parameters, and ``criterion="gini",
splitter="hist"``) and ``MLPClassifier`` (default parameters,
200 epochs of accumulated BP) on ``X`` of shape (3, d) and reports CPU
seconds (``time.process_time``) and wall seconds of fit + predict, best of
``--repeat`` runs, and the peak of traced allocations (``tracemalloc``) of
one more run.
scikit-learn's tree and MLP are timed in the same run on the same data.

Run: ``python benchmarks/wide_data.py --columns 1000000 --repeat 3``
(``--only hist``: the hist tree alone)
"""

from __future__ import annotations

import argparse
import time
import tracemalloc
import warnings

import numpy as np


def estimators():
    from sklearn.neural_network import MLPClassifier as SkMLP
    from sklearn.tree import DecisionTreeClassifier as SkTree

    from hyperplane.neural import MLPClassifier
    from hyperplane.tree import DecisionTreeClassifier

    return {
        "hyperplane DecisionTreeClassifier": DecisionTreeClassifier,
        "hyperplane DecisionTreeClassifier (gini, hist)": lambda: DecisionTreeClassifier(
            criterion="gini", splitter="hist"),
        "scikit-learn DecisionTreeClassifier": SkTree,
        "hyperplane MLPClassifier": lambda: MLPClassifier(random_state=0),
        "scikit-learn MLPClassifier (adam)": lambda: SkMLP(hidden_layer_sizes=(10,),
                                                           random_state=0),
    }


def fit_predict(make, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pred = make().fit(X, y).predict(X)
    assert np.array_equal(pred, y)


def seconds(make, X, y):
    """(cpu s, wall s) of one fit + predict."""
    cpu, wall = time.process_time(), time.perf_counter()
    fit_predict(make, X, y)
    return time.process_time() - cpu, time.perf_counter() - wall


def peak_mib(make, X, y):
    """Peak of the allocations numpy, Python (and numba's runtime) report to
    ``tracemalloc`` during one fit + predict; a separate run, since tracing
    slows allocation-heavy code."""
    tracemalloc.start()
    fit_predict(make, X, y)
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    return peak


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--columns", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", default="", help="run the estimators whose name has this")
    args = parser.parse_args()
    X = np.random.default_rng(0).standard_normal((3, args.columns))
    y = np.array([0, 1, 0])
    print(f"X: 3 x {args.columns:,}, best of {args.repeat} (cpu s, wall s, peak MiB)")
    for name, make in estimators().items():
        if args.only not in name:
            continue
        make().fit(X[:, :50], y).predict(X[:, :50])  # compile outside the timing
        runs = [seconds(make, X, y) for _ in range(args.repeat)]
        cpu, wall = (min(r[i] for r in runs) for i in range(2))
        peak = peak_mib(make, X, y)
        print(f"| {name} | {cpu:.2f} | {wall:.2f} | {peak:.0f} |", flush=True)


if __name__ == "__main__":
    main()
