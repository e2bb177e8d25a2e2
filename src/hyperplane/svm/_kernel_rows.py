"""Kernel rows of the SMO solver: ``k(x_r, x_c)`` for many ``c`` at once.

The samples are kept in float32 (the precision of the kernel cache, as
LIBSVM's ``Qfloat``) and every dot product or squared distance is summed in
float64, where the product of two float32 numbers is exact: a kernel value
is then the same, to float64 rounding, whatever layout or summation order
computed it, so the float32 value cached is the same for dense and sparse
samples, for partial and full rows. Three layouts:

* :func:`kernel_row` reads dense samples row-major and serves any subset
  of columns (partial rows on a shrunk active set);
* :func:`kernel_row_full` reads them feature-major (``XT[f, c]``), so the
  inner loop runs over samples and vectorises, for rows on every sample;
* sparse samples (LIBSVM's sparse mode) serve both, by the cheapest of
  three ways: row r is scattered into a dense work vector and x_r . x_c is
  summed over the nonzeros of each x_c (CSR), or the products are
  accumulated column by column over the samples that share a feature with
  x_r (CSC, an inverted index: only pairs with a common nonzero cost
  anything), or, for samples dense enough that a dense feature-major copy
  costs little memory (:data:`DENSE_COLUMN_FILL`), column by column over
  every sample (contiguous: it vectorises over samples, where the gathers
  by rows do not); squared distances are |x_r|^2 + |x_c|^2 - 2 x_r . x_c
  from norms computed once (Chang & Lin, LIBSVM, ACM TIST 2011, section
  4.1). Both ways by columns add each x_c's products in the order of x_r's
  features, so they give the same bits.

A row is computed in fixed blocks of entries; an expensive one (many
samples times many features or nonzeros) on all of numba's threads, each
entry by one thread, so that the values, and the SMO solution, are the same
whatever the number of threads.
"""

from __future__ import annotations

import math
from collections import namedtuple

import numba
import numpy as np
import scipy.sparse as sp

from numba import prange

from .._numba import by_first_type, jit, jit_fast, jit_fast_inline, jit_fast_internal, jit_parallel

# kernel codes ---------------------------------------------------------------
GENERIC, LINEAR_KERNEL, POLY_KERNEL, RBF_KERNEL, LAPLACE_KERNEL, SIGMOID_KERNEL = range(-1, 5)

#: What a kernel row of dense samples is computed from: ``all_rows =
#: arange(n)``, the kernel (``code``, one of the ``*_KERNEL`` constants, and
#: its ``gamma``, ``coef0``, ``degree``), scratch space for one row (``buf``
#: float64, ``ebuf`` int64, each of length n), the samples in float32,
#: row-major (``X32``, n x d) and feature-major (``XT32``, d x n), and
#: ``parallel_work``: the multiply-adds from which a row is split over
#: threads, or ``None`` when no row is (:func:`parallel_row_work`; the solver
#: is then compiled without them).
DenseSamples = namedtuple(
    "DenseSamples", "all_rows code gamma coef0 degree buf ebuf parallel_work X32 XT32")
#: What a kernel row of CSR samples is computed from: the fields of
#: :data:`DenseSamples` but the dense arrays, and the samples in float32 as
#: CSR (``data``, ``indices``, ``indptr``) and CSC (``col_data``,
#: ``col_rows``, ``col_ptr``) with the squared norms ``sq``, a zeroed work
#: vector ``work`` of length d and a scratch row ``dots`` of length n; for
#: samples dense enough (:data:`DENSE_COLUMN_FILL`) ``XT32``, the samples
#: dense and feature-major (d, n), in place of the CSC arrays (then empty);
#: else ``XT32`` is empty (0, 0).
#: The two layouts are two types, so that numba compiles a solve for the
#: layout of its samples only (:func:`by_samples`).
SparseSamples = namedtuple(
    "SparseSamples", "all_rows code gamma coef0 degree buf ebuf parallel_work "
                     "data indices indptr sq work col_data col_rows col_ptr dots XT32")


