"""Kernel rows of CSR samples (LIBSVM's sparse mode; Chang & Lin, ACM TIST
2011, section 4.1): the dot products of a block of a row by the cheapest of
three ways, and the squared distances from them.

Row r is scattered into a dense work vector and x_r . x_c summed over the
nonzeros of each x_c (by rows), or the products are accumulated column by
column over the samples that share a feature with x_r (CSC, an inverted
index: only pairs with a common nonzero cost anything), or, for samples
dense enough that a dense feature-major copy costs little memory
(``_kernel_rows.DENSE_COLUMN_FILL``), column by
column over every sample (contiguous: it vectorises over samples, where the
gathers by rows do not). Both ways by columns add each x_c's products in the
order of x_r's features, so they give the same bits. Squared distances are
|x_r|^2 + |x_c|^2 - 2 x_r . x_c from the norms computed once
(:func:`csr_squared_norms`).

Whether the samples keep the dense columns is told by their type (``XT32``
an array or None), and each kernel that branches on it is compiled once
per kind (:func:`per_columns`), the other branch left out when numba builds
its IR: a first fit compiles the way its samples can take only.
"""

from __future__ import annotations

import functools
import operator
import types as pytypes

import numpy as np

from numba import prange
from numba.core import types

from .._lowered import empty, zeros
from .._numba import (by_first_type, jit, jit_fast, jit_fast_inline, jit_fast_internal, jit_inline,
                      jit_parallel)
from ._kernel_values_kernels import ROW_BLOCK, SPARSE_COLUMNS, SPARSE_ROWS, is_distance

#: whether a copy of a kernel serves samples with dense columns: bound to True or
#: False in each copy (:func:`per_columns`), never read from here
DENSE_COLUMNS = None

#: how much cheaper a multiply-add over a contiguous dense column is than one
#: gathered through a CSR row's indices (it vectorises: heart_scale's rows,
#: 13 features, 4.5 us by rows, 1.9 us by dense columns)
DENSE_COLUMN_CREDIT = 4


@jit
def csr_columns(data, indices, indptr, d):
    """The CSC arrays ``(data, rows, indptr)`` of the CSR samples with ``d``
    features, each column's rows in increasing order (a counting sort of the
    nonzeros by column, read row by row): the inverted index of
    :func:`column_dots`."""
    col_ptr = zeros(d + 1, np.int64)
    for p in range(indices.shape[0]):
        col_ptr[indices[p] + 1] += 1
    for f in range(d):
        col_ptr[f + 1] += col_ptr[f]
    fill = col_ptr[:d].copy()
    col_data = empty(indices.shape[0], np.float32)
    col_rows = empty(indices.shape[0], np.int32)
    for r in range(indptr.shape[0] - 1):
        for p in range(indptr[r], indptr[r + 1]):
            q = fill[indices[p]]
            col_data[q] = data[p]
            col_rows[q] = r
            fill[indices[p]] = q + 1
    return col_data, col_rows, col_ptr


def dense_columns(data, indices, indptr, d):
    """The CSR samples (n of them, ``d`` features) as a dense feature-major
    float32 array (d, n): ``XT[f, r] = x_rf`` (NumPy: one compiled function
    less in a sparse fit's first call)."""
    n = indptr.shape[0] - 1
    XT = np.zeros((d, n), dtype=np.float32)
    XT[indices, np.repeat(np.arange(n), np.diff(indptr))] = data
    return XT


@jit_inline
def squared_norm_sums(data, indptr):
    """``out[t] = Σ_p data[p]²`` over row ``t``'s entries ``indptr[t] .. indptr[t+1] − 1``, each
    square in float64; inlined, so the caller's arithmetic sums it."""
    out = zeros(indptr.shape[0] - 1, np.float64)
    for t in range(out.shape[0]):
        acc = 0.0
        for p in range(indptr[t], indptr[t + 1]):
            v = np.float64(data[p])
            acc += v * v
        out[t] = acc
    return out


#: nonzeros of each CSR row whose squares :func:`csr_squared_norms` adds for all
#: rows at once; a longer row's further ones are added by Python, one at a time
NORM_POSITIONS = 64


