"""Time the logistic loss-and-gradient pass and the L-BFGS fit of several
checkouts of hyperplane, and scikit-learn's, in the same run.

Usage (from the repository root; ``/tmp/old/src`` the ``src`` of an earlier
commit, e.g. ``git archive fe8920a src | tar -x -C /tmp/old``)::

    python benchmarks/logistic_versions.py --checkout old=/tmp/old/src --checkout new=src \
        [--data "dense 200k×50 3-class"] [--rounds 5] [--threads 1] [--weighted] [--solver tron]

Each (checkout, round) runs in its own subprocess with ``PYTHONPATH`` pointed
at the checkout; the checkouts take turns ``--rounds`` times, so that a change
of load on a shared machine falls on all of them. A subprocess fits once on a
small slice (compilation, read from numba's cache after the first round),
then reports, on ``--threads`` threads (numba and BLAS):

* ``pass ms``: the best CPU milliseconds of 7 calls of
  ``logistic_loss_grad`` at a fixed small ``(coef, intercept)`` -- one
  evaluation of L-BFGS's objective;
* ``sklearn ms``: the same for scikit-learn's ``LinearModelLoss.loss_gradient``
  on the same data (the peer, in the same process);
* ``fit s``: the CPU seconds of ``LogisticRegression(solver=--solver)`` (lbfgs), its
  iterations and its final penalised objective (``float.hex``, to compare the
  checkouts' bits).

The table shows each checkout's best over the rounds and its median pass time.
The data sets are those of ``benchmarks/linear.py`` (``make_data``: Gaussian
classes, float64).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

#: case name -> (layout, rows, columns, classes, density), as in benchmarks/linear.py
CASES = {
    "dense 200k×50 3-class": ("dense", 200_000, 50, 3, 1.0),
    "dense 200k×50 binary": ("dense", 200_000, 50, 2, 1.0),
    "dense 1M×20 3-class": ("dense", 1_000_000, 20, 3, 1.0),
    "dense 50k×50 3-class": ("dense", 50_000, 50, 3, 1.0),
    "CSR 100k×10k 0.1% 3-class": ("csr", 100_000, 10_000, 3, 1e-3),
}

CHILD = r"""
import json, sys, time, warnings
import numba
import numpy as np
from threadpoolctl import threadpool_limits
layout, n, d, k, density, threads, C, weighted, solver, benchmarks = json.loads(sys.argv[1])
sys.path.insert(0, benchmarks)
from linear import best_cpu_ms, make_data, make_sparse      # benchmarks/linear.py's
from hyperplane.linear import LogisticRegression
from hyperplane.linear._logistic import logistic_loss_grad
from sklearn._loss.loss import HalfBinomialLoss, HalfMultinomialLoss
from sklearn.linear_model._linear_loss import LinearModelLoss

X, y = make_data(n, d, k) if layout == "dense" else make_sparse(n, d, k, density)
s = np.random.default_rng(1).uniform(0.5, 2.0, n) if weighted else None
warnings.simplefilter("ignore")
LogisticRegression(solver=solver).fit(X[:2000], y[:2000], sample_weight=None if s is None else s[:2000])
rows = 1 if k == 2 else k
coef = np.random.default_rng(0).normal(scale=0.01, size=(rows, d + 1))
sk = LinearModelLoss(base_loss=HalfBinomialLoss() if k == 2 else HalfMultinomialLoss(n_classes=k),
                     fit_intercept=True)
numba.set_num_threads(threads)
with threadpool_limits(threads):
    ours = best_cpu_ms(lambda: logistic_loss_grad(X, y, coef[:, :-1], coef[:, -1], s))
    peer = best_cpu_ms(lambda: sk.loss_gradient(coef[0] if k == 2 else coef.ravel(), X,
                                                y.astype(float), s, l2_reg_strength=1.0 / n,
                                                n_threads=threads))
    cpu = time.process_time()
    m = LogisticRegression(solver=solver, C=C, tol=1e-6, max_iter=1000).fit(X, y, sample_weight=s)
    cpu = time.process_time() - cpu
loss = logistic_loss_grad(X, y, m.coef_, m.intercept_, s)[0]
total = n if s is None else s.sum()
objective = loss / total + (m.coef_ ** 2).sum() / (2 * C * total)
print(json.dumps([ours, peer, cpu, int(np.max(m.n_iter_)), float(objective).hex()]))
"""


def run_child(src, case, threads, C, weighted, solver):
    env = dict(os.environ, PYTHONPATH=os.path.abspath(src))
    out = subprocess.run([sys.executable, "-c", CHILD,
                          json.dumps([*CASES[case], threads, C, weighted, solver, HERE])],
                         env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--checkout", action="append", required=True, metavar="NAME=SRC",
                        help="a name and the src folder of a checkout (repeatable)")
    parser.add_argument("--data", nargs="+", choices=list(CASES), default=["dense 200k×50 3-class"])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--C", type=float, default=1.0)
    parser.add_argument("--solver", default="lbfgs", choices=["lbfgs", "tron", "newton"],
                        help="the solver of the timed fit (the pass is L-BFGS's either way)")
    parser.add_argument("--weighted", action="store_true",
                        help="sample weights uniform on [0.5, 2] in the pass and the fit")
    args = parser.parse_args(argv)
    checkouts = dict(item.split("=", 1) for item in args.checkout)
    print("| data | checkout | pass ms (best) | pass ms (median) | sklearn ms (best) "
          "| fit CPU s (best) | iterations | objective |")
    print("|---|---|---:|---:|---:|---:|---:|---|")
    for case in args.data:
        runs = {name: [] for name in checkouts}
        for _ in range(args.rounds):
            for name, src in checkouts.items():
                runs[name].append(run_child(src, case, args.threads, args.C, args.weighted,
                                            args.solver))
        for name, results in runs.items():
            passes = [r[0] for r in results]
            iterations = sorted({r[3] for r in results})
            objectives = sorted({r[4] for r in results})
            print(f"| {case} | {name} | {min(passes):.2f} | {statistics.median(passes):.2f} "
                  f"| {min(r[1] for r in results):.2f} | {min(r[2] for r in results):.3f} "
                  f"| {', '.join(map(str, iterations))} | {', '.join(objectives)} |", flush=True)


if __name__ == "__main__":
    main()
