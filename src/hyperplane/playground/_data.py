"""The data a lesson runs on: shipped tables, textbook examples, clicked points, uploads.

Uploaded CSV files go through the command line's reader (UTF-8, a header,
at least one row), then through the same target/feature split; nothing in
a request is ever executed or unpickled.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from ..cli._data import read_table, split_target
from ..cli._models import UserError
from ..datasets import load_loan, load_perceptron_example, load_watermelon
from ._fields import FieldError

#: the biggest CSV a student may upload, in bytes
MAX_UPLOAD_BYTES = 1 << 20
#: the most points a request may click onto the plane
MAX_CLICKED_POINTS = 2000
#: 表4.2: training and validation 编号 of 西瓜数据集2.0 (周志华 4.3)
TRAIN_42 = [1, 2, 3, 6, 7, 10, 14, 15, 16, 17]
VALID_42 = [4, 5, 8, 9, 11, 12, 13]
#: 脐部 first: 色泽 and 脐部 tie at the root of the 表4.2 training set and the book takes 脐部
COLUMNS_42 = ["脐部", "色泽", "根蒂", "敲声", "纹理", "触感"]


def _example_2_1():
    X, y = load_perceptron_example()
    return pd.DataFrame(X, columns=["x(1)", "x(2)"], index=[1, 2, 3]), pd.Series(y, name="y",
                                                                                   index=[1, 2, 3])


def _watermelon(version):
    return lambda: load_watermelon(version)


def _xor():
    X = pd.DataFrame([[0, 0], [0, 1], [1, 0], [1, 1]], columns=["x(1)", "x(2)"],
                     index=[1, 2, 3, 4], dtype=float)
    return X, pd.Series([0, 1, 1, 0], index=X.index, name="y")


def separable_points(n, seed=0, margin=0.002):
    """``n`` linearly separable 2-D points with a thin margin, away from the origin:
    the perceptron needs thousands of updates on them (a long run to stream)."""
    rng = np.random.default_rng(seed)
    centre = np.array([3.0, 1.0])
    X = rng.uniform(-1, 1, size=(2 * n, 2)) + centre
    score = (X - centre) @ np.array([1.0, 0.7]) + 0.05
    keep = np.flatnonzero(np.abs(score) > margin)[:n]
    return (pd.DataFrame(X[keep], columns=["x(1)", "x(2)"]),
            pd.Series(np.where(score[keep] > 0, 1, -1), name="y"))


def sine_curve(n=30, seed=0):
    """A noisy sine on [0, 2π]: the 1-D regression of the SVR lesson."""
    rng = np.random.default_rng(seed)
    x = np.sort(rng.uniform(0, 2 * np.pi, n))
    y = np.sin(x) + 0.1 * rng.normal(size=n)
    return pd.DataFrame({"x": x}), pd.Series(y, name="y")


#: dataset key -> loader returning (X DataFrame, y Series)
DATASETS = {
    "example-2.1": _example_2_1,
    "watermelon-2.0": _watermelon("2.0"),
    "watermelon-2.0alpha": _watermelon("2.0alpha"),
    "watermelon-3.0": _watermelon("3.0"),
    "watermelon-3.0alpha": _watermelon("3.0alpha"),
    "loan": load_loan,
    "xor": _xor,
    "separable-10000": lambda: separable_points(10_000),
    "sine": sine_curve,
}


def dataset_by_name(name, uploads):
    """``(X, y)`` of a dataset key or of an upload id (``upload:<n>``)."""
    if name in DATASETS:
        return DATASETS[name]()
    if name in uploads:
        return uploads[name]
    raise FieldError("dataset", f"unknown dataset {name!r}; choose one of "
                                f"{', '.join(DATASETS)} or upload a CSV file", "unknown_dataset",
                     name=str(name))


def clicked(points):
    """``(X, y)`` of the points a student clicked: ``[[x1, x2, ±1], ...]``."""
    def refuse(message, code="points"):
        return FieldError("points", message, code, limit=MAX_CLICKED_POINTS)

    if not isinstance(points, list) or not 2 <= len(points) <= MAX_CLICKED_POINTS:
        raise refuse(f"must be a list of 2 to {MAX_CLICKED_POINTS} [x(1), x(2), label] triples")
    try:
        array = np.array(points, dtype=np.float64)
    except (TypeError, ValueError):
        raise refuse("must be numbers [x(1), x(2), label]") from None
    if array.ndim != 2 or array.shape[1] != 3 or not np.all(np.isfinite(array)):
        raise refuse("each point must be three finite numbers [x(1), x(2), label]")
    labels = array[:, 2]
    if not np.all(np.isin(labels, (-1, 1))):
        raise refuse("a clicked point's label must be +1 or -1")
    if np.unique(labels).size < 2:
        raise refuse("click points of both classes (+1 and -1)", "points_one_class")
    index = pd.RangeIndex(1, len(array) + 1)
    return (pd.DataFrame(array[:, :2], columns=["x(1)", "x(2)"], index=index),
            pd.Series(labels.astype(np.int64), name="y", index=index))


def _unreadable(content):
    """Why the command line's reader refused an upload, as a :class:`FieldError`
    code: not text in UTF-8 (or GB18030, which the reader also takes), a
    header without rows, or else not a CSV table."""
    for encoding in ("utf-8", "gb18030"):
        try:
            text = content.decode(encoding)
            break
        except UnicodeDecodeError:
            continue
    else:
        return "upload_encoding"
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        return "upload_empty"
    return "upload_no_rows" if len(lines) == 1 else "upload_unreadable"


def parse_upload(content, filename, target=None):
    """``(X, y)`` from the bytes of an uploaded CSV, checked as the command line checks.

    The label is ``target`` or else the last column. Every refusal is a
    :class:`FieldError` on ``file`` (or ``target``) with a code and its numbers,
    so the page says it in its own language.
    """
    if len(content) > MAX_UPLOAD_BYTES:
        raise FieldError("file", f"{filename} is {len(content)} bytes; the limit is "
                                 f"{MAX_UPLOAD_BYTES} bytes", "upload_too_large",
                         limit=MAX_UPLOAD_BYTES)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "upload.csv"
        path.write_bytes(content)
        try:
            table = read_table(str(path), fmt="csv")
        except UserError as exc:
            raise FieldError("file", str(exc).replace(str(path), filename),
                             _unreadable(content), name=filename) from None
    frame = table.frame
    frame.index = pd.RangeIndex(1, len(frame) + 1)
    target = frame.columns[-1] if target in (None, "") else target
    columns = ", ".join(map(str, frame.columns))
    if target not in frame.columns:
        raise FieldError("target", f"unknown column {target!r}; columns: {columns}",
                         "upload_unknown_column", name=str(target), columns=columns)
    missing = frame.index[frame[target].isna()].tolist()
    if missing:
        raise FieldError("target", f"the label column {target!r} has missing values (rows "
                                   f"{missing[:10]})", "upload_missing_labels",
                         name=str(target), rows=", ".join(map(str, missing[:10])))
    if frame.shape[1] < 2 and table.sparse is None:
        raise FieldError("file", f"{filename} has no feature columns besides {target!r}",
                         "upload_no_features", name=str(target))
    return split_target(table, target, filename)


def numeric_plane(X, y, lesson):
    """The two numeric columns a plane lesson draws, as float arrays; clear error otherwise."""
    numeric = X.select_dtypes("number")
    if numeric.shape[1] != 2 or numeric.isna().any().any():
        raise FieldError("dataset", f"the {lesson} lesson needs exactly two numeric columns "
                                    f"without missing values; this data has "
                                    f"{list(map(str, X.columns))}", "two_numeric",
                         columns=", ".join(map(str, X.columns)))
    return numeric.to_numpy(np.float64), np.asarray(y)


def split_4_2(X, y):
    """The 表4.2 training and validation sets of 西瓜数据集2.0."""
    return ((X.loc[TRAIN_42, COLUMNS_42], y.loc[TRAIN_42]),
            (X.loc[VALID_42, COLUMNS_42], y.loc[VALID_42]))
