"""Run Weka's J48 (Quinlan's C4.5 release 8) on the same data as hyperplane.

Used by ``tests/tree/test_weka_j48.py`` and ``benchmarks/tree_weka.py``.

* :func:`ensure_weka` finds ``weka.jar`` (Debian package ``weka``), installing
  it with ``apt-get`` when absent and we are root; otherwise it returns
  ``None`` with the reason in :data:`WEKA_UNAVAILABLE`.
* :func:`write_arff_pair` writes train and test ARFF files with one shared
  header: object/category/bool columns become nominal attributes, numeric
  columns numeric, missing values ``?``.
* :func:`run_j48` runs ``weka.classifiers.trees.J48 -C c -M m -t train -T test``
  and parses the test accuracy, the tree size and Weka's own timings.
* :func:`weka_arff_files` lists the classification ARFF files Weka ships;
  :func:`j48_folds` runs ``J48Folds.java`` (compiled here with ``javac``) on
  them in one JVM: Weka's own ``-x 10 -s 1`` folds, with J48's tree and
  predictions on each; :func:`parse_j48_tree` reads J48's printed tree.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

JAR_CANDIDATES = ("/usr/share/java/weka.jar", "/usr/share/java/weka/weka.jar")
WEKA_UNAVAILABLE = {"reason": ""}


def find_weka_jar():
    """Path of ``weka.jar`` if installed (``$WEKA_JAR`` first), else ``None``."""
    for path in (os.environ.get("WEKA_JAR"), *JAR_CANDIDATES):
        if path and Path(path).is_file():
            return path
    return None


def ensure_weka():
    """``weka.jar`` path, installing Debian's ``weka`` package when absent.

    Returns ``None`` (reason in ``WEKA_UNAVAILABLE["reason"]``) when there is
    no java, no apt-get, we are not root, or the installation fails.
    """
    jar = find_weka_jar()
    if jar is None and shutil.which("apt-get") and os.geteuid() == 0:
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        for cmd in (["apt-get", "update"], ["apt-get", "install", "-y", "weka"]):
            done = subprocess.run(cmd, env=env, capture_output=True, text=True,
                                  timeout=900, check=False)
            if done.returncode != 0:
                WEKA_UNAVAILABLE["reason"] = (f"`{' '.join(cmd)}` failed: "
                                              f"{done.stderr.strip()[-300:]}")
                return None
        jar = find_weka_jar()
    if jar is None:
        WEKA_UNAVAILABLE["reason"] = ("weka.jar not found and Debian's `weka` cannot "
                                      "be installed here (needs apt-get and root)")
        return None
    if shutil.which("java") is None:
        WEKA_UNAVAILABLE["reason"] = "weka.jar found but no `java` on PATH"
        return None
    return jar


# ---------------------------------------------------------------------- ARFF
def is_nominal(column):
    return not pd.api.types.is_numeric_dtype(column) or pd.api.types.is_bool_dtype(column)


def arff_quote(value):
    """A nominal value or name as ARFF needs it (quoted when not a plain word)."""
    text = str(value)
    if re.fullmatch(r"[A-Za-z_][\w.\-]*", text):
        return text
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def arff_header(X_all, y_all, relation):
    """``@relation``/``@attribute`` lines for the union of train and test data."""
    lines = [f"@relation {arff_quote(relation)}", ""]
    for name in X_all.columns:
        column = X_all[name]
        if is_nominal(column):
            values = sorted({str(v) for v in column.dropna()})
            kind = "{" + ",".join(arff_quote(v) for v in values) + "}"
        else:
            kind = "numeric"
        lines.append(f"@attribute {arff_quote(name)} {kind}")
    classes = sorted({str(v) for v in y_all})
    lines.append("@attribute class {" + ",".join(arff_quote(c) for c in classes) + "}")
    return lines + ["", "@data"]


def arff_rows(X, y):
    """One comma-separated line per sample; ``?`` for a missing value."""
    cols = []
    for name in X.columns:
        column = X[name]
        missing = column.isna().to_numpy()
        if is_nominal(column):
            text = column.astype(object).map(lambda v: arff_quote(v) if pd.notna(v) else "?")
        else:
            text = column.map(lambda v: repr(float(v)))
        text = np.where(missing, "?", text.to_numpy(dtype=object))
        cols.append(text)
    cols.append(np.array([arff_quote(v) for v in y], dtype=object))
    return [",".join(row) for row in zip(*cols)]


def write_arff_pair(directory, X_train, y_train, X_test, y_test, relation="data"):
    """Write ``train.arff`` and ``test.arff`` with one shared header; return paths."""
    directory = Path(directory)
    X_train, X_test = pd.DataFrame(X_train), pd.DataFrame(X_test)
    X_train.columns = X_test.columns = [str(c) for c in X_train.columns]
    header = arff_header(pd.concat([X_train, X_test], ignore_index=True),
                         np.concatenate([np.asarray(y_train), np.asarray(y_test)]),
                         relation)
    paths = []
    for name, X, y in (("train", X_train, y_train), ("test", X_test, y_test)):
        path = directory / f"{name}.arff"
        path.write_text("\n".join(header + arff_rows(X, np.asarray(y))) + "\n",
                        encoding="utf-8")
        paths.append(path)
    return tuple(paths)


# ---------------------------------------------------------------------- J48
@dataclass
class J48Result:
    """What J48 reports: test accuracy (fraction), tree shape and timings."""

    accuracy: float
    n_leaves: int
    tree_size: int
    build_seconds: float   # Weka's in-process "Time taken to build model"
    wall_seconds: float    # whole java process: JVM start, ARFF parsing, evaluation
    output: str


def parse_j48_output(text):
    """Test accuracy, number of leaves, tree size and build time from J48's output."""
    leaves = re.search(r"Number of Leaves\s*:\s*(\d+)", text)
    size = re.search(r"Size of the tree\s*:\s*(\d+)", text)
    build = re.search(r"Time taken to build model:\s*([\d.]+)\s*seconds", text)
    test_part = text.split("=== Error on test data ===", 1)
    if not (leaves and size and build) or len(test_part) != 2:
        raise ValueError(f"unexpected J48 output:\n{text[:2000]}")
    correct = re.search(r"Correctly Classified Instances\s+\d+\s+([\d.]+)\s*%", test_part[1])
    if correct is None:
        raise ValueError(f"no test accuracy in J48 output:\n{test_part[1][:1000]}")
    return dict(accuracy=float(correct.group(1)) / 100, n_leaves=int(leaves.group(1)),
                tree_size=int(size.group(1)), build_seconds=float(build.group(1)))


