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

Shrinking (Keerthi et al. 2008, §4; LIBLINEAR's ``be_shrunk``): a variable
at its bound whose gradient lies below the smallest gradient of the block's
free variables leaves the block (:func:`shrink_block`); a sample with one
variable left leaves the epoch. When an epoch's largest violation falls
below the shrinking tolerance, everything returns and that tolerance halves
(:func:`cs_epochs`); the solver stops only after an epoch over all variables.

The samples are dense rows or CSR rows; the epoch reads them only through
:data:`row_classes`, which visits the features in order, so both layouts give
the same model bit for bit.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from .._lowered import empty
from .._numba import jit, jit_internal, jit_twin
from .._row_kernels import by_layout
from ._linear_svc_kernels import PG_ZERO, prefetch_ahead, shuffle_prefix

#: What an epoch reads: samples ``X`` (n, d; or CSR rows), labels ``y``
#: (class numbers), ``C`` (per sample), the bias feature's value ``B`` and
#: ``QD_i = |x_i|^2 + B^2``.
CSProblem = namedtuple("CSProblem", "X y C B QD")
#: What an epoch updates: ``alpha`` (n, K), ``W`` (d + 1, K; the last row
#: multiplies B), the visiting order ``order`` and the shuffle's generator
#: state ``rng``.
CSState = namedtuple("CSState", "alpha W order rng")
#: The shrinking state: ``classes`` (n, K), each sample's class numbers with
#: its active ones first; ``n_classes`` (n,), how many are active; ``y_slot``
#: (n,), where y_i sits in ``classes[i]``; ``n_samples`` (1,), how many of
#: ``order`` are active; ``eps_shrink`` (2,), the shrinking tolerance and 1.0
#: when the last epoch started from all variables.
CSActive = namedtuple("CSActive", "classes n_classes y_slot n_samples eps_shrink")


def cs_active(n, K, tol):
    """Every variable active; the shrinking tolerance ``max(10 tol, 1)``."""
    return CSActive(np.tile(np.arange(K, dtype=np.int64), (n, 1)), np.full(n, K, dtype=np.int64),
                    np.empty(n, dtype=np.int64), np.array([n], dtype=np.int64),
                    np.array([max(10.0 * tol, 1.0), 1.0]))


@jit
def dense_row_classes(X, i, W, classes, values, n, scores):
    """Row i against the classes ``classes[:n]``, its nonzero features in
    order: ``values[m] += x_i . W[:, classes[m]]`` when ``scores``, else
    ``W[:, classes[m]] += values[m] x_i``."""
    if scores:
        for f in range(X.shape[1]):
            if X[i, f] != 0.0:
                for m in range(n):
                    values[m] += W[f, classes[m]] * X[i, f]
    else:
        for f in range(X.shape[1]):
            if X[i, f] != 0.0:
                for m in range(n):
                    W[f, classes[m]] += values[m] * X[i, f]


@jit
def csr_row_classes(X, i, W, classes, values, n, scores):
    """:func:`dense_row_classes` of the CSR row i (the loops written out
    here: a call per nonzero doubled the epoch's time)."""
    data, indices, indptr = X.data, X.indices, X.indptr
    start, stop = np.uint64(indptr[i]), np.uint64(indptr[i + 1])
    if scores:
        for p in range(start, stop):
            f, v = np.uint64(indices[p]), data[p]
            for m in range(n):
                values[m] += W[f, classes[m]] * v
    else:
        for p in range(start, stop):
            f, v = np.uint64(indices[p]), data[p]
            for m in range(n):
                W[f, classes[m]] += values[m] * v


#: the scores ``G[m] += x_i . W[:, classes[m]]`` or the update
#: ``W[:, classes[m]] += delta[m] x_i`` on either layout
row_classes = by_layout(dense_row_classes, csr_row_classes)


@jit_twin
def block_minimiser(A, B, y, C_y, alpha_new):
    """The exact minimiser of sample i's block (Crammer & Singer 2001, §6;
    Keerthi et al. 2008, eq. 9 and Algorithm 2; LIBLINEAR's
    ``solve_sub_problem``)::

        min_a 1/2 A |a|^2 + B . a,  a_m <= 0 (m != y), a_y <= C_y, sum_m a_m = -C_y [y shrunk],

    with ``A = |x_i|^2 + B^2`` and ``B_m = G_m - A alpha_im``: ``a_m =
    min(bound_m, (beta - B_m) / A)``, beta found from the descending
    ``D = B + A C_y e_y``. ``y >= K`` when y_i was shrunk at ``alpha = C_y``:
    the block's variables then sum to ``-C_y``. ``alpha_new`` holds D while
    it is sorted (insertion sort: a block has a few variables)."""
    K = B.shape[0]
    D = alpha_new
    for r in range(K):
        v = B[r] + A * C_y if r == y else B[r]
        s = r
        while s > 0 and D[s - 1] < v:
            D[s] = D[s - 1]
            s -= 1
        D[s] = v
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


@jit_twin
def block_extremes(G, alpha_i, y, C_y):
    """``(min_{m: alpha_im < bound_m} G_m, max_m G_m)`` over the block's
    variables (Keerthi et al. 2008, eq. 10)."""
    minG = np.inf
    maxG = -np.inf
    for m in range(G.shape[0]):
        bound = C_y if m == y else 0.0
        if alpha_i[m] < bound and G[m] < minG:
            minG = G[m]
        if G[m] > maxG:
            maxG = G[m]
    return minG, maxG


@jit
def block_violation(G, alpha_i, y, C_y):
    """``max_m G_m - min_{m: alpha_im < bound_m} G_m``: 0 at the block's
    optimum (Keerthi et al. 2008, eq. 10; LIBLINEAR's ``maxG - minG``)."""
    minG, maxG = block_extremes(G, alpha_i, y, C_y)
    return maxG - minG


@jit_twin
def shrink_block(G, alpha_i, classes, n, y, C_y, minG):
    """Move the block's variables that are at their bound with ``G_m <
    minG`` behind its first ``n`` (Keerthi et al. 2008, §4; LIBLINEAR's
    ``be_shrunk``), swapping ``G``, ``alpha_i`` and ``classes`` alike.
    Returns the new ``(n, y)``, y the position of the label's variable."""
    m = 0
    while m < n:
        if alpha_i[m] == (C_y if m == y else 0.0) and G[m] < minG:
            n -= 1
            while n > m:
                if not (alpha_i[n] == (C_y if n == y else 0.0) and G[n] < minG):
                    G[m], G[n] = G[n], G[m]
                    alpha_i[m], alpha_i[n] = alpha_i[n], alpha_i[m]
                    classes[m], classes[n] = classes[n], classes[m]
                    if y == n:
                        y = m
                    elif y == m:
                        y = n
                    break
                n -= 1
        m += 1
    return n, y


@jit_internal
def cs_epoch(problem, state, active):
    """One pass over the active samples, in an order shuffled with
    ``state.rng``: each block's active variables are scored, shrunk
    (:func:`shrink_block`; a sample left with one variable leaves the pass)
    and, when the violation exceeds 1e-12, replaced by
    :func:`block_minimiser`'s solution, ``W`` updated. Returns the largest
    violation of the pass."""
    X, C, B, QD = problem.X, problem.C, problem.B, problem.QD
    alpha, W, order, rng = state.alpha, state.W, state.order, state.rng
    classes, n_classes = active.classes, active.n_classes
    y_slot, n_samples = active.y_slot, active.n_samples
    K = alpha.shape[1]
    d = W.shape[0] - 1
    G = empty(K, np.float64)
    alpha_i = empty(K, np.float64)
    Bv = empty(K, np.float64)
    alpha_new = empty(K, np.float64)
    changed = empty(K, np.int64)
    delta = empty(K, np.float64)
    shuffle_prefix(order, n_samples[0], rng)
    stopping = -np.inf
    s = 0
    while s < n_samples[0]:
        prefetch_ahead(X, order, s, n_samples[0], W, K)        # W's rows the sample ahead reads
        i = order[s]
        A = QD[i]
        if A <= 0.0:
            s += 1
            continue
        cls = classes[i]
        n = n_classes[i]
        for m in range(n):
            G[m] = 1.0 + W[d, cls[m]] * B
            alpha_i[m] = alpha[i, cls[m]]
        if y_slot[i] < n:
            G[y_slot[i]] -= 1.0
        row_classes(X, i, W, cls, G, n, True)
        minG, maxG = block_extremes(G[:n], alpha_i[:n], y_slot[i], C[i])
        n, y_slot[i] = shrink_block(G, alpha_i, cls, n, y_slot[i], C[i], minG)
        n_classes[i] = n
        if n <= 1:
            n_samples[0] -= 1
            order[s], order[n_samples[0]] = order[n_samples[0]], order[s]
            continue
        s += 1
        if maxG - minG <= PG_ZERO:
            continue
        stopping = max(stopping, maxG - minG)
        for m in range(n):
            Bv[m] = G[m] - A * alpha_i[m]
        block_minimiser(A, Bv[:n], y_slot[i], C[i], alpha_new[:n])
        n_changed = 0
        for m in range(n):
            dm = alpha_new[m] - alpha_i[m]
            alpha[i, cls[m]] = alpha_new[m]
            if abs(dm) >= PG_ZERO:
                changed[n_changed] = cls[m]
                delta[n_changed] = dm
                n_changed += 1
        row_classes(X, i, W, changed, delta, n_changed, False)
        for m in range(n_changed):
            W[d, changed[m]] += delta[m] * B
    return stopping


@jit
def cs_epochs(problem, state, active, tol, max_epochs):
    """Up to ``max_epochs`` epochs of :func:`cs_epoch`; returns ``(epochs
    run, converged)``. An epoch whose largest violation is below the
    shrinking tolerance converges when it is below ``tol`` and the epoch ran
    over all variables; else every variable returns and the shrinking
    tolerance halves, down to ``tol`` (LIBLINEAR's ``eps_shrink``)."""
    K = state.alpha.shape[1]
    eps_shrink = active.eps_shrink
    for epoch in range(1, max_epochs + 1):
        stopping = cs_epoch(problem, state, active)
        if stopping < eps_shrink[0]:
            if stopping < tol and eps_shrink[1] == 1.0:
                return epoch, True
            active.n_samples[0] = state.order.shape[0]
            active.n_classes[:] = K
            eps_shrink[0] = max(eps_shrink[0] / 2.0, tol)
            eps_shrink[1] = 1.0
        else:
            eps_shrink[1] = 0.0
    return max_epochs, False
