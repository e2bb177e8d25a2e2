"""Gathering of the support vectors' rows of CSR samples."""

from __future__ import annotations

import numpy as np


def take_csr_rows(data, indices, indptr, rows):
    """The CSR arrays ``(data, indices, indptr)`` of the rows ``rows`` of a CSR
    matrix, in that order (scipy's ``X[rows]`` without its general fancy
    indexing, a fixed cost of every sparse fit). NumPy: the positions of the
    kept nonzeros are each kept row's run ``indptr[r] .. indptr[r+1] - 1``,
    gathered at once, and no compiled function is added to a sparse fit's
    first call.

    Examples
    --------
    >>> import numpy as np
    >>> data, indices, indptr = np.array([1.0, 2.0, 3.0]), np.array([0, 2, 1]), np.array([0, 2, 2, 3])
    >>> [a.tolist() for a in take_csr_rows(data, indices, indptr, np.array([2, 0]))]
    [[3.0, 1.0, 2.0], [1, 0, 2], [0, 1, 3]]
    """
    rows = np.asarray(rows, dtype=np.int64)
    starts = indptr[rows]
    lengths = indptr[rows + 1] - starts
    out_ptr = np.zeros(rows.shape[0] + 1, dtype=indptr.dtype)
    np.cumsum(lengths, out=out_ptr[1:])
    # position of the q-th kept nonzero: its row's start + (q - the row's first q)
    positions = np.arange(out_ptr[-1], dtype=np.int64) + np.repeat(
        starts.astype(np.int64) - out_ptr[:-1], lengths)
    return data[positions], indices[positions], out_ptr
