"""Fit times on a busy machine: one thread, default threads, and default
threads while another process spins on a core, for every family, with the
strongest peer in the same run.

Usage (from the repository root)::

    PYTHONPATH=src python benchmarks/busy.py --quick     # ~2 min on 2 cores
    PYTHONPATH=src python benchmarks/busy.py --full      # sizes for a 16-core machine
    PYTHONPATH=src python benchmarks/busy.py --quick --families mlp-minibatch logistic
    # two versions of hyperplane in the same run, alternating column by column:
    PYTHONPATH=src python benchmarks/busy.py --quick --sources before=../old/src after=src

Each (family, column) is timed in a fresh child process, so that the thread
settings are those a user gets when the process starts:

* ``one``: ``NUMBA_NUM_THREADS=OMP_NUM_THREADS=OPENBLAS_NUM_THREADS=MKL_NUM_THREADS=1``;
* ``default``: none of these set (numba, OpenMP and BLAS use every core);
* ``busy``: as ``default``, while a second child process (``while True:
  pass``) spins on one core for the whole measurement -- the laptop with a
  browser or a video call holding a core;
* ``one, busy``: as ``one``, with the same spinning process: the time the
  default is held to under load.

The child builds the data, fits hyperplane and the peer once on a small
slice (compilation, numba's cache, BLAS start-up: not timed), then fits
each at least ``--repeats`` times and until its fits add up to one
second (at most 30), alternating hyperplane and the peer, and reports the
best wall time of each. The columns of one family run one after the
other, so a load that changes during the run shows as noise in that
family's row (``--rounds`` repeats the whole row, interleaved, and keeps
each cell's best); ``uptime`` is printed before and after.

``busy/one busy`` is the figure the goal is stated in (issue #30: with one
core busy, every family's default fit at most 1.15x its one-thread fit). The peers: scikit-learn's Perceptron,
lbfgs LogisticRegression, LinearRegression (least squares on one-hot
targets), LinearDiscriminantAnalysis (eigen, Fisher), MLPClassifier (sgd),
LIBSVM and LIBLINEAR through scikit-learn, DecisionTreeClassifier, and
LightGBM (one tree, 255 leaves) for the histogram tree when it is installed.

Needs only numpy, scipy, numba, scikit-learn, threadpoolctl (and optionally
lightgbm); the output is a markdown table.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

THREAD_VARIABLES = ("NUMBA_NUM_THREADS", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS",
                    "MKL_NUM_THREADS")

#: family: (quick size, full size); a size is (rows, columns)
SIZES = {
    "perceptron": ((50_000, 50), (500_000, 50)),
    "perceptron-ovr": ((50_000, 50), (500_000, 50)),
    "logistic": ((50_000, 50), (500_000, 50)),
    "least-squares": ((100_000, 50), (1_000_000, 50)),
    "fisher": ((100_000, 50), (1_000_000, 50)),
    "mlp-minibatch": ((50_000, 50), (200_000, 50)),
    "mlp-standard": ((5_000, 50), (20_000, 50)),
    "svc-rbf": ((6_000, 50), (20_000, 50)),
    "linear-svc": ((50_000, 50), (500_000, 50)),
    "tree-exact": ((30_000, 20), (500_000, 50)),
    "tree-hist": ((30_000, 20), (500_000, 50)),
}

COLUMNS = ("one", "default", "busy", "one-busy")


# ----------------------------------------------------------------------
# the child: one family, one column, hyperplane and its peer
# ----------------------------------------------------------------------
def classification(n, d, n_classes=2, seed=0):
    import numpy as np
    from sklearn.datasets import make_classification

    # no redundant columns: a singular within-class scatter would stop the LDA peer
    X, y = make_classification(n_samples=n, n_features=d, n_informative=max(2, d // 2),
                               n_redundant=0, n_classes=n_classes, random_state=seed)
    return (X - X.mean(axis=0)) / X.std(axis=0), y.astype(np.int64)


def models(family):
    """``(data kind, hyperplane factory, peer name, peer factory)`` of a family;
    a factory builds an unfitted estimator (``None``: no peer)."""
    import warnings

    from sklearn.exceptions import ConvergenceWarning
    warnings.simplefilter("ignore", ConvergenceWarning)

    if family == "perceptron":
        from sklearn.linear_model import Perceptron as Peer

        from hyperplane.linear import Perceptron
        return (2, lambda: Perceptron(max_iter=10), "sklearn Perceptron",
                lambda: Peer(max_iter=10, tol=None, shuffle=False))
    if family == "perceptron-ovr":  # 4 classes: n_jobs runs the one-vs-rest problems side by side
        from sklearn.linear_model import Perceptron as Peer

        from hyperplane.linear import Perceptron
        return (4, lambda: Perceptron(max_iter=10), "sklearn Perceptron(n_jobs=-1)",
                lambda: Peer(max_iter=10, tol=None, shuffle=False, n_jobs=-1))
    if family == "logistic":
        from sklearn.linear_model import LogisticRegression as Peer

        from hyperplane.linear import LogisticRegression
        return (2, lambda: LogisticRegression(), "sklearn lbfgs", lambda: Peer())
    if family == "least-squares":
        from sklearn.linear_model import RidgeClassifier as Peer

        from hyperplane.linear import LeastSquaresClassifier
        return (4, lambda: LeastSquaresClassifier(), "sklearn RidgeClassifier(alpha=0)",
                lambda: Peer(alpha=0.0, solver="cholesky"))
    if family == "fisher":
        from sklearn.discriminant_analysis import LinearDiscriminantAnalysis as Peer

        from hyperplane.linear import FisherDiscriminant
        return (4, lambda: FisherDiscriminant(), "sklearn LDA (eigen)",
                lambda: Peer(solver="eigen"))
    if family.startswith("mlp"):
        from sklearn.neural_network import MLPClassifier as Peer

        from hyperplane.neural import MLPClassifier
        minibatch = family == "mlp-minibatch"
        batch, eta, epochs = (200, 0.05, 3) if minibatch else (1, 0.001, 1)
        common = dict(hidden_layer_sizes=(64,), batch_size=batch, max_iter=epochs, tol=0,
                      n_iter_no_change=epochs, shuffle=True, random_state=0)
        return (4, lambda: MLPClassifier(activation="relu", learning_rate=eta,
                                         bp="minibatch" if minibatch else "standard",
                                         **common),
                "sklearn MLP (sgd)",
                lambda: Peer(activation="relu", solver="sgd", learning_rate_init=eta,
                             momentum=0.0, alpha=0.0, **common))
    if family == "svc-rbf":
        from sklearn.svm import SVC as Peer

        from hyperplane.svm import SVC
        return (2, lambda: SVC(kernel="rbf"), "LIBSVM (sklearn SVC)",
                lambda: Peer(kernel="rbf", cache_size=200))
    if family == "linear-svc":
        from sklearn.svm import LinearSVC as Peer

        from hyperplane.svm import LinearSVC
        # C small enough that both converge in tens of epochs on overlapping classes
        return (2, lambda: LinearSVC(C=0.01, random_state=0), "LIBLINEAR (sklearn LinearSVC)",
                lambda: Peer(C=0.01, dual=True, random_state=0))
    if family == "tree-exact":
        from sklearn.tree import DecisionTreeClassifier as Peer

        from hyperplane.tree import DecisionTreeClassifier
        return (2, lambda: DecisionTreeClassifier(criterion="gini"), "sklearn tree",
                lambda: Peer(criterion="gini", random_state=0))
    if family == "tree-hist":
        from hyperplane.tree import DecisionTreeClassifier
        try:
            import lightgbm
        except ImportError:
            return (2, lambda: DecisionTreeClassifier(criterion="gini", splitter="hist"),
                    None, None)
        return (2, lambda: DecisionTreeClassifier(criterion="gini", splitter="hist"),
                "LightGBM (1 tree, 255 leaves)",
                lambda: lightgbm.LGBMClassifier(n_estimators=1, num_leaves=255,
                                                min_child_samples=1, verbose=-1))
    raise ValueError(f"unknown family {family!r}")


def child(family, n, d, repeats, with_peer):
    """Fit ``family``'s model and its peer; print a JSON line of best wall seconds."""
    n_classes, ours, peer_name, peer = models(family)
    X, y = classification(n, d, n_classes)
    warm = slice(0, min(n, 2000))
    fits = {"ours": ours}
    if peer is not None and with_peer:
        fits["peer"] = peer
    for name, make in list(fits.items()):  # compilation, caches, thread pools: not timed
        try:
            make().fit(X[warm], y[warm])
        except Exception as error:  # a peer that cannot fit this data: an empty cell
            if name == "ours":
                raise
            sys.stderr.write(f"{peer_name} failed: {error}\n")
            del fits[name]
    best = {name: float("inf") for name in fits}
    total = {name: 0.0 for name in fits}
    for run in range(30):
        for name, make in fits.items():
            if run >= repeats and total[name] >= 1.0:
                continue
            model = make()
            start = time.perf_counter()
            model.fit(X, y)
            seconds = time.perf_counter() - start
            best[name], total[name] = min(best[name], seconds), total[name] + seconds
        if run + 1 >= repeats and min(total.values()) >= 1.0:
            break
    import numba
    from threadpoolctl import threadpool_info
    blas = [(i.get("internal_api"), i.get("num_threads")) for i in threadpool_info()]
    print(json.dumps({"best": best, "peer": peer_name, "numba_threads":
                      numba.get_num_threads(), "pools": blas}), flush=True)