def by_samples(dense, sparse, name):
    """A function for compiled code, ``call(samples, *args)``, that runs
    ``dense(samples, *args)`` on :data:`DenseSamples` and ``sparse(samples,
    *args)`` on :data:`SparseSamples`, chosen when numba types ``samples``
    (:func:`~hyperplane._numba.by_first_type`): a solve compiles the rows of
    its own layout only. Called from Python it makes the same choice."""
    return by_first_type(
        lambda t: dense if getattr(t, "instance_class", None) is DenseSamples else sparse, name,
        lambda samples: dense if isinstance(samples, DenseSamples) else sparse)


def make_samples(X32, code, gamma, coef0, degree):
    """The :data:`DenseSamples` of the float32 samples ``X32`` (n, d) for a
    kernel, with fresh scratch space."""
    n = X32.shape[0]
    return DenseSamples(all_rows=np.arange(n, dtype=np.int64), code=np.int64(code),
                        gamma=float(gamma), coef0=float(coef0), degree=np.int64(degree),
                        buf=np.empty(n), ebuf=np.empty(n, dtype=np.int64),
                        parallel_work=parallel_row_work(n * X32.shape[1]),
                        X32=X32, XT32=np.ascontiguousarray(X32.T))


def make_sparse_samples(X, code, gamma, coef0, degree):
    """The :data:`SparseSamples` of a CSR matrix ``X`` (n, d) with sorted
    indices and no duplicates; its values are rounded to float32 as dense
    samples are. Samples with at most :data:`DENSE_COLUMN_FILL` entries per
    nonzero also get their dense feature-major copy ``XT32`` (and no CSC
    arrays)."""
    n, d = X.shape
    data = X.data.astype(np.float32)
    indptr = X.indptr.astype(np.int64)
    indices = X.indices.astype(np.int32)
    if n * d <= DENSE_COLUMN_FILL * X.nnz:
        XT32 = dense_columns(data, indices, indptr, d)
        col_data, col_rows = np.empty(0, dtype=np.float32), np.empty(0, dtype=np.int32)
        col_ptr = np.zeros(d + 1, dtype=np.int64)
    else:
        XT32 = np.empty((0, 0), dtype=np.float32)
        col_data, col_rows, col_ptr = csr_columns(data, indices, indptr, d)
    return SparseSamples(all_rows=np.arange(n, dtype=np.int64), code=np.int64(code),
                         gamma=float(gamma), coef0=float(coef0), degree=np.int64(degree),
                         buf=np.empty(n), ebuf=np.empty(n, dtype=np.int64),
                         parallel_work=parallel_row_work(X.nnz + n),
                         data=data, indices=indices, indptr=indptr,
                         sq=csr_squared_norms(data, indptr), work=np.zeros(d),
                         col_data=col_data, col_rows=col_rows, col_ptr=col_ptr,
                         dots=np.empty(n), XT32=XT32)


def parallel_row_work(most_work):
    """:data:`PARALLEL_ROW_WORK` when numba runs more than one thread and a row
    may cost that much (``most_work``: the multiply-adds of the costliest row),
    else ``None``: no row is split, and the compiled solver holds no parallel
    region (a parallel region on one thread still costs its launch, and its
    compilation is the larger part of the solver's). The blocks, hence the
    values, are the same either way."""
    if numba.get_num_threads() > 1 and most_work >= PARALLEL_ROW_WORK:
        return np.int64(PARALLEL_ROW_WORK)
    return None


def samples_of(X, code, gamma, coef0, degree):
    """:func:`make_samples` of a dense float64 ``X`` or
    :func:`make_sparse_samples` of a CSR one."""
    if sp.issparse(X):
        return make_sparse_samples(X, code, gamma, coef0, degree)
    return make_samples(np.asarray(X, dtype=np.float32), code, gamma, coef0, degree)


@jit
def csr_columns(data, indices, indptr, d):
    """The CSC arrays ``(data, rows, indptr)`` of the CSR samples with ``d``
    features, each column's rows in increasing order (a counting sort of the
    nonzeros by column, read row by row): the inverted index of
    :func:`column_dots`."""
    col_ptr = np.zeros(d + 1, dtype=np.int64)
    for p in range(indices.shape[0]):
        col_ptr[indices[p] + 1] += 1
    for f in range(d):
        col_ptr[f + 1] += col_ptr[f]
    fill = col_ptr[:d].copy()
    col_data = np.empty(indices.shape[0], dtype=np.float32)
    col_rows = np.empty(indices.shape[0], dtype=np.int32)
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


