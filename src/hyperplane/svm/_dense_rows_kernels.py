"""Kernel rows of dense samples: the dot products or squared distances of a
block of a row, from the row-major samples (any subset of columns: partial
rows on a shrunk active set) or the feature-major ones (rows on every
sample, the inner loop over samples, vectorised). The samples are float32,
every sum is in float64 (see :mod:`._kernel_rows`)."""

from __future__ import annotations

import numpy as np

from .._lowered import zeros
from .._numba import jit_fast, jit_fast_inline, jit_fast_internal
from ._kernel_values_kernels import DENSE_ROWS, FEATURE_MAJOR, is_distance


@jit_fast_inline
def dense_row_method(samples, r, n_cols, full):
    """The method of a row of dense samples and its cost in multiply-adds:
    by rows (:func:`dense_products`) or, for a ``full`` row, feature-major
    (:func:`feature_major_products`)."""
    return (FEATURE_MAJOR if full else DENSE_ROWS), n_cols * samples.X32.shape[1]


@jit_fast_internal
def dense_block_products(samples, r, cols, lo, hi, method):
    """``buf[k]`` for ``lo <= k < hi`` from dense samples: feature-major
    (``FEATURE_MAJOR``, ``cols[k] = k``) or by rows."""
    if method == FEATURE_MAJOR:
        feature_major_products(samples, r, lo, hi)
    else:
        dense_products(samples, r, cols, lo, hi)


@jit_fast_internal
def dense_products(samples, r, cols, lo, hi):
    """``buf[k]`` = |x_r - x_c|^2 (distance kernels) or x_r . x_c, c =
    ``cols[k]``, ``lo <= k < hi``, from the row-major dense samples, summed
    in float64."""
    X32, buf = samples.X32, samples.buf
    d = X32.shape[1]
    xr = X32[r]
    distance = is_distance(samples)
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
    acc = zeros(hi - lo, np.float64)
    feature_major_sums(samples.XT32, r, lo, is_distance(samples), acc)
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
