"""One row layer for compiled kernels: dense rows and CSR rows behind the same
functions, the layout chosen when numba compiles the caller.

A rule that reads samples one at a time (a coordinate step, an online
update, a column of ``Xᵀ``) is written once against these functions; numba
resolves each call to the dense or the CSR body when it types the rows
argument, so the caller compiles once per layout and the choice costs
nothing at run time. Rows are a C-ordered 2-D array or a
:class:`~hyperplane._csr_rows.CSRRows` (Saad, *Iterative Methods for Sparse
Linear Systems*, 2nd ed., §3.4). Every sum runs in index order with strict
arithmetic, so the zeros a CSR row leaves out add nothing and both layouts
give the same bits. CSR positions and columns are read as unsigned
integers, which spares numba's negative-index test on every read.
"""

from __future__ import annotations

import inspect

import numpy as np
from numba import types
from numba.extending import overload

from ._numba import FASTMATH_FLAGS, jit


def by_layout(dense, csr, fastmath=None, inline=False):
    """A function for compiled code that calls ``dense(X, ...)`` when its
    first argument ``X`` is a dense array and ``csr(X, ...)`` when it is CSR
    rows; numba makes the choice when it types ``X``, so the caller is one
    function compiled once per layout and the call costs nothing at run time.
    Called from Python it raises :class:`NotImplementedError`.

    When both functions take the same parameters (names) and the same
    arithmetic flags, the chosen function's body is compiled in the caller's
    place with those flags (numba's overload of ``call``): the caller then
    calls it directly, as it would call ``dense`` itself. A forwarding
    function in between (``lambda X, *args: chosen(X, *args)``) made each
    row call pass its arrays through one more compiled call, which LLVM did
    not inline: the logistic loss pass over 50k × 50 dense rows took 1.15x
    as long with its dot product and ``axpy`` behind one. Functions of
    different parameter names still get the forwarding function.

    ``fastmath`` (a set of LLVM flags, :data:`~hyperplane._numba.FASTMATH_FLAGS`)
    compiles the bodies with those flags instead of the functions' own, for
    callers compiled with them: one row rule, two compilations that numba
    never confuses (each is the overload's own, not a dispatcher's).

    ``inline=True`` inlines the chosen body into the caller's IR (numba's
    ``inline="always"``) instead of calling it, for short row functions
    called once per row (the multinomial logistic passes' K-class scores and
    ``axpy``: up to 2x faster); an ``if x is None`` in such a body then
    drops no branch, so its None arguments must be typed by the caller.

    Examples
    --------
    Functions defined in a session cannot be cached, so this example compiles
    them without the package's ``cache=True``:

    >>> import numba, numpy as np
    >>> first_dense = numba.njit(lambda X, i: X[i, 0])
    >>> first_csr = numba.njit(lambda X, i: X[0][X[2][i]])
    >>> first = by_layout(first_dense, first_csr)
    >>> use = numba.njit(lambda X, i: first(X, i))
    >>> use(np.array([[1.0, 0.0], [2.0, 3.0]]), 1)
    2.0
    >>> use((np.array([1.0, 2.0, 3.0]), np.array([0, 0, 1]), np.array([0, 1, 3])), 1)
    2.0
    """
    names = tuple(inspect.signature(dense.py_func).parameters)
    flags = dense.targetoptions.get("fastmath", False)
    direct = (names == tuple(inspect.signature(csr.py_func).parameters)
              and flags == csr.targetoptions.get("fastmath", False))
    if fastmath is not None:
        if not direct:
            raise ValueError(f"fastmath: {dense.__name__} and {csr.__name__} must take the "
                             "same parameters and flags")
        flags = set(fastmath)
    #: (the samples are a dense array) -> the function for them
    by_dense = {True: dense, False: csr}
    listed = ", ".join(names) if direct else "X, *args"
    scope = {"by_dense": by_dense, "types": types,
             "message": f"{dense.__name__} / {csr.__name__}: compiled code only"}
    exec(f"def call({listed}):\n    raise NotImplementedError(message)", scope)
    if direct:
        exec(f"def of_layout({listed}):\n"
             f"    return by_dense[isinstance({names[0]}, types.Array)].py_func", scope)
        overload(scope["call"], jit_options={"fastmath": flags} if flags else {},
                 inline="always" if inline else "never")(
            scope["of_layout"])
    else:
        exec("def of_layout(X, *args):\n"
             "    chosen = by_dense[isinstance(X, types.Array)]\n"
             "    return lambda X, *args: chosen(X, *args)", scope)
        overload(scope["call"])(scope["of_layout"])
    return scope["call"]


