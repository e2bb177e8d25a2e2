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

``--solvers`` times only the logistic solvers instead: hyperplane's Newton
(``solver="newton"``, the default on dense data with few parameters), TRON and
L-BFGS against scikit-learn's lbfgs at the same C and tol, dense and sparse
(CSR) data, binary and 3-class, on 1 and 2 threads (numba and BLAS/OpenMP
limited together), interleaved ``--repeat`` times, reporting the best CPU time
(``time.process_time``, all threads) and the wall time of that run::

    PYTHONPATH=src python benchmarks/linear.py --solvers [--threads 1 2] [--quick]
        [--data "dense 200k×50 binary" ...] [--tol 1e-6]

``--passes`` times one evaluation instead (best CPU ms of 7): scikit-learn's
``LinearModelLoss.loss_gradient`` (what its lbfgs calls), scipy's two
mat-vecs, our one-read CSR pass and TRON's gradient and Hessian-vector passes.

``--weights`` times weighted fits instead: ``LogisticRegression`` (``solver="auto"``)
vs scikit-learn's lbfgs with the same ``sample_weight`` (uniform on [0, 2]) and
``class_weight="balanced"``, dense and CSR, binary and 3-class, reporting each
weighted objective ``Σ s_n ℓ_n / Σ s_n + ‖W‖²/(2C Σ s_n)``::

    PYTHONPATH=src python benchmarks/linear.py --weights [--quick]

