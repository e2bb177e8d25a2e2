"""Sparse SVC(kernel="linear") with and without the dual coordinate descent
seed (Hsieh et al. 2008; alpha seeding, DeCoste & Wagstaff 2000) against
scikit-learn's SVC (LIBSVM's sparse mode), timed in the same run on the data
of ``svm_sparse.py``.

"unseeded" is SMO from alpha = 0 (what sparse X got before the CSR seed
epoch); "seeded" is the fit as it is now. Best CPU (``time.process_time``)
and wall time of ``--repeat`` fits each, interleaved.

    PYTHONPATH=src python benchmarks/svm_sparse_seed.py --scale 0.5
"""

from __future__ import annotations

import argparse

import numpy as np
from _table import header, joined, row, shape
from svm_sparse import best_fit, random_sparse, split, tfidf_corpus
from sklearn.svm import SVC as LibSVC

from hyperplane.svm import SVC


class Unseeded(SVC):
    """SVC whose SMO starts from alpha = 0."""

    def _seed(self, X, y, C):
        return None


def run(name, data, C, repeat):
    X, y, X_test, y_test = data
    params = dict(kernel="linear", C=C, tol=1e-3, cache_size=200)
    SVC(**params).fit(X[:1100], y[:1100])                      # compile (cached on disk)
    models = {"seeded": SVC(**params), "unseeded": Unseeded(**params), "LIBSVM": LibSVC(**params)}
    times = {k: [] for k in models}
    for _ in range(repeat):
        for k, model in models.items():
            times[k].append(best_fit(model, X, y, 1))
    cpu = {k: min(v)[0] for k, v in times.items()}
    wall = {k: min(v)[1] for k, v in times.items()}
    acc = {k: np.mean(m.predict(X_test) == y_test) for k, m in models.items()}
    sv = {k: len(m.support_) for k, m in models.items()}
    keys = ("seeded", "unseeded", "LIBSVM")
    print(row(name, shape(X), f"{C:g}", *(format(cpu[k], ".3f") for k in keys),
              f"{cpu['unseeded'] / cpu['seeded']:.2f}", f"{cpu['LIBSVM'] / cpu['seeded']:.1f}",
              joined(wall, keys, ".3f"), joined({k: m.n_iter_ for k, m in models.items()},
                                                keys[:2], ""),
              joined(acc, keys, ".3f"), joined(sv, keys, "")), flush=True)

def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="share of the sample counts")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    n = lambda k: max(1200, int(k * args.scale))       # noqa: E731
    print(header(["data", "n x d (nnz/row)", "C", "seeded CPU s", "unseeded CPU s",
                  "LIBSVM CPU s", "seed speed-up", "vs LIBSVM",
                  "wall s seeded / unseeded / LIBSVM", "SMO iter seeded / unseeded",
                  "acc seeded / unseeded / LIBSVM", "SV seeded / unseeded / LIBSVM"],
                 ["-", "-"] + ["-:"] * 6 + ["-"] * 4))
    tfidf = split(*tfidf_corpus(n(10_000) + 2000, 20_000, 80), 2000)
    rand = split(*random_sparse(n(20_000) + 2000, 2000, 0.01), 2000)
    for C in (0.1, 1.0):
        run("tf-idf", tfidf, C, args.repeat)
        run("random 1%", rand, C, args.repeat)


if __name__ == "__main__":
    main()
