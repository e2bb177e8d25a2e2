"""Compiled Hessian-vector passes of the trust-region Newton solver of
logistic regression over dense rows (or CSR rows: the same functions; TRON
reads sparse rows by the two-phase passes of :mod:`._tron_sparse_kernels`).

The gradient pass that comes first (:mod:`._gradient_kernels`, the one
L-BFGS calls) stores what the Hessian needs at a point: the curvature
``D_n = s_n σ(z_n)(1 − σ(z_n))`` (binary) or the probabilities ``p_nk``
(multinomial), plus the diagonal of ``Σ_n x̃_n D_n x̃_nᵀ`` for the
preconditioner. The *Hessian-vector pass* then adds ``X̃ᵀ D X̃ v`` (binary)
or, with ``u_nk = v_k·x̃_n``, ``Σ_n s_n p_nk (u_nk − Σ_j p_nj u_nj) x̃_n``
for every class k (multinomial): the Hessian of the summed log-loss times
``v`` without ever forming it (Lin, Weng & Keerthi 2008, §3; Bishop, PRML
eq. 4.110 for the softmax's Hessian blocks ``p_k(δ_kj − p_j) x xᵀ``, the
rule :func:`~._rules_kernels.softmax_curvature`).

``x̃ = (x, 1)``: vectors carry the intercept's entry last. Every ``*_rows``
function covers rows ``start:stop`` so that the ``*_blocks`` functions can
split the rows into independent blocks summed in parallel. Sums, not means:
results of disjoint row blocks add.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ..._lowered import empty, zeros
from ..._numba import jit_fast, jit_parallel
from ..._row_kernels import row_axpy_inline, row_dot_inline
from ._blocks_kernels import block_totals
from ._gradient_kernels import class_axpy, class_count, class_scores
from ._rules_kernels import row_count, row_weight, softmax_curvature


@jit_fast
def binary_hessian_rows(X, D, v, start, stop, out):
    """Add ``Σ_n D_n (v·x̃_n) x̃_n`` over rows ``start:stop`` to ``out`` (the
    weights are in ``D``)."""
    d = v.shape[0] - 1
    for i in range(start, stop):
        s = row_dot_inline(X, i, v, v[d]) * D[i]
        row_axpy_inline(X, i, out, s)
        out[d] += s


@jit_fast
def multinomial_hessian_rows(X, P, V, weight, start, stop, out):
    """Add ``Σ_n s_n p_nk (u_nk − Σ_j p_nj u_nj) x̃_n`` to ``out[k]`` for every
    class k, ``u_nk = V_k·x̃_n``, over rows ``start:stop``
    (:func:`~._rules_kernels.softmax_curvature`)."""
    u = empty(class_count(X, V), np.float64)
    for i in range(start, stop):
        class_scores(X, i, V, u)
        softmax_curvature(row_weight(weight, i), P[i], u)
        class_axpy(X, i, out, u)


# --------------------------------------------------------------------------
# row blocks in parallel: block ``blk`` of ``n_blocks`` covers rows
# ``blk·n // n_blocks : (blk + 1)·n // n_blocks``
# --------------------------------------------------------------------------
@jit_parallel
def binary_hessian_blocks(X, D, v, n_blocks):
    """:func:`binary_hessian_rows` over all rows in parallel blocks."""
    n = row_count(X)
    n_blocks = max(1, min(n, n_blocks))
    outs = zeros((n_blocks, v.shape[0]), np.float64)
    for blk in prange(n_blocks):
        binary_hessian_rows(X, D, v, blk * n // n_blocks, (blk + 1) * n // n_blocks,
                            outs[blk])
    return block_totals(outs)


@jit_parallel
def multinomial_hessian_blocks(X, P, V, weight, n_blocks):
    """:func:`multinomial_hessian_rows` over all rows in parallel blocks."""
    n = row_count(X)
    n_blocks = max(1, min(n, n_blocks))
    outs = zeros((n_blocks, V.shape[0], V.shape[1]), np.float64)
    for blk in prange(n_blocks):
        multinomial_hessian_rows(X, P, V, weight, blk * n // n_blocks,
                                 (blk + 1) * n // n_blocks, outs[blk])
    return block_totals(outs)
