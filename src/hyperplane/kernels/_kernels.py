"""Kernel functions of 周志华《机器学习》表6.1 and their combinations (section 6.6).

A kernel is an object ``k`` with ``k(X, Y=None)`` returning the Gram matrix
``K[i, j] = k(x_i, y_j)``. The closure rules of the book hold as operators:

* ``k1 + k2``  -- sum of kernels (式6.25),
* ``k1 * k2``  -- direct (element-wise) product (式6.26),
* ``c * k``    -- positive scaling (式6.25 with γ1 = c, γ2 = 0),
* ``k.scaled(g)`` -- ``g(x) k(x, y) g(y)`` for any function g (式6.27).

The named kernels (and sums, products and positive multiples of them) also
take ``scipy.sparse`` samples: their blocks are computed from sparse dot
products, and a block is always a dense array.
"""

from __future__ import annotations

import numbers

import numpy as np
import scipy.sparse as sp

from .._validation import check_number
from ._distance import neg_scaled_distance
from ._samples import as_sample_matrix, check_block, gram_product, row_squared_norms, sample_pair


def linear_weights(dual_coef, X):
    """``w = Σ_i c_i x_i`` of an expansion ``f(x) = Σ_i c_i x_i·x + b`` in the
    linear kernel, with ``c_i = α_i y_i``: 李航 算法2.2's output and 式7.50,
    周志华 式6.9. ``dual_coef`` has one row per function; ``X`` may be sparse.

    Examples
    --------
    李航 例7.1: α = (1/4, 0, 1/4) on x1 = (3, 3), x3 = (1, 1) of signs +1, -1:

    >>> linear_weights([[0.25, 0.0, -0.25]], [[3, 3], [4, 3], [1, 1]]).tolist()
    [[0.5, 0.5]]
    """
    return np.asarray(np.asarray(dual_coef, dtype=np.float64) @ (
        X if sp.issparse(X) else np.asarray(X, dtype=np.float64)))


class Kernel:
    """Base class: a symmetric function k(x, y) evaluated as a Gram matrix.

    A kernel of one's own subclasses it and defines ``_gram(X, Y)``; every
    block it returns is checked (:func:`~._samples.check_block`). ``_gram`` gets
    ``scipy.sparse`` CSR samples only if the class sets ``accepts_sparse``
    to True; otherwise sparse samples are a TypeError.

    Examples
    --------
    The intersection kernel ``k(x, y) = Σ min(x_i, y_i)``, defined by its
    ``_gram`` alone, gets the diagonal and the closure operators for free:

    >>> import numpy as np
    >>> from hyperplane.kernels import Kernel, Linear
    >>> class Intersection(Kernel):
    ...     def _gram(self, X, Y):
    ...         return np.minimum(X[:, None, :], Y[None, :, :]).sum(axis=2)
    >>> k = Intersection()
    >>> k([[1.0, 2.0], [3.0, 0.0]]).tolist()
    [[3.0, 1.0], [1.0, 3.0]]
    >>> k.diag([[1.0, 2.0], [3.0, 0.0]]).tolist()
    [3.0, 3.0]
    >>> 0.5 * k + Linear()
    (0.5 * Intersection() + Linear())
    """

    #: whether ``_gram`` and ``diag`` take CSR samples
    accepts_sparse = False

    def __call__(self, X, Y=None):
        self._check_sparse(X, Y)
        X, Y = sample_pair(X, Y)
        return check_block(self, self._gram(X, Y), (X.shape[0], Y.shape[0]), Y is X)

    def _check_sparse(self, *arrays):
        if not self.accepts_sparse and any(sp.issparse(a) for a in arrays):
            raise TypeError(f"kernel {self!r} does not take scipy.sparse samples (its class "
                            "does not set accepts_sparse = True); use a named kernel or "
                            "pass dense samples")

    def diag(self, X):
        """``k(x_i, x_i)`` for every row, without building the Gram matrix."""
        self._check_sparse(X)
        X = as_sample_matrix(X, "X")
        values = [check_block(self, self._gram(X[i:i + 1], X[i:i + 1]), (1, 1), False)[0, 0]
                  for i in range(X.shape[0])]
        return np.array(values, dtype=X.dtype)

    def _gram(self, X, Y):  # pragma: no cover - abstract
        raise NotImplementedError

    def __add__(self, other):
        if not isinstance(other, Kernel):
            return NotImplemented
        return SumKernel(self, other)

    def __mul__(self, other):
        if isinstance(other, Kernel):
            return ProductKernel(self, other)
        if isinstance(other, numbers.Real) and not isinstance(other, bool):
            return ScaledKernel(other, self)
        return NotImplemented

    __rmul__ = __mul__

    def scaled(self, g):
        """The kernel ``g(x) k(x, y) g(y)`` (式6.27).

        ``g`` maps an (n, d) array to n values.
        """
        if not callable(g):
            raise TypeError(f"g must be callable; got {type(g).__name__}")
        return WarpedKernel(self, g)

    def _params(self):
        return {}

    def __repr__(self):
        args = ", ".join(f"{k}={v!r}" for k, v in self._params().items())
        return f"{type(self).__name__}({args})"

    def __eq__(self, other):
        return type(self) is type(other) and self._params() == other._params()

    def __hash__(self):
        return hash((type(self).__name__, repr(self)))


