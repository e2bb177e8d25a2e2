"""OneClassSVM: hyperplane's SMO against scikit-learn's OneClassSVM (LIBSVM)
on the same data, dense and CSR, timed in the same run.

Cases: breast cancer (standardised, 569 x 30), heart_scale (270 x 13,
CSR), and a synthetic Gaussian cloud (``--n`` x 20, dense and as CSR), rbf
kernel (gamma="scale"), nu = 0.1 and 0.5. hyperplane runs with numba's
threads set to each of ``--threads`` (LIBSVM is single-threaded); each fit
is repeated and the best wall and CPU time (all threads) kept. The agreement
column is the largest |decision difference| on the training rows.

    PYTHONPATH=src python benchmarks/one_class_svm.py
    PYTHONPATH=src python benchmarks/one_class_svm.py --n 2000 --repeat 1 --threads 1
"""

from __future__ import annotations

import argparse
import time

import numba
import numpy as np
import scipy.sparse as sp
from sklearn.datasets import load_breast_cancer
from sklearn.preprocessing import StandardScaler
from sklearn.svm import OneClassSVM as LibOneClassSVM
from threadpoolctl import threadpool_limits

from hyperplane.datasets import load_heart_scale
from hyperplane.svm import OneClassSVM


def best_time(fit, repeat):
    """Best (wall, cpu) seconds of ``repeat`` calls of ``fit``, and its last result."""
    walls, cpus = [], []
    for _ in range(repeat):
        w, c = time.perf_counter(), time.process_time()
        model = fit()
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    return min(walls), min(cpus), model


def cases(n):
    X = StandardScaler().fit_transform(load_breast_cancer().data)
    yield "breast_cancer dense", X
    yield "heart_scale CSR", sp.csr_matrix(load_heart_scale()[0])
    G = np.random.default_rng(0).standard_normal((n, 20))
    yield f"gaussian {n}x20 dense", G
    G[np.abs(G) < 1.0] = 0.0                       # about 32% nonzeros
    S = sp.csr_matrix(G)
    S.indices, S.indptr = S.indices.astype(np.int32), S.indptr.astype(np.int32)
    yield f"gaussian {n}x20 CSR", S


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, numba.config.NUMBA_NUM_THREADS])
    args = parser.parse_args()
    OneClassSVM().fit(np.random.default_rng(1).standard_normal((50, 3)))   # compile
    print(f"{'case':26} {'nu':>4} {'who':>14} {'wall s':>8} {'cpu s':>8} {'n_SV':>6} {'max|df|':>9}")
    for name, X in cases(args.n):
        for nu in (0.1, 0.5):
            w, c, peer = best_time(lambda: LibOneClassSVM(nu=nu).fit(X), args.repeat)
            print(f"{name:26} {nu:4} {'libsvm':>14} {w:8.3f} {c:8.3f} {peer.support_.size:6}")
            for t in args.threads:
                numba.set_num_threads(t)
                with threadpool_limits(t):
                    w, c, ours = best_time(lambda: OneClassSVM(nu=nu).fit(X), args.repeat)
                diff = np.abs(ours.decision_function(X) - peer.decision_function(X)).max()
                print(f"{name:26} {nu:4} {f'hyperplane t={t}':>14} {w:8.3f} {c:8.3f} "
                      f"{ours.support_.size:6} {diff:9.2e}")


if __name__ == "__main__":
    main()
