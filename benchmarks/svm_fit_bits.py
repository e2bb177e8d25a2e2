"""md5 of the kernel SVMs' fits (SMO): dual coefficients, intercepts, decision values.

Usage (from the repository root)::

    python benchmarks/svm_fit_bits.py --src /tmp/before/src --src src

Each source tree runs in a fresh Python process (``PYTHONPATH`` pointed at it,
its own empty numba cache, so every kernel is compiled from that tree) and
prints one md5 per fit: SVC (rbf, linear, poly, sigmoid, class and sample
weights, no shrinking, Platt's probabilities, three classes), SVR, NuSVC,
NuSVR and OneClassSVM, on heart_scale dense and CSR and on synthetic data
(sparse rows, and 6000 x 120 rows above the threshold from which a kernel row
is computed on all threads). A refactoring of the SMO layer that keeps every
md5 keeps every fit bit for bit.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile

from _table import md5_table

CHILD = r'''
import hashlib, sys, warnings
warnings.simplefilter("ignore")
import numpy as np, scipy.sparse as sp
from hyperplane.datasets import load_heart_scale
from hyperplane.svm import SVC, SVR, NuSVC, NuSVR, OneClassSVM
Xs, y = load_heart_scale()
Xd = Xs.toarray()
rng = np.random.default_rng(0)
Xr = rng.normal(size=(600, 30)); Xr[rng.random(Xr.shape) < 0.7] = 0.0
yr = np.sign(Xr[:, 0] + 0.5 * Xr[:, 1] + 0.3 * rng.normal(size=600)); yr3 = np.digitize(Xr[:, 2], [-0.3, 0.3])
Xrs = sp.csr_matrix(Xr)
Xbig = np.hstack([np.repeat(Xr, 10, axis=0)] * 4) + 0.01 * rng.normal(size=(6000, 120))
w = rng.uniform(0.2, 2.0, size=270)
cases = []
for name, X in (("dense", Xd), ("csr", Xs)):
    cases += [
        (f"svc rbf {name}", SVC(), X, y, None),
        (f"svc linear {name}", SVC(kernel="linear", C=0.5), X, y, None),
        (f"svc poly {name}", SVC(kernel="poly", degree=3, C=2.0), X, y, None),
        (f"svc sigmoid {name}", SVC(kernel="sigmoid", gamma=0.05), X, y, None),
        (f"svc weights {name}", SVC(class_weight={1: 2.0}), X, y, w),
        (f"svc noshrink {name}", SVC(shrinking=False, C=10.0), X, y, None),
        (f"svr {name}", SVR(C=3.0, epsilon=0.2), X, y, None),
        (f"nusvc {name}", NuSVC(nu=0.3), X, y, None),
        (f"nusvr {name}", NuSVR(nu=0.4), X, y, None),
        (f"oneclass {name}", OneClassSVM(nu=0.2), X, None, None),
        (f"prob {name}", SVC(probability=True, random_state=0), X, y, None),
    ]
cases += [("svc 3class csr600", SVC(C=5.0), Xrs, yr3, None), ("svc 3class dense600", SVC(C=5.0), Xr, yr3, None),
          ("svc laplace dense600", SVC(kernel="laplace") if False else SVC(gamma=0.5), Xr, yr, None),
          ("svc parallel rows dense", SVC(max_iter=2000), Xbig, np.repeat(yr, 10), None),
          ("svc parallel rows csr", SVC(max_iter=2000), sp.csr_matrix(Xbig), np.repeat(yr, 10), None),
          ("nusvr csr600", NuSVR(), Xrs, Xr[:, 3], None), ("oneclass csr600", OneClassSVM(), Xrs, None, None)]
for label, model, X, target, weight in cases:
    kw = {} if weight is None else {"sample_weight": weight}
    m = model.fit(X, target, **kw) if target is not None else model.fit(X, **kw)
    parts = [np.asarray(m.dual_coef_).tobytes(), np.asarray(m.intercept_).tobytes(),
             np.asarray(m.decision_function(X) if hasattr(m, "decision_function") else m.predict(X)).tobytes()]
    if hasattr(m, "predict_proba") and getattr(m, "probability", False):
        parts.append(m.predict_proba(X).tobytes())
    print(f"{label:24s} {hashlib.md5(b''.join(parts)).hexdigest()}")
'''


def fit_bits(src, child=CHILD):
    """``{fit: md5}`` of one source tree (the fits ``child`` prints),
    compiled into an empty numba cache."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, PYTHONPATH=os.path.abspath(src), NUMBA_CACHE_DIR=cache)
        done = subprocess.run([sys.executable, "-c", child], env=env, capture_output=True,
                              text=True, check=True)
    return dict(line.rsplit(None, 1) for line in done.stdout.splitlines() if line.strip())


def main(child=CHILD, description=__doc__):
    """The table of the md5s of the fits ``child`` prints, one column per ``--src``."""
    parser = argparse.ArgumentParser(description=description.splitlines()[0])
    parser.add_argument("--src", action="append", required=True,
                        help="a source tree (repeatable: the fits of each, side by side)")
    args = parser.parse_args()
    bits = [fit_bits(src, child) for src in args.src]
    print(md5_table("fit", args.src, bits))


if __name__ == "__main__":
    main()
