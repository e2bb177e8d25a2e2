"""Tables in and out: UTF-8 CSV (Chinese headers welcome) or a shipped dataset.

Also turns an estimator into the model the command line fits: estimators
that take categorical columns (the trees) get the DataFrame as it is;
numeric models get a pipeline that one-hot encodes the categorical columns,
so the encoder travels in the model file with the estimator.
"""

from __future__ import annotations

import io
from pathlib import Path

import pandas as pd
from pandas.api.types import is_bool_dtype, is_numeric_dtype
from sklearn.utils import get_tags

from ._models import SHIPPED_DATASETS, UserError


def _shipped(loader, *args):
    def load():
        X, y = loader(*args)
        return X.assign(**{y.name: y})
    return load


def _shipped_datasets():
    from hyperplane import datasets

    return {name: _shipped(getattr(datasets, loader), *args)
            for name, (loader, *args) in SHIPPED_DATASETS.items()}


def read_table(source, index=None):
    """Read ``source`` (CSV path or shipped dataset name) into a DataFrame.

    ``index`` names a column that identifies rows (e.g. 编号): it becomes the
    index, so it is carried to the output but never used as a feature.
    """
    path = Path(source)
    shipped = _shipped_datasets()
    if not path.exists() and source in shipped:
        frame = shipped[source]()
    else:
        frame = _read_csv(path)
    if index is not None:
        if index not in frame.columns:
            raise UserError(f"unknown --index column {index!r} in {source}; "
                            f"columns: {', '.join(map(str, frame.columns))}")
        frame = frame.set_index(index)
    return frame


def _read_csv(path):
    if not path.exists():
        raise UserError(f"no such file: {path}")
    if not path.is_file():
        raise UserError(f"{path} is not a file")
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UserError(f"{path} is not UTF-8 text (save the CSV as UTF-8)") from None
    except OSError as exc:
        raise UserError(f"cannot read {path}: {exc.strerror}") from None
    try:
        frame = pd.read_csv(io.StringIO(text))
    except pd.errors.EmptyDataError:
        raise UserError(f"{path} is empty") from None
    except pd.errors.ParserError as exc:
        reason = str(exc).strip().splitlines()[-1]
        raise UserError(f"{path} is not a readable CSV table: {reason}") from None
    if frame.empty:
        raise UserError(f"{path} has a header but no rows")
    return frame


def split_target(frame, target, source):
    """``(X, y)``: every column but ``target``, and ``target``."""
    if target not in frame.columns:
        raise UserError(f"unknown column {target!r} in {source}; "
                        f"columns: {', '.join(map(str, frame.columns))}")
    y = frame[target]
    missing = y.isna().to_numpy()
    if missing.any():
        rows = ", ".join(map(str, frame.index[missing][:5]))
        raise UserError(f"target column {target!r} has missing values (rows {rows})")
    X = frame.drop(columns=[target])
    if X.shape[1] == 0:
        raise UserError(f"{source} has no feature columns besides the target {target!r}")
    return X, y


def categorical_columns(X):
    """Columns that hold categories (text, category or bool), in table order."""
    return [c for c in X.columns if is_bool_dtype(X[c]) or not is_numeric_dtype(X[c])]


def takes_categorical(estimator):
    """Whether ``estimator`` accepts categorical columns as they are: its
    scikit-learn tags declare categorical or string input (the decision tree's
    multiway splits do)."""
    tags = get_tags(estimator).input_tags
    return bool(tags.categorical or tags.string)


def build_model(estimator, X):
    """``estimator`` itself, or one-hot encoding + ``estimator`` for numeric models."""
    from sklearn.compose import ColumnTransformer
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import OneHotEncoder

    categorical = categorical_columns(X)
    if not categorical or takes_categorical(estimator):
        return estimator
    encode = ColumnTransformer(
        [("onehot", OneHotEncoder(handle_unknown="ignore", sparse_output=False), categorical)],
        remainder="passthrough", verbose_feature_names_out=False,
    ).set_output(transform="pandas")
    return Pipeline([("encode", encode), ("model", estimator)])


def model_table(data, meta, model):
    """``(frame, X)``: the table ``data`` indexed as at fit time (when it has
    the index column) and its feature columns in training order, from the
    model file's ``meta`` or else the model's ``feature_names_in_``."""
    frame = read_table(data)
    index = meta.get("index")
    if index is not None and index in frame.columns:
        frame = frame.set_index(index)
    features = meta.get("features") or list(getattr(model, "feature_names_in_", []))
    return frame, (feature_frame(frame, features, data) if features else frame)


def feature_frame(frame, features, source):
    """The training columns of ``frame`` in training order (extra columns ignored)."""
    missing = [c for c in features if c not in frame.columns]
    if missing:
        raise UserError(f"{source} lacks column(s) the model was trained on: "
                        f"{', '.join(map(str, missing))}")
    return frame[list(features)]


def write_table(frame, out):
    """Write ``frame`` as UTF-8 CSV to the path ``out`` or, if None, to stdout."""
    import sys

    text = frame.to_csv(index=frame.index.name is not None)
    if out is None:
        sys.stdout.buffer.write(text.encode("utf-8"))
        sys.stdout.flush()
    else:
        Path(out).write_text(text, encoding="utf-8")
