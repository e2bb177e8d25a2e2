"""Compiled passes of the trust-region Newton solver of logistic regression.

Two passes over the rows, each reading every row once:

* the *gradient pass* returns ``Σ_n s_n ℓ_n``, adds the row gradients
  ``s_n (p_n − y_n) x̃_n`` and stores what the Hessian needs at this point:
  the curvature ``D_n = s_n σ(z_n)(1 − σ(z_n))`` (binary) or the
  probabilities ``p_nk`` (multinomial), plus the diagonal of
  ``Σ_n x̃_n D_n x̃_nᵀ`` for the preconditioner;
* the *Hessian-vector pass* adds ``X̃ᵀ D X̃ v`` (binary) or, with
  ``u_nk = v_k·x̃_n``, ``Σ_n s_n p_nk (u_nk − Σ_j p_nj u_nj) x̃_n`` for every
  class k (multinomial): the Hessian of the summed log-loss times ``v``
  without ever forming it (Lin, Weng & Keerthi 2008, §3; Bishop, PRML
  eq. 4.110 for the softmax's Hessian blocks ``p_k(δ_kj − p_j) x xᵀ``).

The rules of a row (its loss, residual, curvature and Hessian term, with its
weight ``s_n``) are those of :mod:`._rules_kernels`, shared with the
L-BFGS pass and the sparse passes. The dense rows are read by loops written
here: a call to the row layer's ``row_dot_fast`` / ``row_axpy_fast`` per row
made the binary Hessian-vector pass (about 19 ns a row at 20k × 50) 1.2x slower.

``x̃ = (x, 1)``: vectors carry the intercept's entry last. The passes here
read dense rows (``X[i, j]``); sparse data have their own two-phase passes
(:mod:`._tron_sparse_kernels`). Every ``*_rows`` function covers rows
``start:stop`` so that
the ``*_blocks`` functions can split the rows into independent blocks summed
in parallel. A gradient pass reads the targets and weights as a
:class:`._state.Targets` and writes into a :class:`._state.GradientPass`
(``out``). Sums, not means: results of disjoint row blocks add.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ..._numba import jit_fast, jit_parallel
from ._rules_kernels import (
    binary_terms,
    row_weight,
    softmax_curvature,
    softmax_loss,
    softmax_row,
    softmax_terms,
)
from .._state import GradientPass


# --------------------------------------------------------------------------
# binary, dense rows (w̃ of shape (n_features + 1,), the intercept last)
# --------------------------------------------------------------------------
@jit_fast
def binary_gradient_rows(X, targets, w, start, stop, out):
    """Σ s ℓ over rows ``start:stop`` (:func:`~._rules_kernels.binary_terms`
    at ``z_n = w̃·x̃_n``); adds ``r_n x̃_n`` to ``out.grad``, ``D_n x̃_n²`` to
    ``out.diag`` and stores ``D_n = s_n σ(z_n)(1 − σ(z_n))`` in ``out.curvature``."""
    grad, D, diag = out
    y, weight = targets
    d = X.shape[1]
    loss = 0.0
    for i in range(start, stop):
        z = w[d]
        for j in range(d):
            z += w[j] * X[i, j]
        ell, r, c = binary_terms(row_weight(weight, i), z, y[i])
        loss += ell
        D[i] = c
        for j in range(d):
            x = X[i, j]
            grad[j] += r * x
            diag[j] += c * x * x
        grad[d] += r
        diag[d] += c
    return loss


@jit_fast
def binary_hessian_rows(X, D, v, start, stop, out):
    """Add ``Σ_n D_n (v·x̃_n) x̃_n`` over rows ``start:stop`` to ``out`` (the
    weights are in ``D``)."""
    d = X.shape[1]
    for i in range(start, stop):
        s = v[d]
        for j in range(d):
            s += v[j] * X[i, j]
        s *= D[i]
        for j in range(d):
            out[j] += s * X[i, j]
        out[d] += s


# --------------------------------------------------------------------------
# multinomial, dense rows (W: n_classes × (n_features + 1), intercepts last)
# --------------------------------------------------------------------------
@jit_fast
def multinomial_gradient_rows(X, targets, W, start, stop, out):
    """Σ s ℓ over rows ``start:stop`` (:func:`~._rules_kernels.softmax_loss`);
    adds ``s_n (p_nk − [y_n = k]) x̃_n`` to ``out.grad[k]``, ``s_n p_nk(1 −
    p_nk) x̃_n²`` to ``out.diag[k]`` and stores the probabilities in
    ``out.curvature[n]``."""
    grad, P, diag = out
    y_index, weight = targets
    d = X.shape[1]
    n_classes = W.shape[0]
    loss = 0.0
    for i in range(start, stop):
        s = row_weight(weight, i)
        z = P[i]
        for k in range(n_classes):
            acc = W[k, d]
            for j in range(d):
                acc += W[k, j] * X[i, j]
            z[k] = acc
        z_c = z[y_index[i]]
        loss += softmax_loss(s, softmax_row(z), z_c)
        for k in range(n_classes):
            r, c = softmax_terms(s, z[k], k == y_index[i])
            for j in range(d):
                x = X[i, j]
                grad[k, j] += r * x
                diag[k, j] += c * x * x
            grad[k, d] += r
            diag[k, d] += c
    return loss


@jit_fast
def multinomial_hessian_rows(X, P, V, weight, start, stop, out):
    """Add ``Σ_n s_n p_nk (u_nk − Σ_j p_nj u_nj) x̃_n`` to ``out[k]`` for every
    class k, ``u_nk = V_k·x̃_n``, over rows ``start:stop``
    (:func:`~._rules_kernels.softmax_curvature`)."""
    d = X.shape[1]
    n_classes = V.shape[0]
    u = np.empty(n_classes)
    for i in range(start, stop):
        mean = 0.0
        for k in range(n_classes):
            acc = V[k, d]
            for j in range(d):
                acc += V[k, j] * X[i, j]
            u[k] = acc
            mean += P[i, k] * acc
        s = row_weight(weight, i)
        for k in range(n_classes):
            r = softmax_curvature(s, P[i, k], u[k], mean)
            for j in range(d):
                out[k, j] += r * X[i, j]
            out[k, d] += r


# --------------------------------------------------------------------------
# sums over row blocks, serial and in block order: numba would turn an array
# sum inside a parallel function into a reduction split over the threads, whose
# rounding then depends on their number
# --------------------------------------------------------------------------
@jit_fast
def block_total(values):
    """``Σ_b values[b]``, in block order."""
    total = 0.0
    for b in range(values.shape[0]):
        total += values[b]
    return total


@jit_fast
def block_totals(parts):
    """``Σ_b parts[b]`` (shape ``parts.shape[1:]``), in block order."""
    flat = parts.reshape(parts.shape[0], -1)
    out = np.zeros(flat.shape[1])
    for b in range(flat.shape[0]):
        for j in range(flat.shape[1]):
            out[j] += flat[b, j]
    return out.reshape(parts.shape[1:])


# --------------------------------------------------------------------------
# row blocks in parallel: block ``blk`` of ``n_blocks`` covers rows
# ``blk·n // n_blocks : (blk + 1)·n // n_blocks``
# --------------------------------------------------------------------------
@jit_parallel
def binary_gradient_blocks(X, targets, w, D, n_blocks):
    """:func:`binary_gradient_rows` over all rows in parallel blocks.

    Returns ``(loss, grad, diag)``; ``D`` is filled."""
    n, d = X.shape
    n_blocks = max(1, min(n, n_blocks))
    losses = np.zeros(n_blocks)
    grads = np.zeros((n_blocks, d + 1))
    diags = np.zeros((n_blocks, d + 1))
    for blk in prange(n_blocks):
        losses[blk] = binary_gradient_rows(X, targets, w, blk * n // n_blocks,
                                           (blk + 1) * n // n_blocks,
                                           GradientPass(grads[blk], D, diags[blk]))
    return block_total(losses), block_totals(grads), block_totals(diags)


@jit_parallel
def binary_hessian_blocks(X, D, v, n_blocks):
    """:func:`binary_hessian_rows` over all rows in parallel blocks."""
    n = X.shape[0]
    n_blocks = max(1, min(n, n_blocks))
    outs = np.zeros((n_blocks, v.shape[0]))
    for blk in prange(n_blocks):
        binary_hessian_rows(X, D, v, blk * n // n_blocks, (blk + 1) * n // n_blocks,
                            outs[blk])
    return block_totals(outs)


@jit_parallel
def multinomial_gradient_blocks(X, targets, W, P, n_blocks):
    """:func:`multinomial_gradient_rows` over all rows in parallel blocks."""
    n = X.shape[0]
    n_blocks = max(1, min(n, n_blocks))
    losses = np.zeros(n_blocks)
    grads = np.zeros((n_blocks, W.shape[0], W.shape[1]))
    diags = np.zeros((n_blocks, W.shape[0], W.shape[1]))
    for blk in prange(n_blocks):
        losses[blk] = multinomial_gradient_rows(X, targets, W, blk * n // n_blocks,
                                                (blk + 1) * n // n_blocks,
                                                GradientPass(grads[blk], P, diags[blk]))
    return block_total(losses), block_totals(grads), block_totals(diags)


@jit_parallel
def multinomial_hessian_blocks(X, P, V, weight, n_blocks):
    """:func:`multinomial_hessian_rows` over all rows in parallel blocks."""
    n = X.shape[0]
    n_blocks = max(1, min(n, n_blocks))
    outs = np.zeros((n_blocks, V.shape[0], V.shape[1]))
    for blk in prange(n_blocks):
        multinomial_hessian_rows(X, P, V, weight, blk * n // n_blocks,
                                 (blk + 1) * n // n_blocks, outs[blk])
    return block_totals(outs)
