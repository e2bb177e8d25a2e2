"""Kernel rows of the SMO solver: ``k(x_r, x_c)`` for many ``c`` at once.

This module holds what the solver hands the compiled rows (the samples'
records, :data:`DenseSamples` and :data:`SparseSamples`, made here) and a
row's driver: its method and cost, one block or blocks on all threads
(:func:`compute_row`, :func:`row_block`, :func:`row_blocks`). The products
of a block are formed by the layout's module, :mod:`._dense_rows_kernels`
or :mod:`._sparse_rows_kernels`, and turned into kernel values by
:mod:`._kernel_values_kernels`.

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
* sparse samples (LIBSVM's sparse mode; Chang & Lin, LIBSVM, ACM TIST 2011,
  section 4.1) serve both, by rows, by the CSC columns or, for samples
  dense enough (:data:`DENSE_COLUMN_FILL`), by dense columns
  (:mod:`._sparse_rows_kernels`).

A row is computed in fixed blocks of entries; an expensive one (many
samples times many features or nonzeros) on all of numba's threads, each
entry by one thread, so that the values, and the SMO solution, are the same
whatever the number of threads.
"""

from __future__ import annotations

from collections import namedtuple

import numba
import numpy as np
import scipy.sparse as sp

from numba import prange

from .._csr_rows import CSRRows
from .._numba import by_first_type, jit_fast, jit_fast_inline, jit_fast_internal, jit_parallel
from ._dense_rows_kernels import dense_block_products, dense_row_method
# the kernel codes, which the solver and the tests name from here
from ._kernel_values_kernels import (  # noqa: F401
    GENERIC, LAPLACE_KERNEL, LINEAR_KERNEL, POLY_KERNEL, RBF_KERNEL, ROW_BLOCK, SIGMOID_KERNEL,
    KERNEL_NAMES, SPARSE_COLUMNS, SPARSE_ROWS, finish_row, is_generic)
# has_dense_columns: the tests ask it from here
from ._sparse_rows_kernels import (  # noqa: F401
    column_dot_blocks, column_dot_blocks_of, column_dots, column_dots_of, csr_columns,
    csr_squared_norms, dense_columns, has_dense_columns, keeps_dense_columns, per_columns,
    row_methods, scatter_row, sparse_block_products, sparse_row_method)


#: What a kernel row of dense samples is computed from: ``all_rows =
#: arange(n)``, the kernel's ``gamma``, ``coef0``, ``degree`` (the kernel
#: itself, ``code``, one of the ``*_KERNEL`` constants, is told by the
#: samples' class: :func:`samples_class`), scratch space for one row (``buf``
#: float64, ``ebuf`` int64, each of length n, and ``escale``, ebuf's memory
#: read as float64: made in Python, as numba's ``view`` compiled a function
#: of its own in every first fit), the samples in float32,
#: row-major (``X32``, n x d) and feature-major (``XT32``, d x n), and
#: ``parallel_work``: the multiply-adds from which a row is split over
#: threads, or ``None`` when no row is (:func:`parallel_row_work`; the solver
#: is then compiled without them).
DenseSamples = namedtuple(
    "DenseSamples", "all_rows gamma coef0 degree buf ebuf escale parallel_work X32 XT32")
#: What a kernel row of CSR samples is computed from: the fields of
#: :data:`DenseSamples` but the dense arrays, and the samples in float32 as
#: CSR (``data``, ``indices``, ``indptr``) and CSC (``col_data``,
#: ``col_rows``, ``col_ptr``) with the squared norms ``sq``, a zeroed work
#: vector ``work`` of length d and a scratch row ``dots`` of length n; for
#: samples dense enough (:data:`DENSE_COLUMN_FILL`) ``XT32``, the samples
#: dense and feature-major (d, n), in place of the CSC arrays (then empty);
#: else ``XT32`` is None.
#: The layouts are types (dense samples, sparse samples with dense columns,
#: with CSC arrays), so that numba compiles a solve for the layout of its
#: samples only (:func:`by_samples`).
SparseSamples = namedtuple(
    "SparseSamples", "all_rows gamma coef0 degree buf ebuf escale parallel_work "
                     "data indices indptr sq work col_data col_rows col_ptr dots XT32")


