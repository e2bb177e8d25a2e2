"""``kernel="precomputed"`` (LIBSVM's ``-t 4``, scikit-learn's meaning): fit
on the n x n training Gram matrix, predict on the m x n block of kernel
values between new and training samples."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from .._parameters import Options
from ..kernels import Kernel
from ..kernels._resolve import KERNEL_PARAMETER_RULES, KERNELS
from .._validation import Either

#: the kernel rule of an estimator that also takes ``"precomputed"``: the
#: names (one rule, so the message lists them all), then the other kinds
KERNEL_OR_PRECOMPUTED = Either(Options((*KERNELS, "precomputed")),
                               *KERNEL_PARAMETER_RULES["kernel"].rules[1:])


class TrainingGram(Kernel):
    """The solver's view of a precomputed Gram matrix: samples are row
    numbers (one column), and k(i, j) = gram[i, j].

    Examples
    --------
    >>> import numpy as np
    >>> k = TrainingGram(np.array([[2.0, 1.0], [1.0, 3.0]]))
    >>> k(np.array([[1.0]]), np.array([[0.0], [1.0]])).tolist()
    [[1.0, 3.0]]
    >>> k.diag(np.array([[0.0], [1.0]])).tolist()
    [2.0, 3.0]
    """

    def __init__(self, gram):
        self.gram = gram

    def _gram(self, X, Y):
        return self.gram[np.ix_(X[:, 0].astype(np.int64), Y[:, 0].astype(np.int64))]

    def diag(self, X):
        rows = np.asarray(X)[:, 0].astype(np.int64)
        return self.gram[rows, rows]

    def __repr__(self):
        return f"TrainingGram(n={self.gram.shape[0]})"


def training_gram(X):
    """The solver's kernel and samples for ``kernel="precomputed"``: ``X``
    must be the square, symmetric, finite training Gram matrix."""
    G = X.toarray() if sp.issparse(X) else np.asarray(X, dtype=np.float64)
    if G.ndim != 2 or G.shape[0] != G.shape[1]:
        raise ValueError(f"kernel='precomputed' needs X to be the square n x n Gram matrix "
                         f"of the training samples; got shape {G.shape}")
    if not np.allclose(G, G.T, rtol=1e-10, atol=1e-12 * max(1.0, np.abs(G).max())):
        raise ValueError("kernel='precomputed' needs a symmetric Gram matrix X (k(x_i, x_j) "
                         "= k(x_j, x_i)); X is not symmetric")
    return TrainingGram(G), np.arange(G.shape[0], dtype=np.float64)[:, None]
