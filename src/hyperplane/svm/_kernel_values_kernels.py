"""The kernel values of a block of a kernel row, from its dot products or
squared distances, and the names both layouts of samples share.

Every layout of samples (:mod:`._dense_rows_kernels`,
:mod:`._sparse_rows_kernels`) first forms, for a block of entries, the dot
products x_r . x_c or, for the distance kernels, the squared distances
|x_r - x_c|^2 in float64 (``samples.buf``); :func:`finish_row` then turns
them into kernel values, in scikit-learn's parametrisation (周志华 表6.1).

Each kernel's samples are a class of their own (``RbfDenseSamples``, ...:
:func:`~._kernel_rows.samples_class`), so numba chooses the kernel's rules
when it types the samples (:func:`by_kernel`): a solve compiles the values
of its own kernel only, and the distance or dot-product loops it reads.
"""

from __future__ import annotations

import math

import numpy as np
from numba.core import types
from numba.extending import intrinsic

from .._numba import by_first_type, jit_fast_inline, jit_fast_internal

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


#: kernel code -> the name its samples' classes begin with (``RbfDenseSamples``, ...)
KERNEL_NAMES = {LINEAR_KERNEL: "Linear", POLY_KERNEL: "Poly", RBF_KERNEL: "Rbf",
                LAPLACE_KERNEL: "Laplace", SIGMOID_KERNEL: "Sigmoid", GENERIC: "Generic"}


def by_kernel(rules, name, pass_first=True):
    """``call(samples, *args)``: ``rules[code](samples, *args)`` (``(*args)``
    unless ``pass_first``) for the kernel ``code`` of the samples' class
    (a class attribute: each kernel's samples are a class of their own,
    :func:`~._kernel_rows.samples_class`), chosen when numba types
    ``samples`` (:func:`~hyperplane._numba.by_first_type`), so that a solve
    compiles the rule of its own kernel only; from Python the same choice."""
    return by_first_type(lambda t: rules[t.instance_class.code], name,
                         lambda samples: rules[samples.code], pass_first)


def _constant(value):
    """A function of no arguments, for compiled code, that is the bool
    ``value``: a constant in the caller's code, no compiled unit of its own."""
    @intrinsic
    def constant(typingctx):
        def codegen(context, builder, signature, args):
            return context.get_constant(types.boolean, value)
        return types.boolean(), codegen
    return constant


_yes, _no = _constant(True), _constant(False)


#: ``is_distance(samples)``: whether the kernel is a function of |x - y|^2 (else of x . y)
is_distance = by_kernel({LINEAR_KERNEL: _no, POLY_KERNEL: _no, RBF_KERNEL: _yes,
                         LAPLACE_KERNEL: _yes, SIGMOID_KERNEL: _no, GENERIC: _no},
                        "is_distance", pass_first=False)
#: ``is_generic(samples)``: whether Python computes the kernel's rows (a kernel object)
is_generic = by_kernel({LINEAR_KERNEL: _no, POLY_KERNEL: _no, RBF_KERNEL: _no,
                        LAPLACE_KERNEL: _no, SIGMOID_KERNEL: _no, GENERIC: _yes},
                       "is_generic", pass_first=False)


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


@jit_fast_internal
def dot_values(samples, buf, ebuf, escale):
    """The linear kernel's values are its dot products (and a generic
    kernel's rows are not computed here)."""


@jit_fast_internal
def poly_values(samples, buf, ebuf, escale):
    """``buf[k] <- (gamma buf[k] + coef0)^degree`` (dot products in)."""
    for k in range(buf.shape[0]):
        base = samples.gamma * buf[k] + samples.coef0
        value = 1.0
        for _ in range(samples.degree):
            value *= base
        buf[k] = value


@jit_fast_internal
def rbf_values(samples, buf, ebuf, escale):
    """``buf[k] <- exp(-gamma buf[k])`` (squared distances in)."""
    m = buf.shape[0]
    for k in range(m):
        buf[k] = -samples.gamma * buf[k]
    exp_nonpositive(buf, m, ebuf, escale)


@jit_fast_internal
def laplace_values(samples, buf, ebuf, escale):
    """``buf[k] <- exp(-gamma sqrt(buf[k]))`` (squared distances in)."""
    m = buf.shape[0]
    for k in range(m):
        buf[k] = -samples.gamma * math.sqrt(buf[k])
    exp_nonpositive(buf, m, ebuf, escale)


@jit_fast_internal
def sigmoid_values(samples, buf, ebuf, escale):
    """``buf[k] <- tanh(gamma buf[k] + coef0)`` (dot products in)."""
    for k in range(buf.shape[0]):
        buf[k] = math.tanh(samples.gamma * buf[k] + samples.coef0)


#: ``kernel_values(samples, buf, ebuf, escale)``: the values of the samples'
#: kernel (its ``gamma``, ``coef0``, ``degree``) from ``buf``'s products,
#: the rule of that kernel only
kernel_values = by_kernel({LINEAR_KERNEL: dot_values, POLY_KERNEL: poly_values,
                           RBF_KERNEL: rbf_values, LAPLACE_KERNEL: laplace_values,
                           SIGMOID_KERNEL: sigmoid_values, GENERIC: dot_values}, "kernel_values")


@jit_fast_inline
def finish_row(samples, lo, hi):
    """Turn ``buf[lo:hi]`` (squared distances or dot products) into kernel
    values, in scikit-learn's parametrisation: linear ``a.b``; poly
    ``(gamma a.b + coef0)^degree``; rbf ``exp(-gamma |a-b|^2)``; laplace
    ``exp(-gamma |a-b|)``; sigmoid ``tanh(gamma a.b + coef0)``
    (:data:`kernel_values`, the kernel's own). The loops
    run over views of the block, from 0: an index ``lo + k`` might be
    negative to the compiler, whose wrap-around test turned the vectorised
    loads and stores into gathers and scatters (2-3x the time)."""
    kernel_values(samples, samples.buf[lo:hi], samples.ebuf[lo:hi], samples.escale[lo:hi])
