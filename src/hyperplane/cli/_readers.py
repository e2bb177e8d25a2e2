"""The DATA argument: a CSV, ARFF or LIBSVM file, or a shipped dataset name.

Each format has one reader returning a :class:`Table`. The format is
``--format`` when given, else the file's suffix, else (no known suffix) a
look at the first data line: ``label index:value ...`` is LIBSVM, anything
else CSV.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

import pandas as pd

from ._models import SHIPPED_DATASETS, UserError, one_line

#: the target column of a LIBSVM file, which has no header
LIBSVM_TARGET = "label"

_SUFFIXES = {".csv": "csv", ".txt": "csv", ".arff": "arff",
             ".svm": "libsvm", ".libsvm": "libsvm", ".svmlight": "libsvm"}
_LIBSVM_LINE = re.compile(r"^\s*[-+]?[\d.eE+-]+(\s+(qid:\S+|\d+:\S+))*\s*(#.*)?$")
_CJK = re.compile(r"[\u4e00-\u9fff]")


@dataclass
class Table:
    """What a DATA argument holds.

    ``frame`` has every column read (for a LIBSVM file only the label);
    ``sparse`` holds a LIBSVM file's features as CSR; ``default_target`` is
    the target when ``--target`` is not given (ARFF: the last attribute,
    LIBSVM: the label, a shipped dataset: the book's class).
    """

    frame: pd.DataFrame
    format: str
    default_target: Optional[str] = None
    sparse: Any = None


def read_table(source, *, index=None, fmt=None, encoding="utf-8", n_features=None):
    """Read ``source`` into a :class:`Table`.

    ``index`` names a column that identifies rows (e.g. 编号): it becomes the
    index, so it is carried to the output but never used as a feature.
    ``n_features`` is the width of a LIBSVM file's rows (the training width
    when predicting).
    """
    path = Path(source)
    if not path.exists() and fmt is None and source in SHIPPED_DATASETS:
        table = _read_shipped(source)
    else:
        _check_file(path)
        fmt = fmt or file_format(path, encoding)
        if fmt not in _READERS:
            raise UserError(f"unknown --format {fmt!r}; choose from {', '.join(_READERS)}")
        table = _READERS[fmt](path, encoding=encoding, n_features=n_features)
    if index is not None:
        if index not in table.frame.columns:
            raise UserError(f"unknown --index column {index!r} in {source}; "
                            f"columns: {', '.join(map(str, table.frame.columns))}")
        table.frame = table.frame.set_index(index)
    return table


def _check_file(path):
    if not path.exists():
        raise UserError(f"no such file: {path}")
    if not path.is_file():
        raise UserError(f"{path} is not a file")


def file_format(path, encoding="utf-8"):
    """``"csv"``, ``"arff"`` or ``"libsvm"`` from the suffix, else from the first line."""
    if path.suffix.lower() in _SUFFIXES:
        return _SUFFIXES[path.suffix.lower()]
    with open(path, "rb") as handle:
        for raw in handle:
            line = raw.decode(encoding, errors="replace").strip()
            if line and not line.startswith("#"):
                return "libsvm" if _LIBSVM_LINE.match(line) and ":" in line else "csv"
    return "csv"


def decode_text(path, encoding="utf-8"):
    """The text of ``path``: UTF-8 with or without a byte-order mark by default.

    A file that is not in ``encoding`` is refused with the encoding it most
    likely is (GB18030/GBK for Chinese spreadsheets saved by Excel) and how
    to convert it.
    """
    data = path.read_bytes()
    utf8 = encoding.lower().replace("_", "-") in ("utf-8", "utf8")
    try:
        return data.decode("utf-8-sig" if utf8 else encoding)
    except UnicodeDecodeError as exc:
        name = "UTF-8" if utf8 else encoding
        reason = f"{path} is not {name} text (byte {exc.start}: {exc.reason})"
    except LookupError:
        raise UserError(f"unknown --encoding {encoding!r}") from None
    if _is_gb18030(data):
        raise UserError(
            f"{reason}; it reads as GB18030 (GBK), the encoding Chinese Excel saves: pass "
            f"--encoding gb18030, or convert it with `iconv -f GB18030 -t UTF-8 {path.name} "
            f"> utf8.csv` (or save it again as 'CSV UTF-8')")
    raise UserError(f"{reason}; pass --encoding, or save the file again as UTF-8")


def _is_gb18030(data):
    try:
        text = data.decode("gb18030")
    except UnicodeDecodeError:
        return False
    return bool(_CJK.search(text))


def _read_csv(path, *, encoding, n_features=None):
    text = decode_text(path, encoding)
    _check_csv_fields(path, text)
    try:
        frame = pd.read_csv(io.StringIO(text))
    except pd.errors.EmptyDataError:
        raise UserError(f"{path} is empty") from None
    except pd.errors.ParserError as exc:
        reason = str(exc).strip().splitlines()[-1]
        raise UserError(f"{path} is not a readable CSV table: {reason}") from None
    if frame.empty:
        raise UserError(f"{path} has a header but no rows")
    return Table(text_as_categories(frame), "csv")


def _check_csv_fields(path, text):
    """Refuse a header naming a column twice, and a first row with more fields
    than the header: pandas renames the second ``a`` to ``a.1``, and reads
    rows one field longer than the header (as after the first row) with the
    first field as an index, so every value moves one column left, silently.
    A later row too long is pandas' own error, which names its line."""
    rows = csv.reader(io.StringIO(text))
    try:
        header = next((row for row in rows if row), None)
        first = next((row for row in rows if row), None)
    except csv.Error:
        return  # pandas names the line of a quoting error itself
    if header is None:
        return
    seen = set()
    for name in header:
        if name in seen and name != "":
            raise UserError(f"{path}: the header names the column {name!r} twice")
        seen.add(name)
    if first is not None and len(first) > len(header):
        raise UserError(f"{path}, line {rows.line_num}: {len(first)} fields, but the "
                        f"header names {len(header)} columns")