Sparse sets: Poisson counts at uniformly random columns (``make_sparse``) and
a text-like tf-idf matrix with Zipf-distributed terms (``make_tfidf``).
"""

from __future__ import annotations

import argparse
import warnings
import time

import numba
import numpy as np
import scipy.sparse as sp
from threadpoolctl import threadpool_limits
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


def make_sparse(n, d, k, density, seed=0):
    """CSR rows with ``density`` nonzeros (text-like: positive counts), labels from
    a sparse linear model of them."""
    rng = np.random.default_rng(seed)
    counts = rng.poisson(density * d, n)
    indptr = np.concatenate([[0], np.cumsum(counts)])
    indices = rng.integers(0, d, indptr[-1])
    X = sp.csr_matrix((rng.poisson(2.0, indptr[-1]) + 1.0, indices, indptr), shape=(n, d))
    X.sum_duplicates()
    W = rng.normal(size=(d, k)) * (rng.random((d, k)) < 0.2)
    y = np.argmax(X @ W + rng.gumbel(size=(n, k)), axis=1)
    return X, y


def make_tfidf(n, d, k, tokens=105, seed=0):
    """Text-like CSR rows: ``Poisson(tokens)`` words per row drawn from a Zipf
    law over ``d`` terms (frequency ∝ 1/(rank + 10)), tf-idf weighted and
    L2-normalised as scikit-learn's ``TfidfVectorizer`` does (about 100
    distinct terms per row at the defaults); labels from a sparse linear model."""
    rng = np.random.default_rng(seed)
    counts = rng.poisson(tokens, n)
    indptr = np.concatenate([[0], np.cumsum(counts)])
    prob = 1.0 / (np.arange(d) + 10.0)
    indices = rng.choice(d, size=indptr[-1], p=prob / prob.sum())
    X = sp.csr_matrix((np.ones(indptr[-1]), indices, indptr), shape=(n, d))
    X.sum_duplicates()
    df = np.bincount(X.indices, minlength=d)
    X.data *= (np.log((1.0 + n) / (1.0 + df)) + 1.0)[X.indices]
    X = sp.csr_matrix(X.multiply(1.0 / np.sqrt(X.multiply(X).sum(axis=1))))
    W = rng.normal(size=(d, k)) * (rng.random((d, k)) < 0.2) * 10.0
    y = np.argmax(X @ W + rng.gumbel(size=(n, k)), axis=1)
    return X, y


def timed(fit):
    """(cpu seconds, wall seconds, result) of one call."""
    cpu, wall = time.process_time(), time.perf_counter()
    result = fit()
    return time.process_time() - cpu, time.perf_counter() - wall, result


def solver_rows(X, y, k, name, threads, repeat=3, C=1.0, tol=1e-6):
    """Our solvers and scikit-learn's lbfgs on one data set, ``threads`` threads;
    the fits are interleaved ``repeat`` times and the best CPU time of each is kept."""
    numba.set_num_threads(threads)
    ours = ["newton", "tron", "lbfgs"] if not sp.issparse(X) else ["tron", "lbfgs"]
    fits = {f"hyperplane {solver}": (lambda solver=solver: LogisticRegression(
        C=C, tol=tol, solver=solver, max_iter=1000).fit(X, y)) for solver in ours}
    fits["sklearn lbfgs"] = lambda: SkLogisticRegression(C=C, tol=tol, max_iter=1000).fit(X, y)
    results = {}
    with threadpool_limits(threads):
        for _ in range(repeat):
            for label, fit in fits.items():
                run = timed(fit)
                if label not in results or run[0] < results[label][0]:
                    results[label] = run
    f_ref = objective(X, y, results["sklearn lbfgs"][2].coef_,
                      results["sklearn lbfgs"][2].intercept_, C)
    cpu_ref = results["sklearn lbfgs"][0]
    lines = []
    for label, (cpu, wall, model) in results.items():
        f = objective(X, y, model.coef_, model.intercept_, C)
        n_iter = int(np.max(model.n_iter_))
        lines.append(f"| {name} | {threads} | {label} | {cpu:.3f} | {wall:.3f} | {n_iter} "
                     f"| {f:.12f} | {(f - f_ref) / abs(f_ref):+.1e} | {cpu_ref / cpu:.2f}x |")
    return lines


DATA = {
    "dense 200k×50 binary": lambda s: make_data(200_000 // s, 50, 2),
    "dense 200k×50 3-class": lambda s: make_data(200_000 // s, 50, 3),
    "dense 1M×20 binary": lambda s: make_data(1_000_000 // s, 20, 2),
    "dense 1M×20 3-class": lambda s: make_data(1_000_000 // s, 20, 3),
    "dense 50k×200 binary": lambda s: make_data(50_000 // s, 200, 2),
    "CSR 100k×10k 0.1% binary": lambda s: make_sparse(100_000 // s, 10_000, 2, 1e-3),
    "CSR 200k×20k 0.1% binary": lambda s: make_sparse(200_000 // s, 20_000, 2, 1e-3),
    "CSR 200k×20k 0.1% 3-class": lambda s: make_sparse(200_000 // s, 20_000, 3, 1e-3),
    "CSR 100k×10k 0.1% 3-class": lambda s: make_sparse(100_000 // s, 10_000, 3, 1e-3),
    "CSR 20k×50k tf-idf binary": lambda s: make_tfidf(20_000 // s, 50_000, 2),
    "CSR 20k×50k tf-idf 3-class": lambda s: make_tfidf(20_000 // s, 50_000, 3),
}


def best_cpu_ms(call, repeat=7):
    """Best CPU milliseconds of ``repeat`` calls (after one untimed call)."""
    call()
    times = []
    for _ in range(repeat):
        start = time.process_time()
        call()
        times.append(time.process_time() - start)
    return 1e3 * min(times)


def pass_rows(X, y, name, threads):
    """CPU ms of one evaluation: scikit-learn's loss_gradient (scipy's X @ w and
    X.T @ r plus its compiled loss) vs our one-read CSR pass, and TRON's passes."""
    from sklearn._loss.loss import HalfBinomialLoss, HalfMultinomialLoss
    from sklearn.linear_model._linear_loss import LinearModelLoss

    from hyperplane.linear._logistic import loss_targets
    from hyperplane.linear._logistic._tron_problem import LogisticProblem
    from hyperplane.linear._logistic._layout import canonical_csr
    from hyperplane.linear._logistic._objective import csr_loss_grad

    numba.set_num_threads(threads)
    k = int(y.max()) + 1
    rows, n, d = (1 if k == 2 else k), X.shape[0], X.shape[1]
    coef = np.random.default_rng(0).normal(scale=0.01, size=(rows, d + 1))
    base = HalfBinomialLoss() if k == 2 else HalfMultinomialLoss(n_classes=k)
    sk = LinearModelLoss(base_loss=base, fit_intercept=True)
    sk_coef = coef[0] if k == 2 else coef.ravel()
    Xc, t = canonical_csr(X), loss_targets(y, k == 2)
    problem = LogisticProblem(X, y, k, 1.0)
    point = problem.evaluate(coef.ravel())
    with threadpool_limits(threads):
        cells = {
            "sklearn loss_gradient": best_cpu_ms(lambda: sk.loss_gradient(
                sk_coef, X, y.astype(float), None, l2_reg_strength=1.0 / n, n_threads=threads)),
            "scipy X @ W": best_cpu_ms(lambda: X @ coef[:, :-1].T),
            "scipy X.T @ R": best_cpu_ms(lambda: X.T @ np.ones((n, rows))),
            "hyperplane L-BFGS pass": best_cpu_ms(
                lambda: csr_loss_grad(Xc, t, coef[:, :-1], coef[:, -1])),
            "TRON gradient pass": best_cpu_ms(lambda: problem.evaluate(coef.ravel())),
            "TRON Hv pass": best_cpu_ms(lambda: problem.hessian_vector(point, coef.ravel())),
        }
    return f"| {name} | {threads} | " + " | ".join(f"{v:.2f}" for v in cells.values()) + " |", \
        list(cells)