class FunctionKernel(Kernel):
    """A plain function ``k(A, B) -> Gram`` as a kernel, as scikit-learn's
    ``SVC(kernel=callable)`` takes one: ``function(A, B)`` returns the
    (len(A), len(B)) matrix of k(a_i, b_j). Every block it returns goes
    through the same checks as any kernel's (shape, NaN/inf, symmetry of
    k(X, X)), so a function that returns NaN is a clear error, not a NaN model.

    Examples
    --------
    >>> import numpy as np
    >>> k = FunctionKernel(lambda A, B: (A @ B.T + 1.0) ** 2)
    >>> k(np.array([[1.0, 0.0], [0.0, 2.0]])).tolist()
    [[4.0, 1.0], [1.0, 25.0]]
    """

    def __init__(self, function):
        if not callable(function):
            raise TypeError(f"function must be callable; got {type(function).__name__}")
        self.function = function

    def _gram(self, X, Y):
        return np.asarray(self.function(X, Y), dtype=np.float64)

    def _params(self):
        return {"function": getattr(self.function, "__name__", self.function)}

    def __eq__(self, other):
        return type(self) is type(other) and self.function is other.function

    def __hash__(self):
        return hash((type(self).__name__, id(self.function)))


class Linear(Kernel):
    """Linear kernel ``k(x, y) = xᵀy``.

    Examples
    --------
    >>> Linear()([[3, 3], [4, 3], [1, 1]]).tolist()
    [[18.0, 21.0, 6.0], [21.0, 25.0, 7.0], [6.0, 7.0, 2.0]]
    """

    accepts_sparse = True

    def _gram(self, X, Y):
        return gram_product(X, Y)

    def diag(self, X):
        return row_squared_norms(as_sample_matrix(X, "X"))


class Polynomial(Kernel):
    """Polynomial kernel ``k(x, y) = (gamma xᵀy + coef0)^degree``.

    With the defaults ``gamma=1, coef0=0`` it is the book's ``(xᵀy)^d``;
    ``gamma`` and ``coef0`` give scikit-learn's ``"poly"`` kernel.

    Examples
    --------
    >>> Polynomial(degree=2)([[1.0, 2.0]], [[3.0, 1.0]]).tolist()
    [[25.0]]
    """

    def __init__(self, degree=2, *, gamma=1.0, coef0=0.0):
        self.degree = check_number(degree, "degree", low=1, integer=True)
        self.gamma = check_number(gamma, "gamma", low=0, low_open=True)
        self.coef0 = check_number(coef0, "coef0")

    accepts_sparse = True

    def _gram(self, X, Y):
        G = gram_product(X, Y)
        if self.gamma != 1.0:
            G *= self.gamma
        if self.coef0 != 0.0:
            G += self.coef0
        return G ** self.degree

    def diag(self, X):
        X = as_sample_matrix(X, "X")
        return (self.gamma * row_squared_norms(X) + self.coef0) ** self.degree

    def _params(self):
        return {"degree": self.degree, "gamma": self.gamma, "coef0": self.coef0}


def _representable_gamma(kernel_name, sigma, expression, denominator):
    """``sigma`` (already positive) such that the kernel's ``gamma =
    1/denominator(sigma)`` is a finite positive float64 computed from a
    normal float64 denominator; else a ValueError naming ``sigma`` (1/(2σ²)
    of ``sigma=1e-200`` is a division by zero in float64, of ``1e200`` an
    overflow)."""
    try:
        d = float(denominator(sigma))
    except OverflowError:
        d = np.inf
    if not np.isfinite(d) or d < np.finfo(np.float64).tiny:
        raise ValueError(
            f"sigma={sigma!r} is out of float64's range for {kernel_name}: its gamma = "
            f"{expression} must be a finite positive float64, so sigma must lie in about "
            f"{_SIGMA_RANGE[kernel_name][0]:.3g} .. {_SIGMA_RANGE[kernel_name][1]:.3g}; "
            "rescale X (and sigma with it) instead")
    return sigma


