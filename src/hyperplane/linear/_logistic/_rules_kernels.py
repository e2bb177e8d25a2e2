"""The rules of one row of logistic regression, each once, for every pass.

Every pass of the three solvers (L-BFGS's loss and gradient, TRON's gradient
and Hessian-vector passes, over dense rows and over CSR rows) reads a row's
score and applies the same rules to it; they live here, one function per rule:

* :func:`row_weight`: the row's weight ``s_n`` (sample weight times class
  weight), or 1 when every row weighs 1, told apart by the type of the
  weights (None) when numba compiles the pass, so that an unweighted pass
  compiles to the unweighted formulas (a product by the constant 1 folds);
* :func:`binary_terms`: the row's weighted log-loss ``s_n ℓ_n``, ``ℓ_n =
  log(1 + e^{z_n}) − y_n z_n``, its residual ``s_n (σ(z_n) − y_n)`` (the
  gradient is ``Σ_n r_n x̃_n``) and curvature ``D_n = s_n σ(z_n)(1 − σ(z_n))``
  (the Hessian is ``X̃ᵀ D X̃``; Bishop, PRML §4.3.2-4.3.3, eqs. 4.91, 4.97);
* :func:`softmax_exp` / :func:`softmax_row`, :func:`softmax_loss` and :func:`softmax_terms`: the
  probabilities ``p_nk``, the softmax's ``s_n (log Σ_k e^{z_nk} − z_{n,y_n})``,
  the residual ``s_n (p_nk − [y_n = k])`` and diagonal curvature ``s_n p_nk(1
  − p_nk)`` (PRML §4.3.4, eqs. 4.108-4.110);
* :func:`softmax_curvature`: the Hessian-vector product's row term
  ``s_n p_nk (u_nk − Σ_j p_nj u_nj)`` with ``u_nk = v_k·x̃_n`` (PRML eq. 4.110);
  the binary product's ``D_n u_n`` takes the weight through ``D_n``.

The rules other than :func:`softmax_exp`, :func:`softmax_row` and
:func:`softmax_curvature` (a row's K values in place) take and return
scalars, so that a pass calls them per row and class at no cost. The passes
read the rows through a row layer chosen when numba compiles them (one pass
for dense and CSR rows): :mod:`hyperplane._row_kernels` for one weight
vector, :mod:`._gradient_kernels`' ``class_scores`` / ``class_axpy`` for K;
TRON's sparse passes keep their two-phase design (:mod:`._tron_sparse_kernels`).
"""

from __future__ import annotations

import numpy as np

from ..._math_kernels import binary_log_loss
from ..._numba import jit_fast, jit_fast_inline
from ..._lowered import fence
from ..._row_kernels import by_layout


@jit_fast
def row_weight(weight, i):
    """``s_n``: ``weight[i]``, or 1 when ``weight`` is None (the branch is
    chosen when numba compiles the caller: None has a type of its own)."""
    if weight is None:
        return 1.0
    return weight[i]


@jit_fast
def binary_terms(s, z, y):
    """``(s ℓ, s (σ(z) − y), s σ(z)(1 − σ(z)))``: the weighted log-loss,
    residual and curvature of a row of weight ``s``, score ``z`` and target
    ``y ∈ {0, 1}``."""
    ell, p = binary_log_loss(z, y)
    return s * ell, s * (p - y), s * (p * (1.0 - p))


@jit_fast_inline
def softmax_exp(z):
    """``z ← e^{z − max_k z_k}`` in place; returns ``(1 / Σ_k z_k, log Σ_k e^{z_k})``
    after it: the probabilities are ``p_k = z_k · (1 / Σ_j z_j)``, one
    reciprocal per row (what LLVM's fastmath made of the division of every
    class's term), formed where they are read. Inlined into the passes (a
    call per row made the dense multinomial pass 1.1x slower); the log-sum
    comes back behind a :data:`~hyperplane._lowered.fence`, so that fastmath
    does not reassociate it with the caller's loss sum and every pass rounds
    it as this function does (unfenced, the unweighted passes' loss moved by
    an ulp)."""
    z_max = -np.inf
    for k in range(z.shape[0]):
        z_max = max(z_max, z[k])
    total = 0.0
    for k in range(z.shape[0]):
        z[k] = np.exp(z[k] - z_max)
        total += z[k]
    return 1.0 / total, fence(np.log(total) + z_max)


@jit_fast
def softmax_row(z):
    """``z ← softmax(z)`` in place (:func:`softmax_exp`, then scaled);
    returns ``log Σ_k e^{z_k}``."""
    scale, log_total = softmax_exp(z)
    for k in range(z.shape[0]):
        z[k] *= scale
    return log_total


@jit_fast
def softmax_loss(s, log_total, z_c):
    """``s (log Σ_k e^{z_k} − z_c)``: the weighted log-loss of a row whose
    scores have ``log Σ_k e^{z_k} = log_total`` (:func:`softmax_row`) and
    whose class scores ``z_c``."""
    return s * (log_total - z_c)


@jit_fast
def softmax_terms(s, p_k, is_class):
    """``(s (p_k − [k = c]), s p_k(1 − p_k))``: class k's weighted residual and
    diagonal curvature of a row whose probability of k is ``p_k``
    (``is_class``: k is the row's class c)."""
    return s * (p_k - (1.0 if is_class else 0.0)), s * (p_k * (1.0 - p_k))


@jit_fast_inline
def softmax_curvature(s, p, u):
    """``u_k ← s p_k (u_k − Σ_j p_j u_j)`` for every class k, in place: a row's
    terms of the softmax Hessian times a direction whose scores on the row
    are ``u`` (``p``: the row's probabilities)."""
    mean = 0.0
    for k in range(u.shape[0]):
        mean += p[k] * u[k]
    for k in range(u.shape[0]):
        u[k] = s * (p[k] * (u[k] - mean))


# --------------------------------------------------------------------------
# the number of rows, per layout
# --------------------------------------------------------------------------
@jit_fast
def dense_row_count(X):
    """The number of dense rows."""
    return X.shape[0]


@jit_fast
def csr_row_count(X):
    """The number of CSR rows."""
    return X.indptr.shape[0] - 1


#: the rows of ``X``
row_count = by_layout(dense_row_count, csr_row_count)
