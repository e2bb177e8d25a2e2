"""Thread scaling of the SMO kernel rows and the dense logistic passes, with
scikit-learn (LIBSVM, lbfgs) in the same run.

Usage (from the repository root)::

    PYTHONPATH=src python benchmarks/threads.py --threads 1 2 4 8 16
    PYTHONPATH=src python benchmarks/threads.py --threads 1 2 --scale 0.25   # quick look

For every thread count ``k`` (``numba.set_num_threads(k)`` and
``threadpoolctl.threadpool_limits(k)`` for BLAS) it fits

* ``SVC(kernel="rbf")`` on dense ``make_classification`` data (10k x 100,
  standardised: full kernel rows of 10^6 multiply-adds, computed on all
  threads) and on uniform random CSR data (10k x 2000 at 1% density: rows
  summed by columns, about 10^4 multiply-adds, kept on one thread),
  with scikit-learn's ``SVC`` (LIBSVM, one thread whatever ``k``: timed at
  the first thread count only) beside it;
* ``LogisticRegression`` with the ``lbfgs``, ``newton`` and ``tron`` solvers
  on dense ``make_classification`` data (200k x 50, two classes), with
  scikit-learn's lbfgs beside it (its matrix products use ``k`` BLAS threads),

best of ``--repeats``, and prints the wall and CPU seconds (process CPU, all
threads), the wall speed-up over hyperplane's own one-thread fit and the
wall ratio to the peer. ``same`` says whether hyperplane's model (SVC:
``dual_coef_``, ``support_``, ``intercept_``; logistic: ``coef_``,
``intercept_``) has the same bits as at the first thread count: the row
blocks are fixed by the data, so it must. Compilation is excluded (a warm-up
fit on small data). ``--scale`` multiplies every row count.
"""

from __future__ import annotations

import argparse
import os
import time

import numba
import numpy as np
import scipy.sparse as sp
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression as SkLogisticRegression
from sklearn.svm import SVC as LibSVC
from threadpoolctl import threadpool_limits

from hyperplane.linear import LogisticRegression
from hyperplane.svm import SVC


#: peers that run on one thread whatever the thread count: timed at the first
#: thread count only, their time repeated on the other lines
ONE_THREAD_PEERS = ("LIBSVM (sklearn SVC)",)


def timed(fit):
    """``(model, wall seconds, CPU seconds of the process)`` of one call."""
    start, cpu = time.perf_counter(), time.process_time()
    model = fit()
    return model, time.perf_counter() - start, time.process_time() - cpu


def best_of(fit, repeats):
    """The model and the best wall and CPU seconds of ``repeats`` calls."""
    runs = [timed(fit) for _ in range(repeats)]
    return runs[-1][0], min(r[1] for r in runs), min(r[2] for r in runs)


def dense_classification(n, d, seed=0):
    X, y = make_classification(n_samples=n, n_features=d, n_informative=d // 2,
                               random_state=seed)
    return (X - X.mean(axis=0)) / X.std(axis=0), y


def sparse_classification(n, d, density, seed=0):
    """Uniform random CSR rows (int32 indices, as LIBSVM's wrapper wants), labels
    from a linear rule with 10% flipped."""
    rng = np.random.default_rng(seed)
    X = sp.random(n, d, density=density, format="csr", random_state=seed,
                  data_rvs=lambda k: rng.normal(size=k))
    X.indices, X.indptr = X.indices.astype(np.int32), X.indptr.astype(np.int32)
    score = X @ rng.normal(size=d)
    y = (score > np.median(score)).astype(int)
    flip = rng.random(n) < 0.1
    y[flip] = 1 - y[flip]
    return X, y


def svc_bits(model):
    return model.dual_coef_.tobytes() + model.support_.tobytes() + model.intercept_.tobytes()


def logistic_bits(model):
    return model.coef_.tobytes() + model.intercept_.tobytes()


