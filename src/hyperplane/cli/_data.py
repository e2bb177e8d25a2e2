"""Tables in and out: the features and target of a DATA argument (see
``_readers``), and UTF-8 CSV output.

Also turns an estimator into the model the command line fits: estimators
that take categorical columns (the trees) get the DataFrame as it is;
numeric models get a pipeline that one-hot encodes the categorical columns,
so the encoder travels in the model file with the estimator.
"""

from __future__ import annotations

import warnings

import pandas as pd

from pandas.api.types import is_bool_dtype, is_numeric_dtype
from sklearn.utils import get_tags

from ._models import UserError
from ._readers import read_table


def split_target(table, target, source):
    """``(X, y)``: every column but ``target`` (a LIBSVM file's sparse
    features), and ``target`` -- by default the table's own target."""
    frame = table.frame
    target = table.default_target if target is None else target
    if target is None:
        raise UserError(f"--target is required for {source}: name the column to predict; "
                        f"columns: {', '.join(map(str, frame.columns))}")
    if target not in frame.columns:
        raise UserError(f"unknown column {target!r} in {source}; "
                        f"columns: {', '.join(map(str, frame.columns))}")
    y = frame[target]
    missing = y.isna().to_numpy()
    if missing.any():
        rows = ", ".join(map(str, frame.index[missing][:5]))
        raise UserError(f"target column {target!r} has missing values (rows {rows})")
    X = table.sparse if table.sparse is not None else frame.drop(columns=[target])
    if X.shape[1] == 0:
        raise UserError(f"{source} has no feature columns besides the target {target!r}")
    return X, y


def estimator_input(estimator, X):
    """``X`` as ``estimator`` takes it: a sparse matrix made dense for an
    estimator whose scikit-learn tags say it does not take sparse input."""
    from scipy import sparse

    if sparse.issparse(X) and not get_tags(estimator).input_tags.sparse:
        return X.toarray()
    return X


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
    categorical = categorical_columns(X) if hasattr(X, "columns") else []
    if not categorical or takes_categorical(estimator):
        return estimator
    from sklearn.compose import ColumnTransformer  # 0.1 s of imports a numeric table skips
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import OneHotEncoder

    encode = ColumnTransformer(
        [("onehot", OneHotEncoder(handle_unknown="ignore", sparse_output=False), categorical)],
        remainder="passthrough", verbose_feature_names_out=False,
    ).set_output(transform="pandas")
    return Pipeline([("encode", encode), ("model", estimator)])


def warn_unseen_categories(model, X):
    """Warn, per column, of categories the one-hot encoder of ``model`` did
    not see in training: they are encoded as all zeros (``handle_unknown=
    "ignore"``), so each such row still gets a prediction."""
    for column, categories in _one_hot_columns(model):
        if column not in getattr(X, "columns", ()):
            continue
        values = pd.Series(X[column]).astype(object)
        unseen = ~values.isin(list(categories))
        missing = values.isna()
        for value in pd.unique(values[unseen & ~missing]):
            _warn_unseen(column, repr(value), values.index[unseen & (values == value)])
        if (unseen & missing).any():
            _warn_unseen(column, "a missing value", values.index[unseen & missing])


def _warn_unseen(column, what, rows):
    rows = ", ".join(map(str, rows[:5])) + (", ..." if len(rows) > 5 else "")
    warnings.warn(f"column {column!r}: {what} was not seen in training; encoded as all "
                  f"zeros (rows {rows})", UserWarning, stacklevel=3)


def _one_hot_columns(model):
    """``(column, categories)`` for every column one-hot encoded inside ``model``."""
    from sklearn.compose import ColumnTransformer
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import OneHotEncoder

    steps = [step for _, step in model.steps] if isinstance(model, Pipeline) else [model]
    for step in steps:
        if not isinstance(step, ColumnTransformer):
            continue
        for _, encoder, columns in getattr(step, "transformers_", []):
            if isinstance(encoder, OneHotEncoder):
                yield from zip(columns, encoder.categories_)


def model_table(data, meta, model, *, fmt=None, encoding="utf-8"):
    """``(frame, X)``: the table ``data`` indexed as at fit time (when it has
    the index column) and its features in training order, from the model
    file's ``meta`` or else the model's ``feature_names_in_``; a LIBSVM
    file's features are read at the training width."""
    table = read_table(data, fmt=fmt, encoding=encoding, n_features=meta.get("n_features"))
    frame = table.frame
    if table.sparse is not None:
        return frame, estimator_input(model, table.sparse)
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
        from hyperplane.io._atomic import atomic_write

        with atomic_write(out) as (handle, _):
            handle.write(text.encode("utf-8"))
