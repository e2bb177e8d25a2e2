"""The perceptron on row chunks: iterative parameter mixing.

McDonald, Hall & Mann (2010), "Distributed training strategies for the
structured perceptron", algorithm 2 (iterative parameter mixing, uniform
mixing weights μ = 1/S): every round, each of the S row chunks runs one
perceptron epoch (李航 algorithm 2.1) starting from the current weights, and
the new weights are the average of the S results. A round in which no chunk
makes an update ends the fit. Their theorem 3 bounds the mixed mistakes,
Σ_rounds (1/S) Σ_chunks k_chunk ≤ (R/γ)², as Novikoff's theorem bounds the
serial perceptron.

``update="batch"`` is exact instead: each chunk returns Σ y_i x_i over its
misclassified samples and the round applies the batch rule
``w ← w + η Σ_{i∈M} y_i x_i`` to the sum, which is what the in-memory batch
perceptron does.

The chunk statistic is :func:`mixing_round`; its merge is the elementwise sum
(:func:`~hyperplane.distributed.add_parts`), so the average is the sum
divided by S.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse
from sklearn.utils import check_random_state

from .._progress import progress
from .._validation import one_vs_rest_targets, warn_not_converged
from ..distributed import add_parts
from ._perceptron_kernels import count_mistakes, misclassified_sum, online_epoch
from ._perceptron_rules import kernel_rows
from ._state import Trace


def mixing_round(X, y_index, n_classes, W, B, eta, update, seed):
    """One epoch on one chunk from the weights ``(W, B)`` of every problem.

    Parameters
    ----------
    X : ndarray or scipy.sparse matrix of shape (n_rows, n_features)
    y_index : ndarray of int64
        Class indices of the rows.
    n_classes : int
    W, B : ndarray
        The current weights, one row per binary (one-vs-rest) problem.
    eta : float
    update : {"online", "batch"}
    seed : int or None
        Seeds the visiting order (``None``: the rows in order).

    Returns
    -------
    W_new, B_new : ndarray
        The chunk's weights after the epoch or, for the batch rule, its sums
        Σ y_i x_i and Σ y_i over its misclassified samples.
    n_updates, mistakes : ndarray of int64
        Per problem: updates made, and mistakes of ``(W, B)`` on the chunk.
    """
    X = X.astype(np.float64) if scipy.sparse.issparse(X) else \
        np.ascontiguousarray(X, dtype=np.float64)
    rows = kernel_rows(X)
    n = X.shape[0]
    ones = np.ones(n)
    order = (np.random.default_rng(seed).permutation(n) if seed is not None
             else np.arange(n)).astype(np.int64)
    W_new, B_new = W.copy(), B.copy()
    n_updates = np.zeros(len(B), dtype=np.int64)
    mistakes = np.zeros(len(B), dtype=np.int64)
    updated = np.empty(n, dtype=np.int64)
    no_trace = Trace(updated, np.empty((0, X.shape[1])), np.empty(0))
    for k, y in enumerate(one_vs_rest_targets(y_index, n_classes)):
        mistakes[k] = count_mistakes(rows, y, W[k], B[k], ones)
        if update == "batch":
            W_new[k], B_new[k], n_updates[k] = misclassified_sum(rows, y, W[k], B[k], ones,
                                                                 updated)
        else:
            B_new[k], n_updates[k] = online_epoch(rows, y, W_new[k], B[k], eta * ones, order,
                                                  no_trace)
    return W_new, B_new, n_updates, mistakes


class _Mixing:
    """What the rounds accumulate besides the current weights."""

    def __init__(self, W, B):
        self.best = (np.inf, W.copy(), B.copy())      # pocket: fewest mistakes
        self.sum_W, self.sum_B = np.zeros_like(W), np.zeros_like(B)
        self.mixed_mistakes, self.total_updates = 0.0, 0
        self.rounds, self.converged = 0, False


def mix_rounds(model, chunks, n_classes, W, B, bar):
    """Rounds of iterative parameter mixing until no chunk updates or ``max_iter``.

    Returns the final ``(W, B)`` and the :class:`_Mixing` record.
    """
    record = _Mixing(W, B)
    rng = check_random_state(model.random_state)
    S = len(chunks)
    for record.rounds in range(1, model.max_iter + 1):
        seeds = (rng.randint(0, 2**31, size=S).tolist() if model.shuffle else [None] * S)
        W_sum, B_sum, n_updates, mistakes = chunks.reduce(
            mixing_round, add_parts, n_classes, W, B, model.eta, model.update,
            per_chunk=[(seed,) for seed in seeds])
        bar.advance(1, mistakes=int(mistakes.sum()))
        if mistakes.sum() < record.best[0]:
            record.best = (mistakes.sum(), W.copy(), B.copy())
        if n_updates.sum() == 0:
            record.converged = True
            break
        record.mixed_mistakes += float(n_updates.sum()) / S
        record.total_updates += int(n_updates.sum())
        if model.update == "batch":
            W, B = W + model.eta * W_sum, B + model.eta * B_sum
        else:
            W, B = W_sum / S, B_sum / S
        record.sum_W, record.sum_B = record.sum_W + W, record.sum_B + B
    return W, B, record


def fit_parameter_mixing(model, chunks):
    """Fit ``model`` (a :class:`~hyperplane.linear.Perceptron` whose ``classes_``
    are set) on :class:`~hyperplane.distributed.Chunks` with encoded labels."""
    n_classes = len(model.classes_)
    n_problems = 1 if n_classes == 2 else n_classes
    W, B = np.zeros((n_problems, chunks.n_features)), np.zeros(n_problems)
    with progress(model.max_iter, "parameter-mixing rounds",
                  enabled=bool(model.verbose)) as bar:
        W, B, record = mix_rounds(model, chunks, n_classes, W, B, bar)
    rounds = record.rounds
    final = {"standard": (W, B), "pocket": record.best[1:],
             "averaged": (record.sum_W / rounds, record.sum_B / rounds)}
    model.coef_, model.intercept_ = final[model.variant]
    model.n_iter_ = rounds
    model.n_updates_ = record.total_updates
    model.mixed_mistakes_ = record.mixed_mistakes
    model.converged_ = record.converged
    if not record.converged:
        warn_not_converged(model, rounds, "the data may not be linearly separable: "
                           "raise max_iter or use variant='pocket'")
    return model


__all__ = ["mixing_round", "mix_rounds", "fit_parameter_mixing"]
