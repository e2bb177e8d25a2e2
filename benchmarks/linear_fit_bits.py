"""md5 of the LIBLINEAR-family fits and of the other row-layer learners: coefficients and intercepts.

Usage (from the repository root)::

    python benchmarks/linear_fit_bits.py --src /tmp/before/src --src src

Each source tree runs in a fresh Python process (``PYTHONPATH`` pointed at it,
its own empty numba cache, so every kernel is compiled from that tree) and
prints one md5 per fit: LinearSVC (hinge and squared hinge, L1 penalty,
Crammer-Singer, class and sample weights, three classes, no intercept),
LinearSVR (both losses), LogisticRegression (L-BFGS, TRON, L1) and the
Perceptron and Adaline (the row layer's other callers), each on dense rows and
on CSR rows of heart_scale and of a synthetic sparse problem. A refactoring
of the linear kernels that keeps every md5 keeps every fit bit for bit.
"""

from __future__ import annotations

from svm_fit_bits import main

CHILD = r'''
import hashlib, warnings
warnings.simplefilter("ignore")
import numpy as np, scipy.sparse as sp
from hyperplane.datasets import load_heart_scale
from hyperplane.svm import LinearSVC, LinearSVR
from hyperplane.linear import Adaline, LogisticRegression, Perceptron
Xs, y = load_heart_scale()
rng = np.random.default_rng(0)
Xr = rng.normal(size=(800, 40)); Xr[rng.random(Xr.shape) < 0.8] = 0.0
yr = np.sign(Xr[:, 0] + 0.5 * Xr[:, 1] + 0.3 * rng.normal(size=800)); yr3 = np.digitize(Xr[:, 2], [-0.3, 0.3])
target = Xr[:, 3] + 0.5 * Xr[:, 4] + 0.1 * rng.normal(size=800)
w = rng.uniform(0.2, 2.0, size=270)
models = [
    ("svc sq", LinearSVC(C=0.5, tol=1e-6, max_iter=5000), "y", None),
    ("svc hinge", LinearSVC(C=0.5, loss="hinge", tol=1e-6, max_iter=5000), "y", None),
    ("svc weights", LinearSVC(C=2.0, class_weight={1: 3.0}, max_iter=5000), "y", "w"),
    ("svc l1", LinearSVC(C=0.5, penalty="l1", tol=1e-6, max_iter=5000), "y", None),
    ("svc l1 weights", LinearSVC(C=0.5, penalty="l1", max_iter=5000), "y", "w"),
    ("svc cs", LinearSVC(C=0.5, multi_class="crammer_singer", max_iter=5000), "y", None),
    ("svc no intercept", LinearSVC(fit_intercept=False, max_iter=5000), "y", None),
    ("svr eps", LinearSVR(C=0.5, epsilon=0.1, tol=1e-6, max_iter=5000), "t", None),
    ("svr sq", LinearSVR(C=0.5, loss="squared_epsilon_insensitive", max_iter=5000), "t", "w"),
    ("logistic lbfgs", LogisticRegression(C=0.5), "y", None),
    ("logistic tron", LogisticRegression(C=0.5, solver="tron"), "y", "w"),
    ("logistic l1", LogisticRegression(C=0.5, penalty="l1"), "y", None),
    ("perceptron", Perceptron(max_iter=20, random_state=0), "y", None),
    ("adaline", Adaline(max_iter=20, random_state=0), "y", None),
]
data = {"heart": (Xs, y, Xs[:, 0].toarray().ravel() + 0.1 * np.arange(270) % 1, w),
        "sparse800": (sp.csr_matrix(Xr), yr, target, rng.uniform(0.2, 2.0, size=800))}
for dname, (X, labels, values, weight) in data.items():
    for layout in ("dense", "csr"):
        XX = X.toarray() if layout == "dense" else X
        for label, model, kind, weighted in models:
            kw = {} if weighted is None else {"sample_weight": weight}
            try:
                m = model.fit(XX, values if kind == "t" else labels, **kw)
                bits = np.asarray(m.coef_).tobytes() + np.asarray(m.intercept_).tobytes()
                out = hashlib.md5(bits).hexdigest()
            except Exception as e:
                out = "error:" + type(e).__name__
            print(f"{label + ' ' + dname + ' ' + layout:34s} {out}")
    m = LinearSVC(C=0.5, max_iter=5000).fit(X if dname == "heart" else X, yr3 if dname != "heart" else labels)
    print(f"{'svc 3class ' + dname:34s} {hashlib.md5(m.coef_.tobytes() + m.intercept_.tobytes()).hexdigest()}")
'''


if __name__ == "__main__":
    main(CHILD, __doc__)
