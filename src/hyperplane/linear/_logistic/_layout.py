"""How the passes of logistic regression lay out sparse data: canonical CSR
rows, the number of row blocks of a pass over them, and their columns per
chunk of rows (TRON's column phase).

Each number depends on the data only, never on the number of threads: a
pass sums every block into its own buffer and adds the buffers in block
order (:mod:`._blocks_kernels`), so that its result is the same on any
number of threads.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse

from .._state import ColumnChunks
from ._gradient_kernels import MAX_BLOCKS, dense_row_block_count

#: a pass's entries per entry of the block buffers: summing the buffers
#: should cost a small share of the pass
ENTRIES_PER_BUFFER_ENTRY = 8
#: bytes of per-row values (a gradient pass's 2K residuals and curvatures per
#: row) in one chunk of rows whose columns the column phase reads together:
#: they then stay in a core's cache (1 MiB of L2 on the machine measured;
#: benchmarks/RESULTS.md, "sparse TRON column phase per row chunk")
CHUNK_BYTES = 1 << 20
#: fewest stored values per column of a chunk, on average: each chunk adds
#: ``n_features + 1`` offsets to the columns' arrays and to every pass
CHUNK_ENTRIES_PER_COLUMN = 4


def canonical_csr(X):
    """``X`` as a CSR matrix with sorted, distinct column indices in every row
    (duplicates summed, on a copy), the form the compiled passes read."""
    if X.format != "csr":                 # a CSR X is kept: scipy caches the check on it
        X = X.tocsr()
    if not X.has_canonical_format:
        X = X.copy()
        X.sum_duplicates()
    return X


def csr_row_block_count(n_entries, n_parameters):
    """The number of row blocks of a pass over ``n_entries`` stored values
    with ``n_parameters`` gradient entries: the dense passes' rule
    (:func:`~._gradient_kernels.dense_row_block_count`: one per ``BLOCK_ENTRIES``
    entries, at most ``MAX_BLOCKS``), and few enough that the block buffers
    hold at most 1/:data:`ENTRIES_PER_BUFFER_ENTRY` of the entries (a sparse
    row has few of its many parameters). A function of the data only: the
    sum is the same on any number of threads."""
    by_buffers = n_entries // (ENTRIES_PER_BUFFER_ENTRY * n_parameters)
    return int(max(1, min(dense_row_block_count(n_entries), by_buffers)))


def column_chunk_count(n_samples, n_features, n_entries, n_classes):
    """The number of row chunks of :func:`chunked_columns`: enough that one
    chunk's ``2K`` doubles per row fit in :data:`CHUNK_BYTES` (``K`` = 1 for
    two classes), few enough that a chunk's columns hold
    :data:`CHUNK_ENTRIES_PER_COLUMN` values each on average. A function of
    the data only: the sums are the same on any number of threads."""
    by_cache = -(-n_samples * 16 * n_classes // CHUNK_BYTES)
    by_offsets = n_entries // (CHUNK_ENTRIES_PER_COLUMN * (n_features + 1))
    return int(max(1, min(by_cache, by_offsets)))


def chunked_columns(X, n_chunks):
    """The columns of a canonical CSR ``X`` per chunk of rows
    (:class:`~._state.ColumnChunks`; chunk ``c`` covers rows
    ``c·n // n_chunks : (c + 1)·n // n_chunks``), from one transposition:
    the CSC arrays of the ``n × (n_chunks · d)`` matrix that holds row i's
    entries in the columns of its chunk's block, column ``c·d + j`` being
    column j of chunk c (one chunk: the CSC arrays of ``X`` itself)."""
    n, d = X.shape
    if n_chunks == 1:
        C = X.tocsc()
        return ColumnChunks(C.data, C.indices, C.indptr.astype(np.int64)[None, :])
    bounds = np.arange(n_chunks + 1) * n // n_chunks
    chunk_of_row = np.repeat(np.arange(n_chunks, dtype=np.int64), np.diff(bounds))
    shifted = X.indices + np.repeat(chunk_of_row * d, np.diff(X.indptr))
    C = scipy.sparse.csr_matrix((X.data, shifted, X.indptr),
                                shape=(n, n_chunks * d)).tocsc()
    offsets = C.indptr.astype(np.int64)
    starts = np.arange(n_chunks)[:, None] * d + np.arange(d + 1)[None, :]
    return ColumnChunks(C.data, C.indices, offsets[starts])


__all__ = ["canonical_csr", "chunked_columns", "column_chunk_count", "csr_row_block_count", "MAX_BLOCKS"]