def text_as_categories(frame):
    """Every text column of a CSV table as a pandas ``Categorical`` whose
    categories are its values sorted (pandas' ``dtype="category"``).

    A CSV file declares no attribute domains; this fixed, sorted order is the
    one its values get everywhere (a tree's branches and, for a text target,
    the order that breaks class ties), so a CSV file gives the model its
    ARFF twin gives whenever the ARFF file declares its values sorted.
    """
    text = [c for c in frame.columns
            if pd.api.types.is_object_dtype(frame[c]) or pd.api.types.is_string_dtype(frame[c])]
    return frame.astype({c: "category" for c in text}) if text else frame


def _read_arff(path, *, encoding, n_features=None):
    from hyperplane.datasets import load_arff

    try:
        X, y = load_arff(path, encoding=encoding)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    if X.empty:
        raise UserError(f"{path} has no rows")
    return Table(X.assign(**{y.name: y}), "arff", default_target=y.name)


def _read_libsvm(path, *, encoding=None, n_features=None):
    from hyperplane.datasets import load_svmlight

    try:
        X, y = load_svmlight(path, n_features=n_features)
    except ValueError as exc:
        raise UserError(one_line(exc)) from None
    return libsvm_table(X, y)


#: labels beyond this are not made integers: a float64 holds every integer up to
#: 2^53 exactly, and int64 none beyond 2^63 (1e20 would wrap to -2^63)
EXACT_INTEGER_LABELS = 2.0 ** 53


def libsvm_table(X, y):
    """A LIBSVM file's table: labels as integers when they all are (and every one is
    an integer float64 holds exactly), else as written."""
    labels = pd.Series(y, name=LIBSVM_TARGET)
    if len(y) and (labels == labels.round()).all() and (
            labels.abs() <= EXACT_INTEGER_LABELS).all():
        labels = labels.astype("int64")
    return Table(labels.to_frame(), "libsvm", default_target=LIBSVM_TARGET, sparse=X)


def _read_shipped(name):
    from scipy import sparse

    from hyperplane import datasets

    loader, *args = SHIPPED_DATASETS[name]
    X, y = getattr(datasets, loader)(*args)
    if sparse.issparse(X):
        return libsvm_table(X, y)
    return Table(X.assign(**{y.name: y}), "csv", default_target=y.name)


#: --format name -> reader(path, encoding=, n_features=) -> Table
_READERS = {"csv": _read_csv, "arff": _read_arff, "libsvm": _read_libsvm}
FORMATS = tuple(_READERS)