@jit_fast
def csr_squared_norms(data, indptr):
    """|x_t|^2 of every CSR row, summed in float64."""
    out = np.zeros(indptr.shape[0] - 1)
    for t in range(out.shape[0]):
        acc = 0.0
        for p in range(indptr[t], indptr[t + 1]):
            v = np.float64(data[p])
            acc += v * v
        out[t] = acc
    return out


LOG2E = 1.4426950408889634
LN2 = 0.6931471805599453


@jit_fast_inline
def exp_nonpositive(buf, n_cols, ebuf):
    """``buf[k] <- exp(buf[k])`` for ``buf[k] <= 0``, ``k < n_cols``, in a
    form the compiler vectorises: e^x = 2^e 2^f with e = round(x log2 e),
    |f| <= 1/2, 2^f by its Taylor polynomial of degree 8 (relative error
    < 1e-9), 2^e built in the exponent bits of a float64 (arguments below
    -700 give ~1e-304)."""
    for k in range(n_cols):
        z = max(buf[k] * LOG2E, -1000.0)
        e = np.floor(z + 0.5)
        t = (z - e) * LN2
        poly = 1.0 + t * (1.0 + t * (1 / 2 + t * (1 / 6 + t * (1 / 24 + t * (
            1 / 120 + t * (1 / 720 + t * (1 / 5040 + t * (1 / 40320))))))))
        buf[k] = poly
        ebuf[k] = (np.int64(e) + 1023) << 52
    scale = ebuf.view(np.float64)
    for k in range(n_cols):
        buf[k] *= scale[k]


@jit_fast_inline
def finish_row(samples, lo, hi):
    """Turn ``buf[lo:hi]`` (squared distances or dot products) into kernel
    values, in scikit-learn's parametrisation: linear ``a.b``; poly
    ``(gamma a.b + coef0)^degree``; rbf ``exp(-gamma |a-b|^2)``; laplace
    ``exp(-gamma |a-b|)``; sigmoid ``tanh(gamma a.b + coef0)``. The loops
    run over views of the block, from 0: an index ``lo + k`` might be
    negative to the compiler, whose wrap-around test turned the vectorised
    loads and stores into gathers and scatters (2-3x the time)."""
    buf, ebuf = samples.buf[lo:hi], samples.ebuf[lo:hi]
    code, gamma, coef0 = samples.code, samples.gamma, samples.coef0
    m = buf.shape[0]
    if code == RBF_KERNEL:
        for k in range(m):
            buf[k] = -gamma * buf[k]
        exp_nonpositive(buf, m, ebuf)
    elif code == LAPLACE_KERNEL:
        for k in range(m):
            buf[k] = -gamma * math.sqrt(buf[k])
        exp_nonpositive(buf, m, ebuf)
    elif code == POLY_KERNEL:
        for k in range(m):
            base = gamma * buf[k] + coef0
            value = 1.0
            for _ in range(samples.degree):
                value *= base
            buf[k] = value
    elif code == SIGMOID_KERNEL:
        for k in range(m):
            buf[k] = math.tanh(gamma * buf[k] + coef0)


#: entries of a kernel row per block when the row is split over threads:
#: fixed, so that the blocks, and so every value, do not depend on the
#: number of threads (each value is computed by one thread, by the same
#: instructions as in a serial row)
ROW_BLOCK = 2048
#: multiply-adds (entries x features, entries x mean nonzeros, or the
#: nonzeros read by columns) from which a row is computed block by block on
#: all threads. Measured on two cores: dense rows gain from about 10^5 when
#: a core is free, a CSR row by columns of 10^5 loses (its pass over the
#: samples is not counted); 2^19 keeps both on the safe side
PARALLEL_ROW_WORK = 1 << 19

#: CSR samples with at most this many entries (n x d) per stored nonzero keep
#: a dense feature-major copy (:func:`make_sparse_samples`): 4 bytes an entry,
#: at most twice the 8 bytes of each nonzero in CSR, for rows summed over
#: contiguous columns (:func:`dense_column_dots`)
DENSE_COLUMN_FILL = 4
#: how much cheaper a multiply-add over a contiguous dense column is than one
#: gathered through a CSR row's indices (it vectorises: heart_scale's rows,
#: 13 features, 4.5 us by rows, 1.9 us by dense columns)
DENSE_COLUMN_CREDIT = 4

