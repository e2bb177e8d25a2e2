"""hyperplane's LinearSVC against scikit-learn's LinearSVC(dual=True) (LIBLINEAR)
on sparse data: a tf-idf-like corpus and random sparse rows, both losses, C=0.1
and C=1, timed in the same run.

    PYTHONPATH=src python benchmarks/linear_svc_sparse.py
    PYTHONPATH=src python benchmarks/linear_svc_sparse.py --repeat 5 --scale 0.5

Rows are scaled to unit length (as LIBLINEAR's guide advises). Each fit is
repeated (ours and the peer's interleaved); the best CPU time of each is
reported with the wall time of that run. Same tol (1e-4) and max_iter (1000).
BLAS runs on one thread, as in ``linear_svc.py`` (spinning OpenBLAS workers
would be counted in the fits' CPU time).
"""

from __future__ import annotations

import argparse

import numpy as np
import scipy.sparse as sp
from _table import header, row, shape
from linear_svc import compare, text_like
from sklearn.preprocessing import normalize
from threadpoolctl import threadpool_limits


def random_rows(n, d, per_row, seed=0):
    """``per_row`` random columns per row, normal values, unit rows; labels
    from a random linear rule with 10% flipped."""
    rng = np.random.default_rng(seed)
    cols = rng.integers(0, d, size=(n, per_row))
    X = sp.csr_matrix((rng.normal(size=n * per_row), cols.ravel(),
                       np.arange(0, n * per_row + 1, per_row)), shape=(n, d))
    X.sum_duplicates()
    X = normalize(X)
    y = (X @ rng.normal(size=d) > 0).astype(int)
    y[rng.random(n) < 0.1] ^= 1
    return X.tocsr(), y


def run(name, X, y, C, loss, repeat):
    ours, peer, (t_ours, cpu_ours), (t_peer, cpu_peer), f_ours, f_peer = compare(
        X, y, C, loss, 1e-4, repeat)
    print(row(name, shape(X), loss, f"{C:g}", f"{cpu_ours:.4g}", f"{cpu_peer:.4g}",
              f"{cpu_peer / cpu_ours:.2f}", f"{t_ours:.4g}", f"{t_peer:.4g}",
              f"{t_peer / t_ours:.2f}", f"{(f_ours - f_peer) / abs(f_peer):.1e}",
              f"{ours.n_iter_} / {int(np.max(peer.n_iter_))}"), flush=True)

def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="fraction of the sample counts")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    s = args.scale
    data = {"tf-idf-like": lambda: text_like(int(20000 * s), 50000, 0.001),
            "random 10/row": lambda: random_rows(int(100000 * s), 10000, 10),
            "random 100/row": lambda: random_rows(int(100000 * s), 10000, 100, seed=1)}
    print(header(["data", "n x d (nnz/row)", "loss", "C", "hp CPU s", "LL CPU s", "CPU speed-up",
                  "hp wall s", "LL wall s", "wall speed-up", "gap (hp-LL)/LL", "epochs hp / LL"],
                 ["-"] * 3 + ["-:"] * 8 + ["-"]))
    with threadpool_limits(limits=1, user_api="blas"):
        for name, make in data.items():
            X, y = make()
            for loss in ("squared_hinge", "hinge"):
                for C in (0.1, 1.0):
                    run(name, X, y, C, loss, args.repeat)


if __name__ == "__main__":
    main()
