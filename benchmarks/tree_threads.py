"""Thread scaling of hyperplane's trees, with scikit-learn and LightGBM in the same run.

Usage (from the repository root)::

    PYTHONPATH=src python benchmarks/tree_threads.py --threads 1 2 4 8 16
    PYTHONPATH=src python benchmarks/tree_threads.py --rows 50000 --threads 1 2   # quick

For every thread count ``k`` (``numba.set_num_threads(k)``) it fits the fully
grown exact tree (``splitter="best"``) and the histogram tree
(``splitter="hist"``) on ``make_classification`` data, best of ``--repeats``,
and prints wall seconds, CPU seconds and the speed-up over one thread.
scikit-learn's tree grows on one thread (timed once, as the reference of the
ratio); LightGBM (if installed) is timed with ``num_threads=k`` as the peer
whose scaling the trees are compared with. ``--phases`` also splits the exact
tree's wall time into its phases (validation, layout, root sort, the large
nodes grown one at a time, the small subtrees grown side by side, importances).
"""

from __future__ import annotations

import argparse
import os
import time

import numba
from sklearn.datasets import make_classification
from sklearn.tree import DecisionTreeClassifier as SkTree

from hyperplane.tree import DecisionTreeClassifier
from hyperplane.tree import _classes, _tree_api
from hyperplane.tree._grow import _builder, _layout, _subtree

try:
    import lightgbm
except ImportError:  # the peer is optional
    lightgbm = None


def timed(fit):
    """``(model, wall seconds, CPU seconds of the process)``."""
    start, cpu = time.perf_counter(), time.process_time()
    model = fit()
    return model, time.perf_counter() - start, time.process_time() - cpu


class PhaseClock:
    """Wall seconds spent in the exact tree's phases (wraps module functions)."""

    def __init__(self):
        self.seconds = {}
        self.jobs = []  # (rows, wall seconds) of every compiled growth call
        self._wrap(_builder, "sorted_orders", "root sort")
        self._wrap(_layout, "_bin_edges", "bin edges")
        self._wrap(_classes, "encode_fit", "validation")
        self._wrap(_classes, "layout", "layout (bin edges and codes, or the numeric transpose)")
        self._wrap(_tree_api, "_importances", "importances")
        self._wrap(_builder, "grow_subtrees", "compiled growth")
        self._wrap(_subtree, "_grow_side_by_side", "of which subtrees side by side")
        self._time_jobs()

    def _time_jobs(self):
        inner = _subtree._grow_one

        def timed_job(data, rules, job, tuning, space):
            start = time.perf_counter()
            out = inner(data, rules, job, tuning, space)
            self.jobs.append((job[1].rows.size, time.perf_counter() - start))
            return out
        _subtree._grow_one = timed_job

    def _wrap(self, module, name, phase):
        inner = getattr(module, name)

        def timed_call(*args, **kwargs):
            start = time.perf_counter()
            try:
                return inner(*args, **kwargs)
            finally:
                self.seconds[phase] = self.seconds.get(phase, 0.0) + time.perf_counter() - start
        setattr(module, name, timed_call)

    def reset(self):
        self.seconds = {}
        self.jobs = []

    def job_summary(self, repeats):
        """Calls, the largest job's rows and seconds (first repeat's share)."""
        jobs = self.jobs[:len(self.jobs) // repeats]
        rows, seconds = jobs[0]
        side = jobs[1:] or [(0, 0.0)]
        slowest = max(side, key=lambda j: j[1])
        return (f"{len(jobs)} compiled calls; the first ({rows} rows) {seconds:.2f} s; "
                f"the slowest of the rest {slowest[0]} rows in {slowest[1]:.2f} s")


def best_of(repeats, fit):
    runs = [timed(fit) for _ in range(repeats)]
    model = runs[-1][0]
    return model, min(r[1] for r in runs), min(r[2] for r in runs)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--features", type=int, default=50)
    parser.add_argument("--informative", type=int, default=2)
    parser.add_argument("--criterion", default="gini", choices=["gini", "entropy"])
    parser.add_argument("--threads", type=int, nargs="*", default=[1, numba.get_num_threads()])
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--lgbm-trees", type=int, default=20)
    parser.add_argument("--phases", action="store_true")
    parser.add_argument("--skip-peers", action="store_true",
                        help="hyperplane alone (the peers' figures of an earlier run stand)")
    args = parser.parse_args()
    X, y = make_classification(args.rows, args.features, n_informative=args.informative,
                               n_redundant=min(2, args.features - args.informative),
                               random_state=0)
    ours = {"gini": "gini", "entropy": "info_gain"}[args.criterion]
    clock = PhaseClock() if args.phases else None
    for splitter in ("best", "hist"):  # compile every kernel, the parallel ones too
        DecisionTreeClassifier(criterion=ours, splitter=splitter).fit(X[:30000], y[:30000])
    sk_wall = sk_cpu = float("nan")
    if not args.skip_peers:
        _, sk_wall, sk_cpu = timed(lambda: SkTree(criterion=args.criterion,
                                                  random_state=0).fit(X, y))
    print(f"## tree thread scaling: {args.rows}×{args.features} make_classification "
          f"(n_informative={args.informative}), {args.criterion}, fully grown; "
          f"{os.cpu_count()} cores, best of {args.repeats}\n")
    print(f"scikit-learn (1 thread): {sk_wall:.2f} s wall, {sk_cpu:.2f} s CPU\n")
    header = ("| threads | exact s | exact CPU s | exact speed-up | vs sklearn | hist s | "
              "hist speed-up | vs sklearn | LightGBM s | LightGBM speed-up |")
    print(header)
    print("|---" * (header.count("|") - 1) + "|")
    base = {}
    for k in args.threads:
        numba.set_num_threads(k)
        if clock:
            clock.reset()
        _, e_wall, e_cpu = best_of(args.repeats, lambda: DecisionTreeClassifier(
            criterion=ours).fit(X, y))
        phases = dict(clock.seconds) if clock else {}
        jobs = clock.job_summary(args.repeats) if clock else ""
        if clock:
            clock.reset()
        _, h_wall, _ = best_of(args.repeats, lambda: DecisionTreeClassifier(
            criterion=ours, splitter="hist").fit(X, y))
        hist_phases = dict(clock.seconds) if clock else {}
        hist_jobs = clock.job_summary(args.repeats) if clock else ""
        l_wall = float("nan")
        if lightgbm is not None and not args.skip_peers:
            _, l_wall, _ = best_of(args.repeats, lambda: lightgbm.LGBMClassifier(
                n_estimators=args.lgbm_trees, num_leaves=255, num_threads=k,
                verbose=-1).fit(X, y))
        base.setdefault("e", e_wall)
        base.setdefault("h", h_wall)
        base.setdefault("l", l_wall)
        print(f"| {k} | {e_wall:.2f} | {e_cpu:.2f} | {base['e'] / e_wall:.1f}× | "
              f"{sk_wall / e_wall:.1f}× | {h_wall:.2f} | {base['h'] / h_wall:.1f}× | "
              f"{sk_wall / h_wall:.1f}× | {l_wall:.2f} | {base['l'] / l_wall:.1f}× |",
              flush=True)
        for name, times, calls in (("exact", phases, jobs), ("hist", hist_phases, hist_jobs)):
            if times:
                print(f"|   | {name} phases (per fit): " + ", ".join(
                    f"{phase} {sec / args.repeats:.3f} s" for phase, sec in times.items())
                    + "; " + calls + " |||||||||", flush=True)


if __name__ == "__main__":
    main()