# how the products of a row are formed ---------------------------------------
DENSE_ROWS, FEATURE_MAJOR, SPARSE_ROWS, SPARSE_COLUMNS = range(4)


@jit_fast
def kernel_row(samples, r, cols, n_cols, out):
    """``out[c] = k(x_r, x_c)`` for ``c`` in ``cols[:n_cols]`` (other entries
    untouched), from the row-major samples ``samples.X32`` or the CSR ones
    (a :data:`DenseSamples` or :data:`SparseSamples`)."""
    compute_row(samples, r, cols, n_cols, False, samples.parallel_work, out)


@jit_fast
def kernel_row_full(samples, r, out):
    """``out[c] = k(x_r, x_c)`` for every sample ``c``: from the
    feature-major samples ``samples.XT32`` (d, n), feature by feature, the
    sums of all samples advanced together (vectorised over samples); or from
    the CSR samples, as :func:`kernel_row` on every column."""
    compute_row(samples, r, samples.all_rows, samples.all_rows.shape[0], True,
                samples.parallel_work, out)


@jit_fast_internal
def dense_compute_row(samples, r, cols, n_cols, full, parallel_work, out):
    """:func:`kernel_row` (``full``: on every sample, ``cols = all_rows``) of
    dense samples, by the method of :func:`dense_row_method`, as one block
    (:func:`row_block`) or on all threads (:func:`row_blocks`) when the row
    costs at least ``parallel_work`` multiply-adds (``samples.parallel_work``,
    ``None``: never, and the parallel kernels are not compiled:
    :func:`parallel_row_work`). The blocks are the same either way, so the
    values do not depend on the path or the thread count."""
    method, work = dense_row_method(samples, r, n_cols, full)
    if parallel_work is None or work < parallel_work:
        row_block(samples, r, cols, 0, n_cols, method, out)
    else:
        row_blocks(samples, r, cols, n_cols, method, out)


@jit_fast_internal
def sparse_compute_row(samples, r, cols, n_cols, full, parallel_work, out):
    """:func:`dense_compute_row` of sparse samples, by the method of
    :func:`sparse_row_method`: the products of x_r with every sample in
    ``dots`` (:func:`column_dots`, or :func:`column_dot_blocks` on all
    threads), or x_r scattered into ``work`` (zeroed again afterwards)."""
    method, work = sparse_row_method(samples, r, n_cols, full)
    if parallel_work is None or work < parallel_work:
        if method == SPARSE_COLUMNS:
            column_dots(samples, r, 0, samples.dots.shape[0])
        else:
            scatter_row(samples, r, 1.0)
        row_block(samples, r, cols, 0, n_cols, method, out)
    else:
        if method == SPARSE_COLUMNS:
            column_dot_blocks(samples, r, samples.dots.shape[0])
        else:
            scatter_row(samples, r, 1.0)
        row_blocks(samples, r, cols, n_cols, method, out)
    if method == SPARSE_ROWS:
        scatter_row(samples, r, 0.0)


@jit_fast_inline
def dense_row_method(samples, r, n_cols, full):
    """The method of a row of dense samples and its cost in multiply-adds:
    by rows (:func:`dense_products`) or, for a ``full`` row, feature-major
    (:func:`feature_major_products`)."""
    return (FEATURE_MAJOR if full else DENSE_ROWS), n_cols * samples.X32.shape[1]


@jit_fast_inline
def sparse_row_method(samples, r, n_cols, full):
    """The method of a row of sparse samples and its cost in multiply-adds:
    by columns when that is cheaper than by rows (``n_cols`` times the mean
    nonzeros per sample): over the dense columns of x_r's features
    (``XT32``, when the samples keep it; every sample, counted at
    1 / :data:`DENSE_COLUMN_CREDIT`), else over the inverted index (the
    nonzeros of the samples that share a feature with x_r, plus a pass over
    the samples)."""
    indptr, col_ptr, indices = samples.indptr, samples.col_ptr, samples.indices
    n = indptr.shape[0] - 1
    if has_dense_columns(samples):
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


@jit_parallel
def row_blocks(samples, r, cols, n_cols, method, out):
    """:func:`row_block` on the blocks of :data:`ROW_BLOCK` entries, in
    parallel: each entry is written by exactly one block."""
    n_blocks = (n_cols + ROW_BLOCK - 1) // ROW_BLOCK
    for b in prange(n_blocks):
        lo = b * ROW_BLOCK
        row_block(samples, r, cols, lo, min(lo + ROW_BLOCK, n_cols), method, out)


