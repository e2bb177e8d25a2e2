"""Two checkouts of hyperplane.neural against each other: same weights, same speed.

Runs every case in a fresh subprocess per source tree (``PYTHONPATH=<src>``),
the trees alternating, and prints

1. whether the fitted weights, intercepts, loss curves and predictions of each
   fit are bit-identical across the trees (a SHA-256 of their bytes; BLAS on
   one thread, as a multithreaded BLAS product may differ in the last bit from
   one run to the next), over
   standard / accumulated / mini-batch BP, dense and CSR input, every hidden
   activation and output loss, eq. 5.17's penalty, early stopping, the book's
   initialisation, float32, ``partial_fit`` and ``hidden_outputs``;
2. a Markdown table of fit times: CPU time (``time.process_time``) and wall
   time, best of ``--repeat`` runs, numba compilation excluded (a warm-up fit
   runs first in every subprocess).

Run from the repository root::

    python benchmarks/neural_ab.py --src /path/to/before/src --src src --repeat 3
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time
import warnings

import numpy as np
import scipy.sparse as sp

# ---------------------------------------------------------------------------
# cases (run inside the child process)
# ---------------------------------------------------------------------------


def _identity_cases():
    """name -> keyword arguments of one fit whose result must not change."""
    cases = {}
    for bp in ("standard", "accumulated", "minibatch"):
        for act in ("sigmoid", "tanh", "relu"):
            for loss in ("log_loss", "squared_error"):
                for classes in (2, 3):
                    cases[f"clf-{bp}-{act}-{loss}-{classes}cls"] = dict(
                        make="clf", classes=classes, bp=bp, activation=act, loss=loss,
                        hidden_layer_sizes=(7, 4))
        for sparse in (False, True):
            tag = "csr" if sparse else "dense"
            cases[f"reg-{bp}-{tag}-2out"] = dict(make="reg", sparse=sparse, bp=bp,
                                                 hidden_layer_sizes=(6,), outputs=2)
            cases[f"clf-{bp}-{tag}-lambda0.8"] = dict(make="clf", sparse=sparse, bp=bp,
                                                      reg_lambda=0.8, classes=3)
            cases[f"clf-{bp}-{tag}-early"] = dict(make="clf", sparse=sparse, bp=bp,
                                                  early_stopping=True, classes=2)
            cases[f"clf-{bp}-{tag}-partial"] = dict(make="clf", sparse=sparse, bp=bp,
                                                    partial=True, classes=3)
        cases[f"clf-{bp}-book-noshuffle"] = dict(make="clf", bp=bp, init="book", shuffle=False,
                                                 classes=2, hidden_layer_sizes=(3,))
        cases[f"clf-{bp}-float32"] = dict(make="clf", bp=bp, float32=True, classes=3)
        cases[f"clf-{bp}-no-hidden"] = dict(make="clf", bp=bp, hidden_layer_sizes=(),
                                            classes=3)
    return cases


def _fit_identity(spec):
    from sklearn.exceptions import ConvergenceWarning

    from hyperplane.neural import MLPClassifier, MLPRegressor, hidden_outputs

    spec = dict(spec)
    make = {"clf": MLPClassifier, "reg": MLPRegressor}[spec.pop("make")]
    sparse, float32 = spec.pop("sparse", False), spec.pop("float32", False)
    partial, classes = spec.pop("partial", False), spec.pop("classes", 2)
    outputs = spec.pop("outputs", 1)
    rng = np.random.default_rng(0)
    X = rng.normal(size=(150, 12))
    if sparse:
        X[rng.random(X.shape) < 0.7] = 0.0
    y = (X[:, 0] + X[:, 1] > 0).astype(int) + (X[:, 2] > 0.5 if classes == 3 else 0)
    if make is MLPRegressor:
        y = np.column_stack([X[:, 2] - X[:, 3], X[:, 4]])[:, :outputs]
    X = X.astype(np.float32) if float32 else X
    Xin = sp.csr_matrix(X) if sparse else X
    kw = dict(max_iter=30, random_state=0, batch_size=32, learning_rate=0.2,
              hidden_layer_sizes=(5,))
    kw.update(spec)
    net = make(**kw)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        if partial:
            for _ in range(5):
                net.partial_fit(Xin, y, classes=np.unique(y))
        else:
            net.fit(Xin, y)
    digest = hashlib.sha256()
    for a in net.coefs_ + net.intercepts_:
        digest.update(np.ascontiguousarray(a).tobytes())
    digest.update(np.asarray(net.loss_curve_, dtype=np.float64).tobytes())
    digest.update(np.asarray(getattr(net, "validation_loss_curve_", []),
                             dtype=np.float64).tobytes())
    out = net.predict_proba(Xin) if make is MLPClassifier else net.predict(Xin)
    digest.update(np.ascontiguousarray(out).tobytes())
    for b_h in hidden_outputs(net, X):
        digest.update(b_h.tobytes())
    return digest.hexdigest()[:16]


#: name -> (n_samples, n_features, density (1: dense), bp, batch_size, eta, epochs)
TIMING = {
    "mini-batch SGD 200,000x50, 5 epochs": (200_000, 50, 1.0, "minibatch", 200, 0.05, 5),
    "mini-batch SGD 20,000x50, 5 epochs": (20_000, 50, 1.0, "minibatch", 200, 0.05, 5),
    "standard BP 20,000x50, 2 epochs": (20_000, 50, 1.0, "standard", 1, 0.001, 2),
    "accumulated BP 20,000x50, 100 epochs": (20_000, 50, 1.0, "accumulated", 1, 0.1, 100),
    "standard BP 17x8 (watermelon size), 3000 epochs": (17, 8, 1.0, "standard", 1, 0.1, 3000),
    "accumulated BP 17x8, 3000 epochs": (17, 8, 1.0, "accumulated", 1, 0.1, 3000),
    "CSR mini-batch 20,000x2,000 (1%), batch 200, 5 epochs":
        (20_000, 2_000, 0.01, "minibatch", 200, 0.05, 5),
    "CSR standard BP 20,000x2,000 (1%), 2 epochs": (20_000, 2_000, 0.01, "standard", 1, 0.001, 2),
}


def _timing_data(n, d, density):
    from sklearn.datasets import make_classification

    X, y = make_classification(n_samples=n, n_features=d, n_informative=min(20, d),
                               n_redundant=0, n_classes=4 if n > 100 else 2, random_state=0)
    if density < 1:
        mask = np.random.default_rng(0).random(X.shape) < density
        X = sp.csr_matrix(np.where(mask, X, 0.0))
    return X, y


def _time_case(name):
    from sklearn.exceptions import ConvergenceWarning

    from hyperplane.neural import MLPClassifier

    n, d, density, bp, batch, eta, epochs = TIMING[name]
    X, y = _timing_data(n, d, density)
    kw = dict(hidden_layer_sizes=(64,), activation="relu", bp=bp, batch_size=batch,
              learning_rate=eta, tol=0, n_iter_no_change=epochs, shuffle=True, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        MLPClassifier(**{**kw, "max_iter": 2}).fit(X[:min(n, 500)], y[:min(n, 500)])  # compile
        net = MLPClassifier(**{**kw, "max_iter": epochs})
        cpu, wall = time.process_time(), time.perf_counter()
        net.fit(X, y)
        return time.process_time() - cpu, time.perf_counter() - wall, net.loss_curve_[-1]


def child(mode, names):
    if mode == "identity":
        cases = _identity_cases()
        result = {name: _fit_identity(cases[name]) for name in cases}
    else:
        result = {name: _time_case(name) for name in names}
    json.dump(result, sys.stdout)


# ---------------------------------------------------------------------------
# parent: alternate the source trees
# ---------------------------------------------------------------------------


def _run(src, mode, names=()):
    env = {**os.environ, "PYTHONPATH": src}
    if mode == "identity":
        # multithreaded BLAS may split a product differently from run to run
        env["OPENBLAS_NUM_THREADS"] = env["OMP_NUM_THREADS"] = "1"
    done = subprocess.run([sys.executable, __file__, "--child", mode, *names], env=env,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", action="append", required=True,
                        help="a source tree (give two or more)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-identity", action="store_true")
    parser.add_argument("--cases", nargs="*", default=list(TIMING))
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args, rest = parser.parse_known_args(argv)
    srcs = [os.path.abspath(s) for s in args.src]
    if not args.skip_identity:
        digests = [_run(src, "identity") for src in srcs]
        same = [name for name in digests[0] if len({d[name] for d in digests}) == 1]
        print(f"bit-identical fits: {len(same)} of {len(digests[0])}")
        for name in digests[0]:
            if name not in same:
                print(f"  DIFFERS: {name}: {[d[name] for d in digests]}")
    best = {src: {name: [np.inf, np.inf, None] for name in args.cases} for src in srcs}
    for _ in range(args.repeat):
        for src in srcs:
            for name, (cpu, wall, final) in _run(src, "time", args.cases).items():
                entry = best[src][name]
                entry[0], entry[1], entry[2] = min(entry[0], cpu), min(entry[1], wall), final
    print()
    print("| case | " + " | ".join(f"CPU s ({s}) | wall s ({s})" for s in srcs)
          + " | CPU ratio | final loss equal |")
    print("|---|" + "---|---|" * len(srcs) + "---|---|")
    for name in args.cases:
        cells = []
        for src in srcs:
            cells += [f"{best[src][name][0]:.3f}", f"{best[src][name][1]:.3f}"]
        ratio = best[srcs[-1]][name][0] / best[srcs[0]][name][0]
        equal = len({best[src][name][2] for src in srcs}) == 1
        print(f"| {name} | " + " | ".join(cells) + f" | {ratio:.3f} | {equal} |")


if __name__ == "__main__":
    if "--child" in sys.argv:
        i = sys.argv.index("--child")
        child(sys.argv[i + 1], sys.argv[i + 2:])
    else:
        main()
