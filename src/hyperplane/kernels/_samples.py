"""The samples of a Gram block: sample matrices checked and converted (dense
or CSR), the products and distances the named kernels are made of, and the
checks every block a kernel returns goes through.

The kernel classes (:mod:`._kernels`) compute their blocks from these and
:mod:`._distance`; this module imports no compiled kernel (nor numba), so
loading a model file that holds a kernel imports neither.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp


#: an expanded squared distance below this share of |x|² + |y|² is recomputed
#: directly (its relative error could exceed about 1e-8 in float64)
CANCELLATION = 1e-6
#: entries of G per block of rows in :func:`sq_dist_csr` (float64: 512 KiB)
BLOCK_ENTRIES = 1 << 16


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


def sq_dist_csr(G, X, Y, sq_x, sq_y):
    """In place: ``G[i, j] <- ‖x_i - y_j‖²`` from ``G = X @ Y.T`` of CSR
    ``X`` and ``Y`` (sorted indices, no duplicates) and their rows' squared
    norms: by the expansion ``(|x|² + |y|²) - 2 x.y`` (clipped at 0), the
    norms summed in the samples' dtype and the difference in float64, or,
    where it cancels (below :data:`CANCELLATION` of ``|x|² + |y|²``),
    directly as the sum over the union of the two rows' nonzeros of
    ``(x_f - y_f)²``, each square in the samples' dtype, summed in float64 in
    the order of the features (exactly 0 for x = y). NumPy and scipy.sparse,
    nothing compiled: the expansion is element-wise, by blocks of rows of
    about :data:`BLOCK_ENTRIES` entries (each block's passes in the
    processor's cache), and the direct sums are few (the pairs of equal or
    nearly equal rows)."""
    n, m = G.shape
    step = max(1, min(n, BLOCK_ENTRIES // max(m, 1)))
    near_buf = np.empty((step, m), dtype=np.result_type(sq_x, sq_y))
    low_buf = np.empty((step, m), dtype=bool)
    # a row's entries that may cancel are below CANCELLATION (|x|² + max |y|²):
    # the few found are checked against their own |x|² + |y|² (rounding is monotonic)
    most = CANCELLATION * (sq_x.astype(np.float64) + float(np.max(sq_y, initial=0.0)))
    pairs = []
    for lo in range(0, n, step):
        block = G[lo:lo + step]
        rows = block.shape[0]
        near = np.add(sq_x[lo:lo + step, None], sq_y[None, :], out=near_buf[:rows])
        work = block if block.dtype == np.float64 else block.astype(np.float64)
        np.multiply(work, -2.0, out=work)
        np.add(work, near, out=work)                  # (|x|² + |y|²) - 2 x.y, as written
        np.maximum(work, 0.0, out=work)
        if work is not block:
            block[...] = work
        low = np.less_equal(block, most[lo:lo + step, None], out=low_buf[:rows])
        if low.any():
            i, j = np.nonzero(low)
            keep = block[i, j] <= CANCELLATION * (sq_x[i + lo] + sq_y[j]).astype(np.float64)
            pairs.append((i[keep] + lo, j[keep]))
    if pairs:
        i, j = (np.concatenate(part) for part in zip(*pairs))
        D = X[i] - Y[j]
        G[i, j] = np.asarray(D.multiply(D).astype(np.float64).sum(axis=1)).ravel()
    return G


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
