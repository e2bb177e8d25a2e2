"""Sparse SVC, NuSVC and NuSVR: hyperplane's SMO on CSR input against
scikit-learn's SVC, NuSVC and NuSVR (LIBSVM's sparse mode) on the same data,
timed in the same run.

Cases (C-SVC, the default): uniform random sparse data (20k x 2000 at 1%
density), LIBSVM's heart_scale (270 x 13), and a synthetic tf-idf corpus
(Zipf word counts with class-dependent topic words, L2-normalised tf-idf
rows), each with the rbf kernel (gamma="scale") and the text one also with
the linear kernel. ``--nu``: the nu cases instead, NuSVC (nu = 0.5) on random
10k x 2000 at 1% and tf-idf 5000 x 20000, and NuSVR (nu = 0.5, C = 1) on a
sparse regression set (random 10k x 2000 at 1%, targets a sparse linear
function plus noise); the score column is the accuracy or R^2.
hyperplane is timed on every thread count of ``--threads`` (numba's threads
and BLAS's, as ``benchmarks/threads.py`` sets them), LIBSVM, single-threaded,
once; each fit is repeated and the best CPU time (``time.process_time``, all
threads) and wall time are kept (the machine may be shared: compare the
ratios). Accuracy is measured on held-out rows.

    PYTHONPATH=src python benchmarks/svm_sparse.py              # the table in RESULTS.md
    PYTHONPATH=src python benchmarks/svm_sparse.py --scale 0.25 --repeat 1  # quick look
    PYTHONPATH=src python benchmarks/svm_sparse.py --threads 1 2
    PYTHONPATH=src python benchmarks/svm_sparse.py --nu --threads 1 2 --repeat 1
"""

from __future__ import annotations

import argparse
import os
import time

import numba
import numpy as np
import scipy.sparse as sp
from sklearn.feature_extraction.text import TfidfTransformer
from sklearn.metrics import r2_score
from sklearn.svm import SVC as LibSVC
from sklearn.svm import NuSVC as LibNuSVC
from sklearn.svm import NuSVR as LibNuSVR
from threadpoolctl import threadpool_limits

from hyperplane.datasets import load_heart_scale
from hyperplane.svm import SVC, NuSVC, NuSVR


def accuracy(model, X, y):
    return float(np.mean(model.predict(X) == y))


def r2(model, X, y):
    return float(r2_score(y, model.predict(X)))


#: name -> (hyperplane's class, LIBSVM's wrapper, their own parameters, score)
MODELS = {
    "SVC": (SVC, LibSVC, dict(C=1.0), accuracy),
    "NuSVC": (NuSVC, LibNuSVC, dict(nu=0.5), accuracy),
    "NuSVR": (NuSVR, LibNuSVR, dict(nu=0.5, C=1.0), r2),
}


def int32_indices(X):
    """CSR with 32-bit indices (scikit-learn's LIBSVM wrapper refuses 64-bit ones)."""
    X = sp.csr_matrix(X)
    X.indices, X.indptr = X.indices.astype(np.int32), X.indptr.astype(np.int32)
    return X


def split(X, y, n_test, seed=0):
    order = np.random.default_rng(seed).permutation(X.shape[0])
    test, train = order[:n_test], order[n_test:]
    return X[train], y[train], X[test], y[test]


def random_sparse(n, d, density, seed=0):
    """Uniform random CSR rows, labels from a sparse linear rule with 10% flipped."""
    rng = np.random.default_rng(seed)
    X = sp.random(n, d, density=density, format="csr", random_state=seed,
                  data_rvs=lambda k: rng.normal(size=k))
    score = X @ rng.normal(size=d)
    y = (score > np.median(score)).astype(int)
    flip = rng.random(n) < 0.1
    y[flip] = 1 - y[flip]
    return int32_indices(X), y


def random_sparse_regression(n, d, density, seed=0):
    """Uniform random CSR rows; targets a sparse linear function of them plus
    Gaussian noise of a third of its spread."""
    rng = np.random.default_rng(seed)
    X = sp.random(n, d, density=density, format="csr", random_state=seed,
                  data_rvs=lambda k: rng.normal(size=k))
    score = X @ (rng.normal(size=d) * (rng.random(d) < 0.2))
    z = score + rng.normal(scale=score.std() / 3, size=n)
    return int32_indices(X), (z - z.mean()) / z.std()


