"""The distance blocks of the distance kernels (RBF, Laplace):
``-scale · ‖x_i - y_j‖²`` or ``-scale · ‖x_i - y_j‖`` from the product block,
where the expansion cancels recomputed directly (dense: compiled,
:func:`._gram.neg_scaled_dist`, imported on the first dense block; CSR:
NumPy and scipy.sparse, :func:`._samples.sq_dist_csr`).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ._samples import gram_product, row_squared_norms, sq_dist_csr


def neg_scaled_distance(X, Y, scale, squared):
    """``-scale · ‖x_i - y_j‖²`` (``squared``) or ``-scale · ‖x_i - y_j‖``,
    entries where the expansion cancels recomputed directly.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> X = sp.csr_matrix([[0.0, 0.0], [3.0, 4.0]])
    >>> neg_scaled_distance(X, X, 2.0, squared=False).tolist()
    [[-0.0, -10.0], [-10.0, -0.0]]
    """
    G = np.ascontiguousarray(gram_product(X, Y))
    scale = G.dtype.type(scale)
    if sp.issparse(X):
        sq_dist_csr(G, X, Y, row_squared_norms(X), row_squared_norms(Y))
        if not squared:
            np.sqrt(G, out=G)
        G *= -scale
        return G
    from ._gram import neg_scaled_dist

    return neg_scaled_dist(G, np.ascontiguousarray(X), np.ascontiguousarray(Y), row_squared_norms(X),
                           row_squared_norms(Y), scale, squared)
