"""``fit --scale``: LIBSVM's svm-scale as a step of the saved model.

``minmax`` maps each feature to [-1, 1] (svm-scale's default ``-l -1 -u 1``)
and ``standard`` to zero mean and unit variance, both learnt on the training
rows and stored in the model file, so ``predict`` applies the same scaling.
A sparse (LIBSVM) file is scaled without centring, so that its zeros stay
zeros: ``minmax`` divides by the largest |x| (to [-1, 1], scikit-learn's
MaxAbsScaler) and ``standard`` by the standard deviation.
"""

from __future__ import annotations

from ._models import UserError

#: the --scale choices
SCALINGS = ("minmax", "standard")


def scaler(kind, sparse):
    """The scikit-learn transformer of ``kind`` for dense or sparse input."""
    from sklearn.preprocessing import MaxAbsScaler, MinMaxScaler, StandardScaler

    if kind not in SCALINGS:
        raise UserError(f"--scale must be one of {', '.join(SCALINGS)}; got {kind!r}")
    if kind == "minmax":
        return MaxAbsScaler() if sparse else MinMaxScaler(feature_range=(-1, 1))
    return StandardScaler(with_mean=not sparse)


def add_scaling(model, kind, X, numeric_columns=None):
    """``model`` with a scaling step before the estimator (a Pipeline).

    ``numeric_columns``: scale only these columns of a DataFrame (the others,
    categorical columns a tree takes as they are, pass through)."""
    from scipy import sparse
    from sklearn.compose import ColumnTransformer
    from sklearn.pipeline import Pipeline

    if kind is None:
        return model
    is_sparse = sparse.issparse(X)
    step = scaler(kind, is_sparse)
    if numeric_columns is not None:
        step = ColumnTransformer([("scale", step, list(numeric_columns))],
                                 remainder="passthrough", verbose_feature_names_out=False)
    if hasattr(X, "columns"):
        step.set_output(transform="pandas")
    if isinstance(model, Pipeline):
        steps = list(model.steps)
        return Pipeline(steps[:-1] + [("scale", step)] + steps[-1:])
    return Pipeline([("scale", step), ("model", model)])


def scaled_model(model, estimator, kind, X):
    """``model`` (``estimator`` itself or its one-hot pipeline) with the
    ``kind`` scaling added; a tree's categorical columns are left as they are."""
    from ._data import categorical_columns

    if kind is None:
        return model
    numeric = None
    if model is estimator and hasattr(X, "columns"):
        categorical = categorical_columns(X)
        if categorical:
            numeric = [c for c in X.columns if c not in categorical]
    return add_scaling(model, kind, X, numeric)


def with_scaling(model, estimator, scale, X):
    """``fit --scale`` / ``grid --scale``: ``model`` with its scaling step
    (:func:`scaled_model`), or ``model`` itself when ``scale`` is None."""
    if scale is None:
        return model
    return scaled_model(model, estimator, scale, X)
