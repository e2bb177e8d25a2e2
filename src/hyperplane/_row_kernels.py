"""One row layer for compiled kernels: dense rows and CSR rows behind the same
functions, the layout chosen when numba compiles the caller.

A rule that reads samples one at a time (a coordinate step, an online
update, a column of ``Xᵀ``) is written once against these functions; numba
resolves each call to the dense or the CSR body when it types the rows
argument, so the caller compiles once per layout and the choice costs
nothing at run time. Rows are a C-ordered 2-D array or a
:class:`~hyperplane._csr_rows.CSRRows` (Saad, *Iterative Methods for Sparse
Linear Systems*, 2nd ed., §3.4). Every sum runs in index order with strict
arithmetic, so the zeros a CSR row leaves out add nothing and both layouts
give the same bits. CSR positions and columns are read as unsigned
integers, which spares numba's negative-index test on every read.
"""

from __future__ import annotations

import numpy as np
from numba import types

from ._numba import by_first_type, jit, jit_fast


def by_layout(dense, csr):
    """A function for compiled code that calls ``dense(X, ...)`` when its
    first argument ``X`` is a dense array and ``csr(X, ...)`` when it is CSR
    rows; numba makes the choice when it types ``X``, so the caller is one
    function compiled once per layout and the call costs nothing at run time
    (:func:`~hyperplane._numba.by_first_type`). Called from Python it raises
    :class:`NotImplementedError`."""
    return by_first_type(lambda X: dense if isinstance(X, types.Array) else csr,
                         f"{dense.__name__} / {csr.__name__}")


@jit
def dense_row_dot(X, t, w, acc):
    """``acc + Σ_f w[f] X[t, f]``, summed in feature order."""
    for f in range(X.shape[1]):
        acc += w[f] * X[t, f]
    return acc


@jit
def csr_row_dot(X, t, w, acc):
    """:func:`dense_row_dot` of the CSR row t (its nonzeros in index order)."""
    data, indices, indptr = X
    for p in range(np.uint64(indptr[t]), np.uint64(indptr[t + 1])):
        acc += w[np.uint64(indices[p])] * data[p]
    return acc


@jit
def dense_row_axpy(X, t, w, delta):
    """``w[f] += delta X[t, f]`` for every feature f."""
    for f in range(X.shape[1]):
        w[f] += delta * X[t, f]


@jit
def csr_row_axpy(X, t, w, delta):
    """:func:`dense_row_axpy` of the CSR row t (its nonzeros only)."""
    data, indices, indptr = X
    for p in range(np.uint64(indptr[t]), np.uint64(indptr[t + 1])):
        w[np.uint64(indices[p])] += delta * data[p]


@jit
def dense_row_weighted_dot(X, t, a, b):
    """``Σ_f X[t, f] a[f] b[f]`` in feature order."""
    acc = 0.0
    for f in range(X.shape[1]):
        acc += X[t, f] * a[f] * b[f]
    return acc


@jit
def csr_row_weighted_dot(X, t, a, b):
    """:func:`dense_row_weighted_dot` over the CSR row's nonzeros."""
    data, indices, indptr = X
    acc = 0.0
    for p in range(indptr[t], indptr[t + 1]):
        f = indices[p]
        acc += data[p] * a[f] * b[f]
    return acc


@jit
def dense_row_weighted_square(X, t, a):
    """``Σ_f a[f] X[t, f]²`` in feature order."""
    acc = 0.0
    for f in range(X.shape[1]):
        acc += a[f] * X[t, f] * X[t, f]
    return acc


@jit
def csr_row_weighted_square(X, t, a):
    """:func:`dense_row_weighted_square` over the CSR row's nonzeros."""
    data, indices, indptr = X
    acc = 0.0
    for p in range(indptr[t], indptr[t + 1]):
        acc += a[indices[p]] * data[p] * data[p]
    return acc


@jit_fast
def dense_row_axpy_fast(X, t, w, delta):
    """:func:`dense_row_axpy` for callers compiled with fastmath."""
    for f in range(X.shape[1]):
        w[f] += delta * X[t, f]


@jit_fast
def csr_row_axpy_fast(X, t, w, delta):
    """:func:`csr_row_axpy` for callers compiled with fastmath."""
    data, indices, indptr = X
    for p in range(np.uint64(indptr[t]), np.uint64(indptr[t + 1])):
        w[np.uint64(indices[p])] += delta * data[p]


#: ``acc + w · x_t`` and ``w += delta x_t`` on either layout
row_dot = by_layout(dense_row_dot, csr_row_dot)
row_axpy = by_layout(dense_row_axpy, csr_row_axpy)
#: ``Σ_f x_tf a_f b_f`` and ``Σ_f a_f x_tf²`` on either layout
row_weighted_dot = by_layout(dense_row_weighted_dot, csr_row_weighted_dot)
row_weighted_square = by_layout(dense_row_weighted_square, csr_row_weighted_square)
#: ``w += delta x_t`` for kernels compiled with fastmath (the perceptron's epochs).
#: Kept apart from :data:`row_axpy`: when a fastmath caller first compiled the strict
#: functions, the strict callers that numba's cache served afterwards lost their
#: dense-equals-CSR bits (measured: the SVM seed's tests after a perceptron fit)
row_axpy_fast = by_layout(dense_row_axpy_fast, csr_row_axpy_fast)