def passes_main(args):
    """Per-evaluation CPU cost of each pass (``--passes``)."""
    header = None
    for name in args.data or [key for key in DATA if key.startswith("CSR")]:
        X, y = DATA[name](10 if args.quick else 1)
        for threads in args.threads:
            line, cells = pass_rows(X, y, name, threads)
            if header is None:
                header = cells
                print("| data | threads | " + " | ".join(f"{c} CPU ms" for c in cells) + " |")
                print("|---|---:|" + "---:|" * len(cells))
            print(line, flush=True)


def solver_main(args):
    scale = 10 if args.quick else 1
    names = args.data or list(DATA)
    warm_X, warm_y = make_data(2_000, 5, 3)
    for Xw in (warm_X, sp.csr_matrix(warm_X)):          # compile every kernel before timing
        for labels in (warm_y, warm_y % 2):
            for solver in ("auto", "tron", "lbfgs"):
                LogisticRegression(solver=solver).fit(Xw, labels)
    print("| data | threads | solver | CPU s | wall s | iterations | objective "
          "| vs sklearn | sklearn CPU / CPU |")
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|")
    for name in names:
        X, y = DATA[name](scale)
        for threads in args.threads:
            for line in solver_rows(X, y, int(y.max()) + 1, name, threads, args.repeat, tol=args.tol):
                print(line, flush=True)


def weighted_objective(X, y, coef, intercept, C, s):
    """``Σ s_n ℓ_n / Σ s_n + ‖W‖²/(2C Σ s_n)`` of a fitted model."""
    from scipy.special import logsumexp

    Z = np.asarray(X @ coef.T) + intercept
    if coef.shape[0] == 1:
        z = Z[:, 0]
        loss = np.logaddexp(0.0, z) - (y == 1) * z
    else:
        loss = logsumexp(Z, axis=1) - Z[np.arange(len(y)), y]
    return (np.dot(s, loss) + 0.5 * np.sum(coef ** 2) / C) / s.sum()


def weights_main(args):
    """Weighted fits: ours vs scikit-learn's lbfgs, same weights, same run."""
    from sklearn.utils.class_weight import compute_class_weight

    n = 20_000 if args.quick else 200_000
    X, y3 = make_data(n, 50, 3)
    Xs, ys3 = make_sparse(n, 5_000, 3, 0.002)
    print("| data | estimator | fit time (s) | weighted objective |")
    print("|---|---|---:|---|")
    for name, A, labels in [("dense", X, y3), ("CSR", Xs, ys3)]:
        for kind, b in (("binary", labels % 2), ("3-class", labels)):
            s = np.random.default_rng(0).uniform(0.0, 2.0, A.shape[0])
            classes = np.unique(b)
            s_total = s * compute_class_weight("balanced", classes=classes, y=b,
                                               sample_weight=s)[b]
            with warnings.catch_warnings():          # compile every pass before timing
                warnings.simplefilter("ignore")
                LogisticRegression(max_iter=2, class_weight="balanced").fit(A, b, sample_weight=s)
            t_ours, ours = best_time(lambda: LogisticRegression(
                tol=args.tol, max_iter=1000, class_weight="balanced").fit(A, b, sample_weight=s),
                args.repeat)
            t_sk, sk = best_time(lambda: SkLogisticRegression(
                tol=args.tol, max_iter=1000, class_weight="balanced").fit(A, b, sample_weight=s),
                args.repeat)
            for est_name, t, est in (("hyperplane", t_ours, ours), ("sklearn lbfgs", t_sk, sk)):
                f = weighted_objective(A, b, est.coef_, est.intercept_, 1.0, s_total)
                print(f"| {name} {n:,} {kind} | {est_name} | {t:.3f} | {f:.10f} |")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10x smaller data")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--solvers", action="store_true",
                        help="only the logistic solver table (TRON vs lbfgs)")
    parser.add_argument("--passes", action="store_true",
                        help="CPU ms of one evaluation: sklearn's loss_gradient vs our CSR passes")
    parser.add_argument("--weights", action="store_true",
                        help="weighted fits (sample_weight, class_weight) vs scikit-learn")
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--data", nargs="+", choices=list(DATA), help="--solvers: these only")
    parser.add_argument("--tol", type=float, default=1e-6, help="--solvers: tol of every solver")
    args = parser.parse_args(argv)
    if args.solvers:
        return solver_main(args)
    if args.passes:
        return passes_main(args)
    if args.weights:
        return weights_main(args)
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