def csr_squared_norms(X):
    """|x_t|^2 of every row of the CSR rows ``X`` (a
    :class:`~hyperplane._csr_rows.CSRRows`, float32 or float64 values), each
    square in float64 (exact for float32 values), summed in feature order
    one rounded addition at a time, as a strict loop sums them: the sums of
    the dense rows' feature-order loops, so that a CSR fit's norms are a
    dense fit's bit for bit (the SMO's squared distances, the linear seed's
    and LIBLINEAR's diagonals). In NumPy, not compiled (one compiled entry
    less in a sparse fit's first call): the k-th squares of every row that
    has one are added in one step, k = 0, 1, ..., and the squares past
    :data:`NORM_POSITIONS` of the rows that long by :func:`functools.reduce`."""
    data = np.asarray(X.data)
    indptr = np.asarray(X.indptr, dtype=np.int64)
    squares = data.astype(np.float64) ** 2
    starts, lengths = indptr[:-1], np.diff(indptr)
    out = np.zeros(lengths.shape[0])
    rows = np.arange(lengths.shape[0])
    for k in range(min(int(lengths.max(initial=0)), NORM_POSITIONS)):
        rows = rows[lengths[rows] > k]
        out[rows] += squares[starts[rows] + k]
    for t in rows[lengths[rows] > NORM_POSITIONS]:
        out[t] = functools.reduce(operator.add,
                                  squares[starts[t] + NORM_POSITIONS:indptr[t + 1]].tolist(),
                                  float(out[t]))
    return out


@jit_fast
def csr_squared_norms_fast(X):
    """The squared norms of :func:`csr_squared_norms` summed in any order (fastmath):
    LinearSVC's diagonal ``Q_ii``, whose sums LIBLINEAR takes in no set order."""
    return squared_norm_sums(X.data, X.indptr)


def _sparse_row_method(samples, r, n_cols, full):
    """The method of a row of sparse samples and its cost in multiply-adds:
    by columns when that is cheaper than by rows (``n_cols`` times the mean
    nonzeros per sample): over the dense columns of x_r's features
    (``XT32``, when the samples keep it; every sample, counted at
    1 / :data:`DENSE_COLUMN_CREDIT`), else over the inverted index (the
    nonzeros of the samples that share a feature with x_r, plus a pass over
    the samples)."""
    indptr, col_ptr, indices = samples.indptr, samples.col_ptr, samples.indices
    n = indptr.shape[0] - 1
    if DENSE_COLUMNS:
        by_rows = n_cols * (indptr[n] / n)
        by_columns = (indptr[r + 1] - indptr[r]) * n
        if by_columns <= DENSE_COLUMN_CREDIT * by_rows:
            return SPARSE_COLUMNS, float(by_columns)
        return SPARSE_ROWS, by_rows
    shared = 0
    for p in range(indptr[r], indptr[r + 1]):
        shared += col_ptr[indices[p] + 1] - col_ptr[indices[p]]
    by_rows = n_cols * (indptr[n] / max(n, 1))
    if shared + n < by_rows:
        return SPARSE_COLUMNS, shared + n
    return SPARSE_ROWS, by_rows


@jit_fast_internal
def sparse_block_products(samples, r, cols, lo, hi, method):
    """``buf[k]`` for ``lo <= k < hi`` from sparse samples, prepared by
    :func:`sparse_compute_row`: gathered from ``dots`` (by columns) or by
    rows from x_r scattered into ``work`` (:func:`products_by_rows_range`);
    for distance kernels turned into squared distances
    (:func:`sparse_distances`)."""
    if method != SPARSE_COLUMNS:
        products_by_rows_range(samples, cols, lo, hi)
        sparse_distances(samples, r, cols, lo, hi)
        return
    # from dots, the squared distance of sparse_distances in the same pass
    buf, block, dots = samples.buf[lo:hi], cols[lo:hi], samples.dots
    if is_distance(samples):
        sq = samples.sq
        sq_r = sq[r]
        for k in range(buf.shape[0]):
            c = block[k]
            d2 = max(sq_r + sq[c] - 2.0 * dots[c], 0.0)
            buf[k] = 0.0 if c == r else d2
    else:
        for k in range(buf.shape[0]):
            buf[k] = dots[block[k]]


@jit_fast_internal
def sparse_distances(samples, r, cols, lo, hi):
    """For distance kernels, ``buf[k] <- max(|x_r|^2 + |x_c|^2 - 2 buf[k], 0)``,
    c = ``cols[k]``, ``lo <= k < hi``; the distance of x_r to itself is 0
    exactly (as the dense rows' direct sum gives it), not a rounding residue."""
    if not is_distance(samples):
        return
    sq, buf = samples.sq, samples.buf
    sq_r = sq[r]
    for k in range(lo, hi):
        buf[k] = max(sq_r + sq[cols[k]] - 2.0 * buf[k], 0.0)
        if cols[k] == r:
            buf[k] = 0.0