@jit
def dense_row_dot(X, t, w, acc):
    """``acc + Σ_f w[f] X[t, f]``, summed in feature order."""
    for f in range(X.shape[1]):
        acc += w[f] * X[t, f]
    return acc


@jit
def csr_row_dot(X, t, w, acc):
    """:func:`dense_row_dot` of the CSR row t (its nonzeros in index order)."""
    data, indices, indptr = X.data, X.indices, X.indptr
    for p in range(np.uint64(indptr[t]), np.uint64(indptr[t + 1])):
        acc += w[np.uint64(indices[p])] * data[p]
    return acc


@jit
def dense_row_axpy(X, t, w, delta):
    """``w[f] += delta X[t, f]`` for every feature f."""
    for f in range(X.shape[1]):
        w[f] += delta * X[t, f]


@jit
def csr_row_axpy(X, t, w, delta):
    """:func:`dense_row_axpy` of the CSR row t (its nonzeros only)."""
    data, indices, indptr = X.data, X.indices, X.indptr
    for p in range(np.uint64(indptr[t]), np.uint64(indptr[t + 1])):
        w[np.uint64(indices[p])] += delta * data[p]


@jit
def dense_row_square_axpy(X, t, w, delta):
    """``w[f] += delta X[t, f]²`` for every feature f (a diagonal of
    ``Σ_t delta_t x_t x_tᵀ``)."""
    for f in range(X.shape[1]):
        w[f] += delta * X[t, f] * X[t, f]


@jit
def csr_row_square_axpy(X, t, w, delta):
    """:func:`dense_row_square_axpy` of the CSR row t (its nonzeros only)."""
    data, indices, indptr = X.data, X.indices, X.indptr
    for p in range(np.uint64(indptr[t]), np.uint64(indptr[t + 1])):
        w[np.uint64(indices[p])] += delta * data[p] * data[p]


@jit
def dense_row_weighted_dot(X, t, a, b):
    """``Σ_f X[t, f] a[f] b[f]`` in feature order."""
    acc = 0.0
    for f in range(X.shape[1]):
        acc += X[t, f] * a[f] * b[f]
    return acc


@jit
def csr_row_weighted_dot(X, t, a, b):
    """:func:`dense_row_weighted_dot` over the CSR row's nonzeros."""
    data, indices, indptr = X.data, X.indices, X.indptr
    acc = 0.0
    for p in range(np.uint64(indptr[t]), np.uint64(indptr[t + 1])):
        f = np.uint64(indices[p])
        acc += data[p] * a[f] * b[f]
    return acc


@jit
def dense_row_weighted_square(X, t, a):
    """``Σ_f a[f] X[t, f]²`` in feature order."""
    acc = 0.0
    for f in range(X.shape[1]):
        acc += a[f] * X[t, f] * X[t, f]
    return acc


@jit
def csr_row_weighted_square(X, t, a):
    """:func:`dense_row_weighted_square` over the CSR row's nonzeros."""
    data, indices, indptr = X.data, X.indices, X.indptr
    acc = 0.0
    for p in range(np.uint64(indptr[t]), np.uint64(indptr[t + 1])):
        acc += a[np.uint64(indices[p])] * data[p] * data[p]
    return acc


@jit
def span_dot(data, indices, start, stop, w, acc):
    """``acc + Σ_p w[indices[p]] data[p]`` over the CSR positions
    ``start:stop``, in index order: :func:`csr_row_dot` of a row whose
    positions the caller holds (a coordinate step keeps them with its
    variable). It takes the arrays, not the :class:`~hyperplane._csr_rows.CSRRows`
    record: a step loop that reads a record's fields in a call pays numba's
    reference counts on them (atomic increments and decrements) every step."""
    for p in range(np.uint64(start), np.uint64(stop)):
        acc += w[np.uint64(indices[p])] * data[p]
    return acc


