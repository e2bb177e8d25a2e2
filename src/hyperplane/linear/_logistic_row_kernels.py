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
* :func:`softmax_loss` and :func:`softmax_terms`: the softmax's
  ``s_n (log Σ_k e^{z_nk} − z_{n,y_n})`` with the probabilities ``p_nk``, the
  residual ``s_n (p_nk − [y_n = k])`` and diagonal curvature ``s_n p_nk(1 −
  p_nk)`` (PRML §4.3.4, eqs. 4.108-4.110);
* :func:`softmax_curvature`: the Hessian-vector product's row term
  ``s_n p_nk (u_nk − Σ_j p_nj u_nj)`` with ``u_nk = v_k·x̃_n`` (PRML eq. 4.110);
  the binary product's ``D_n u_n`` takes the weight through ``D_n``.

The rows themselves are read through the package's row layer
(:mod:`hyperplane._row_kernels`: ``row_dot_fast``, ``row_axpy_fast`` and
``by_layout``); the K scores of a row and its K-class gradient, whose loops
run over the classes inside the loop over a CSR row's nonzeros, are
:data:`class_scores` and :data:`class_add` here. Parameters carry the
intercept last: ``w̃`` of shape (n_features + 1,) for two classes; for K
classes ``W̃`` class-major, (K, n_features + 1), over dense rows and
feature-major, (n_features + 1, K), over CSR rows (a gathered feature's K
weights adjacent).
"""

from __future__ import annotations

import numpy as np

from .._math_kernels import binary_log_loss
from .._numba import jit_fast
from .._row_kernels import by_layout


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


@jit_fast
def softmax_row(z):
    """``z ← softmax(z)`` in place; returns ``log Σ_k e^{z_k}``."""
    z_max = -np.inf
    for k in range(z.shape[0]):
        z_max = max(z_max, z[k])
    total = 0.0
    for k in range(z.shape[0]):
        z[k] = np.exp(z[k] - z_max)
        total += z[k]
    for k in range(z.shape[0]):
        z[k] /= total
    return np.log(total) + z_max


@jit_fast
def softmax_loss(s, z, c):
    """``s (log Σ_k e^{z_k} − z_c)``: the weighted log-loss of a row of
    scores ``z`` and class ``c``; ``z`` becomes the probabilities ``p``."""
    z_c = z[c]
    return s * (softmax_row(z) - z_c)


@jit_fast
def softmax_terms(s, p, k, c):
    """``(s (p_k − [k = c]), s p_k(1 − p_k))``: class k's weighted residual and
    diagonal curvature of a row of probabilities ``p`` and class ``c``."""
    return s * (p[k] - (1.0 if k == c else 0.0)), s * (p[k] * (1.0 - p[k]))


@jit_fast
def softmax_curvature(s, p, u):
    """``u_k ← s p_k (u_k − Σ_j p_j u_j)`` in place: a row's term of the
    softmax Hessian times a direction whose scores on the row are ``u``."""
    mean = 0.0
    for k in range(u.shape[0]):
        mean += p[k] * u[k]
    for k in range(u.shape[0]):
        u[k] = s * (p[k] * (u[k] - mean))


# --------------------------------------------------------------------------
# the number of rows, the K scores and the K-class gradient of one row, per layout
# --------------------------------------------------------------------------
@jit_fast
def dense_row_count(X):
    """The number of dense rows."""
    return X.shape[0]


@jit_fast
def csr_row_count(X):
    """The number of CSR rows."""
    return X.indptr.shape[0] - 1


@jit_fast
def dense_class_count(X, W):
    """K of a class-major ``W̃`` (K, n_features + 1)."""
    return W.shape[0]


@jit_fast
def csr_class_count(X, W):
    """K of a feature-major ``W̃`` (n_features + 1, K)."""
    return W.shape[1]


@jit_fast
def dense_class_scores(X, i, W, z):
    """``z[k] = W̃[k]·x̃_i`` (``W̃`` class-major)."""
    d = X.shape[1]
    for k in range(W.shape[0]):
        s = W[k, d]
        for j in range(d):
            s += W[k, j] * X[i, j]
        z[k] = s


@jit_fast
def csr_class_scores(X, i, W, z):
    """``z[k] = W̃[:, k]·x̃_i`` over the nonzeros of CSR row i (``W̃``
    feature-major), every class from one read of the row."""
    data, indices, indptr = X
    d = W.shape[0] - 1
    for k in range(W.shape[1]):
        z[k] = W[d, k]
    for t in range(np.uint64(indptr[i]), np.uint64(indptr[i + 1])):
        j, x = np.uint64(indices[t]), data[t]
        for k in range(W.shape[1]):
            z[k] += W[j, k] * x


@jit_fast
def dense_class_add(X, i, r, grad):
    """``grad[k] += r_k x̃_i`` for every class k (``grad`` class-major)."""
    d = X.shape[1]
    for k in range(r.shape[0]):
        for j in range(d):
            grad[k, j] += r[k] * X[i, j]
        grad[k, d] += r[k]


@jit_fast
def csr_class_add(X, i, r, grad):
    """``grad[:, k] += r_k x̃_i`` over the nonzeros of CSR row i (``grad``
    feature-major)."""
    data, indices, indptr = X
    d = grad.shape[0] - 1
    for t in range(np.uint64(indptr[i]), np.uint64(indptr[i + 1])):
        j, x = np.uint64(indices[t]), data[t]
        for k in range(r.shape[0]):
            grad[j, k] += r[k] * x
    for k in range(r.shape[0]):
        grad[d, k] += r[k]


#: the rows of ``X``
row_count = by_layout(dense_row_count, csr_row_count)
#: the number of classes of ``W̃`` in the layout's orientation
class_count = by_layout(dense_class_count, csr_class_count)
#: ``z = W̃ x̃_i``
class_scores = by_layout(dense_class_scores, csr_class_scores)
#: ``grad += r x̃_iᵀ``
class_add = by_layout(dense_class_add, csr_class_add)