# ----------------------------------------------------------------------
# the parent: spawn the children, one column at a time
# ----------------------------------------------------------------------
def child_env(column):
    env = dict(os.environ)
    for name in THREAD_VARIABLES:
        env.pop(name, None)
    if column.startswith("one"):
        env.update({name: "1" for name in THREAD_VARIABLES})
    return env


def spinner():
    """A process that keeps one core busy until it is killed."""
    return subprocess.Popen([sys.executable, "-c", "while True: pass"])


def measure(family, size, column, repeats, timeout, source=None, with_peer=True):
    """Run one child; ``source``: a directory put first on its ``PYTHONPATH``."""
    command = [sys.executable, os.path.abspath(__file__), "--child", family,
               "--rows", str(size[0]), "--cols", str(size[1]), "--repeats", str(repeats)]
    if not with_peer:
        command.append("--no-peer")
    env = child_env(column)
    if source is not None:
        env["PYTHONPATH"] = os.pathsep.join(
            [os.path.abspath(source)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep)
                                         if p])
    spin = spinner() if column.endswith("busy") else None
    try:
        done = subprocess.run(command, env=env, capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    finally:
        if spin is not None:
            spin.kill()
            spin.wait()
    if done.returncode != 0:
        sys.stderr.write(f"{family} ({column}) failed:\n{done.stderr}\n")
        return None
    return json.loads(done.stdout.strip().splitlines()[-1])


def best_of_rounds(old, new):
    """The child result of the faster fits, library by library (``None``: failed)."""
    if old is None or new is None:
        return old or new
    merged = dict(new, best={k: min(v, old["best"].get(k, v)) for k, v in new["best"].items()})
    return merged


def uptime():
    try:
        load = os.getloadavg()
    except OSError:
        return "load average unknown"
    return "load average " + ", ".join(f"{x:.2f}" for x in load)


def cell(seconds):
    return "—" if seconds is None else f"{seconds:.3f}"


def ratio(a, b):
    return "—" if a is None or b is None else f"{a / b:.2f}"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--quick", action="store_true", help="2-core sizes (default)")
    size.add_argument("--full", action="store_true", help="16-core sizes")
    parser.add_argument("--families", nargs="+", choices=list(SIZES), default=list(SIZES))
    parser.add_argument("--columns", nargs="+", choices=COLUMNS, default=list(COLUMNS))
    parser.add_argument("--repeats", type=int, default=None,
                        help="fits per child, best kept (quick: 2, full: 3)")
    parser.add_argument("--rounds", type=int, default=1,
                        help="run every cell this many times, interleaved, best kept (a "
                             "machine whose load changes: 3)")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every row count")
    parser.add_argument("--timeout", type=float, default=600.0,
                        help="seconds a child may take before its cell is left empty")
    parser.add_argument("--sources", nargs="+", metavar="LABEL=DIR",
                        help="compare versions of hyperplane: each DIR (e.g. another "
                             "checkout's src) is timed in turn, column by column, in the "
                             "same run; the peer runs with the first")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--no-peer", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--rows", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--cols", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    repeats = args.repeats or (3 if args.full else 2)
    if args.child:
        child(args.child, args.rows, args.cols, repeats, not args.no_peer)
        return

    which = 1 if args.full else 0
    print(f"cores: {os.cpu_count()}, usable: {len(os.sched_getaffinity(0))}; "
          f"{uptime()} (start); repeats {repeats}", flush=True)
    print("", flush=True)
    print("| family | rows x cols | library | one thread s | default s | default, one core busy s "
          "| one thread, one core busy s | default/one | busy/one busy |")
    print("|---|---|---|--:|--:|--:|--:|--:|--:|", flush=True)
    sources = [tuple(s.split("=", 1)) for s in args.sources] if args.sources else [(None, None)]
    for family in args.families:
        n, d = SIZES[family][which]
        n = max(100, int(n * args.scale))
        results = {}
        for _ in range(args.rounds):  # rounds spread each cell over the run's load
            for column in args.columns:  # the versions alternate within each column
                for i, (label, source) in enumerate(sources):
                    r = measure(family, (n, d), column, repeats, args.timeout, source,
                                with_peer=i == 0)
                    results[label, column] = best_of_rounds(results.get((label, column)), r)
        peer = next((r["peer"] for r in results.values() if r), None)
        rows = [(f"hyperplane ({label})" if label else "hyperplane", label, "ours")
                for label, _ in sources] + [(peer, sources[0][0], "peer")]
        for library, label, key in rows:
            if library is None:
                continue
            t = {c: (results[label, c]["best"].get(key) if results[label, c] else None)
                 for c in args.columns}
            one, default, busy, one_busy = (t.get(c) for c in COLUMNS)
            print(f"| {family} | {n}x{d} | {library} | {cell(one)} | {cell(default)} | "
                  f"{cell(busy)} | {cell(one_busy)} | {ratio(default, one)} | "
                  f"{ratio(busy, one_busy)} |", flush=True)
    print("", flush=True)
    print(f"{uptime()} (end)", flush=True)


if __name__ == "__main__":
    main()
