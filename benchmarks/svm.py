"""hyperplane's SMO against scikit-learn's SVC/SVR/NuSVC/NuSVR (LIBSVM) on the same data.

Same data, same C, gamma and tol=1e-3, timed in the same run, one after the
other (the machine may be shared: compare the ratios, not the seconds).
Prints time, ratio, accuracy (or R^2), support-vector count, dual objective
and the peak memory the fit allocated (tracemalloc; the kernel cache is
bounded by cache_size MB).

    PYTHONPATH=src python benchmarks/svm.py            # issue 5's sizes
    PYTHONPATH=src python benchmarks/svm.py --scale 0.2  # quick look
    PYTHONPATH=src python benchmarks/svm.py --cases nusvc nusvr --threads 1
"""

from __future__ import annotations

import argparse
import time
import tracemalloc

import numpy as np
from sklearn.datasets import make_classification, make_regression
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC as LibSVC
from sklearn.svm import SVR as LibSVR
from sklearn.svm import NuSVC as LibNuSVC
from sklearn.svm import NuSVR as LibNuSVR

from hyperplane.svm import SVC, SVR, NuSVC, NuSVR


def classification(n, d, seed=0):
    X, y = make_classification(n_samples=n + 2000, n_features=d, n_informative=10,
                               flip_y=0.05, random_state=seed)
    X = StandardScaler().fit_transform(X)
    return X[:n], y[:n], X[n:], y[n:]


def regression(n, d, seed=0):
    X, z = make_regression(n_samples=n + 2000, n_features=d, n_informative=10,
                           noise=10.0, random_state=seed)
    X = StandardScaler().fit_transform(X)
    z = (z - z.mean()) / z.std()
    return X[:n], z[:n], X[n:], z[n:]


def timed_fit(model, X, y, trace):
    """Wall and CPU seconds of ``fit`` (both fits are single-threaded, so CPU
    time is the fairer measure on a shared machine) and the peak MB that
    tracemalloc saw (numpy's allocations; LIBSVM's C heap is invisible to it)."""
    if trace:
        tracemalloc.start()
    start, cpu = time.perf_counter(), time.process_time()
    model.fit(X, y)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    peak = tracemalloc.get_traced_memory()[1] / 2 ** 20 if trace else float("nan")
    if trace:
        tracemalloc.stop()
    return seconds, cpu, peak


def svc_objective(alpha_y, kernel, X, block=2000):
    """1/2 a'Qa - sum a, from the coefficients a_i y_i, without an n x n matrix."""
    support = np.flatnonzero(alpha_y)
    c = alpha_y[support]
    Xs = X[support]
    quad = sum(c[s:s + block] @ (kernel(Xs[s:s + block], Xs) @ c)
               for s in range(0, len(c), block))
    return 0.5 * quad - np.sum(np.abs(c))


def run_case(name, ours, peer, data, score, trace):
    X, y, X_test, y_test = data
    ours.fit(X[:200], y[:200])                       # compile (cached on disk after)
    t_ours, cpu_ours, mem_ours = timed_fit(ours, X, y, trace)
    t_peer, cpu_peer, mem_peer = timed_fit(peer, X, y, trace)
    row = {
        "case": name, "n x d": f"{X.shape[0]}x{X.shape[1]}",
        "hyperplane s": t_ours, "sklearn s": t_peer, "speed-up": t_peer / t_ours,
        "hyperplane cpu s": cpu_ours, "sklearn cpu s": cpu_peer,
        "cpu speed-up": cpu_peer / cpu_ours,
        "score hp": score(ours, X_test, y_test), "score sk": score(peer, X_test, y_test),
        "SV hp": len(ours.support_), "SV sk": len(peer.support_),
        "iter hp": int(np.sum(ours.n_iter_)), "iter sk": int(np.sum(peer.n_iter_)),
        "peak MB hp": mem_ours, "peak MB sk": mem_peer,
    }
    if isinstance(ours, SVC):       # NuSVC's dual is another problem: not compared
        ys = np.where(y == ours.classes_[1], 1.0, -1.0)
        ay_peer = np.zeros(len(y))
        ay_peer[peer.support_] = peer.dual_coef_[0]
        row["dual hp"] = svc_objective(ours.alpha_ * ys, ours.kernel_, X)
        row["dual sk"] = svc_objective(ay_peer, ours.kernel_, X)
    return row


def accuracy(model, X, y):
    return float(np.mean(model.predict(X) == y))


def r2(model, X, y):
    return float(model.score(X, y))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="fraction of the sizes")
    parser.add_argument("--cases", nargs="*", default=["rbf", "linear", "svr"])
    parser.add_argument("--threads", type=int, default=None,
                        help="hyperplane's n_jobs (LIBSVM is single-threaded); default all")
    parser.add_argument("--no-memory", action="store_true",
                        help="skip tracemalloc (it slows LIBSVM's allocations slightly)")
    args = parser.parse_args()
    s = args.scale
    cases = {
        "rbf": lambda: ("SVC rbf", SVC(kernel="rbf", C=1.0, tol=1e-3),
                        LibSVC(kernel="rbf", C=1.0, tol=1e-3),
                        classification(int(20000 * s), 50), accuracy),
        "linear": lambda: ("SVC linear", SVC(kernel="linear", C=1.0, tol=1e-3),
                           LibSVC(kernel="linear", C=1.0, tol=1e-3),
                           classification(int(10000 * s), 50, seed=1), accuracy),
        "svr": lambda: ("SVR rbf", SVR(kernel="rbf", C=1.0, epsilon=0.1, tol=1e-3),
                        LibSVR(kernel="rbf", C=1.0, epsilon=0.1, tol=1e-3),
                        regression(int(10000 * s), 20), r2),
        "nusvc": lambda: ("NuSVC rbf", NuSVC(kernel="rbf", nu=0.3, tol=1e-3),
                          LibNuSVC(kernel="rbf", nu=0.3, tol=1e-3),
                          classification(int(20000 * s), 50), accuracy),
        "nusvr": lambda: ("NuSVR rbf", NuSVR(kernel="rbf", C=1.0, nu=0.3, tol=1e-3),
                          LibNuSVR(kernel="rbf", C=1.0, nu=0.3, tol=1e-3),
                          regression(int(10000 * s), 20), r2),
    }
    for key in args.cases:
        name, ours, peer, data, score = cases[key]()
        ours.set_params(n_jobs=args.threads)
        name += f" (hp n_jobs={args.threads})"
        row = run_case(name, ours, peer, data, score, trace=not args.no_memory)
        print(" | ".join(f"{k}: {v:.4g}" if isinstance(v, float) else f"{k}: {v}"
                         for k, v in row.items()), flush=True)


if __name__ == "__main__":
    main()
