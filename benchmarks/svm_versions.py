"""Time SVC (or NuSVC, NuSVR, OneClassSVM) of several checkouts of hyperplane on 1 and 2 (or more) threads in the same run.

Usage (from the repository root; ``/tmp/mainsrc/src`` the ``src`` of an earlier commit,
e.g. ``git archive 4580f05 src | tar -x -C /tmp/mainsrc``)::

    python benchmarks/svm_versions.py --checkout main=/tmp/mainsrc/src --checkout new=src
    python benchmarks/svm_versions.py --model nusvr one-class --checkout main=... --checkout new=src

``--model`` picks the estimators (rbf kernel, defaults otherwise; NuSVR fits the
labels as targets, OneClassSVM ignores them): the nu and one-class duals start
from alpha0 != 0, whose gradient the compiled loop computes before iterating.

Each (checkout, case) runs in its own subprocess with ``PYTHONPATH`` pointed at
the checkout; the checkouts take turns ``--repeats`` times, so load on a shared
machine hits all alike. A subprocess fits once on a slice (compilation, read
from numba's cache after the first run), then fits the case at every thread
count of ``--threads`` (``numba.set_num_threads(k)`` and
``threadpoolctl.threadpool_limits(k)``, as ``benchmarks/threads.py`` does).
Per fit it reports the wall seconds, the CPU seconds of the process (all
threads) and of the calling thread (``time.thread_time``): their difference is
what other threads burned (numba's workers or BLAS's, spinning or working).
The table shows the best of the repeats and the md5 of ``dual_coef_``,
``support_`` and ``intercept_`` (the same on every thread count and checkout
when the fit's values do not depend on the threads).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

#: the estimators ``--model`` times (see the module docstring)
MODELS = ["svc", "nusvc", "nusvr", "one-class"]

#: case name -> (kind, rows, columns, density)
CASES = {
    "CSR 10000x2000 1%": ("csr", 10_000, 2000, 0.01),
    "dense 10000x100": ("dense", 10_000, 100, 1.0),
}

CHILD = r"""
import hashlib, json, sys, time
import numba
from threadpoolctl import threadpool_limits
kind, n, d, density, threads, benchmarks, model = json.loads(sys.argv[1])
sys.path.insert(0, benchmarks)
from threads import dense_classification, sparse_classification   # the same data as there
from hyperplane import svm
SVC = lambda kernel, C=1.0: (svm.SVC(kernel=kernel, C=C) if model == "svc" else
                             svm.NuSVC(kernel=kernel) if model == "nusvc" else
                             svm.NuSVR(kernel=kernel, C=C) if model == "nusvr" else
                             svm.OneClassSVM(kernel=kernel))
X, y = (sparse_classification(n, d, density) if kind == "csr" else dense_classification(n, d))
SVC(kernel="rbf").fit(X[:2000], y[:2000])
out = []
for k in threads:
    numba.set_num_threads(k)
    with threadpool_limits(k):
        wall, cpu, own = time.perf_counter(), time.process_time(), time.thread_time()
        m = SVC(kernel="rbf", C=1.0).fit(X, y)
        own, cpu = time.thread_time() - own, time.process_time() - cpu
        wall = time.perf_counter() - wall
    bits = m.dual_coef_.tobytes() + m.support_.tobytes() + m.intercept_.tobytes()
    out.append([k, wall, cpu, own, hashlib.md5(bits).hexdigest()[:8]])
print(json.dumps(out))
"""


def run_in_checkout(src, child, payload):
    """The JSON that the Python code ``child`` prints last, run in a subprocess
    with ``PYTHONPATH`` pointed at the checkout ``src`` and ``payload`` (JSON) as
    its argument."""
    env = dict(os.environ, PYTHONPATH=os.path.abspath(src))
    out = subprocess.run([sys.executable, "-c", child, json.dumps(payload)],
                         env=env, capture_output=True, text=True)
    if out.returncode:
        raise RuntimeError(out.stderr)
    return json.loads(out.stdout.strip().splitlines()[-1])


def fit_case(src, case, threads, model="svc"):
    """``[[threads, wall s, process CPU s, own thread CPU s, md5], ...]`` of one subprocess."""
    return run_in_checkout(src, CHILD, list(case) + [threads, HERE, model])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkout", action="append", required=True,
                        help="NAME=PATH of a src directory (repeatable)")
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2, 1, 2])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--case", nargs="+", default=list(CASES), choices=list(CASES))
    parser.add_argument("--model", nargs="+", default=["svc"], choices=MODELS)
    args = parser.parse_args()
    checkouts = dict(c.split("=", 1) for c in args.checkout)
    best = {}
    for model in args.model:
        for case in args.case:
            name = case if model == "svc" else f"{model} {case}"
            for _ in range(args.repeats):
                for label, src in checkouts.items():
                    for k, wall, cpu, own, md5 in fit_case(src, CASES[case], args.threads, model):
                        old = best.setdefault((name, label, k),
                                              [wall, cpu, own, cpu - own, set()])
                        for i, v in enumerate((wall, cpu, own, cpu - own)):
                            old[i] = min(old[i], v)
                        old[4].add(md5)
    print(f"load average {os.getloadavg()[0]:.1f} at the end; best of {args.repeats} "
          f"subprocesses x {args.threads.count(args.threads[0])} fits")
    print("| case | checkout | threads | wall s | CPU s | own thread CPU s | "
          "other threads CPU s | md5 |")
    print("|---|---|---:|---:|---:|---:|---:|---|")
    for (name, label, k), (wall, cpu, own, other, md5) in best.items():
        print(f"| {name} | {label} | {k} | {wall:.3f} | {cpu:.3f} | {own:.3f} | {other:.3f} | "
              f"{' '.join(sorted(md5))} |")


if __name__ == "__main__":
    main()