def run_j48(jar, train, test, *, confidence=0.25, min_leaf=2, options=(),
            memory="2g", timeout=900):
    """Run J48 with ``-C confidence -M min_leaf`` (plus ``options``, e.g. ``-U``)."""
    cmd = ["java", f"-Xmx{memory}", "-Dfile.encoding=UTF-8", "-cp", str(jar),
           "weka.classifiers.trees.J48", "-C", str(confidence), "-M", str(min_leaf), *options,
           "-t", str(train), "-T", str(test)]
    if "-U" in options:
        cmd.remove("-C")
        cmd.remove(str(confidence))
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"J48 failed ({done.returncode}): {done.stderr[-2000:]}")
    return J48Result(**parse_j48_output(done.stdout), wall_seconds=wall, output=done.stdout)


# ---------------------------------------------------------------------- data
def mixed_dataset(n, n_numeric, n_nominal, *, missing=0.05, n_values=4, seed=0):
    """Mixed numeric/nominal data with a learnable class and missing values.

    The class is a noisy logistic function of a few numeric attributes and
    nominal levels; then a fraction ``missing`` of the attribute values is
    blanked completely at random. Returns ``(X DataFrame, y ndarray of str)``.
    """
    rng = np.random.default_rng(seed)
    num = rng.normal(size=(n, n_numeric))
    nom = rng.integers(0, n_values, size=(n, n_nominal))
    effects = rng.normal(scale=1.0, size=(n_nominal, n_values))
    score = (1.5 * num[:, 0] - num[:, 1] + (num[:, 2] > 0.5) * 1.5
             + effects[np.arange(n_nominal), nom].sum(axis=1) * 0.8)
    y = np.where(score + rng.logistic(scale=0.5, size=n) > np.median(score), "pos", "neg")
    frame = {f"n{j}": num[:, j] for j in range(n_numeric)}
    for j in range(n_nominal):
        frame[f"c{j}"] = np.array([f"v{v}" for v in nom[:, j]], dtype=object)
    X = pd.DataFrame(frame)
    mask = rng.random(X.shape) < missing
    for j, name in enumerate(X.columns):
        X.loc[mask[:, j], name] = np.nan if not is_nominal(X[name]) else None
    return X, y


