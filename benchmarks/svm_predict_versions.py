"""Prediction of the kernel SVMs on CSR samples, several source trees in the same run: md5s and seconds.

Usage (from the repository root)::

    python benchmarks/svm_predict_versions.py --src /tmp/before/src --src src

Each source tree runs in a fresh Python process (``PYTHONPATH`` pointed at it,
its own empty numba cache). It prints the md5 of the decision values (and
predictions) of SVC, NuSVC, SVR, NuSVR and OneClassSVM fitted on heart_scale
as CSR, and of an RBF SVC on CSR rows with repeated and nearly repeated rows
(the distances that cancel, recomputed directly), in float64 and float32;
then the seconds (best of ``--repeats``, wall and process CPU) of
``decision_function`` of an RBF SVC fitted on 2,000 CSR rows x 50 features
(30% nonzero) on 20,000 such rows (Gram blocks of 20k x the support vectors:
the distances' element-wise step on a block of some 10^7 entries), and of
the RBF kernel's block k(X, Y) of 20,000 x 2,000 such rows alone. The trees
take turns, so load on a shared machine hits all alike.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile

from _table import md5_table

CHILD = r'''
import hashlib, sys, time, warnings
warnings.simplefilter("ignore")
import numpy as np, scipy.sparse as sp
from hyperplane.datasets import load_heart_scale
from hyperplane.kernels import RBF, Laplace
from hyperplane.svm import SVC, SVR, NuSVC, NuSVR, OneClassSVM
what = sys.argv[1]
rng = np.random.default_rng(0)
if what == "bits":
    Xs, y = load_heart_scale()
    Xn = sp.random(300, 40, density=0.2, format="csr", random_state=3)
    Xn = sp.vstack([Xn, Xn[:30], Xn[30:60] * (1 + 1e-9)]).tocsr()
    sums = np.asarray(Xn.sum(axis=1)).ravel()
    yn = np.where(sums > np.median(sums), 1, -1)
    cases = [(f"{type(m).__name__} {m.kernel} heart_scale csr", m, Xs, t) for m, t in (
        (SVC(), y), (SVC(kernel="poly", degree=3), y), (SVC(kernel="sigmoid", gamma=0.05), y),
        (NuSVC(nu=0.3), y), (SVR(C=3.0), y), (NuSVR(nu=0.4), y), (OneClassSVM(nu=0.2), None))]
    cases += [("SVC rbf near rows csr", SVC(gamma=50.0), Xn, yn),
              ("SVC rbf near rows csr f32", SVC(gamma=50.0), Xn.astype(np.float32), yn),
              ("SVC laplace near rows csr", SVC(kernel=Laplace(sigma=0.5)), Xn, yn)]
    for label, m, X, t in cases:
        m = m.fit(X, t) if t is not None else m.fit(X)
        out = [np.asarray(m.decision_function(X) if hasattr(m, "decision_function") else m.predict(X))]
        out.append(np.asarray(m.predict(X)))
        print(f"{label:36s} {hashlib.md5(b''.join(a.tobytes() for a in out)).hexdigest()}")
else:
    X = sp.random(22000, 50, density=0.3, format="csr", random_state=1)
    y = np.where(X[:, 0].toarray().ravel() + X[:, 1].toarray().ravel() > 0.3, 1, -1)
    model = SVC(C=10.0).fit(X[:2000], y[:2000])
    T, kernel = X[2000:], RBF(sigma=1.0)
    model.decision_function(T[:100]); kernel(T[:2000], X[:2000])        # compile
    for name, run in (("decision_function 20k x %d SVs" % model.support_.size, lambda: model.decision_function(T)),
                      ("RBF block 20k x 2k", lambda: kernel(T, X[:2000]))):
        w0, c0 = time.perf_counter(), time.process_time()
        run()
        print(f"{name}\t{time.perf_counter() - w0:.3f}\t{time.process_time() - c0:.3f}")
'''


def child(src, what):
    """The child's output lines for one source tree (``what``: bits or timing)."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, PYTHONPATH=os.path.abspath(src), NUMBA_CACHE_DIR=cache)
        done = subprocess.run([sys.executable, "-c", CHILD, what], env=env, capture_output=True,
                              text=True, check=True)
    return [line for line in done.stdout.splitlines() if line.strip()]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", action="append", required=True, help="a source tree (repeatable)")
    parser.add_argument("--repeats", type=int, default=3, help="timing runs per tree (best shown)")
    args = parser.parse_args()
    bits = [dict(line.rsplit(None, 1) for line in child(src, "bits")) for src in args.src]
    print(md5_table("prediction", args.src, bits))
    best = {}
    for _ in range(args.repeats):
        for src in args.src:
            for line in child(src, "timing"):
                name, wall, cpu = line.split("\t")
                old = best.get((src, name), (float("inf"), float("inf")))
                best[src, name] = (min(old[0], float(wall)), min(old[1], float(cpu)))
    print("\n| timing (best of %d) | source | wall s | CPU s |" % args.repeats)
    print("|---|---|---:|---:|")
    for (src, name), (wall, cpu) in sorted(best.items(), key=lambda kv: (kv[0][1], args.src.index(kv[0][0]))):
        print(f"| {name} | {src} | {wall:.3f} | {cpu:.3f} |")


if __name__ == "__main__":
    main()
