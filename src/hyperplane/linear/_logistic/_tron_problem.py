"""The penalised logistic objective as a problem for the trust-region Newton
solver: ``f(W̃) = ½‖W‖² + C Σ_n ℓ_n`` (intercepts not penalised), its
gradient ``W⁰ + C Σ_n ∇ℓ_n`` and Hessian-vector products
``v⁰ + C Σ_n ∇²ℓ_n v`` (``W⁰``, ``v⁰``: the intercept entries set to 0),
over dense rows (:class:`RowPasses`) or sparse rows (:class:`ColumnPasses`,
which also keeps the columns: every product with ``Xᵀ`` then reads them
instead of scattering into the result).

On many dense rows the Hessian-vector products use a fixed random subsample
of the rows, scaled by ``n / m`` (Byrd, Chin, Neveitt & Nocedal, "On the use of
stochastic Hessian information in optimization methods for machine
learning", SIAM J. Optim. 21 (2011)): the conjugate-gradient passes then
read a tenth of the data, while the objective and the gradient, which decide
every step and the stopping, stay exact, so the minimiser is the same.
Sparse rows are never subsampled: a subsample misses the rare features,
whose curvature the steps then lack (a tenth of the rows took 768 instead of
11 iterations at 200k × 20k, benchmarks/RESULTS.md).

Parameters live in a matrix ``W̃`` of shape (n_rows, n_features + 1) with
the intercepts in the last column: one row for two classes (the positive
class ``classes_[1]``), one row per class otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np
import scipy.sparse

from . import _gradient_kernels as G
from . import _hessian_kernels as H
from . import _tron_sparse_kernels as SK
from ._layout import canonical_csr, chunked_columns, column_chunk_count
from .._state import CSRRows, Targets

#: rows from which the Hessian is subsampled, and the share of them it keeps
#: (never fewer than HESSIAN_MIN_ROWS rows)
HESSIAN_MIN_ROWS = 20_000
HESSIAN_SHARE = 0.1


def hessian_rows(n_samples, seed=0):
    """The rows the Hessian-vector products read: all of them up to
    ``2 · HESSIAN_MIN_ROWS`` rows, else a fixed random subsample of
    ``max(HESSIAN_MIN_ROWS, HESSIAN_SHARE · n)`` rows (sorted)."""
    if n_samples < 2 * HESSIAN_MIN_ROWS:
        return None
    m = max(HESSIAN_MIN_ROWS, int(HESSIAN_SHARE * n_samples))
    rng = np.random.default_rng(seed)
    return np.sort(rng.choice(n_samples, size=m, replace=False))


def hessian_scale(n_samples, subsample, weight):
    """The factor that makes a sum over the Hessian's ``subsample`` estimate
    the sum over all rows: ``n / m``, or with weights the ratio of the total
    weight to the subsample's."""
    if weight is None:
        return n_samples / subsample.shape[0]
    return float(np.sum(weight) / np.sum(weight[subsample]))


@dataclass
class Point:
    """The objective at ``W̃`` and what its Hessian needs there."""

    f: float
    grad: np.ndarray      # flat, shaped like W̃.ravel()
    diag: np.ndarray      # the Hessian's diagonal, flat
    curvature: np.ndarray  # D (n,) for two classes, P (n, K) otherwise
    scores: np.ndarray | None = None   # X̃ W̃ᵀ, (n,) or (n, K), kept over sparse rows


class StepPath:
    """The step ``s`` that conjugate gradients build from ``point`` and, when
    the point keeps its scores, its image ``X̃s``: ``X̃`` is linear, so the
    image is the same combination of the directions' images ``X̃d`` that the
    Hessian-vector products computed (their row phase), and the trial point
    ``W̃ + s`` is scored as ``X̃W̃ + X̃s`` without reading the rows (LIBLINEAR's
    Newton method keeps ``X̃w`` and ``X̃s`` likewise for its line search;
    Galli & Lin, "A study on truncated Newton methods for linear
    classification", IEEE TNNLS 2022)."""

    def __init__(self, point):
        self.point = point
        self.image = None if point.scores is None else np.zeros_like(point.scores)
        self.last = None if point.scores is None else np.empty_like(point.scores)

    def moved(self, alpha):
        """``s += alpha · d`` for the direction ``d`` of the last product."""
        if self.image is not None:
            np.multiply(self.last, alpha, out=self.last)
            self.image += self.last

    def scores(self):
        """``X̃ (W̃ + s)ᵀ``."""
        return self.point.scores + self.image


