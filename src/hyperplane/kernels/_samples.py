"""The samples of a Gram block: sample matrices checked and converted (dense
or CSR), the products and distances the named kernels are made of, and the
checks every block a kernel returns goes through.

The kernel classes (:mod:`._kernels`) compute their blocks from these; the
compiled element-wise steps of the distances are in :mod:`._gram`, imported
when a distance is first computed: loading a model file that holds a kernel
imports no compiled kernel (nor numba).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from .._csr_rows import CSRRows


def as_csr(X):
    """A sparse ``X`` as a float CSR matrix with sorted indices and no
    duplicate entries (copied only if it is not one already)."""
    if not isinstance(X, sp.csr_matrix):
        X = sp.csr_matrix(X)
    if not np.issubdtype(X.dtype, np.floating):
        X = X.astype(np.float64)
    if not X.has_canonical_format:
        X = X.copy()
        X.sum_duplicates()
    return X


def as_sample_matrix(X, name):
    """``X`` (samples as rows) as a 2-D float array or canonical CSR matrix
    (:func:`as_csr`), or a ValueError naming ``name`` and its shape."""
    if sp.issparse(X):
        if X.ndim != 2:
            raise ValueError(f"{name} must be 2-dimensional (n_samples, n_features); "
                             f"got shape {X.shape}")
        return as_csr(X)
    X = np.asarray(X)
    if X.ndim != 2:
        raise ValueError(f"{name} must be 2-dimensional (n_samples, n_features); "
                         f"got shape {X.shape}")
    if not np.issubdtype(X.dtype, np.floating):
        X = X.astype(np.float64)
    return X


def sample_pair(X, Y):
    """The two sample matrices of a Gram block ``k(X, Y)`` (``Y`` None: ``X``
    itself) with one dtype and one layout: both dense, or both CSR when either
    is sparse (nothing is densified); a ValueError when their features differ."""
    X = as_sample_matrix(X, "X")
    Y = X if Y is None else as_sample_matrix(Y, "Y")
    if X.shape[1] != Y.shape[1]:
        raise ValueError(f"X has {X.shape[1]} features but Y has {Y.shape[1]}")
    if sp.issparse(X) != sp.issparse(Y):           # both sparse: nothing is densified
        X, Y = (X, as_csr(Y)) if sp.issparse(X) else (as_csr(X), Y)
    dtype = np.result_type(X.dtype, Y.dtype)
    return X.astype(dtype, copy=False), Y.astype(dtype, copy=False)


def row_squared_norms(X):
    """``‖x_i‖²`` of every row of a dense or CSR ``X``."""
    if sp.issparse(X):
        return np.asarray(X.multiply(X).sum(axis=1), dtype=X.dtype).ravel()
    return np.einsum("ij,ij->i", X, X)


def gram_product(X, Y):
    """``X @ Y.T`` as a dense array (X, Y both dense or both CSR)."""
    if sp.issparse(X):
        return np.ascontiguousarray((X @ Y.T).toarray())
    return X @ Y.T


def neg_scaled_distance(X, Y, scale, squared):
    """``-scale · ‖x_i - y_j‖²`` (``squared``) or ``-scale · ‖x_i - y_j‖``,
    entries where the expansion cancels recomputed directly."""
    import numba

    from ._gram import PARALLEL_ENTRIES, neg_scaled_dist, sq_dist_csr, sq_dist_csr_serial

    G = np.ascontiguousarray(gram_product(X, Y))
    scale = G.dtype.type(scale)
    if sp.issparse(X):
        finish = (sq_dist_csr if G.size >= PARALLEL_ENTRIES and numba.get_num_threads() > 1
                  else sq_dist_csr_serial)
        finish(G, CSRRows.of(X), CSRRows.of(Y), row_squared_norms(X), row_squared_norms(Y))
        if not squared:
            np.sqrt(G, out=G)
        G *= -scale
        return G
    return neg_scaled_dist(G, np.ascontiguousarray(X), np.ascontiguousarray(Y), row_squared_norms(X),
                           row_squared_norms(Y), scale, squared)


def check_block(kernel, K, shape, symmetric):
    """A kernel's block must have the shape asked for and finite values, and
    a Gram matrix k(X, X) must be symmetric (k(x, y) = k(y, x)): compiled
    loops read these blocks by index, and NaN/inf or asymmetry would give a
    wrong model without a word. Returns K as an array."""
    K = np.asarray(K)
    if K.shape != shape:
        raise ValueError(f"kernel {kernel!r} returned a block of shape {K.shape} for "
                         f"{shape[0]} x {shape[1]} samples; it must return one value "
                         "per pair of rows")
    if not np.all(np.isfinite(K)):
        bad = np.argwhere(~np.isfinite(K))[0]
        raise ValueError(f"kernel {kernel!r} returned {K[tuple(bad)]} (NaN or inf) for "
                         f"rows {bad[0]} and {bad[1]}; its values must be finite (if the "
                         "features are very large or very small, standardise them)")
    if symmetric and K.size:
        scale = float(np.max(np.abs(K)))
        if not np.allclose(K, K.T, rtol=1e-10, atol=1e-10 * scale):
            bad = np.unravel_index(np.argmax(np.abs(K - K.T)), K.shape)
            raise ValueError(f"kernel {kernel!r} is not symmetric: k(x_{bad[0]}, x_{bad[1]}) = "
                             f"{K[bad]} but k(x_{bad[1]}, x_{bad[0]}) = {K.T[bad]}")
    return K
