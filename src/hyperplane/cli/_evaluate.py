"""``hyperplane evaluate``: Weka's evaluation of a model on a data file.

Three ways, as Weka's command line has them: cross-validation of a model
name (``-x``, stratified, seeded), a model trained on DATA and tested on
``--test`` (``-T``), or a saved model file tested on DATA. The report is
:mod:`hyperplane.evaluation`'s.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ._heap import loading
from ._models import UserError, one_line


def _is_model_file(model):
    return Path(model).is_file()


def report_for(model, data, *, target=None, folds=10, seed=1, test=None, cv="stratified",
               param=None,
               index=None, fmt=None, encoding="utf-8"):
    """The :mod:`hyperplane.evaluation` report the command prints."""
    if _is_model_file(model):
        if test is not None:
            raise UserError("--test goes with a model name (train on DATA, test on --test); "
                            "a saved model is tested on DATA itself")
        return _saved_model_report(model, data, fmt=fmt, encoding=encoding)
    estimator, X, y = _training_data(model, data, target=target, param=param, index=index,
                                     fmt=fmt, encoding=encoding)
    if test is not None:
        return _train_test_report(estimator, X, y, test, index=index, fmt=fmt, encoding=encoding)
    from hyperplane.evaluation import cross_validate_report

    if cv not in ("stratified", "weka"):
        raise UserError(f"--cv must be 'stratified' or 'weka'; got {cv!r}")
    if folds < 2:
        raise UserError(f"--folds must be at least 2; got {folds}")
    try:
        return cross_validate_report(estimator, X, y, folds=folds, seed=seed, cv=cv)
    except ValueError as exc:
        raise UserError(f"cannot cross-validate {model!r} on {data}: "
                        f"{one_line(exc)}") from None


def _training_data(model, data, *, target, param, index, fmt, encoding):
    """The unfitted model (with its one-hot encoder where needed) and ``(X, y)``
    as ``hyperplane fit`` builds them."""
    with loading():
        from ._data import build_model, estimator_input, read_table, split_target
        from ._params import configured_estimator

        estimator, _ = configured_estimator(model, param)
        table = read_table(data, index=index, fmt=fmt, encoding=encoding)
        X, y = split_target(table, target, data)
        pipeline = build_model(estimator, X)
        return pipeline, estimator_input(pipeline, X), y


def _train_test_report(estimator, X, y, test, *, index, fmt, encoding):
    from hyperplane.evaluation import (class_probabilities, classification_report,
                                       predicts_classes, regression_report)

    from ._data import feature_frame, estimator_input, read_table

    table = read_table(test, index=index, fmt=fmt, encoding=encoding,
                       n_features=X.shape[1] if hasattr(X, "tocsr") else None)
    if y.name not in table.frame.columns:
        raise UserError(f"{test} has no column {y.name!r} (the target) to test against")
    y_test = table.frame[y.name]
    X_test = (table.sparse if table.sparse is not None
              else feature_frame(table.frame, list(X.columns), test))
    fitted = estimator.fit(X, y)
    X_test = estimator_input(fitted, X_test)
    predicted = fitted.predict(X_test)
    title = "Evaluation on test split"
    if not predicts_classes(fitted, y_test):
        return regression_report(y_test, predicted, np.full(len(y_test), np.mean(y)),
                                 title=title)
    labels = np.unique(np.concatenate([np.asarray(y), np.asarray(y_test)]))
    counts = np.array([np.sum(np.asarray(y) == c) for c in labels], dtype=float) + 1.0
    return classification_report(np.asarray(y_test), predicted,
                                 class_probabilities(fitted, X_test, labels, predicted),
                                 labels=labels, prior=np.tile(counts / counts.sum(),
                                                              (len(y_test), 1)), title=title)


def _saved_model_report(model_file, data, *, fmt, encoding):
    from hyperplane.evaluation import (class_probabilities, classification_report,
                                       predicts_classes, regression_report)
    from hyperplane.io import load, read_header

    from ._data import model_table

    meta = read_header(model_file).get("metadata", {})
    with loading():
        model = load(model_file)
        frame, X = model_table(data, meta, model, fmt=fmt, encoding=encoding)
    target = meta.get("target")
    if target is None or target not in frame.columns:
        raise UserError(f"{data} has no column {target!r} (the model's target) to test against")
    y = frame[target]
    predicted = model.predict(X)
    title = "Evaluation on test set"
    if not predicts_classes(model, y):
        return regression_report(y, predicted, title=title)
    labels = np.asarray(getattr(model, "classes_", np.unique(y)))
    labels = np.unique(np.concatenate([labels, np.asarray(y)]))
    return classification_report(np.asarray(y), predicted,
                                 class_probabilities(model, X, labels, predicted), labels=labels,
                                 title=title)