def _kernel_classes(layout):
    """kernel code -> the subclass of ``layout`` (:data:`DenseSamples` or
    :data:`SparseSamples`) for that kernel: ``RbfDenseSamples``, ..., with the
    class attribute ``code``, defined in this module (numba's cache names a
    type by its class's module and name)."""
    made = {}
    for code, name in KERNEL_NAMES.items():
        cls = type(f"{name}{layout.__name__}", (layout,),
                   {"__slots__": (), "code": code, "__module__": __name__})
        globals()[cls.__name__] = made[code] = cls
    return made


#: layout -> kernel code -> its samples' class. A class per kernel, not a
#: field holding the kernel's record: the records are flat (numba's parallel
#: regions take a record's fields as arguments, but no record within one)
SAMPLES_CLASSES = {DenseSamples: _kernel_classes(DenseSamples),
                   SparseSamples: _kernel_classes(SparseSamples)}


def samples_class(layout, code):
    """The class of ``layout``'s samples (:data:`DenseSamples` or
    :data:`SparseSamples`) for the kernel ``code``: numba compiles a solve
    for the kernel of its samples only
    (:func:`~._kernel_values_kernels.by_kernel`)."""
    return SAMPLES_CLASSES[layout][int(code)]


def by_samples(dense, sparse, name):
    """A function for compiled code, ``call(samples, *args)``, that runs
    ``dense(samples, *args)`` on :data:`DenseSamples` and ``sparse(samples,
    *args)`` on :data:`SparseSamples`, chosen when numba types ``samples``
    (:func:`~hyperplane._numba.by_first_type`): a solve compiles the rows of
    its own layout only. ``sparse`` may be a pair (with dense columns, with
    CSC arrays: :func:`~._sparse_rows_kernels.per_columns`), chosen by the
    samples' type as well. Called from Python it makes the same choice."""
    def of_sparse(columns):
        return sparse if not isinstance(sparse, tuple) else sparse[0 if columns else 1]

    return by_first_type(
        lambda t: (dense if issubclass(getattr(t, "instance_class", object), DenseSamples)
                   else of_sparse(keeps_dense_columns(t))), name,
        lambda samples: (dense if isinstance(samples, DenseSamples)
                         else of_sparse(has_dense_columns(samples))))


def make_samples(X32, code, gamma, coef0, degree):
    """The :data:`DenseSamples` of the float32 samples ``X32`` (n, d) for a
    kernel, with fresh scratch space."""
    n = X32.shape[0]
    ebuf = np.empty(n, dtype=np.int64)
    return samples_class(DenseSamples, code)(
                        all_rows=np.arange(n, dtype=np.int64),
                        gamma=float(gamma), coef0=float(coef0), degree=np.int64(degree),
                        buf=np.empty(n), ebuf=ebuf, escale=ebuf.view(np.float64),
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
        XT32 = None
        col_data, col_rows, col_ptr = csr_columns(data, indices, indptr, d)
    ebuf = np.empty(n, dtype=np.int64)
    return samples_class(SparseSamples, code)(
                         all_rows=np.arange(n, dtype=np.int64),
                         gamma=float(gamma), coef0=float(coef0), degree=np.int64(degree),
                         buf=np.empty(n), ebuf=ebuf, escale=ebuf.view(np.float64),
                         parallel_work=parallel_row_work(X.nnz + n),
                         data=data, indices=indices, indptr=indptr,
                         sq=csr_squared_norms(CSRRows(data, indices, indptr)), work=np.zeros(d),
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


def _sparse_compute_row(samples, r, cols, n_cols, full, parallel_work, out):
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


#: ``compute_row(samples, r, cols, n_cols, full, parallel_work, out)``: the
#: kernel row of :func:`kernel_row` / :func:`kernel_row_full` (and of the SMO's
#: ``get_row``, which calls it directly) for the layout of ``samples``: one
#: compiled function per layout between the solver and the blocks, no function
#: for both (each compiled function in a chain links, optimises and generates
#: code for the whole chain below it once more)
#: :func:`_sparse_compute_row` per kind of sparse samples (dense columns, CSC
#: arrays), each with the row method and column products of its kind only
sparse_compute_rows = per_columns(_sparse_compute_row, jit_fast_internal, {
    "sparse_row_method": row_methods, "column_dots": column_dots_of,
    "column_dot_blocks": column_dot_blocks_of})
compute_row = by_samples(dense_compute_row, sparse_compute_rows, "compute_row")
#: ``row_method(samples, r, n_cols, full)``: (method, multiply-adds) of a row
row_method = by_samples(dense_row_method, sparse_row_method, "row_method")
#: ``block_products(samples, r, cols, lo, hi, method)``: the products of a block
block_products = by_samples(dense_block_products, sparse_block_products, "block_products")