@jit_fast_inline
def scatter_row(samples, r, scale):
    """``work[f] = scale x_rf`` on the nonzeros of x_r (``scale = 0`` zeroes
    ``work`` again)."""
    data, indices, indptr, work = samples.data, samples.indices, samples.indptr, samples.work
    for p in range(np.uint64(indptr[r]), np.uint64(indptr[r + 1])):
        work[np.uint64(indices[p])] = scale * data[p]


@jit_fast
def products_by_rows(samples, r, cols, n_cols):
    """``buf[k]`` = x_r . x_c: x_r scattered into ``work`` (zeroed again
    afterwards), each x_c's nonzeros (CSR) read against it."""
    scatter_row(samples, r, 1.0)
    products_by_rows_range(samples, cols, 0, n_cols)
    scatter_row(samples, r, 0.0)


@jit_fast_internal
def products_by_rows_range(samples, cols, lo, hi):
    """``buf[k]`` = work . x_c, c = ``cols[k]``, ``lo <= k < hi``, over the
    nonzeros of each x_c (CSR). Positions and columns are read as unsigned
    integers, which spares numba's negative-index test on every read (a
    third of a row's time on short rows)."""
    data, indices, indptr = samples.data, samples.indices, samples.indptr
    work, buf = samples.work, samples.buf
    for k in range(lo, hi):
        c = cols[k]
        acc = 0.0
        for p in range(np.uint64(indptr[c]), np.uint64(indptr[c + 1])):
            acc += work[np.uint64(indices[p])] * np.float64(data[p])
        buf[k] = acc


def _products_by_columns(samples, r, cols, n_cols):
    """``buf[k]`` = x_r . x_c, c = ``cols[k]``, gathered from
    :func:`column_dots` on every sample."""
    column_dots(samples, r, 0, samples.dots.shape[0])
    for k in range(n_cols):
        samples.buf[k] = samples.dots[cols[k]]


def _column_dots(samples, r, lo, hi):
    """``dots[c]`` = x_r . x_c for the samples ``lo <= c < hi``: for each
    nonzero x_rf in turn, x_rf x_cf is added for the samples whose feature f
    is nonzero (the part of CSC column f in ``[lo, hi)``, found by bisection
    on its sorted rows), or for every sample from the dense columns when the
    samples keep them (:func:`dense_column_dots`)."""
    if DENSE_COLUMNS:
        dense_column_dots(samples, r, lo, hi)
        return
    data, indices, indptr = samples.data, samples.indices, samples.indptr
    col_data, col_rows, col_ptr = samples.col_data, samples.col_rows, samples.col_ptr
    dots = samples.dots
    n = dots.shape[0]
    for c in range(lo, hi):
        dots[c] = 0.0
    for p in range(indptr[r], indptr[r + 1]):
        f = indices[p]
        v = np.float64(data[p])
        start, stop = col_ptr[f], col_ptr[f + 1]
        if lo > 0:
            start = first_at_least(col_rows, start, stop, lo)
        if hi < n:
            stop = first_at_least(col_rows, start, stop, hi)
        for q in range(np.uint64(start), np.uint64(stop)):
            dots[np.uint64(col_rows[q])] += v * np.float64(col_data[q])


@jit_fast_inline
def first_at_least(rows, start, stop, value):
    """The first position p in ``[start, stop)`` with ``rows[p] >= value``
    (``stop`` if none), by bisection of the increasing ``rows``: NumPy's
    ``searchsorted`` on the slice, without numba's generic implementation
    (several compiled functions more in every CSR fit)."""
    while start < stop:
        middle = (start + stop) >> 1
        if rows[middle] < value:
            start = middle + 1
        else:
            stop = middle
    return start