class RowPasses:
    """The four passes over the rows of a dense ``X`` (C-contiguous, built once
    per fit): the gradient pass that L-BFGS runs too (:mod:`._gradient_kernels`,
    here also keeping the curvature and the Hessian's diagonal) and the
    Hessian-vector passes (:mod:`._hessian_kernels`), serial or over row
    blocks in threads (``n_rows``, the rows of ``W̃``, changes nothing here).
    The Hessian may read a subsample of the rows, so the points keep no
    scores: each gradient pass reads the rows."""

    from_scores = keeps_scores = False

    def __init__(self, X, n_rows=1):
        self.rows = np.ascontiguousarray(X)
        self.n_samples = X.shape[0]
        self.blocks = G.dense_row_block_count(X.size)

    def binary_gradient(self, targets, w, D):
        if self.blocks == 1:
            grad, diag = np.zeros(w.shape[0]), np.zeros(w.shape[0])
            loss = G.binary_rows(self.rows, targets, w, 0, self.n_samples, grad, D, diag)
            return loss, grad, diag
        return G.binary_blocks(self.rows, targets, w, D, self.blocks)

    def binary_hessian(self, D, v):
        if self.blocks == 1:
            out = np.zeros_like(v)
            H.binary_hessian_rows(self.rows, D, v, 0, self.n_samples, out)
            return out
        return H.binary_hessian_blocks(self.rows, D, v, self.blocks)

    def multinomial_gradient(self, targets, W, P):
        if self.blocks == 1:
            grad, diag = np.zeros_like(W), np.zeros_like(W)
            loss = G.multinomial_rows(self.rows, targets, W, 0, self.n_samples, grad, P, diag)
            return loss, grad, diag
        return G.multinomial_blocks(self.rows, targets, W, P, self.blocks)

    def multinomial_hessian(self, P, V, weight):
        if self.blocks == 1:
            out = np.zeros_like(V)
            H.multinomial_hessian_rows(self.rows, P, V, weight, 0, self.n_samples, out)
            return out
        return H.multinomial_hessian_blocks(self.rows, P, V, weight, self.blocks)