@jit_fast_inline
def row_block(samples, r, cols, lo, hi, method, out):
    """``out[cols[k]] = k(x_r, x_cols[k])`` for ``lo <= k < hi`` (``buf[lo:hi]``
    as scratch), the products formed by ``method`` (:func:`block_products`)."""
    block_products(samples, r, cols, lo, hi, method)
    finish_row(samples, lo, hi)
    buf, block = samples.buf[lo:hi], cols[lo:hi]      # views: indices from 0
    for k in range(buf.shape[0]):
        out[block[k]] = buf[k]


@jit_fast_internal
def dense_block_products(samples, r, cols, lo, hi, method):
    """``buf[k]`` for ``lo <= k < hi`` from dense samples: feature-major
    (``FEATURE_MAJOR``, ``cols[k] = k``) or by rows."""
    if method == FEATURE_MAJOR:
        feature_major_products(samples, r, lo, hi)
    else:
        dense_products(samples, r, cols, lo, hi)


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
    if is_distance(samples.code):
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
def is_distance(code):
    """Whether the kernel is a function of |x - y|^2 (else of x . y)."""
    return code == RBF_KERNEL or code == LAPLACE_KERNEL


@jit_fast_internal
def dense_products(samples, r, cols, lo, hi):
    """``buf[k]`` = |x_r - x_c|^2 (distance kernels) or x_r . x_c, c =
    ``cols[k]``, ``lo <= k < hi``, from the row-major dense samples, summed
    in float64."""
    X32, buf = samples.X32, samples.buf
    d = X32.shape[1]
    xr = X32[r]
    distance = is_distance(samples.code)
    for k in range(lo, hi):
        xc = X32[cols[k]]
        acc = 0.0
        if distance:
            for f in range(d):
                diff = np.float64(xr[f]) - np.float64(xc[f])
                acc += diff * diff
        else:
            for f in range(d):
                acc += np.float64(xr[f]) * np.float64(xc[f])
        buf[k] = acc


@jit_fast
def feature_major_products(samples, r, lo, hi):
    """:func:`dense_products` on the samples ``lo <= c < hi``, from the
    feature-major samples: four features per pass over the samples (their
    terms added in float64, where the order does not matter), one pass for
    each of the rest. The sums run in a fresh local array, which LLVM knows
    aliases no sample, so the passes vectorise wherever the function is
    compiled (on ``samples.buf`` directly they did only when inlined)."""
    acc = np.zeros(hi - lo)
    feature_major_sums(samples.XT32, r, lo, is_distance(samples.code), acc)
    buf = samples.buf[lo:hi]
    for k in range(hi - lo):
        buf[k] = acc[k]


@jit_fast_internal
def feature_major_sums(XT, r, lo, distance, acc):
    """``acc[k] += |x_r - x_c|^2`` (``distance``) or ``x_r . x_c``,
    ``c = lo + k``, from the feature-major samples ``XT`` (d, n)."""
    d, m = XT.shape[0], acc.shape[0]
    f = 0
    while f + 4 <= d:
        v0, v1 = np.float64(XT[f, r]), np.float64(XT[f + 1, r])
        v2, v3 = np.float64(XT[f + 2, r]), np.float64(XT[f + 3, r])
        x0, x1 = XT[f, lo:lo + m], XT[f + 1, lo:lo + m]
        x2, x3 = XT[f + 2, lo:lo + m], XT[f + 3, lo:lo + m]
        if distance:
            for k in range(m):
                e0 = np.float64(x0[k]) - v0
                e1 = np.float64(x1[k]) - v1
                e2 = np.float64(x2[k]) - v2
                e3 = np.float64(x3[k]) - v3
                acc[k] += (e0 * e0 + e1 * e1) + (e2 * e2 + e3 * e3)
        else:
            for k in range(m):
                acc[k] += (v0 * np.float64(x0[k]) + v1 * np.float64(x1[k])) + (
                    v2 * np.float64(x2[k]) + v3 * np.float64(x3[k]))
        f += 4
    for f in range(f, d):
        v = np.float64(XT[f, r])
        xf = XT[f, lo:lo + m]
        if distance:
            for k in range(m):
                diff = np.float64(xf[k]) - v
                acc[k] += diff * diff
        else:
            for k in range(m):
                acc[k] += v * np.float64(xf[k])


