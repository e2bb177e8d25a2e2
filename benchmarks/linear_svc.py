"""hyperplane's LinearSVC against scikit-learn's LinearSVC(dual=True) (LIBLINEAR)
on the same data, timed in the same run, one after the other; likewise
LinearSVR against scikit-learn's LinearSVR(dual=True) (LIBLINEAR -s 12/13), and
LinearSVC(penalty="l1") against LinearSVC(penalty="l1", dual=False) (-s 5), and
LinearSVC(multi_class="crammer_singer") against scikit-learn's (-s 4).

Same C, loss and tol (LIBLINEAR's eps; C=0.1 on the dense data, where both
solvers need over 1000 epochs at C=1); prints CPU and wall seconds (both fits
are single-threaded: CPU time is the fairer measure on a shared machine), the
primal objective of each model and their relative gap, and the training accuracy.

    PYTHONPATH=src python benchmarks/linear_svc.py
    PYTHONPATH=src python benchmarks/linear_svc.py --scale 0.2   # quick look
    PYTHONPATH=src python benchmarks/linear_svc.py --scale 0.2 --repeat 7
    PYTHONPATH=src python benchmarks/linear_svc.py --only svr   # the regressions alone
    PYTHONPATH=src python benchmarks/linear_svc.py --only l1    # L1-regularised SVC alone
    PYTHONPATH=src python benchmarks/linear_svc.py --only cs    # Crammer-Singer alone

Each fit is repeated three times (``--repeat``), ours and the peer's interleaved; the best
CPU time of each is reported (with the wall time of that run). BLAS runs on
one thread in this process: both solvers are single-threaded, and OpenBLAS
workers left spinning by the data generation or an objective (a matrix-vector
product) would otherwise be counted in the CPU time of the fit that follows
(2x on a dense 2000x50 fit) and slow it on a two-core machine.
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
import scipy.sparse as sp
from _table import labelled, row
from sklearn.datasets import make_classification
from sklearn.exceptions import ConvergenceWarning
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC as LibLinearSVC
from sklearn.svm import LinearSVR as LibLinearSVR
from threadpoolctl import threadpool_limits

from hyperplane.svm import LinearSVC, LinearSVR


def dense(n, d, seed=0):
    X, y = make_classification(n_samples=n, n_features=d, n_informative=min(d, 10),
                               flip_y=0.05, random_state=seed)
    return StandardScaler().fit_transform(X), y


def text_like(n, d, density, seed=0):
    """Sparse non-negative tf-idf-like rows (unit length), labels from a sparse
    linear rule with noise."""
    rng = np.random.default_rng(seed)
    per_row = max(1, int(d * density))
    cols = rng.integers(0, d, size=(n, per_row))
    X = sp.csr_matrix((rng.exponential(size=n * per_row), cols.ravel(),
                       np.arange(0, n * per_row + 1, per_row)), shape=(n, d))
    X.sum_duplicates()
    X.sort_indices()
    norms = np.sqrt(np.asarray(X.multiply(X).sum(axis=1)).ravel())
    X = sp.diags(1.0 / np.maximum(norms, 1e-12)) @ X
    w = rng.normal(size=d) * (rng.random(d) < 0.1)
    score = X @ w
    y = (score + 0.05 * rng.normal(size=n) > np.median(score)).astype(int)
    return X.tocsr(), y


def timed(model, X, y):
    start, cpu = time.perf_counter(), time.process_time()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model.fit(X, y)
    return time.perf_counter() - start, time.process_time() - cpu


def objective(coef, intercept, X, y, C, loss, scaling=1.0):
    """LIBLINEAR's primal: 1/2 (|w|^2 + (b / scaling)^2) + C sum loss."""
    signed = np.where(y == np.unique(y)[1], 1.0, -1.0)
    margin = np.maximum(0.0, 1.0 - signed * (np.asarray(X @ coef[0]).ravel() + intercept[0]))
    loss_sum = (margin ** 2).sum() if loss == "squared_hinge" else margin.sum()
    return 0.5 * (coef[0] @ coef[0] + (intercept[0] / scaling) ** 2) + C * loss_sum


def compare(X, y, C, loss="squared_hinge", tol=1e-4, repeat=3):
    """Fit ours and LIBLINEAR interleaved ``repeat`` times: ``(ours, peer, (wall,
    CPU) of ours, (wall, CPU) of the peer, objective of ours, of the peer)``,
    the fit of least CPU time of each."""
    ours = LinearSVC(C=C, loss=loss, tol=tol, max_iter=1000)
    peer = LibLinearSVC(C=C, loss=loss, tol=tol, max_iter=1000, dual=True, random_state=0)
    ours.fit(X[:50], y[:50])                                  # compile (cached on disk)
    times_ours, times_peer = [], []
    for _ in range(repeat):                                   # interleaved, best CPU of each
        times_ours.append(timed(ours, X, y))
        times_peer.append(timed(peer, X, y))
    return (ours, peer, min(times_ours, key=lambda t: t[1]), min(times_peer, key=lambda t: t[1]),
            objective(ours.coef_, ours.intercept_, X, y, C, loss),
            objective(peer.coef_, peer.intercept_, X, y, C, loss))