class ColumnPasses:
    """The same four passes over a sparse ``X``, each a row phase on its CSR
    rows and a column phase on its columns, stored per chunk of rows
    (:mod:`._tron_sparse_kernels`: gathers only, the same result on any
    number of threads). Both copies are built once per fit; the row blocks
    and the row chunks (:func:`~._layout.column_chunk_count`, from
    ``n_rows``, the rows of ``W̃``) depend on the data only, the column
    blocks (:meth:`column_blocks`) on the threads, which no column's sum
    depends on. The gradient pass takes the rows' scores ``X̃ W̃ᵀ``; for two
    classes the points keep them and the Hessian-vector pass keeps the image
    ``X̃v`` of its direction, so that a trial point's scores come from the
    step's image (:class:`StepPath`) and its gradient pass reads only the
    columns. With K classes the image (K values per row, written by every
    Hessian-vector pass) costs more than it saves: the multinomial row
    phase's time is mostly its softmax (benchmarks/RESULTS.md, "scores from
    the step's image")."""

    from_scores = True

    def __init__(self, X, n_rows=1):
        X = canonical_csr(X)
        self.rows = CSRRows.of(X)
        self.keeps_scores = n_rows == 1
        self.cols = chunked_columns(X, column_chunk_count(X.shape[0], X.shape[1], X.nnz,
                                                          n_rows))
        offsets = self.cols.indptr            # entry j: the nonzeros of columns < j, all chunks
        self.column_entries = (offsets - offsets[:, :1]).sum(axis=0)
        self.n_samples = X.shape[0]
        self.blocks = G.dense_row_block_count(X.nnz)

    def column_blocks(self):
        """Bounds of one block of columns per numba thread, each with about as
        many stored values (the result is the same for any split)."""
        n_threads = numba.get_num_threads()
        share = self.column_entries[-1] * np.arange(n_threads + 1) // n_threads
        bounds = np.searchsorted(self.column_entries, share)
        bounds[-1] = self.column_entries.shape[0] - 1
        return bounds

    def binary_scores(self, v):
        """``X̃ v`` of shape (n_samples,)."""
        z = np.empty(self.n_samples)
        SK.binary_score_blocks(self.rows, v, z, self.blocks)
        return z

    def multinomial_scores(self, V):
        """``X̃ V`` of shape (n_samples, K) (``V`` feature-major, (n_features + 1, K))."""
        Z = np.empty((self.n_samples, V.shape[1]))
        SK.multinomial_score_blocks(self.rows, V, Z, self.blocks)
        return Z

    def binary_gradient(self, targets, Z, D):
        RD = np.empty((self.n_samples, 2))
        loss, sums = SK.binary_terms_blocks(targets, Z, RD, D, self.blocks)
        grad, diag = SK.transpose_gradient(self.cols, RD, sums, self.column_blocks())
        return loss, grad[:, 0], diag[:, 0]

    def binary_hessian(self, D, v, XV=None):
        U = np.empty((self.n_samples, 1))
        XV = U[:, 0] if XV is None else XV      # the image kept (else overwritten)
        sums = SK.binary_curvature_blocks(self.rows, D, v, XV, U, self.blocks)
        return SK.transpose_product(self.cols, U, sums, self.column_blocks())[:, 0]

    def multinomial_gradient(self, targets, Z, P):
        RD = np.empty((self.n_samples, 2 * P.shape[1]))
        loss, sums = SK.multinomial_terms_blocks(targets, Z, RD, P, self.blocks)
        grad, diag = SK.transpose_gradient(self.cols, RD, sums, self.column_blocks())
        return loss, grad.T, diag.T

    def multinomial_hessian(self, P, V, weight):
        U = np.empty_like(P)
        sums = SK.multinomial_curvature_blocks(self.rows, P, V, weight, U, self.blocks)
        return SK.transpose_product(self.cols, U, sums, self.column_blocks()).T


#: is X sparse -> the passes that read it
PASSES = {False: RowPasses, True: ColumnPasses}