@jit_fast_internal
def sparse_distances(samples, r, cols, lo, hi):
    """For distance kernels, ``buf[k] <- max(|x_r|^2 + |x_c|^2 - 2 buf[k], 0)``,
    c = ``cols[k]``, ``lo <= k < hi``; the distance of x_r to itself is 0
    exactly (as the dense rows' direct sum gives it), not a rounding residue."""
    if not is_distance(samples.code):
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


@jit_fast
def products_by_columns(samples, r, cols, n_cols):
    """``buf[k]`` = x_r . x_c, c = ``cols[k]``, gathered from
    :func:`column_dots` on every sample."""
    column_dots(samples, r, 0, samples.dots.shape[0])
    for k in range(n_cols):
        samples.buf[k] = samples.dots[cols[k]]


@jit_fast_inline
def column_dots(samples, r, lo, hi):
    """``dots[c]`` = x_r . x_c for the samples ``lo <= c < hi``: for each
    nonzero x_rf in turn, x_rf x_cf is added for the samples whose feature f
    is nonzero (the part of CSC column f in ``[lo, hi)``, found by bisection
    on its sorted rows), or for every sample from the dense columns when the
    samples keep them (:func:`dense_column_dots`)."""
    if has_dense_columns(samples):
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
            start += np.searchsorted(col_rows[start:stop], lo)
        if hi < n:
            stop = col_ptr[f] + np.searchsorted(col_rows[col_ptr[f]:stop], hi)
        for q in range(np.uint64(start), np.uint64(stop)):
            dots[np.uint64(col_rows[q])] += v * np.float64(col_data[q])


@jit_fast_inline
def dense_column_dots(samples, r, lo, hi):
    """``dots[c]`` = x_r . x_c for the samples ``lo <= c < hi`` from the dense
    feature-major samples ``XT32``: for each nonzero x_rf in turn, x_rf x_cf
    added for every sample (a contiguous pass, vectorised over samples). Each
    sum takes its terms in the order of x_r's features, as the CSC columns
    do, plus exact zeros, so the two give the same bits."""
    data, indices, indptr = samples.data, samples.indices, samples.indptr
    acc = np.zeros(hi - lo)         # fresh: LLVM knows it aliases no sample, and vectorises
    for p in range(indptr[r], indptr[r + 1]):
        v = np.float64(data[p])
        column = samples.XT32[indices[p], lo:hi]     # a view: indices from 0, no gathers
        for k in range(hi - lo):
            acc[k] += v * np.float64(column[k])
    dots = samples.dots[lo:hi]
    for k in range(hi - lo):
        dots[k] = acc[k]


@jit_fast_inline
def has_dense_columns(samples):
    """Whether the sparse samples keep their dense feature-major copy."""
    return samples.XT32.shape[1] == samples.dots.shape[0] and samples.dots.shape[0] > 0


@jit_parallel
def column_dot_blocks(samples, r, n):
    """:func:`column_dots` on the blocks of :data:`ROW_BLOCK` samples, in
    parallel: every ``dots[c]`` is summed by one block, over the nonzeros of
    x_r in the same order as on one thread."""
    n_blocks = (n + ROW_BLOCK - 1) // ROW_BLOCK
    for b in prange(n_blocks):
        lo = b * ROW_BLOCK
        column_dots(samples, r, lo, min(lo + ROW_BLOCK, n))


#: ``compute_row(samples, r, cols, n_cols, full, parallel_work, out)``: the
#: kernel row of :func:`kernel_row` / :func:`kernel_row_full` (and of the SMO's
#: ``get_row``, which calls it directly) for the layout of ``samples``: one
#: compiled function per layout between the solver and the blocks, no function
#: for both (each compiled function in a chain links, optimises and generates
#: code for the whole chain below it once more)
compute_row = by_samples(dense_compute_row, sparse_compute_row, "compute_row")
#: ``row_method(samples, r, n_cols, full)``: (method, multiply-adds) of a row
row_method = by_samples(dense_row_method, sparse_row_method, "row_method")
#: ``block_products(samples, r, cols, lo, hi, method)``: the products of a block
block_products = by_samples(dense_block_products, sparse_block_products, "block_products")