@jit_fast_inline
def dense_column_dots(samples, r, lo, hi):
    """``dots[c]`` = x_r . x_c for the samples ``lo <= c < hi`` from the dense
    feature-major samples ``XT32``: for each nonzero x_rf in turn, x_rf x_cf
    added for every sample (a contiguous pass, vectorised over samples). Each
    sum takes its terms in the order of x_r's features, as the CSC columns
    do, plus exact zeros, so the two give the same bits."""
    data, indices, indptr = samples.data, samples.indices, samples.indptr
    acc = zeros(hi - lo, np.float64)  # fresh: LLVM knows it aliases no sample, and vectorises
    for p in range(indptr[r], indptr[r + 1]):
        v = np.float64(data[p])
        column = samples.XT32[indices[p], lo:hi]     # a view: indices from 0, no gathers
        for k in range(hi - lo):
            acc[k] += v * np.float64(column[k])
    dots = samples.dots[lo:hi]
    for k in range(hi - lo):
        dots[k] = acc[k]


def has_dense_columns(samples):
    """Whether the sparse samples keep their dense feature-major copy ``XT32``
    (else it is None, and they keep the CSC arrays)."""
    return samples.XT32 is not None


def per_columns(func, decorator, callees=None):
    """``func`` compiled by ``decorator`` for sparse samples with dense columns
    and for samples with the CSC arrays: two copies of its code, in which the
    global ``DENSE_COLUMNS`` is True or False (numba drops the other branch
    of ``if DENSE_COLUMNS`` when it builds the copy's IR, a constant's
    branch) and each name of ``callees`` (name -> such a pair) is bound to
    the callee of the same kind. Returns the pair (dense columns, CSC).
    The copies are named ``func`` + ``_dense_columns`` / ``_csc``, the names
    numba's cache files take."""
    made = []
    for kind, dense in (("dense_columns", True), ("csc", False)):
        scope = dict(func.__globals__, DENSE_COLUMNS=dense)
        scope.update({name: pair[len(made)] for name, pair in (callees or {}).items()})
        name = f"{func.__name__.lstrip('_')}_{kind}"
        copy = pytypes.FunctionType(func.__code__, scope, name, func.__defaults__,
                                    func.__closure__)
        copy.__qualname__, copy.__doc__ = name, func.__doc__
        made.append(decorator(copy))
    return tuple(made)


def keeps_dense_columns(samples_type):
    """Whether the numba type of sparse samples has an array ``XT32`` (the
    dense columns) rather than None."""
    return not isinstance(dict(zip(samples_type.fields, samples_type.types))["XT32"],
                          types.NoneType)


def by_columns(pair, name):
    """``call(samples, *args)``: ``pair[0](samples, *args)`` on sparse samples
    with dense columns, ``pair[1](samples, *args)`` on samples with the CSC
    arrays (:func:`per_columns`), chosen when numba types ``samples``
    (:func:`~hyperplane._numba.by_first_type`) or, from Python, by the value."""
    return by_first_type(lambda t: pair[0] if keeps_dense_columns(t) else pair[1], name,
                         lambda samples: pair[0] if has_dense_columns(samples) else pair[1])


def _column_dot_blocks(samples, r, n):
    """:func:`column_dots` on the blocks of :data:`ROW_BLOCK` samples, in
    parallel: every ``dots[c]`` is summed by one block, over the nonzeros of
    x_r in the same order as on one thread."""
    n_blocks = (n + ROW_BLOCK - 1) // ROW_BLOCK
    for b in prange(n_blocks):
        lo = b * ROW_BLOCK
        column_dots(samples, r, lo, min(lo + ROW_BLOCK, n))


#: :func:`_sparse_row_method` per kind of samples: (dense columns, CSC)
row_methods = per_columns(_sparse_row_method, jit_fast_inline)
#: ``sparse_row_method(samples, r, n_cols, full)``: the method of a row and its cost
sparse_row_method = by_columns(row_methods, "sparse_row_method")
#: :func:`_column_dots` per kind of samples
column_dots_of = per_columns(_column_dots, jit_fast_inline)
#: ``column_dots(samples, r, lo, hi)``: ``dots[c]`` = x_r . x_c, ``lo <= c < hi``
column_dots = by_columns(column_dots_of, "column_dots")
#: :func:`_column_dot_blocks` per kind of samples
column_dot_blocks_of = per_columns(_column_dot_blocks, jit_parallel,
                                   {"column_dots": column_dots_of})
#: ``column_dot_blocks(samples, r, n)``: :func:`column_dots` on all threads
column_dot_blocks = by_columns(column_dot_blocks_of, "column_dot_blocks")
#: ``products_by_columns(samples, r, cols, n_cols)``
products_by_columns = by_columns(
    per_columns(_products_by_columns, jit_fast, {"column_dots": column_dots_of}),
    "products_by_columns")
