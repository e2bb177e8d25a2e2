"""Kernel rows of the SMO solver: ``k(x_r, x_c)`` for many ``c`` at once.

Rows are computed from float32 copies of the samples (the precision of the
kernel cache, as LIBSVM's ``Qfloat``) with directly summed squared distances
(no cancellation) and a vectorised finish. Two layouts: :func:`kernel_row`
reads the samples row-major and serves any subset of columns (partial rows
on a shrunk active set); :func:`kernel_row_full` reads them feature-major
(``XT[f, c]``), so the inner loop runs over samples and vectorises, for
rows on every sample.
"""

from __future__ import annotations

import math
from collections import namedtuple

import numpy as np

from .._numba import jit_fast

# kernel codes ---------------------------------------------------------------
GENERIC, LINEAR_KERNEL, POLY_KERNEL, RBF_KERNEL, LAPLACE_KERNEL, SIGMOID_KERNEL = range(-1, 5)

#: What a kernel row is computed from: the samples in float32, row-major
#: (``X32``) and feature-major (``XT32``), ``all_rows = arange(n)``, the
#: kernel (``code``, one of the ``*_KERNEL`` constants, and its ``gamma``,
#: ``coef0``, ``degree``) and scratch space for one row (``buf`` float64,
#: ``ebuf`` int64, ``acc`` float32, each of length n).
Samples = namedtuple(
    "Samples", "X32 all_rows code gamma coef0 degree buf ebuf XT32 acc")



def make_samples(X32, code, gamma, coef0, degree):
    """The :data:`Samples` of the float32 samples ``X32`` (n, d) for a kernel,
    with fresh scratch space."""
    n = X32.shape[0]
    return Samples(X32=X32, all_rows=np.arange(n, dtype=np.int64), code=np.int64(code),
                   gamma=float(gamma), coef0=float(coef0), degree=np.int64(degree),
                   buf=np.empty(n), ebuf=np.empty(n, dtype=np.int64),
                   XT32=np.ascontiguousarray(X32.T), acc=np.empty(n, dtype=np.float32))


LOG2E = 1.4426950408889634
LN2 = 0.6931471805599453


@jit_fast
def exp_nonpositive(buf, n_cols, ebuf):
    """``buf[k] <- exp(buf[k])`` for ``buf[k] <= 0``, in a form the compiler
    vectorises: e^x = 2^e 2^f with e = round(x log2 e), |f| <= 1/2, 2^f by
    its Taylor polynomial of degree 8 (relative error < 1e-9), 2^e built
    in the exponent bits of a float64 (arguments below -700 give ~1e-304)."""
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


@jit_fast
def finish_row(buf, n_cols, code, gamma, coef0, degree, ebuf):
    """Turn ``buf[:n_cols]`` (squared distances or dot products) into kernel
    values, in scikit-learn's parametrisation: linear ``a.b``; poly
    ``(gamma a.b + coef0)^degree``; rbf ``exp(-gamma |a-b|^2)``; laplace
    ``exp(-gamma |a-b|)``; sigmoid ``tanh(gamma a.b + coef0)``."""
    if code == RBF_KERNEL:
        for k in range(n_cols):
            buf[k] = -gamma * buf[k]
        exp_nonpositive(buf, n_cols, ebuf)
    elif code == LAPLACE_KERNEL:
        for k in range(n_cols):
            buf[k] = -gamma * math.sqrt(buf[k])
        exp_nonpositive(buf, n_cols, ebuf)
    elif code == POLY_KERNEL:
        for k in range(n_cols):
            base = gamma * buf[k] + coef0
            value = 1.0
            for _ in range(degree):
                value *= base
            buf[k] = value
    elif code == SIGMOID_KERNEL:
        for k in range(n_cols):
            buf[k] = math.tanh(gamma * buf[k] + coef0)


@jit_fast
def kernel_row(samples, r, cols, n_cols, out):
    """``out[c] = k(x_r, x_c)`` for ``c`` in ``cols[:n_cols]`` (other entries
    untouched), from the row-major samples ``samples.X32`` (a :data:`Samples`)."""
    X32, buf, ebuf = samples.X32, samples.buf, samples.ebuf
    code, gamma, coef0, degree = samples.code, samples.gamma, samples.coef0, samples.degree
    d = X32.shape[1]
    xr = X32[r]
    distance = code == RBF_KERNEL or code == LAPLACE_KERNEL
    for k in range(n_cols):
        xc = X32[cols[k]]
        acc = np.float32(0.0)
        if distance:
            for f in range(d):
                diff = xr[f] - xc[f]
                acc += diff * diff
        else:
            for f in range(d):
                acc += xr[f] * xc[f]
        buf[k] = acc
    finish_row(buf, n_cols, code, gamma, coef0, degree, ebuf)
    for k in range(n_cols):
        out[cols[k]] = buf[k]


@jit_fast
def kernel_row_full(samples, r, out):
    """``out[c] = k(x_r, x_c)`` for every sample ``c``, from the
    feature-major samples ``samples.XT32`` (d, n): feature by feature, the
    sums of all samples are advanced together (float32, 16 to a vector
    register)."""
    XT, acc, buf, ebuf = samples.XT32, samples.acc, samples.buf, samples.ebuf
    code, gamma, coef0, degree = samples.code, samples.gamma, samples.coef0, samples.degree
    d, n = XT.shape
    for c in range(n):
        acc[c] = 0.0
    distance = code == RBF_KERNEL or code == LAPLACE_KERNEL
    for f in range(d):
        v = XT[f, r]
        xf = XT[f]
        if distance:
            for c in range(n):
                diff = xf[c] - v
                acc[c] += diff * diff
        else:
            for c in range(n):
                acc[c] += v * xf[c]
    for c in range(n):
        buf[c] = acc[c]
    finish_row(buf, n, code, gamma, coef0, degree, ebuf)
    for c in range(n):
        out[c] = buf[c]
