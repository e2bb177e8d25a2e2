"""Is a hard margin possible? A linear-programming feasibility test."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog

#: largest n for which a kernel's n x n Gram matrix is built for the test
MAX_GRAM_ROWS = 2000


def separable(F, y):
    """Whether some (v, b) has y_i (v.F_i + b) >= 1 for every row F_i.

    F may be a ``scipy.sparse`` matrix. With F = X this is linear separability (李航 定义2.2); with F the Gram
    matrix K it is separability in the kernel's feature space (v are the
    coefficients of sum_j v_j k(x_j, .)).

    Examples
    --------
    >>> separable(np.array([[3.0, 3], [4, 3], [1, 1]]), np.array([1.0, 1, -1]))
    True
    >>> separable(np.array([[0.0, 0], [1, 1], [0, 1], [1, 0]]), np.array([1.0, 1, -1, -1]))
    False
    """
    ones = np.ones((F.shape[0], 1))
    if sp.issparse(F):              # sparse samples: a sparse constraint matrix
        Z = sp.diags(y) @ sp.hstack([F, ones], format="csr")
    else:
        Z = y[:, None] * np.hstack([F, ones])
    result = linprog(np.zeros(Z.shape[1]), A_ub=-Z, b_ub=-np.ones(Z.shape[0]),
                     bounds=[(None, None)] * Z.shape[1], method="highs")
    return result.status == 0
