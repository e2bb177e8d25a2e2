"""Compiled epochs of the sequential dual method for the multi-class SVM of
Crammer & Singer (JMLR 2001), as Keerthi, Sundararajan, Chang, Hsieh & Lin
solve it ("A sequential dual method for large scale multi-class linear SVMs",
KDD 2008; LIBLINEAR's ``Solver_MCSVM_CS``, ``-s 4``)::

    min_W 1/2 sum_m |w_m|^2 + sum_i C_i max_m (1 - [m = y_i] + (w_m - w_{y_i}) . x_i),

the bias an extra feature of constant value ``B`` (regularised, as LIBLINEAR).
The dual has one block of K variables per sample, ``alpha_im <= 0`` for
``m != y_i``, ``alpha_{i y_i} <= C_i``, ``sum_m alpha_im = 0``, and
``w_m = sum_i alpha_im [x_i, B]``. A step optimises sample i's block exactly
(:func:`block_minimiser`), given the gradient ``G_m = 1 - [m = y_i] + w_m . x_i``.

The samples are dense rows or CSR rows; the epoch reads them only through
:data:`row_scores` and :data:`row_update` (:func:`~._linear_svc_kernels.by_layout`),
which visit the features in order, so both layouts give the same model bit
for bit.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from .._numba import jit
from .._row_kernels import by_layout
from ._linear_svc_kernels import PG_ZERO, shuffle_prefix

#: What an epoch reads: samples ``X`` (n, d; or CSR rows), labels ``y``
#: (class numbers), ``C`` (per sample), the bias feature's value ``B`` and
#: ``QD_i = |x_i|^2 + B^2``.
CSProblem = namedtuple("CSProblem", "X y C B QD")
#: What an epoch updates: ``alpha`` (n, K), ``W`` (d + 1, K; the last row
#: multiplies B), the visiting order ``order`` and the shuffle's generator
#: state ``rng``.
CSState = namedtuple("CSState", "alpha W order rng")


@jit
def dense_row_scores(X, i, W, G):
    """``G[m] += sum_f X[i, f] W[f, m]`` (features in order)."""
    for f in range(X.shape[1]):
        v = X[i, f]
        if v != 0.0:
            for m in range(G.shape[0]):
                G[m] += W[f, m] * v


@jit
def csr_row_scores(X, i, W, G):
    """:func:`dense_row_scores` of the CSR row i."""
    data, indices, indptr = X
    for p in range(np.uint64(indptr[i]), np.uint64(indptr[i + 1])):
        f = np.uint64(indices[p])
        for m in range(G.shape[0]):
            G[m] += W[f, m] * data[p]


@jit
def dense_row_update(X, i, W, delta):
    """``W[f, m] += delta[m] X[i, f]`` over the nonzeros of row i."""
    for f in range(X.shape[1]):
        v = X[i, f]
        if v != 0.0:
            for m in range(delta.shape[0]):
                W[f, m] += delta[m] * v


@jit
def csr_row_update(X, i, W, delta):
    """:func:`dense_row_update` of the CSR row i."""
    data, indices, indptr = X
    for p in range(np.uint64(indptr[i]), np.uint64(indptr[i + 1])):
        f = np.uint64(indices[p])
        for m in range(delta.shape[0]):
            W[f, m] += delta[m] * data[p]


#: ``G += x_i W`` and ``W += x_i' delta`` on either layout
row_scores = by_layout(dense_row_scores, csr_row_scores)
row_update = by_layout(dense_row_update, csr_row_update)


@jit
def block_minimiser(A, B, y, C_y, alpha_new):
    """The exact minimiser of sample i's block (Crammer & Singer 2001, §6;
    Keerthi et al. 2008, eq. 9 and Algorithm 2; LIBLINEAR's
    ``solve_sub_problem``)::

        min_a 1/2 A |a|^2 + B . a,  a_m <= 0 (m != y), a_y <= C_y, sum_m a_m = 0,

    with ``A = |x_i|^2 + B^2`` and ``B_m = G_m - A alpha_im``: ``a_m =
    min(bound_m, (beta - B_m) / A)``, beta found from the sorted
    ``D = B + A C_y e_y``."""
    K = B.shape[0]
    D = B.copy()
    D[y] += A * C_y
    D = np.sort(D)[::-1]
    beta = D[0] - A * C_y
    r = 1
    while r < K and beta < r * D[r]:
        beta += D[r]
        r += 1
    beta /= r
    for m in range(K):
        if m == y:
            alpha_new[m] = min(C_y, (beta - B[m]) / A)
        else:
            alpha_new[m] = min(0.0, (beta - B[m]) / A)


@jit
def block_violation(G, alpha_i, y, C_y):
    """``max_m G_m - min_{m: alpha_im < bound_m} G_m``: 0 at the block's
    optimum (Keerthi et al. 2008, eq. 10; LIBLINEAR's ``maxG - minG``)."""
    minG = np.inf
    maxG = -np.inf
    for m in range(G.shape[0]):
        bound = C_y if m == y else 0.0
        if alpha_i[m] < bound and G[m] < minG:
            minG = G[m]
        if G[m] > maxG:
            maxG = G[m]
    return maxG - minG


@jit
def cs_epoch(problem, state):
    """One pass over every sample, in an order shuffled with ``state.rng``:
    each block with ``QD_i > 0`` whose violation exceeds 1e-12 is replaced
    by :func:`block_minimiser`'s solution and ``W`` updated. Returns the
    largest violation of the pass."""
    X, y, C, B, QD = problem
    alpha, W, order, rng = state
    K = alpha.shape[1]
    d = W.shape[0] - 1
    G = np.empty(K)
    Bv = np.empty(K)
    alpha_new = np.empty(K)
    delta = np.empty(K)
    shuffle_prefix(order, order.shape[0], rng)
    stopping = -np.inf
    for k in range(order.shape[0]):
        i = order[k]
        A = QD[i]
        if A <= 0.0:
            continue
        for m in range(K):
            G[m] = 1.0 + W[d, m] * B
        G[y[i]] -= 1.0
        row_scores(X, i, W, G)
        violation = block_violation(G, alpha[i], y[i], C[i])
        if violation <= PG_ZERO:
            continue
        stopping = max(stopping, violation)
        for m in range(K):
            Bv[m] = G[m] - A * alpha[i, m]
        block_minimiser(A, Bv, y[i], C[i], alpha_new)
        for m in range(K):
            dm = alpha_new[m] - alpha[i, m]
            alpha[i, m] = alpha_new[m]
            delta[m] = dm if abs(dm) >= PG_ZERO else 0.0
        row_update(X, i, W, delta)
        for m in range(K):
            W[d, m] += delta[m] * B
    return stopping


@jit
def cs_epochs(problem, state, tol, max_epochs):
    """Up to ``max_epochs`` epochs of :func:`cs_epoch`; returns ``(epochs
    run, converged)``, converged after the first epoch whose largest
    violation is below ``tol`` (LIBLINEAR's stopping test)."""
    for epoch in range(1, max_epochs + 1):
        if cs_epoch(problem, state) < tol:
            return epoch, True
    return max_epochs, False
