"""Compiled gathering of the support vectors' rows of CSR samples."""

from __future__ import annotations

import numpy as np

from .._numba import jit


@jit
def take_csr_rows(data, indices, indptr, rows):
    """The CSR arrays ``(data, indices, indptr)`` of the rows ``rows`` of a CSR
    matrix, in that order (scipy's ``X[rows]`` without its general fancy
    indexing, a fixed cost of every sparse fit)."""
    out_ptr = np.empty(rows.shape[0] + 1, dtype=indptr.dtype)
    out_ptr[0] = 0
    for k in range(rows.shape[0]):
        r = rows[k]
        out_ptr[k + 1] = out_ptr[k] + (indptr[r + 1] - indptr[r])
    out_data = np.empty(out_ptr[rows.shape[0]], dtype=data.dtype)
    out_indices = np.empty(out_ptr[rows.shape[0]], dtype=indices.dtype)
    for k in range(rows.shape[0]):
        r = rows[k]
        q = out_ptr[k]
        for p in range(indptr[r], indptr[r + 1]):
            out_data[q] = data[p]
            out_indices[q] = indices[p]
            q += 1
    return out_data, out_indices, out_ptr