def run(name, X, y, C, loss="squared_hinge", tol=1e-4, repeat=3):
    ours, peer, (t_ours, cpu_ours), (t_peer, cpu_peer), f_ours, f_peer = compare(
        X, y, C, loss, tol, repeat)
    n_x_d = f"{X.shape[0]}x{X.shape[1]}" + (f" nnz {X.nnz}" if sp.issparse(X) else "")
    print(row(name, loss, *labelled({
        "n x d": n_x_d, "hp cpu s": f"{cpu_ours:.4g}", "liblinear cpu s": f"{cpu_peer:.4g}",
        "cpu speed-up": f"{cpu_peer / cpu_ours:.3g}", "hp s": f"{t_ours:.4g}",
        "liblinear s": f"{t_peer:.4g}", "obj hp": f"{f_ours:.10g}", "obj ll": f"{f_peer:.10g}",
        "rel gap (hp - ll)/ll": f"{(f_ours - f_peer) / abs(f_peer):.2e}",
        "epochs hp": ours.n_iter_, "epochs ll": int(np.max(peer.n_iter_)),
        "acc hp": f"{np.mean(ours.predict(X) == y):.4f}",
        "acc ll": f"{np.mean(peer.predict(X) == y):.4f}"}), edges=False), flush=True)

def regression(X, seed=0):
    """A continuous target of a sparse linear rule on ``X`` with noise, standardised."""
    rng = np.random.default_rng(seed)
    w = rng.normal(size=X.shape[1]) * (rng.random(X.shape[1]) < 0.2)
    z = np.asarray(X @ w).ravel() + 0.3 * rng.normal(size=X.shape[0])
    return X, (z - z.mean()) / z.std()


def svr_objective(model, X, y, C, epsilon, loss):
    """LIBLINEAR's SVR primal: 1/2 (|w|^2 + b^2) + C sum loss_eps(y - f(x))."""
    excess = np.maximum(0.0, np.abs(y - model.predict(X)) - epsilon)
    loss_sum = (excess ** 2).sum() if loss == "squared_epsilon_insensitive" else excess.sum()
    return 0.5 * (model.coef_.ravel() @ model.coef_.ravel() + model.intercept_[0] ** 2) + \
        C * loss_sum


def race(name, label, ours, peer, X, y, objective_of, repeat=3):
    """Fit ``ours`` and ``peer`` interleaved ``repeat`` times (best CPU of
    each) and print one row: times, the objectives ``objective_of(model)``
    and their relative gap, epochs."""
    ours.fit(X[:50], y[:50])                                  # compile (cached on disk)
    times_ours, times_peer = [], []
    for _ in range(repeat):
        times_ours.append(timed(ours, X, y))
        times_peer.append(timed(peer, X, y))
    (t_ours, cpu_ours), (t_peer, cpu_peer) = (min(times_ours, key=lambda t: t[1]),
                                              min(times_peer, key=lambda t: t[1]))
    f_ours, f_peer = objective_of(ours), objective_of(peer)
    n_x_d = f"{X.shape[0]}x{X.shape[1]}" + (f" nnz {X.nnz}" if sp.issparse(X) else "")
    extra = ({"zeros hp": int(np.sum(ours.coef_ == 0)), "zeros ll": int(np.sum(peer.coef_ == 0))}
             if getattr(ours, "penalty", "l2") == "l1" else {})
    print(row(name, label, *labelled({
        "n x d": n_x_d, "hp cpu s": f"{cpu_ours:.4g}", "liblinear cpu s": f"{cpu_peer:.4g}",
        "cpu speed-up": f"{cpu_peer / cpu_ours:.3g}", "hp s": f"{t_ours:.4g}",
        "liblinear s": f"{t_peer:.4g}", "obj hp": f"{f_ours:.10g}", "obj ll": f"{f_peer:.10g}",
        "rel gap (hp - ll)/ll": f"{(f_ours - f_peer) / abs(f_peer):.2e}",
        "epochs hp": ours.n_iter_, "epochs ll": int(np.max(peer.n_iter_)), **extra}),
        edges=False), flush=True)


