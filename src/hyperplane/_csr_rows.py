"""Samples stored as compressed sparse rows, handed to compiled kernels as one record.

A kernel reads row ``i`` of a CSR matrix (Saad, *Iterative Methods for Sparse
Linear Systems*, 2nd ed., §3.4) from three arrays; passing them as one
:class:`CSRRows` named tuple keeps the kernels' parameter lists short (numba
compiles a field access to a plain load).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class CSRRows(NamedTuple):
    """CSR arrays (sorted indices): row ``i`` holds ``data[indptr[i]:indptr[i+1]]``
    in the columns ``indices[indptr[i]:indptr[i+1]]``."""

    data: np.ndarray
    indices: np.ndarray
    indptr: np.ndarray

    @classmethod
    def of(cls, X):
        """The rows of a ``scipy.sparse`` CSR matrix ``X``."""
        return cls(X.data, X.indices, X.indptr)
