"""A decision tree's fit on Dask: steps 1-3 of :mod:`._levels` (scan, bin
edges, encode) run as rounds of :class:`~hyperplane.distributed.Chunks`, then
the levels grown from the root of the summed statistics (step 4,
:func:`~._levels.grow_levels`), as the in-memory fit would grow them: the
weights relative to the lightest row (周志华 §4.4.2), the same classes,
category encoding and tie order, the same fitted input attributes.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

from ..._progress import progress
from ..._validation import is_dask_collection
from ...distributed._dask import add_parts
from .._encode import quantile_edges, value_indicators
from .._grow._builder import c45_split_floor, finish
from .._grow._layout import attribute_kinds
from .._prune._kinds import PrePruner, cost_complexity_prune
from .._scan._moments_kernels import N_MOMENTS
from .._scan._split_kernels import BINNED, NUMERIC
from .._state import Orders, new_node
from .._weights import weight_unit
from ._levels import LevelContext, grow_levels, merge_moment_parts, moment_levels
from ._passes import (chunk_bin_ranges, class_totals, column_dtypes, column_names, encode_chunk,
                      fetch_indicator_sample, fetch_sample, merge_bin_ranges, positive_counts,
                      sample_plan, scan, target_totals, tree_chunks)


class Encoded(NamedTuple):
    """Steps 1-3 of a Dask tree fit (:func:`encoded_chunks`)."""

    spec: object  # FeatureSpec of the tree's columns
    classes: object  # ndarray of labels, or None (real targets)
    preference: object  # class indices in order of first appearance, or None
    n_positive: np.ndarray  # positive-weight rows per chunk
    kind: np.ndarray  # CATEGORICAL or BINNED per attribute
    n_codes: np.ndarray
    bin_range: np.ndarray
    chunks: object  # the Chunks, each now one persisted :class:`~._passes.Chunk`
    input_spec: object  # FeatureSpec of ``X`` (``spec`` unless indicators)
    source: object  # the attribute of ``X`` each tree column comes from, or None


def encoded_chunks(chunks, X, splitter, max_bins, random_state, labelled=True,
                   indicators=False):
    """Scan, bin and encode the row chunks of ``X`` (``chunks``, a
    :class:`~hyperplane.distributed.Chunks` from :func:`training_chunks`;
    steps 1-3 of the module doc; ``labelled`` False: real targets, kept as
    they are) as an :class:`Encoded`. ``indicators``: each categorical column
    becomes its 0/1 columns ``[A = a]`` once the scan knows its values
    (:func:`~hyperplane.tree._encode.value_indicators`, as the in-memory
    DecisionTreeRegressor does; 李航 §5.5.2), binned like numeric columns."""
    columns = column_names(X)
    # numeric-typed columns' bin sample comes with the scan when the rows are known up front
    sample_cols = ([j for j, d in enumerate(column_dtypes(X))
                    if pd.api.types.is_numeric_dtype(d) and not pd.api.types.is_bool_dtype(d)]
                   if splitter == "hist" else [])
    counts = positive_counts(chunks) if sample_cols else None
    plan = None if counts is None else sample_plan(counts, random_state)
    spec, classes, preference, n_positive, sample = scan(chunks, X, plan, sample_cols,
                                                         labelled)
    if n_positive.sum() == 0:
        raise ValueError("sample_weight is zero for every sample; at least one weight must "
                         "be positive")
    input_spec, source = spec, None
    if indicators and spec.categorical.any():
        _, spec, source = value_indicators(np.empty((0, len(spec.names))), input_spec)
    kind = attribute_kinds(spec.categorical, splitter)
    if np.any(kind == NUMERIC):
        names = [spec.names[j] for j in np.flatnonzero(kind == NUMERIC)]
        raise ValueError(f"numeric columns {names} need splitter='hist' on Dask input "
                         "(exact midpoints need every node's sorted values in one process); "
                         f"got splitter={splitter!r}")
    binned = np.flatnonzero(kind == BINNED)
    edges = [np.empty(0)] * kind.shape[0]
    if binned.size:
        if source is not None:     # the scan's sample holds input columns, not indicators
            sample_cols = list(range(kind.shape[0]))
            sample = fetch_indicator_sample(chunks, columns,
                                            sample_plan(n_positive, random_state), input_spec)
        elif sample is None or not set(binned) <= set(sample_cols):
            sample_cols = list(binned)
            sample = fetch_sample(chunks, columns, sample_plan(n_positive, random_state),
                                  sample_cols)
        values, w_sample = sample
        for j in binned:
            edges[j] = quantile_edges(values[:, sample_cols.index(j)], max_bins, w_sample)
    n_codes = np.where(kind == BINNED, [e.size + 1 for e in edges], spec.n_codes).astype(np.int64)
    code_dtype = np.int16 if n_codes.max(initial=0) < 2**15 else np.int32
    chunks.transform(encode_chunk, columns, input_spec, kind, edges, classes, code_dtype,
                     source is not None, whole=True)
    bin_range = np.full((kind.shape[0], 2, int(n_codes.max(initial=1))), np.nan)
    if binned.size:   # the values either side of a cut between bins, as in memory
        ranges = chunks.reduce(chunk_bin_ranges, merge_bin_ranges)
        bin_range[binned, :, :ranges.shape[2]] = ranges
    return Encoded(spec, classes, preference, n_positive, kind, n_codes, bin_range, chunks,
                   input_spec, source)


def fit_tree_dask(model, X, y, *, validation_data=None, sample_weight=None, prune_after=None,
                  tracer=None):
    """Fit ``model`` (a :class:`~hyperplane.tree.DecisionTreeClassifier`) on Dask input.

    ``prune_after(model, tree, validation, training, criterion)`` prunes the
    grown tree (None: no pruning); ``tracer`` records the growth.
    """
    if model.pruning == "pessimistic" and model.subtree_raising:
        raise ValueError("pruning='pessimistic' with subtree_raising=True re-splits the "
                         "training rows, which a Dask fit does not hold in memory; use "
                         "subtree_raising=False (J48's -S) on Dask input")
    if model.pruning in ("pre", "post"):
        if validation_data is None:
            raise ValueError(f"pruning={model.pruning!r} on Dask input needs "
                             "validation_data=(X_val, y_val) in memory: a hold-out of Dask "
                             "rows is not drawn")
        if any(is_dask_collection(part) for part in tuple(validation_data)):
            raise ValueError("validation_data must be in memory (numpy/pandas) for Dask input; "
                             "call .compute() on it")
    elif validation_data is not None:
        raise ValueError(f"validation_data is only used with pruning='pre' or 'post'; "
                         f"got pruning={model.pruning!r}")
    if y is None:
        raise ValueError("DecisionTreeClassifier requires y to be passed, but the target y "
                         "is None")
    encoded = encoded_chunks(training_chunks(X, y, sample_weight), X, model.splitter,
                             model.max_bins, model.random_state)
    kind, chunks = encoded.kind, encoded.chunks
    n_rows = int(encoded.n_positive.sum())
    params = model._check_params(n_rows)
    K = encoded.classes.size
    root_value = chunks.reduce(class_totals, add_parts, K)
    _set_fit_attributes(model, X, encoded.spec, encoded.classes, encoded.preference)
    validation = (model._encode_validation(validation_data) if validation_data is not None
                  else None)
    pre = PrePruner(*validation, model._label_of) if model.pruning == "pre" else None
    rules = params._replace(min_weight=c45_split_floor(kind, params))
    root = summed_root(root_value, root_value.sum(), n_rows, kind.shape[0])
    if tracer is not None:
        tracer.names = encoded.spec.names
    context = LevelContext(kind, encoded.n_codes, encoded.bin_range, rules, K)
    with progress(None, "tree levels on Dask", enabled=bool(model.verbose)) as bar:
        store = grow_levels(chunks, context, root, pre, bar=bar, tracer=tracer)
    tree = finish(store, rules, tracer)
    if prune_after is not None:
        tree = prune_after(model, tree, validation, None, params.criterion)
    model._set_tree(tree)
    return model


def fit_regressor_dask(model, X, y, *, sample_weight=None):
    """Fit ``model`` (a :class:`~hyperplane.tree.DecisionTreeRegressor` with
    ``splitter="hist"`` and ``criterion="squared_error"``) on Dask input: the
    classifier's steps 1-3 with the targets kept as numbers, then the levels
    grown from summed moment tables (:func:`moment_levels`), so the tree is
    the in-memory hist tree (李航 算法5.5 over the bins); ``ccp_alpha`` prunes
    it on the client."""
    if y is None:
        raise ValueError("DecisionTreeRegressor requires y to be passed, but the target y "
                         "is None")
    encoded = encoded_chunks(training_chunks(X, y, sample_weight), X, "hist", model.max_bins,
                             model.random_state, labelled=False, indicators=True)
    kind = encoded.kind
    n_rows = int(encoded.n_positive.sum())
    rules = model._rules(n_rows)
    value, _, low, high = encoded.chunks.reduce(target_totals, merge_moment_parts)
    levels = moment_levels(model.min_impurity_decrease, value[0], bool(low == high))
    _set_input_attributes(model, X, encoded.input_spec, encoded.spec, encoded.source)
    context = LevelContext(kind, encoded.n_codes, encoded.bin_range, rules, N_MOMENTS)
    with progress(None, "tree levels on Dask", enabled=bool(model.verbose)) as bar:
        store = grow_levels(encoded.chunks, context,
                            summed_root(value, value[0], n_rows, kind.shape[0]), bar=bar,
                            levels=levels)
    tree = finish(store, rules)
    if model.ccp_alpha > 0:
        tree = cost_complexity_prune(tree, model.ccp_alpha, rules.criterion)
    model._set_tree(tree)
    return model


def training_chunks(X, y, sample_weight):
    """The aligned row chunks of ``X``, ``y`` and the weights of a fit
    (:func:`~._passes.tree_chunks`), the weights relative to the lightest
    row, as in memory."""
    return relative_weight_chunks(tree_chunks(X, y, sample_weight))


def summed_root(value, weight, n_rows, p):
    """The root's :class:`~hyperplane.tree._state.Node` of a Dask fit: one weighted row of
    statistic ``value`` standing for the ``n_rows`` training rows."""
    return new_node(np.zeros(1, dtype=np.int64), np.array([weight]),
                    Orders(np.zeros((0, 1), dtype=np.int64), np.zeros((0, 1))),
                    np.array([n_rows], dtype=np.int64), value, 0, np.ones(p, dtype=bool),
                    Orders(np.zeros(0, dtype=np.int64), np.zeros(0)))


def _positive_extremes(w_block):
    """The smallest and largest positive weight of a chunk (inf, 0 when none)."""
    w = np.asarray(w_block, dtype=np.float64).ravel()
    positive = w[w > 0]
    return (float(positive.min()), float(positive.max())) if positive.size else (np.inf, 0.0)


def _divided(w_block, unit):
    return w_block if unit == 1.0 else w_block / unit


def relative_weight_chunks(chunks):
    """``chunks`` with the weights divided by the smallest positive weight of
    all of them (:func:`~hyperplane.tree._weights.relative_weights` of the in-memory fit; one
    pass over the weights, none over ``X``)."""
    extremes = chunks.each_weight_block(_positive_extremes)
    if extremes is None:
        return chunks
    smallest = min(low for low, _ in extremes)
    if not np.isfinite(smallest):           # no positive weight: the scan says so
        return chunks
    return chunks.transform_weights(_divided, weight_unit(smallest,
                                                          max(high for _, high in extremes)))


def _set_fit_attributes(model, X, spec, classes, preference):
    model.classes_ = classes
    _set_input_attributes(model, X, spec)
    model._preference = preference


def _set_input_attributes(model, X, spec, tree_spec=None, source=None):
    """``n_features_in_``, ``feature_names_in_`` and the encodings of ``X``
    (``spec``) and of the tree's columns (``tree_spec``: ``spec`` unless
    indicators, whose attributes are ``source``), as the in-memory fit sets them."""
    model.n_features_in_ = len(spec.names)
    if hasattr(model, "feature_names_in_"):
        del model.feature_names_in_
    mixed = spec.categorical.any()
    if hasattr(X, "columns") and (mixed or all(isinstance(c, str) for c in X.columns)):
        # as in memory: always for mixed frames, like scikit-learn for numeric ones
        model.feature_names_in_ = np.asarray(spec.names, dtype=object)
    model._input_spec, model._source = spec, source
    model._spec = spec if tree_spec is None else tree_spec
