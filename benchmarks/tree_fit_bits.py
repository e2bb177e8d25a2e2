"""md5 of the decision trees' fits: every ``tree_`` array and the predictions, per fit.

Usage (from the repository root)::

    python benchmarks/tree_fit_bits.py --src /tmp/before/src --src src

Each source tree runs in a fresh Python process (``PYTHONPATH`` pointed at it,
its own empty numba cache, so every kernel is compiled from that tree) and
prints one md5 per fit: the classifier with every criterion (``info_gain``,
``gain_ratio``, ``gini``) and splitter (``best``, ``hist``) on numeric data
with categorical columns and missing values, on the book's watermelon data
(周志华 表4.1-4.3), with sample and class weights, C4.5's training-value cut,
CART's binary categorical split, every pruning kind, a 20000-row fit whose
nodes pass their class tables on (histogram subtraction), a Dask fit; the
regressor with both criteria and splitters, and with weights. A change of the
compile path (how numba builds the kernels) that keeps every md5 keeps every
tree bit for bit.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile

from _table import md5_table

CHILD = r'''
import hashlib, warnings
warnings.simplefilter("ignore")
import numpy as np, pandas as pd
from sklearn.datasets import make_classification
from hyperplane.datasets import load_watermelon
from hyperplane.tree import DecisionTreeClassifier, DecisionTreeRegressor


def mixed(n, seed):
    X, y = make_classification(n, 6, n_informative=4, random_state=seed)
    rng = np.random.default_rng(seed)
    X[rng.random(X.shape) < 0.05] = np.nan
    frame = pd.DataFrame(X, columns=[f"x{j}" for j in range(6)])
    for c in range(2):
        codes = rng.integers(0, 4, n)
        frame[f"c{c}"] = pd.Categorical.from_codes(codes, list("abcd"))
        frame.loc[rng.random(n) < 0.05, f"c{c}"] = None
    return frame, np.where(frame["c0"] == "a", 1 - y, y), rng


X, y, rng = mixed(1500, 0)
w = rng.uniform(0.2, 2.0, size=len(y))
W2, y2 = load_watermelon("2.0")
W3, y3 = load_watermelon("3.0")
Xbig, ybig = make_classification(20000, 10, n_informative=6, random_state=1)
cases = []
for criterion in ("info_gain", "gain_ratio", "gini"):
    for splitter in ("best", "hist"):
        cases.append((f"{criterion} {splitter} mixed", DecisionTreeClassifier(
            criterion=criterion, splitter=splitter), X, y, None))
    cases.append((f"{criterion} watermelon-2.0", DecisionTreeClassifier(criterion=criterion),
                  W2, y2, None))
cases += [
    ("gini watermelon-3.0", DecisionTreeClassifier(criterion="gini"), W3, y3, None),
    ("gain_ratio training_value", DecisionTreeClassifier(
        criterion="gain_ratio", cut_point="training_value"), X, y, None),
    ("info_gain sample weights", DecisionTreeClassifier(), X, y, w),
    ("gini hist sample weights", DecisionTreeClassifier(criterion="gini", splitter="hist"),
     X, y, w),
    ("gini class weights", DecisionTreeClassifier(criterion="gini", class_weight="balanced"),
     X, y, None),
    ("gini binary categorical", DecisionTreeClassifier(
        criterion="gini", categorical_split="binary"), X, y, None),
    ("pre-pruned", DecisionTreeClassifier(pruning="pre", random_state=0), X, y, None),
    ("post-pruned", DecisionTreeClassifier(pruning="post", random_state=0), X, y, None),
    ("pessimistic", DecisionTreeClassifier(criterion="gain_ratio", pruning="pessimistic"),
     X, y, None),
    ("cost complexity", DecisionTreeClassifier(criterion="gini", ccp_alpha=0.002), X, y, None),
    ("gini best 20000", DecisionTreeClassifier(criterion="gini"), Xbig, ybig, None),
    ("info_gain hist 20000", DecisionTreeClassifier(splitter="hist"), Xbig, ybig, None),
]
numeric = X[[f"x{j}" for j in range(6)]]
target = np.nan_to_num(numeric["x0"].to_numpy()) * 2.0 + rng.normal(size=len(y))
for criterion in ("squared_error", "absolute_error"):
    for splitter in ("best", "hist"):
        cases.append((f"regressor {criterion} {splitter}", DecisionTreeRegressor(
            criterion=criterion, splitter=splitter, max_depth=8), numeric, target, None))
cases.append(("regressor weights", DecisionTreeRegressor(max_depth=8), numeric, target, w))


def digest(model, X):
    tree = model.tree_
    parts = [np.ascontiguousarray(getattr(tree, name)).tobytes() for name in (
        "feature", "is_numeric", "threshold", "child_start", "n_child", "children",
        "branch_r", "value", "weight")]
    out = model.predict_proba(X) if hasattr(model, "predict_proba") else model.predict(X)
    parts.append(np.ascontiguousarray(out).tobytes())
    return hashlib.md5(b"".join(parts)).hexdigest()


for label, model, data, labels, weight in cases:
    kw = {} if weight is None else {"sample_weight": weight}
    print(f"{label:32s} {digest(model.fit(data, labels, **kw), data)}")

import dask.dataframe as dd
from dask import config
config.set(scheduler="synchronous")
frame = pd.concat([W3] * 40, ignore_index=True)
labels = pd.concat([y3] * 40, ignore_index=True)
model = DecisionTreeClassifier(criterion="gini", splitter="hist").fit(
    dd.from_pandas(frame, npartitions=4), dd.from_pandas(labels, npartitions=4))
print(f"{'dask gini hist watermelon-3.0':32s} {digest(model, frame)}")
'''


def fit_bits(src):
    """``{fit: md5}`` of one source tree, compiled into an empty numba cache."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, PYTHONPATH=os.path.abspath(src), NUMBA_CACHE_DIR=cache)
        done = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True,
                              text=True)
        if done.returncode != 0:
            sys.exit(done.stderr)
    return dict(line.rsplit(None, 1) for line in done.stdout.splitlines() if line.strip())


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", action="append", required=True,
                        help="a source tree (repeatable: the fits of each, side by side)")
    args = parser.parse_args()
    bits = [fit_bits(src) for src in args.src]
    print(md5_table("fit", args.src, bits))


if __name__ == "__main__":
    main()