# ---------------------------------------------------------------- Weka's folds
WEKA_EXAMPLES = Path("/usr/share/doc/weka/examples")
FOLDS_SOURCE = Path(__file__).with_name("J48Folds.java")


def arff_attribute_types(path):
    """The type text of every ``@attribute`` line of an ARFF header, in order."""
    types = []
    with open(path, encoding="utf-8", errors="replace") as handle:
        for line in handle:
            stripped = line.strip()
            if stripped.lower().startswith("@data"):
                break
            if stripped.lower().startswith("@attribute"):
                body = stripped[len("@attribute"):].strip()
                types.append(body[body.find("{"):] if "{" in body else body.split()[-1])
    return types


def weka_arff_files(directory=WEKA_EXAMPLES):
    """The classification ARFF files in ``directory``: last attribute nominal, no
    string attribute (J48 reads neither a numeric class nor raw text)."""
    files = []
    for path in sorted(Path(directory).glob("*.arff")):
        types = arff_attribute_types(path)
        if types and types[-1].startswith("{") and not any(
                t.lower() in ("string", "date") for t in types):
            files.append(path)
    return files


def j48_folds(jar, files, out_dir, *, folds=10, seed=1, timeout=600):
    """Weka's cross-validation folds of each file and J48 on each (one JVM).

    Returns ``{stem: [fold directory, ...]}``; each fold directory holds
    ``train.arff``, ``test.arff``, ``tree.txt`` and ``pred.txt``, and
    ``out_dir/<stem>/cv.txt`` is Weka's own ``-x folds -s seed`` evaluation
    (see ``J48Folds.java``).
    """
    out_dir = Path(out_dir)
    classes = out_dir / "classes"
    classes.mkdir(parents=True, exist_ok=True)
    subprocess.run(["javac", "-nowarn", "-cp", str(jar), "-d", str(classes), str(FOLDS_SOURCE)],
                   check=True, capture_output=True, timeout=timeout)
    subprocess.run(["java", "-Xmx1g", "-Dfile.encoding=UTF-8", "-cp",
                    f"{jar}{os.pathsep}{classes}", "J48Folds", str(out_dir), str(folds),
                    str(seed), *map(str, files)],
                   check=True, capture_output=True, timeout=timeout)
    return {Path(f).stem: [out_dir / Path(f).stem / f"fold{i}" for i in range(folds)]
            for f in files}


def cv_confusion(text):
    """The confusion matrix of the ``=== Stratified cross-validation ===`` section."""
    part = text.split("=== Stratified cross-validation ===", 1)[1]
    matrix = part.split("=== Confusion Matrix ===", 1)[1]
    rows = [line.split("|")[0].split() for line in matrix.splitlines() if "|" in line]
    return np.array(rows, dtype=np.int64)


@dataclass
class Leaf:
    """A leaf as J48 prints it: ``label (n/errors)``."""

    label: str
    n: float
    errors: float


@dataclass
class Split:
    """A test on ``attribute``; ``branches`` = [(op, value, child)], op ``=``, ``<=``, ``>``."""

    attribute: str
    branches: list


_LEAF_TAIL = re.compile(r": (?P<label>.+?) \((?P<n>[-\d.Ee]+)(?:/(?P<e>[-\d.Ee]+))?\)$")


