"""C4.5 with pessimistic pruning (hyperplane) vs Weka's J48, plus the oblique tree.

Same data in one run: ``n_train`` (default 50 000) rows x 20 attributes
(10 numeric, 10 nominal with 5 values), 5% of the values missing completely at
random, a test set of ``n_test`` rows from the same distribution. Both sides
fit on the same train set and are scored on the same test set (J48 reads them
as ARFF files written by ``tests/tree/_weka.py``).

Timings, median of ``--repeat`` runs:

* hyperplane: ``DecisionTreeClassifier(criterion="gain_ratio",
  pruning="pessimistic", confidence=0.25, min_samples_leaf=2).fit`` on the
  DataFrame, after a warm-up fit that compiles the kernels;
* J48 ``-C 0.25 -M 2``: Weka's own in-process "Time taken to build model"
  (excludes the JVM start and ARFF parsing, 10 ms resolution) and the wall time
  of the whole ``java`` process (JVM start + parsing + building + evaluating).

The oblique line fits ``ObliqueTreeClassifier`` (numeric attributes only, so
the nominal ones are one-hot encoded and missing values imputed by the
training median / an all-zero code) with ``max_depth=10, min_samples_leaf=20``.

Run: ``PYTHONPATH=src python benchmarks/tree_weka.py [--n-train 50000] [--repeat 3]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd
from sklearn.base import clone

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "tree"))
from _weka import (WEKA_UNAVAILABLE, ensure_weka, mixed_dataset, run_j48,  # noqa: E402
                   write_arff_pair)

from hyperplane.tree import DecisionTreeClassifier, ObliqueTreeClassifier  # noqa: E402


C45_NAME = "hyperplane C4.5 (gain_ratio, pessimistic 0.25)"
J48_BUILD = "Weka J48 -C 0.25 -M 2, build (in-process)"


def c45():
    return DecisionTreeClassifier(criterion="gain_ratio", pruning="pessimistic",
                                  confidence=0.25, min_samples_leaf=2)


def timed(fn, repeat):
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def numeric_view(X_train, X_test):
    """One-hot nominal columns, median-imputed numeric ones (for the oblique tree)."""
    nominal = [c for c in X_train.columns if not pd.api.types.is_numeric_dtype(X_train[c])]
    median = X_train.drop(columns=nominal).median()
    views = []
    for X in (X_train, X_test):
        num = X.drop(columns=nominal).fillna(median)
        hot = pd.get_dummies(X[nominal], dtype=float)
        views.append(pd.concat([num, hot], axis=1))
    hot_cols = views[0].columns
    return views[0].to_numpy(), views[1].reindex(columns=hot_cols, fill_value=0.0).to_numpy()


def compare(n_train=50_000, n_test=10_000, repeat=3, seed=0, oblique=True):
    """Fit both sides on the same data; rows ``(learner, seconds, accuracy, leaves, size)``."""
    jar = ensure_weka()
    if jar is None:
        raise RuntimeError(f"Weka J48 unavailable: {WEKA_UNAVAILABLE['reason']}")
    X, y = mixed_dataset(n_train + n_test, 10, 10, missing=0.05, n_values=5, seed=seed)
    Xtr, Xte = X.iloc[:n_train].reset_index(drop=True), X.iloc[n_train:]
    ytr, yte = y[:n_train], y[n_train:]

    c45().fit(Xtr.iloc[:2000], ytr[:2000])  # compile the kernels outside the timing
    fit_s, ours = timed(lambda: c45().fit(Xtr, ytr), repeat)
    with tempfile.TemporaryDirectory() as tmp:
        train, test = write_arff_pair(tmp, Xtr, ytr, Xte, yte, relation="mixed")
        runs = [run_j48(jar, train, test, confidence=0.25, min_leaf=2) for _ in range(repeat)]
    j48 = runs[0]
    rows = [(C45_NAME, fit_s, ours.score(Xte, yte), ours.n_leaves_, ours.tree_.n_nodes),
            (J48_BUILD, statistics.median(r.build_seconds for r in runs), j48.accuracy,
             j48.n_leaves, j48.tree_size),
            ("Weka J48, whole java process (JVM+ARFF+eval)",
             statistics.median(r.wall_seconds for r in runs), j48.accuracy,
             j48.n_leaves, j48.tree_size)]
    if oblique:
        Ntr, Nte = numeric_view(Xtr, Xte)
        model = ObliqueTreeClassifier(max_depth=10, min_samples_leaf=20, random_state=0)
        clone(model).fit(Ntr[:500], ytr[:500])  # compile
        ob_s, ob = timed(lambda: clone(model).fit(Ntr, ytr), 1)
        rows.append((f"hyperplane ObliqueTree (depth<=10, leaf>=20, {Ntr.shape[1]} cols)",
                     ob_s, ob.score(Nte, yte), ob.n_leaves_, len(ob.threshold_)))
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-train", type=int, default=50_000)
    parser.add_argument("--n-test", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-oblique", action="store_true")
    args = parser.parse_args(argv)
    print(f"data: {args.n_train} train + {args.n_test} test rows x 20 attributes "
          "(10 numeric, 10 nominal), 5% missing")
    rows = compare(args.n_train, args.n_test, args.repeat, args.seed, not args.no_oblique)
    print(f"{'learner':<52} {'fit s':>8} {'accuracy':>9} {'leaves':>7} {'size':>6}")
    for name, sec, a, leaves, size in rows:
        print(f"{name:<52} {sec:8.3f} {a:9.4f} {leaves:7d} {size:6d}")
    (_, fit_s, acc, *_), (_, build_s, j48_acc, *_), (_, wall_s, *_) = rows[:3]
    print(f"speed-up vs J48 build: {build_s / fit_s:.2f}x; vs J48 process: "
          f"{wall_s / fit_s:.2f}x; accuracy difference {acc - j48_acc:+.4f}")


if __name__ == "__main__":
    main()