#: the range of sigma with a representable gamma (for the messages only)
_SIGMA_RANGE = {"RBF": (np.sqrt(np.finfo(np.float64).tiny / 2), np.sqrt(np.finfo(np.float64).max / 2)),
                "Laplace": (np.finfo(np.float64).tiny, np.finfo(np.float64).max)}


class _DistanceKernel(Kernel):
    """``exp(-gamma ‖x - y‖^p)`` of a width ``sigma`` (周志华 表6.1: the
    Gaussian kernel, p = 2, and the Laplace kernel, p = 1): subclasses give
    ``squared`` (p = 2) and ``_gamma()``; k(x, x) = 1."""

    accepts_sparse = True
    squared = True

    def _gamma(self):
        raise NotImplementedError

    def _gram(self, X, Y):
        G = neg_scaled_distance(X, Y, self._gamma(), squared=self.squared)
        return np.exp(G, out=G)

    def diag(self, X):
        X = as_sample_matrix(X, "X")
        return np.ones(X.shape[0], dtype=X.dtype)

    def _params(self):
        return {"sigma": self.sigma}


class RBF(_DistanceKernel):
    """Gaussian kernel ``k(x, y) = exp(-‖x - y‖² / (2 sigma²))``.

    scikit-learn's ``gamma`` is ``1 / (2 sigma²)``.

    Examples
    --------
    >>> round(float(RBF(sigma=1.0)([[0.0, 0.0]], [[1.0, 1.0]])[0, 0]), 6)
    0.367879
    """

    def __init__(self, sigma=1.0):
        self.sigma = _representable_gamma("RBF", check_number(sigma, "sigma", low=0, low_open=True),
                                          "1/(2 sigma²)", lambda s: 2.0 * s ** 2)

    squared = True

    def _gamma(self):
        return 1.0 / (2.0 * self.sigma ** 2)


class Laplace(_DistanceKernel):
    """Laplace kernel ``k(x, y) = exp(-‖x - y‖ / sigma)`` (Euclidean norm, as
    in the book; scikit-learn's ``laplacian_kernel`` uses the L1 norm).

    Examples
    --------
    >>> round(float(Laplace(sigma=1.0)([[0.0, 0.0]], [[3.0, 4.0]])[0, 0]), 6)
    0.006738
    """

    def __init__(self, sigma=1.0):
        self.sigma = _representable_gamma("Laplace",
                                          check_number(sigma, "sigma", low=0, low_open=True),
                                          "1/sigma", lambda s: s)

    squared = False

    def _gamma(self):
        return 1.0 / self.sigma


class Sigmoid(Kernel):
    """Sigmoid kernel ``k(x, y) = tanh(beta xᵀy + theta)`` with beta > 0, theta < 0.

    Not positive semi-definite for every beta, theta: check with :func:`is_psd`.

    Examples
    --------
    >>> round(float(Sigmoid()([[1.0]], [[1.0]])[0, 0]), 6)
    0.0
    """

    def __init__(self, beta=1.0, theta=-1.0):
        self.beta = check_number(beta, "beta", low=0, low_open=True)
        self.theta = check_number(theta, "theta")

    accepts_sparse = True

    def _gram(self, X, Y):
        G = gram_product(X, Y)
        G *= self.beta
        G += self.theta
        return np.tanh(G, out=G)

    def diag(self, X):
        X = as_sample_matrix(X, "X")
        return np.tanh(self.beta * row_squared_norms(X) + self.theta)

    def _params(self):
        return {"beta": self.beta, "theta": self.theta}


class CompoundKernel(Kernel):
    """A kernel made of other kernels value by value: each Gram entry (and
    each diagonal entry) is ``self._join`` of the parts' entries (周志华
    §6.6: sums, products and positive multiples of kernels are kernels).
    Subclasses name their constructor parameters (``_param_names``), those
    that are the kernels combined (``_kernel_names``), and define ``_join``."""

    _param_names = ()
    _kernel_names = ()

    def _parts(self):
        return tuple(getattr(self, name) for name in self._kernel_names)

    def _params(self):
        return {name: getattr(self, name) for name in self._param_names}

    def _join(self, values):
        raise NotImplementedError

    @property
    def accepts_sparse(self):
        return all(k.accepts_sparse for k in self._parts())

    def _gram(self, X, Y):
        return self._join([k._gram(X, Y) for k in self._parts()])

    def diag(self, X):
        return self._join([k.diag(X) for k in self._parts()])