def cases(scale):
    """``(name, X, y, {label: (fit, bits or None for a peer)})`` of every case."""
    svc = {"hyperplane SVC": (lambda X, y: SVC(kernel="rbf", C=1.0).fit(X, y), svc_bits),
           "LIBSVM (sklearn SVC)": (lambda X, y: LibSVC(kernel="rbf", C=1.0).fit(X, y), None)}
    logistic = {f"hyperplane {s}": (lambda X, y, s=s: LogisticRegression(
        solver=s, C=1.0, tol=1e-6, max_iter=1000).fit(X, y), logistic_bits)
        for s in ("lbfgs", "newton", "tron")}
    logistic["sklearn lbfgs"] = (lambda X, y: SkLogisticRegression(
        C=1.0, tol=1e-6, max_iter=1000).fit(X, y), None)
    n_svc, n_log = int(10_000 * scale), int(200_000 * scale)
    Xd, yd = dense_classification(n_svc, 100)
    Xs, ys = sparse_classification(n_svc, 2000, 0.01)
    Xl, yl = dense_classification(n_log, 50, seed=1)
    return [(f"SVC rbf dense {n_svc}x100", Xd, yd, svc),
            (f"SVC rbf CSR {n_svc}x2000 1%", Xs, ys, svc),
            (f"logistic dense {n_log}x50", Xl, yl, logistic)]


def warm_up():
    """Compile every kernel the timed fits run (serial and parallel paths)."""
    X, y = dense_classification(3000, 100)
    SVC(kernel="rbf").fit(X, y)
    Xs, ys = sparse_classification(3000, 2000, 0.1)
    SVC(kernel="rbf").fit(Xs, ys)
    X, y = dense_classification(20_000, 50)
    for solver in ("lbfgs", "newton", "tron"):
        LogisticRegression(solver=solver).fit(X, y)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", type=int, nargs="*",
                        default=[1, numba.config.NUMBA_NUM_THREADS])
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--scale", type=float, default=1.0)
    args = parser.parse_args()
    usable = [k for k in args.threads if k <= numba.config.NUMBA_NUM_THREADS]
    skipped = sorted(set(args.threads) - set(usable))
    if skipped:
        print(f"skipped thread counts above NUMBA_NUM_THREADS="
              f"{numba.config.NUMBA_NUM_THREADS}: {skipped}")
    warm_up()
    print(f"numba {numba.__version__}, threading layer {numba.threading_layer()}, "
          f"{numba.config.NUMBA_NUM_THREADS} threads available, "
          f"OMP_WAIT_POLICY={os.environ.get('OMP_WAIT_POLICY', '(unset)')}, scale {args.scale}")
    print("| case | model | threads | wall s | CPU s | speed-up vs own 1 thread | "
          "wall vs peer | same bits |")
    print("|---|---|---|---|---|---|---|---|")
    for name, X, y, fits in cases(args.scale):
        first_wall, first_bits, once = {}, {}, {}
        for k in usable:
            numba.set_num_threads(k)
            with threadpool_limits(k):
                results = {label: best_of(lambda: fit(X, y), args.repeats)
                           for label, (fit, _) in fits.items()
                           if k == usable[0] or label not in ONE_THREAD_PEERS}
            results.update({label: once[label] for label in ONE_THREAD_PEERS
                            if label in fits and label not in results})
            once.update(results)
            peer_wall = [wall for label, (_, wall, _) in results.items()
                         if fits[label][1] is None][0]
            for label, (model, wall, cpu) in results.items():
                bits = fits[label][1]
                first_wall.setdefault(label, wall)
                same = ""
                if bits is not None:
                    first_bits.setdefault(label, bits(model))
                    same = "yes" if bits(model) == first_bits[label] else "NO"
                print(f"| {name} | {label} | {k} | {wall:.2f} | {cpu:.2f} | "
                      f"{first_wall[label] / wall:.2f}x | {peer_wall / wall:.2f}x | {same} |",
                      flush=True)
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)


if __name__ == "__main__":
    main()