def _parse_line(line, attributes):
    """``(depth, attribute, op, value text, Leaf or None)`` of one line of J48's tree."""
    depth = 0
    while line.startswith("|   "):
        line, depth = line[4:], depth + 1
    for name in sorted(attributes, key=len, reverse=True):
        for op in (" = ", " <= ", " > "):
            if line.startswith(name + op):
                rest = line[len(name) + len(op):]
                tail = _LEAF_TAIL.search(rest)
                leaf = None
                if tail is not None:
                    leaf = Leaf(tail["label"], float(tail["n"]), float(tail["e"] or 0.0))
                    rest = rest[:tail.start()]
                return depth, name, op.strip(), rest, leaf
    raise ValueError(f"cannot read J48 tree line {line!r}")


def parse_j48_tree(text, attributes):
    """J48's printed tree (``J48.toString()``) as nested :class:`Split`/:class:`Leaf`.

    ``attributes``: the attribute names (a line starts with one of them).
    """
    body = text.split("------------------", 1)[1].split("Number of Leaves", 1)[0].strip()
    if body.startswith(": "):
        tail = _LEAF_TAIL.search(body)
        return Leaf(tail["label"], float(tail["n"]), float(tail["e"] or 0.0))
    lines = [_parse_line(line, attributes) for line in body.splitlines() if line.strip()]

    def block(i, depth):
        branches, attribute = [], lines[i][1]
        while i < len(lines) and lines[i][0] == depth:
            _, name, op, value, leaf = lines[i]
            if name != attribute:
                raise ValueError(f"J48 tree: {name!r} among the branches of {attribute!r}")
            if leaf is None:
                child, i = block(i + 1, depth + 1)
            else:
                child, i = leaf, i + 1
            branches.append((op, float(value) if op != "=" else value, child))
        return Split(attribute, branches), i

    tree, end = block(0, 0)
    if end != len(lines):
        raise ValueError(f"J48 tree: line {end} not read: {lines[end]}")
    return tree


def fitted_tree(est):
    """A fitted :class:`~hyperplane.tree.DecisionTreeClassifier` as J48 would print it
    (nested :class:`Split`/:class:`Leaf`; an empty branch is a leaf of weight 0)."""
    t, spec = est.tree_, est._spec

    def node(i):
        j = t.feature[i]
        if j < 0:
            k = est._label_of(t.value[i])
            n = float(t.weight[i])
            return Leaf(str(est.classes_[k]), n, n - float(t.value[i][k]) if n > 0 else 0.0)
        kids = [node(c) for c in t.kids(i)]
        if t.is_numeric[i]:
            branches = [("<=", t.threshold[i], kids[0]), (">", t.threshold[i], kids[1])]
        else:
            branches = [("=", str(v), kid) for v, kid in zip(spec.categories[j], kids)]
        return Split(spec.names[j], branches)
    return node(0)


def tree_difference(ours, j48, path="root"):
    """The first place where two trees differ (as text), or ``None`` when they agree up
    to J48's printing precision (6 decimals for thresholds, 2 for leaf weights)."""
    if isinstance(ours, Leaf) or isinstance(j48, Leaf):
        if not (isinstance(ours, Leaf) and isinstance(j48, Leaf)):
            return f"{path}: ours {type(ours).__name__}, J48 {type(j48).__name__}"
        if (ours.label != j48.label or abs(ours.n - j48.n) > 0.006
                or abs(ours.errors - j48.errors) > 0.006):
            return f"{path}: ours {ours}, J48 {j48}"
        return None
    if ours.attribute != j48.attribute or len(ours.branches) != len(j48.branches):
        return (f"{path}: ours tests {ours.attribute!r} ({len(ours.branches)} branches), "
                f"J48 {j48.attribute!r} ({len(j48.branches)})")
    for (op, value, child), (op_j, value_j, child_j) in zip(ours.branches, j48.branches):
        here = f"{path} / {ours.attribute} {op_j} {value_j}"
        same = (op == op_j and (value == value_j if op == "=" else
                                abs(value - value_j) <= 5.1e-7 + 1e-12 * abs(value)))
        if not same:
            return f"{here}: ours {ours.attribute} {op} {value}"
        found = tree_difference(child, child_j, here)
        if found:
            return found
    return None