def tfidf_corpus(n_docs, vocab, words_per_doc, seed=0):
    """A text-like corpus: each document draws Poisson(words_per_doc) words from a
    Zipf distribution over the vocabulary, plus Poisson(words/20) words from
    its class's topic (200 class-specific words; some documents have none);
    rows are tf-idf, L2-normalised."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, size=n_docs)
    zipf = 1.0 / np.arange(1, vocab + 1)
    zipf /= zipf.sum()
    topics = rng.choice(vocab, size=(2, 200), replace=False)
    rows, cols = [], []
    for t in range(n_docs):
        k = max(1, rng.poisson(words_per_doc))
        words = rng.choice(vocab, size=k, p=zipf)
        topical = rng.choice(topics[y[t]], size=rng.poisson(k / 20))
        doc = np.concatenate([words, topical])
        rows.append(np.full(doc.size, t))
        cols.append(doc)
    counts = sp.csr_matrix((np.ones(sum(r.size for r in rows)),
                            (np.concatenate(rows), np.concatenate(cols))),
                           shape=(n_docs, vocab))
    counts.sum_duplicates()
    X = TfidfTransformer().fit_transform(counts)
    return int32_indices(X), y


def best_fit(model, X, y, repeat):
    """The best CPU and wall seconds of ``repeat`` fits (the model is left fitted)."""
    cpu_best, wall_best = np.inf, np.inf
    for _ in range(repeat):
        start, cpu = time.perf_counter(), time.process_time()
        model.fit(X, y)
        wall_best = min(wall_best, time.perf_counter() - start)
        cpu_best = min(cpu_best, time.process_time() - cpu)
    return cpu_best, wall_best


def run_case(name, kernel, data, repeat, inner=1, threads=(1,), model="SVC"):
    """The rows of the table, one per thread count; ``inner`` fits per timing
    for tiny data sets."""
    X, y, X_test, y_test = data
    Ours, Peer, own, score = MODELS[model]
    params = dict(kernel=kernel, gamma="scale", tol=1e-3, cache_size=200, **own)
    Ours(**params).fit(X[:100], y[:100])              # compile (cached on disk after)

    class Repeated:
        def __init__(self, model):
            self.model = model

        def fit(self, X, y):
            for _ in range(inner):
                self.model.fit(X, y)

    peer = Peer(**params)
    cpu_sk, wall_sk = best_fit(Repeated(peer), X, y, repeat)
    rows = []
    for k in threads:
        ours = Ours(**params)
        numba.set_num_threads(k)
        with threadpool_limits(k):
            cpu_hp, wall_hp = best_fit(Repeated(ours), X, y, repeat)
        rows.append({
            "model": model, "case": name, "kernel": kernel,
            "n x d (nnz/row)": f"{X.shape[0]}x{X.shape[1]} ({X.nnz / X.shape[0]:.0f})",
            "threads": k,
            "hp cpu s": cpu_hp / inner, "sk cpu s": cpu_sk / inner, "cpu ratio": cpu_sk / cpu_hp,
            "hp wall s": wall_hp / inner, "sk wall s": wall_sk / inner,
            "wall ratio": wall_sk / wall_hp,
            "score hp": score(ours, X_test, y_test), "score sk": score(peer, X_test, y_test),
            "SV hp": len(ours.support_), "SV sk": len(peer.support_),
        })
    return rows


def print_table(rows):
    cols = list(rows[0])
    print("| " + " | ".join(cols) + " |")
    print("|" + "|".join("---" for _ in cols) + "|")
    for row in rows:
        cells = [f"{v:.3f}" if isinstance(v, float) else str(v) for v in row.values()]
        print("| " + " | ".join(cells) + " |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="share of the sample counts")
    parser.add_argument("--repeat", type=int, default=3, help="fits per timing (best kept)")
    parser.add_argument("--threads", type=int, nargs="+", default=[1],
                        help="thread counts of hyperplane's fits")
    parser.add_argument("--nu", action="store_true", help="the NuSVC and NuSVR cases")
    args = parser.parse_args()
    at = dict(repeat=args.repeat, threads=args.threads)
    n = lambda k: max(200, int(k * args.scale))       # noqa: E731
    rows = []
    if args.nu:
        X, y = random_sparse(n(10_000) + 2000, 2000, 0.01)
        rows += run_case("random 1%", "rbf", split(X, y, 2000), model="NuSVC", **at)
        X, y = tfidf_corpus(n(5000) + 2000, 20_000, 80)
        rows += run_case("tf-idf", "rbf", split(X, y, 2000), model="NuSVC", **at)
        X, z = random_sparse_regression(n(10_000) + 2000, 2000, 0.01)
        rows += run_case("random 1% regression", "rbf", split(X, z, 2000), model="NuSVR", **at)
    else:
        X, y = random_sparse(n(20_000) + 2000, 2000, 0.01)
        rows += run_case("random 1%", "rbf", split(X, y, 2000), **at)
        X, y = load_heart_scale()
        heart = (int32_indices(X), y, int32_indices(X), y)  # training accuracy: 270 rows only
        rows += run_case("heart_scale (x20 fits)", "rbf", heart, inner=20, **at)
        X, y = tfidf_corpus(n(10_000) + 2000, 20_000, 80)
        data = split(X, y, 2000)
        rows += run_case("tf-idf", "rbf", data, **at)
        rows += run_case("tf-idf", "linear", data, **at)
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
    print_table(rows)


if __name__ == "__main__":
    main()
