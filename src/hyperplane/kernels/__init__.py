"""Kernel functions (周志华《机器学习》表6.1) and their combinations.

Examples
--------
>>> from hyperplane.kernels import RBF, Polynomial, Linear
>>> k = 2.0 * RBF(sigma=0.5) + Polynomial(degree=2) * Linear()
>>> k([[1.0, 0.0], [0.0, 1.0]]).shape
(2, 2)
"""

from ._kernels import (
    RBF,
    FunctionKernel,
    Kernel,
    Laplace,
    Linear,
    Polynomial,
    ProductKernel,
    ScaledKernel,
    Sigmoid,
    SumKernel,
    WarpedKernel,
)
from ._resolve import (
    KERNEL_PARAMETER_RULES,
    KERNELS,
    NotPSDWarning,
    is_psd,
    known_psd,
    resolve_gamma,
    resolve_kernel,
    warn_if_not_psd,
)

__all__ = [
    "Kernel", "FunctionKernel", "Linear", "Polynomial", "RBF", "Laplace", "Sigmoid",
    "SumKernel", "ProductKernel", "ScaledKernel", "WarpedKernel",
    "KERNELS", "KERNEL_PARAMETER_RULES", "resolve_kernel", "resolve_gamma", "is_psd", "known_psd", "warn_if_not_psd",
    "NotPSDWarning",
]
