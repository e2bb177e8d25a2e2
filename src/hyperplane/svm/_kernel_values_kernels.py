"""The kernel values of a block of a kernel row, from its dot products or
squared distances, and the names both layouts of samples share.

Every layout of samples (:mod:`._dense_rows_kernels`,
:mod:`._sparse_rows_kernels`) first forms, for a block of entries, the dot
products x_r . x_c or, for the distance kernels, the squared distances
|x_r - x_c|^2 in float64 (``samples.buf``); :func:`finish_row` then turns
them into kernel values, in scikit-learn's parametrisation (周志华 表6.1).
"""

from __future__ import annotations

import math

import numpy as np

from .._numba import jit_fast_inline, jit_fast_internal

# kernel codes ---------------------------------------------------------------
GENERIC, LINEAR_KERNEL, POLY_KERNEL, RBF_KERNEL, LAPLACE_KERNEL, SIGMOID_KERNEL = range(-1, 5)

# how the products of a row are formed ---------------------------------------
DENSE_ROWS, FEATURE_MAJOR, SPARSE_ROWS, SPARSE_COLUMNS = range(4)

#: entries of a kernel row per block when the row is split over threads:
#: fixed, so that the blocks, and so every value, do not depend on the
#: number of threads (each value is computed by one thread, by the same
#: instructions as in a serial row)
ROW_BLOCK = 2048

LOG2E = 1.4426950408889634
LN2 = 0.6931471805599453


@jit_fast_internal
def is_distance(code):
    """Whether the kernel is a function of |x - y|^2 (else of x . y)."""
    return code == RBF_KERNEL or code == LAPLACE_KERNEL


@jit_fast_inline
def exp_nonpositive(buf, n_cols, ebuf, escale):
    """``buf[k] <- exp(buf[k])`` for ``buf[k] <= 0``, ``k < n_cols``, in a
    form the compiler vectorises: e^x = 2^e 2^f with e = round(x log2 e),
    |f| <= 1/2, 2^f by its Taylor polynomial of degree 8 (relative error
    < 1e-9), 2^e built in the exponent bits of a float64 (arguments below
    -700 give ~1e-304): written as int64 into ``ebuf`` and read as float64
    from ``escale``, the same memory (``ebuf.view(np.float64)``, made in
    Python: numba's ``view`` is a compiled function of its own)."""
    for k in range(n_cols):
        z = max(buf[k] * LOG2E, -1000.0)
        e = np.floor(z + 0.5)
        t = (z - e) * LN2
        poly = 1.0 + t * (1.0 + t * (1 / 2 + t * (1 / 6 + t * (1 / 24 + t * (
            1 / 120 + t * (1 / 720 + t * (1 / 5040 + t * (1 / 40320))))))))
        buf[k] = poly
        ebuf[k] = (np.int64(e) + 1023) << 52
    for k in range(n_cols):
        buf[k] *= escale[k]


@jit_fast_inline
def finish_row(samples, lo, hi):
    """Turn ``buf[lo:hi]`` (squared distances or dot products) into kernel
    values, in scikit-learn's parametrisation: linear ``a.b``; poly
    ``(gamma a.b + coef0)^degree``; rbf ``exp(-gamma |a-b|^2)``; laplace
    ``exp(-gamma |a-b|)``; sigmoid ``tanh(gamma a.b + coef0)``. The loops
    run over views of the block, from 0: an index ``lo + k`` might be
    negative to the compiler, whose wrap-around test turned the vectorised
    loads and stores into gathers and scatters (2-3x the time)."""
    buf, ebuf, escale = samples.buf[lo:hi], samples.ebuf[lo:hi], samples.escale[lo:hi]
    code, gamma, coef0 = samples.code, samples.gamma, samples.coef0
    m = buf.shape[0]
    if is_distance(code):
        if code == RBF_KERNEL:
            for k in range(m):
                buf[k] = -gamma * buf[k]
        else:
            for k in range(m):
                buf[k] = -gamma * math.sqrt(buf[k])
        exp_nonpositive(buf, m, ebuf, escale)     # one inlined copy for both kernels
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
