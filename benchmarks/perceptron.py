"""Perceptron family: hyperplane vs scikit-learn, same data, same settings, one run.

Run:  PYTHONPATH=src python benchmarks/perceptron.py [--epochs 5] [--quick]

Settings on both sides: no shuffling, a fixed number of epochs (the data are not
separable, so every epoch runs), tolerance-based stopping off, eta = 1. The floor
is the time of one plain pass over X (``X.sum()``), i.e. memory bandwidth.

"ms/epoch" is the marginal cost of an epoch, (T(1 + E epochs) - T(1 epoch)) / E,
so that the one-off input validation and label encoding of both libraries are
not counted as epochs; "fit s" is the whole fit with 1 + E epochs.

``--sparse`` times the CSR rows instead (text-like data, both libraries on the
same ``csr_matrix``): the floor is one read of the nonzeros, a sparse
matrix-vector product ``X @ w`` (``data`` and ``indices`` once each), and the
times are CPU seconds (``time.process_time``) as well as wall.
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
import scipy.sparse as sp
from sklearn.datasets import make_classification
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import Perceptron as SkPerceptron
from sklearn.metrics.pairwise import rbf_kernel

from hyperplane.kernels import RBF
from hyperplane.linear import Perceptron


def best_of(fn, repeat=3):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return min(times), result


def primal_row(n, d, dtype, epochs):
    X, y = make_classification(n_samples=n, n_features=d, n_informative=d // 2,
                               flip_y=0.05, random_state=0)
    X = X.astype(dtype)
    floor, _ = best_of(lambda: X.sum())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        Perceptron(max_iter=1).fit(X[:100], y[:100])          # compile outside the timing
        def ours(k):
            return Perceptron(max_iter=k).fit(X, y)

        def ref(k):
            return SkPerceptron(max_iter=k, tol=None, shuffle=False, eta0=1.0).fit(X, y)

        t1_ours, _ = best_of(lambda: ours(1))
        t_ours, model = best_of(lambda: ours(1 + epochs))
        t1_ref, _ = best_of(lambda: ref(1))
        t_ref, ref_model = best_of(lambda: ref(1 + epochs))
    per_ours, per_ref = (t_ours - t1_ours) / epochs, (t_ref - t1_ref) / epochs
    return (f"| primal {n}×{d} {np.dtype(dtype).name} | {per_ours * 1e3:.1f} | {per_ref * 1e3:.1f} "
            f"| {per_ref / per_ours:.1f}× | {t_ours:.2f} | {t_ref:.2f} | {floor * 1e3:.1f} "
            f"| {per_ours / floor:.2f}× | {model.score(X, y):.4f} | {ref_model.score(X, y):.4f} |")


def cpu_best_of(fn, repeat=3):
    """Best CPU time (all threads) of ``repeat`` calls."""
    times = []
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        times.append(time.process_time() - t0)
    return min(times)


def sparse_data(n, d, density, seed=0):
    """CSR rows with about ``density · d`` nonzero counts each; labels from a
    sparse linear rule with 5% flipped (not separable: every epoch runs)."""
    rng = np.random.default_rng(seed)
    counts = rng.poisson(density * d, n)
    indptr = np.concatenate([[0], np.cumsum(counts)])
    X = sp.csr_matrix((rng.poisson(2.0, indptr[-1]) + 1.0, rng.integers(0, d, indptr[-1]),
                       indptr), shape=(n, d))
    X.sum_duplicates()
    w = rng.normal(size=d) * (rng.random(d) < 0.1)
    y = np.where(X @ w > np.median(X @ w), 1, -1)
    y[rng.random(n) < 0.05] *= -1
    return X, y


def sparse_row(n, d, density, epochs):
    X, y = sparse_data(n, d, density)
    w = np.ones(d)
    floor = cpu_best_of(lambda: X @ w)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        Perceptron(max_iter=1).fit(X[:100], y[:100])          # compile outside the timing

        def ours(k):
            return Perceptron(max_iter=k).fit(X, y)

        def ref(k):
            return SkPerceptron(max_iter=k, tol=None, shuffle=False, eta0=1.0).fit(X, y)

        per = {}
        for name, fit in (("ours", ours), ("ref", ref)):
            t1 = cpu_best_of(lambda: fit(1))
            tk = cpu_best_of(lambda: fit(1 + epochs))
            per[name] = (tk - t1) / epochs
        model, ref_model = ours(1 + epochs), ref(1 + epochs)
    return (f"| CSR {n}×{d}, {X.nnz / n:.0f} nonzeros/row | {per['ours'] * 1e3:.1f} "
            f"| {per['ref'] * 1e3:.1f} | {per['ref'] / per['ours']:.1f}× | {floor * 1e3:.1f} "
            f"| {per['ours'] / floor:.2f}× | {model.score(X, y):.4f} "
            f"| {ref_model.score(X, y):.4f} |")


def gram_row(n, d):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(n, d))
    gamma = 1.0 / d
    kernel = RBF(sigma=float(np.sqrt(1 / (2 * gamma))))
    kernel(X[:10])
    t_ours, K = best_of(lambda: kernel(X))
    t_ref, K_ref = best_of(lambda: rbf_kernel(X, gamma=gamma))
    err = float(np.max(np.abs(K - K_ref)))
    return (f"| RBF Gram {n}×{d} | {t_ours * 1e3:.1f} | {t_ref * 1e3:.1f} | "
            f"{t_ref / t_ours:.2f}× | max abs diff {err:.1e} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="small sizes (smoke test)")
    parser.add_argument("--sparse", action="store_true", help="only the CSR table")
    args = parser.parse_args()
    if args.sparse:
        scale = 10 if args.quick else 1
        print("| case | hyperplane CPU ms/epoch | sklearn CPU ms/epoch | speed-up "
              "| X @ w CPU ms (one read of the nonzeros) | hyperplane / floor "
              "| acc hyperplane | acc sklearn |")
        print("|---|---|---|---|---|---|---|---|")
        for n, d, density in ((200_000 // scale, 20_000, 2e-3), (100_000 // scale, 100_000, 5e-4),
                              (200_000 // scale, 1_000, 0.05)):
            print(sparse_row(n, d, density, args.epochs), flush=True)
        return
    shapes = [(20_000, 50), (6_000, 784)] if args.quick else [(200_000, 50), (60_000, 784)]
    print("| case | hyperplane ms/epoch | sklearn ms/epoch | speed-up | hyperplane fit s "
          "| sklearn fit s | X.sum() ms | hyperplane / floor | acc hyperplane | acc sklearn |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for n, d in shapes:
        for dtype in (np.float64, np.float32):
            print(primal_row(n, d, dtype, args.epochs), flush=True)
    print()
    print("| case | hyperplane ms | sklearn rbf_kernel ms | speed-up | agreement |")
    print("|---|---|---|---|---|")
    print(gram_row(500 if args.quick else 5000, 50))


if __name__ == "__main__":
    main()