class LogisticProblem:
    """``½‖W‖² + C Σ ℓ_n`` for :func:`~hyperplane._optimize.minimize_tron`.

    Hessian-vector products read the rows of :func:`hessian_rows` (all rows
    of a small data set).

    Parameters
    ----------
    X : ndarray or scipy.sparse matrix of shape (n_samples, n_features)
    y_index : ndarray of int64
        Class indices.
    n_classes : int
    C : float
    sample_weight : ndarray of shape (n_samples,) or None
        The rows' weights ``s_n`` in ``Σ s_n ℓ_n`` (None: all 1).
    """

    def __init__(self, X, y_index, n_classes, C, sample_weight=None):
        self.n_rows = 1 if n_classes == 2 else n_classes
        self.rows = PASSES[scipy.sparse.issparse(X)](X, self.n_rows)
        self.subsample = None if scipy.sparse.issparse(X) else hessian_rows(X.shape[0])
        self.hessian_passes = self.rows if self.subsample is None else \
            RowPasses(X[self.subsample])
        self.hessian_scale = 1.0 if self.subsample is None else \
            hessian_scale(X.shape[0], self.subsample, sample_weight)
        self.n_features = X.shape[1]
        self.C = float(C)
        self.binary = n_classes == 2
        y = (np.asarray(y_index) == 1).astype(np.float64) if self.binary else \
            np.ascontiguousarray(y_index, dtype=np.int64)
        weight = None if sample_weight is None else \
            np.ascontiguousarray(sample_weight, dtype=np.float64)
        self.targets = Targets(y, weight)
        #: the weights of the rows the Hessian-vector products read
        self.hessian_weight = weight if weight is None or self.subsample is None else \
            np.ascontiguousarray(weight[self.subsample])
        mask = np.ones((self.n_rows, self.n_features + 1))
        mask[:, -1] = 0.0
        self.penalised = mask.ravel()      # 1 on weights, 0 on intercepts

    @property
    def shape(self):
        """Shape of ``W̃``: (n_rows, n_features + 1)."""
        return self.n_rows, self.n_features + 1

    def evaluate(self, theta, path=None):
        """Objective, gradient, Hessian diagonal and curvature at ``theta = W̃.ravel()``
        (over sparse rows scored from ``path``, the step that led here, if given)."""
        W = theta.reshape(self.shape)
        if self.rows.from_scores:
            scores = self.scores_at(theta, path)
            loss, grad, diag, curvature = self.sparse_gradient(scores)
            scores = scores if self.rows.keeps_scores else None
        else:
            scores = None
            loss, grad, diag, curvature = self.dense_gradient(W)
        weights = theta * self.penalised
        f = 0.5 * np.dot(weights, weights) + self.C * loss
        if self.subsample is not None:
            curvature = np.ascontiguousarray(curvature[self.subsample])
        return Point(f, weights + self.C * grad.ravel(),
                     self.penalised + self.C * diag.ravel(), curvature, scores)

    def scores_at(self, theta, path):
        """``X̃ W̃ᵀ``: from the path's scores and image, 0 at ``W̃ = 0`` (the
        solver's start), else one read of the rows."""
        if path is not None and path.image is not None:
            return path.scores()
        if not theta.any():
            return np.zeros(self.rows.n_samples if self.binary else
                            (self.rows.n_samples, self.n_rows))
        if self.binary:
            return self.rows.binary_scores(theta)
        return self.rows.multinomial_scores(np.ascontiguousarray(theta.reshape(self.shape).T))

    def sparse_gradient(self, scores):
        """Loss, gradient, diagonal and curvature from the rows' scores."""
        n = self.rows.n_samples
        if self.binary:
            curvature = np.empty(n)
            loss, grad, diag = self.rows.binary_gradient(self.targets, scores, curvature)
        else:
            curvature = np.empty((n, self.n_rows))
            loss, grad, diag = self.rows.multinomial_gradient(self.targets, scores, curvature)
        return loss, grad, diag, curvature

    def dense_gradient(self, W):
        """Loss, gradient, diagonal and curvature from one read of the dense rows."""
        n = self.rows.n_samples
        if self.binary:
            curvature = np.empty(n)
            loss, grad, diag = self.rows.binary_gradient(self.targets,
                                                         np.ascontiguousarray(W[0]), curvature)
        else:
            curvature = np.empty((n, self.n_rows))
            loss, grad, diag = self.rows.multinomial_gradient(self.targets,
                                                              np.ascontiguousarray(W), curvature)
        return loss, grad, diag, curvature

    def path(self, point):
        """The record of a step from ``point`` (:class:`StepPath`)."""
        return StepPath(point)

    def hessian_vector(self, point, v, path=None):
        """``H v`` at ``point`` (``v`` flat, shaped like ``W̃.ravel()``); over
        sparse rows the image ``X̃v`` goes to ``path`` (if given)."""
        if self.rows.from_scores:
            XV = None if path is None else path.last
            if self.binary:
                Hv = self.rows.binary_hessian(point.curvature, v, XV)
            else:
                Hv = self.rows.multinomial_hessian(
                    point.curvature, np.ascontiguousarray(v.reshape(self.shape).T),
                    self.hessian_weight)
        elif self.binary:
            Hv = self.hessian_passes.binary_hessian(point.curvature, v)
        else:
            Hv = self.hessian_passes.multinomial_hessian(
                point.curvature, np.ascontiguousarray(v.reshape(self.shape)),
                self.hessian_weight)
        return v * self.penalised + (self.C * self.hessian_scale) * Hv.ravel()


__all__ = ["ColumnPasses", "LogisticProblem", "Point", "RowPasses", "StepPath"]
