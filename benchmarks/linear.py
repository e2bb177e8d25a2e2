"""Benchmark of the linear family against its peers, same data, same run.

    PYTHONPATH=src python benchmarks/linear.py [--quick]

Data: Gaussian classes, float64, 200k×50 and 1M×20 (``--quick``: 20k×50 and
100k×20). For every data set:

* ``LeastSquaresClassifier`` vs ``numpy.linalg.lstsq`` on X̃ with one-hot T
  (same W̃) and vs scikit-learn's ``LinearDiscriminantAnalysis`` (svd and
  eigen solvers);
* ``FisherDiscriminant`` vs the same LDAs;
* ``LogisticRegression`` vs scikit-learn's ``LogisticRegression(lbfgs)`` at the
  same C and tol, binary and 3-class, reporting the final objective
  ``(1/N)Σ log-loss + ‖W‖²/(2CN)`` of each.

Times are the best of ``--repeat`` runs after a warm-up (numba compiled).
The machine is shared: read the ratios, not the absolute times.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from scipy.special import logsumexp
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.linear_model import LogisticRegression as SkLogisticRegression

from hyperplane.linear import FisherDiscriminant, LeastSquaresClassifier, LogisticRegression


def make_data(n, d, k, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    centres = rng.normal(scale=0.5, size=(k, d))
    return centres[y] + rng.normal(size=(n, d)), y


def best_time(fit, repeat):
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fit()
        times.append(time.perf_counter() - start)
    return min(times), result


def objective(X, y, coef, intercept, C):
    """sklearn's normalised objective (1/N)Σℓ + ‖W‖²/(2CN)."""
    Z = X @ coef.T + intercept
    if coef.shape[0] == 1:
        loss = np.sum(np.logaddexp(0.0, Z[:, 0]) - (y == 1) * Z[:, 0])
    else:
        loss = np.sum(logsumexp(Z, axis=1) - Z[np.arange(len(y)), y])
    return (loss + 0.5 * np.sum(coef ** 2) / C) / len(y)


def lstsq_fit(X, y, k):
    Xt = np.column_stack([np.ones(len(X)), X])
    return np.linalg.lstsq(Xt, np.eye(k)[y], rcond=None)[0]


def bench_closed_form(X, y, k, repeat, rows):
    t_ls, ls = best_time(lambda: LeastSquaresClassifier().fit(X, y), repeat)
    t_fd, fd = best_time(lambda: FisherDiscriminant().fit(X, y), repeat)
    t_np, W = best_time(lambda: lstsq_fit(X, y, k), 1)
    t_svd, lda_svd = best_time(lambda: LinearDiscriminantAnalysis().fit(X, y), 1)
    t_eig, lda_eig = best_time(
        lambda: LinearDiscriminantAnalysis(solver="eigen").fit(X, y), repeat)
    dW = np.abs(ls.coef_ - W[1:].T).max() / np.abs(W).max()
    acc_np = np.mean(np.argmax(np.column_stack([np.ones(len(X)), X]) @ W, axis=1) == y)
    rows += [
        ("LeastSquaresClassifier", t_ls, ls.score(X, y), ""),
        ("numpy.linalg.lstsq", t_np, acc_np, f"max rel |ΔW̃| = {dW:.1e}"),
        ("FisherDiscriminant", t_fd, fd.score(X, y), ""),
        ("sklearn LDA(svd)", t_svd, lda_svd.score(X, y), ""),
        ("sklearn LDA(eigen)", t_eig, lda_eig.score(X, y), ""),
    ]
    return {"LS vs lstsq": t_np / t_ls, "LS vs LDA(svd)": t_svd / t_ls,
            "LS vs LDA(eigen)": t_eig / t_ls, "Fisher vs LDA(svd)": t_svd / t_fd,
            "Fisher vs LDA(eigen)": t_eig / t_fd}


def bench_logistic(X, y, k, repeat, rows, C=1.0, tol=1e-6):
    t_ours, ours = best_time(lambda: LogisticRegression(C=C, tol=tol, max_iter=1000).fit(X, y),
                             repeat)
    t_sk, sk = best_time(
        lambda: SkLogisticRegression(C=C, tol=tol, max_iter=1000).fit(X, y), repeat)
    f_ours = objective(X, y, ours.coef_, ours.intercept_, C)
    f_sk = objective(X, y, sk.coef_, sk.intercept_, C)
    kind = "binary" if k == 2 else f"{k}-class"
    rows += [
        (f"LogisticRegression {kind}", t_ours, ours.score(X, y),
         f"objective {f_ours:.10f}, {ours.n_iter_} iter"),
        (f"sklearn LogisticRegression(lbfgs) {kind}", t_sk, sk.score(X, y),
         f"objective {f_sk:.10f}, {int(sk.n_iter_[0])} iter, Δ = {f_ours - f_sk:+.1e}"),
    ]
    return {f"logistic {kind} vs lbfgs": t_sk / t_ours}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10x smaller data")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    shapes = [(200_000, 50), (1_000_000, 20)]
    if args.quick:
        shapes = [(n // 10, d) for n, d in shapes]
    warm_X, warm_y = make_data(20_000, 5, 3)  # compile every kernel before timing
    for labels in (warm_y, warm_y % 2):
        for est in (LeastSquaresClassifier(), FisherDiscriminant(), LogisticRegression()):
            est.fit(warm_X, labels)
            est.fit(warm_X[:100], labels[:100])
    for n, d in shapes:
        rows, ratios = [], {}
        X, y = make_data(n, d, 3)
        ratios.update(bench_closed_form(X, y, 3, args.repeat, rows))
        ratios.update(bench_logistic(X, y % 2, 2, args.repeat, rows))
        ratios.update(bench_logistic(X, y, 3, args.repeat, rows))
        print(f"\n### {n:,} x {d} float64, 3 classes (binary: y mod 2)\n")
        print("| estimator | fit time (s) | training accuracy | note |")
        print("|---|---:|---:|---|")
        for name, t, acc, note in rows:
            print(f"| {name} | {t:.3f} | {acc:.4f} | {note} |")
        print("\n| speed-up of hyperplane | ratio |\n|---|---:|")
        for name, r in ratios.items():
            print(f"| {name} | {r:.2f}x |")


if __name__ == "__main__":
    main()