class PairKernel(CompoundKernel):
    """Two kernels combined value by value: ``combine(k1(x, y), k2(x, y))``
    (a sum or a product of kernels is a kernel: 周志华 §6.6, 式6.25-6.26).
    Subclasses name ``_combine`` (a NumPy ufunc) and its ``symbol``."""

    _combine = None
    symbol = ""
    _param_names = _kernel_names = ("k1", "k2")

    def __init__(self, k1, k2):
        self.k1, self.k2 = k1, k2

    def _join(self, values):
        return type(self)._combine(*values)

    def __repr__(self):
        return f"({self.k1!r} {self.symbol} {self.k2!r})"


class SumKernel(PairKernel):
    """``k1(x, y) + k2(x, y)``.

    Examples
    --------
    >>> from hyperplane.kernels import RBF, Linear, SumKernel
    >>> X = [[1.0, 2.0], [0.0, 1.0]]
    >>> k = SumKernel(Linear(), RBF(sigma=1.0))
    >>> k == Linear() + RBF(sigma=1.0)
    True
    >>> float(Linear()(X)[0, 1]), round(float(RBF(sigma=1.0)(X)[0, 1]), 6)
    (2.0, 0.367879)
    >>> round(float(k(X)[0, 1]), 6)
    2.367879
    """

    _combine = np.add
    symbol = "+"


class ProductKernel(PairKernel):
    """``k1(x, y) * k2(x, y)``.

    Examples
    --------
    ``(x·y)² · exp(−‖x − y‖² / 2)`` at x = (1, 2), y = (0, 1): 4 · e⁻¹:

    >>> from hyperplane.kernels import RBF, Polynomial, ProductKernel
    >>> k = Polynomial(degree=2) * RBF(sigma=1.0)
    >>> isinstance(k, ProductKernel), round(float(k([[1.0, 2.0]], [[0.0, 1.0]])[0, 0]), 6)
    (True, 1.471518)
    """

    _combine = np.multiply
    symbol = "*"


class ScaledKernel(CompoundKernel):
    """``c * k(x, y)`` with ``c > 0``.

    Examples
    --------
    >>> from hyperplane.kernels import RBF, ScaledKernel
    >>> k = 2.0 * RBF(sigma=1.0)
    >>> k, k == ScaledKernel(2.0, RBF(sigma=1.0))
    (2.0 * RBF(sigma=1.0), True)
    >>> round(float(k([[1.0, 2.0]], [[0.0, 1.0]])[0, 0]), 6)
    0.735759
    >>> ScaledKernel(0.0, RBF())
    Traceback (most recent call last):
    ...
    ValueError: c must be in (0, inf]; got 0.0
    """

    _param_names = ("c", "kernel")
    _kernel_names = ("kernel",)

    def __init__(self, c, kernel):
        self.c = check_number(c, "c", low=0, low_open=True)
        self.kernel = kernel

    def _join(self, values):
        return self.c * values[0]

    def __repr__(self):
        return f"{self.c!r} * {self.kernel!r}"


class WarpedKernel(Kernel):
    """``g(x) k(x, y) g(y)`` for a function ``g`` (式6.27).

    Examples
    --------
    With ``g(x) = 1 / ‖x‖`` the linear kernel becomes the cosine of the angle
    between the samples:

    >>> import numpy as np
    >>> from hyperplane.kernels import Linear
    >>> def inverse_norm(X):
    ...     return 1.0 / np.linalg.norm(X, axis=1)
    >>> k = Linear().scaled(inverse_norm)
    >>> k
    Linear().scaled(inverse_norm)
    >>> k([[3.0, 4.0], [1.0, 0.0]]).round(6).tolist()
    [[1.0, 0.6], [0.6, 1.0]]
    """

    def __init__(self, kernel, g):
        self.kernel, self.g = kernel, g

    def _g(self, X):
        values = np.asarray(self.g(X), dtype=X.dtype).reshape(-1)
        if values.shape[0] != X.shape[0]:
            raise ValueError("g must return one value per row of X; got "
                             f"{values.shape[0]} values for {X.shape[0]} rows")
        return values

    def _gram(self, X, Y):
        return self._g(X)[:, None] * self.kernel._gram(X, Y) * self._g(Y)[None, :]

    def diag(self, X):
        self._check_sparse(X)
        X = as_sample_matrix(X, "X")
        return self._g(X) ** 2 * self.kernel.diag(X)

    def _params(self):
        return {"kernel": self.kernel, "g": self.g}

    def __repr__(self):
        name = getattr(self.g, "__name__", repr(self.g))
        return f"{self.kernel!r}.scaled({name})"