@jit
def span_axpy(data, indices, start, stop, w, delta):
    """``w[indices[p]] += delta data[p]`` over the CSR positions ``start:stop``
    (:func:`csr_row_axpy` of a row whose positions the caller holds, as
    :func:`span_dot`)."""
    for p in range(np.uint64(start), np.uint64(stop)):
        w[np.uint64(indices[p])] += delta * data[p]


@jit
def dense_row_span(X, t):
    """The positions ``0:d`` of the entries of the dense row t (unsigned)."""
    return np.uint64(0), np.uint64(X.shape[1])


@jit
def csr_row_span(X, t):
    """The positions ``indptr[t]:indptr[t + 1]`` of the entries of the CSR
    row t (unsigned)."""
    return np.uint64(X.indptr[t]), np.uint64(X.indptr[t + 1])


@jit
def dense_row_entry(X, t, p):
    """``(f, X[t, f])`` at the position ``p = f`` of the dense row t."""
    return p, X[t, p]


@jit
def csr_row_entry(X, t, p):
    """``(indices[p], data[p])``: the column and value at the position ``p``
    of a CSR row."""
    return np.uint64(X.indices[p]), X.data[p]


#: ``acc + w · x_t`` and ``w += delta x_t`` on either layout
row_dot = by_layout(dense_row_dot, csr_row_dot)
row_axpy = by_layout(dense_row_axpy, csr_row_axpy)
#: ``Σ_f x_tf a_f b_f`` and ``Σ_f a_f x_tf²`` on either layout
row_weighted_dot = by_layout(dense_row_weighted_dot, csr_row_weighted_dot)
row_weighted_square = by_layout(dense_row_weighted_square, csr_row_weighted_square)
#: ``w += delta x_t`` and ``acc + w · x_t`` for kernels compiled with fastmath (the
#: perceptron's epochs, the logistic passes): the same bodies compiled in the caller's
#: place with fastmath, never a fastmath compilation of the strict dispatchers above
#: (when a fastmath caller first compiled those, the strict callers that numba's
#: cache served afterwards lost their dense-equals-CSR bits, measured: the SVM
#: seed's tests after a perceptron fit)
row_axpy_fast = by_layout(dense_row_axpy, csr_row_axpy, fastmath=FASTMATH_FLAGS)
row_dot_fast = by_layout(dense_row_dot, csr_row_dot, fastmath=FASTMATH_FLAGS)
#: ``w += delta x_t²`` (entry by entry) for fastmath kernels: the logistic
#: gradient pass's Hessian diagonal
row_square_axpy_fast = by_layout(dense_row_square_axpy, csr_row_square_axpy,
                                 fastmath=FASTMATH_FLAGS)
#: the three above inlined into the caller's IR (``by_layout(..., inline=True)``)
#: for the logistic passes, whose loop over rows is the whole pass: a call per
#: row made TRON's dense gradient and Hessian-vector passes 1.3x slower
row_axpy_inline = by_layout(dense_row_axpy, csr_row_axpy, fastmath=FASTMATH_FLAGS, inline=True)
row_dot_inline = by_layout(dense_row_dot, csr_row_dot, fastmath=FASTMATH_FLAGS, inline=True)
row_square_axpy_inline = by_layout(dense_row_square_axpy, csr_row_square_axpy,
                                   fastmath=FASTMATH_FLAGS, inline=True)
#: a row's entries one at a time on either layout, for a rule that reads each
#: entry with others of its row index (the L1 SVM's column passes):
#: ``start, stop = row_span(X, t)``, then ``f, x_tf = row_entry(X, t, p)`` for
#: ``start <= p < stop`` (every feature of a dense row, the stored entries of
#: a CSR row, explicit zeros included: a rule that must skip zeros tests them)
row_span = by_layout(dense_row_span, csr_row_span)
row_entry = by_layout(dense_row_entry, csr_row_entry)
