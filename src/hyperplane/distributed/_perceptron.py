"""The perceptron on Dask: iterative parameter mixing.

McDonald, Hall & Mann (2010), "Distributed training strategies for the
structured perceptron", algorithm 2 (iterative parameter mixing, uniform
mixing weights μ = 1/S): every round, each of the S row chunks runs one
perceptron epoch (李航 algorithm 2.1) starting from the current weights, and
the new weights are the average of the S results. A round in which no chunk
makes an update ends the fit. Their theorem 3 bounds the mixed mistakes,
Σ_rounds (1/S) Σ_chunks k_chunk ≤ (R/γ)², as Novikoff's theorem bounds the
serial perceptron.

``update="batch"`` is exact instead: each chunk returns Σ y_i x_i over its
misclassified samples and the round applies seed 002's batch rule to the sum,
which is what the single-process batch perceptron does.
"""

from __future__ import annotations

import numpy as np

from .._progress import progress
from .._validation import (
    check_number,
    check_option,
    one_vs_rest_targets,
    warn_not_converged,
)
from ..linear._perceptron_kernels import count_mistakes, misclassified_sum, online_epoch
from ._dask import chunk_pairs, dask_classes, import_dask


def chunk_round(X_block, y_block, classes, W, B, eta, update, seed):
    """One epoch on one chunk from the weights ``(W, B)`` of every problem.

    Returns ``(W_new, B_new, n_updates, mistakes_before, n_rows)``; for the
    batch rule ``W_new``/``B_new`` are the chunk's sums Σ y_i x_i, Σ y_i over
    its misclassified samples instead of weights.
    """
    X = np.ascontiguousarray(X_block, dtype=np.float64)
    n = X.shape[0]
    order = (np.random.default_rng(seed).permutation(n) if seed is not None
             else np.arange(n)).astype(np.int64)
    W_new, B_new = W.copy(), B.copy()
    n_updates = np.zeros(len(B), dtype=np.int64)
    mistakes = np.zeros(len(B), dtype=np.int64)
    updated = np.empty(n, dtype=np.int64)
    no_trace_w, no_trace_b = np.empty((0, X.shape[1])), np.empty(0)
    y_index = np.searchsorted(classes, np.asarray(y_block))
    for k, y in enumerate(one_vs_rest_targets(y_index, len(classes))):
        mistakes[k] = count_mistakes(X, y, W[k], B[k])
        if update == "batch":
            W_new[k], B_new[k], n_updates[k] = misclassified_sum(X, y, W[k], B[k], updated)
        else:
            B_new[k], n_updates[k] = online_epoch(X, y, W_new[k], B[k], eta, order,
                                                  updated, no_trace_w, no_trace_b)
    return W_new, B_new, n_updates, mistakes, n


class _Mixing:
    """What the rounds accumulate besides the current weights."""

    def __init__(self, W, B):
        self.best = (np.inf, W.copy(), B.copy())      # pocket: fewest mistakes
        self.sum_W, self.sum_B = np.zeros_like(W), np.zeros_like(B)
        self.mixed_mistakes, self.total_updates = 0.0, 0
        self.rounds, self.converged = 0, False


def mix_rounds(dask, model, X_blocks, y_blocks, classes, W, B, rng, bar):
    """Rounds of iterative parameter mixing until no chunk updates or ``max_iter``.

    Returns the final ``(W, B)`` and the :class:`_Mixing` record.
    """
    record = _Mixing(W, B)
    for record.rounds in range(1, model.max_iter + 1):
        seeds = ([int(s) for s in rng.integers(0, 2**31, size=len(X_blocks))]
                 if model.shuffle else [None] * len(X_blocks))
        tasks = [dask.delayed(chunk_round)(xb, yb, classes, W, B, model.eta,
                                           model.update, seed)
                 for xb, yb, seed in zip(X_blocks, y_blocks, seeds)]
        results = dask.compute(*tasks)
        n_updates = sum(r[2] for r in results)
        mistakes = sum(r[3] for r in results)
        bar.advance(1, mistakes=int(mistakes.sum()))
        if mistakes.sum() < record.best[0]:
            record.best = (mistakes.sum(), W.copy(), B.copy())
        if n_updates.sum() == 0:
            record.converged = True
            break
        record.mixed_mistakes += float(np.mean([r[2].sum() for r in results]))
        record.total_updates += int(n_updates.sum())
        if model.update == "batch":
            W = W + model.eta * sum(r[0] for r in results)
            B = B + model.eta * sum(r[1] for r in results)
        else:
            W = np.mean([r[0] for r in results], axis=0)
            B = np.mean([r[1] for r in results], axis=0)
        record.sum_W, record.sum_B = record.sum_W + W, record.sum_B + B
    return W, B, record


def fit_parameter_mixing(model, X, y):
    """Fit ``model`` (a :class:`~hyperplane.linear.Perceptron`) on Dask input."""
    dask = import_dask()
    check_number(model.eta, "eta", low=0, low_open=True)
    check_number(model.max_iter, "max_iter", low=1, integer=True)
    check_option(model.variant, "variant", ("standard", "pocket", "averaged"))
    check_option(model.update, "update", ("online", "batch"))
    if model.record_trace:
        raise ValueError("record_trace=True is not available for Dask input: the "
                         "updates happen on the workers")
    X_blocks, y_blocks = chunk_pairs(X, y)
    classes = dask_classes(y)
    n_problems = 1 if len(classes) == 2 else len(classes)
    n_features = X.shape[1]
    W, B = np.zeros((n_problems, n_features)), np.zeros(n_problems)
    rng = np.random.default_rng(model.random_state if isinstance(model.random_state, int)
                                else None)
    with progress(model.max_iter, "parameter-mixing rounds",
                  enabled=bool(model.verbose)) as bar:
        W, B, record = mix_rounds(dask, model, X_blocks, y_blocks, classes, W, B, rng, bar)
    rounds = record.rounds
    final = {"standard": (W, B), "pocket": record.best[1:],
             "averaged": (record.sum_W / rounds, record.sum_B / rounds)}
    model.classes_ = classes
    model.n_features_in_ = n_features
    model.coef_, model.intercept_ = final[model.variant]
    model.n_iter_ = rounds
    model.n_updates_ = record.total_updates
    model.mixed_mistakes_ = record.mixed_mistakes
    model.converged_ = record.converged
    if not record.converged:
        warn_not_converged(model, rounds, "the data may not be linearly separable: "
                           "raise max_iter or use variant='pocket'")
    return model