def run_svr(name, X, y, C, loss, epsilon=0.1, tol=1e-4, repeat=3):
    """LinearSVR against LIBLINEAR's -s 12 / -s 13."""
    race(name, loss, LinearSVR(C=C, loss=loss, epsilon=epsilon, tol=tol, max_iter=1000),
         LibLinearSVR(C=C, loss=loss, epsilon=epsilon, tol=tol, max_iter=1000, dual=True,
                      random_state=0),
         X, y, lambda model: svr_objective(model, X, y, C, epsilon, loss), repeat)


def l1_objective(model, X, y, C):
    """LIBLINEAR's -s 5 primal: |w|_1 + |b| + C sum max(0, 1 - y f(x))^2."""
    signed = np.where(y == np.unique(y)[1], 1.0, -1.0)
    margin = np.maximum(0.0, 1.0 - signed * (np.asarray(X @ model.coef_[0]).ravel()
                                             + model.intercept_[0]))
    return np.abs(model.coef_).sum() + abs(model.intercept_[0]) + C * (margin ** 2).sum()


def run_l1(name, X, y, C, tol=1e-4, repeat=3):
    """LinearSVC(penalty="l1") against LIBLINEAR's -s 5 (sklearn's dual=False)."""
    race(name, "l1 squared_hinge", LinearSVC(penalty="l1", C=C, tol=tol, max_iter=1000),
         LibLinearSVC(penalty="l1", dual=False, C=C, tol=tol, max_iter=1000, random_state=0),
         X, y, lambda model: l1_objective(model, X, y, C), repeat)


def run_cs(name, X, y, C, tol=1e-4, repeat=3):
    """LinearSVC(multi_class="crammer_singer") against LIBLINEAR's -s 4; the
    objective is Crammer & Singer's (1/2 |W|^2 + C sum max_m ...)."""
    def objective_of(model):
        F = np.asarray(X @ model.coef_.T) + model.intercept_
        hinge = np.max(1.0 - np.eye(F.shape[1])[y] + F - F[np.arange(len(y)), y][:, None], axis=1)
        return 0.5 * (np.sum(model.coef_ ** 2) + np.sum(model.intercept_ ** 2)) + C * hinge.sum()

    race(name, "crammer_singer", LinearSVC(multi_class="crammer_singer", C=C, tol=tol),
         LibLinearSVC(multi_class="crammer_singer", C=C, tol=tol, random_state=0),
         X, y, objective_of, repeat)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="fraction of the sizes")
    parser.add_argument("--repeat", type=int, default=3, help="fits of each, best CPU kept")
    parser.add_argument("--only", choices=("svc", "svr", "l1", "cs"), default=None,
                        help="run one of the comparisons")
    args = parser.parse_args()
    s, repeat = args.scale, args.repeat
    with threadpool_limits(limits=1, user_api="blas"):
        if args.only in (None, "cs"):
            X, y = make_classification(n_samples=int(10000 * s), n_features=50, n_informative=10,
                                       n_classes=5, random_state=2)
            run_cs("dense 5 classes", StandardScaler().fit_transform(X), y, C=0.1, repeat=repeat)
            X, y = text_like(int(20000 * s), 50000, 0.002)
            run_cs("sparse text-like 4 classes", X, y + 2 * (np.arange(len(y)) % 2), C=1.0,
                   repeat=repeat)
        if args.only in (None, "l1"):
            run_l1("dense", *dense(int(10000 * s), 50), C=0.1, repeat=repeat)
            run_l1("sparse text-like", *text_like(int(20000 * s), 50000, 0.002), C=1.0,
                   repeat=repeat)
        for loss in ("squared_epsilon_insensitive", "epsilon_insensitive"):
            if args.only not in (None, "svr"):
                break
            run_svr("dense", *regression(dense(int(10000 * s), 50)[0]), C=0.1, loss=loss,
                    repeat=repeat)
            run_svr("sparse text-like", *regression(text_like(int(20000 * s), 50000, 0.002)[0]),
                    C=1.0, loss=loss, repeat=repeat)
        for loss in ("squared_hinge", "hinge"):
            if args.only not in (None, "svc"):
                break
            run("dense", *dense(int(10000 * s), 50), C=0.1, loss=loss, repeat=repeat)
            run("dense", *dense(int(50000 * s), 200, seed=1), C=0.1, loss=loss, repeat=repeat)
            run("sparse text-like", *text_like(int(20000 * s), 50000, 0.002), C=1.0, loss=loss,
                repeat=repeat)
            run("sparse text-like", *text_like(int(50000 * s), 100000, 0.0005, seed=1), C=1.0,
                loss=loss, repeat=repeat)


if __name__ == "__main__":
    main()
