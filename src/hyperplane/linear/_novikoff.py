"""Novikoff's theorem (李航《统计学习方法》定理2.1): on linearly separable data
the perceptron makes at most k <= (R / gamma)^2 mistakes.

gamma, the margin of the best separating hyperplane, is a least-distance
problem, min |w_hat| subject to y_i w_hat.x_hat_i >= 1, which Lawson and Hanson
(*Solving Least Squares Problems*, 1974, ch. 23, algorithm LDP) reduce to one
non-negative least-squares problem: SciPy's ``nnls``, with nothing to compile."""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from scipy.optimize import nnls
from sklearn.utils import check_array

from .._validation import encode_labels, signed_labels

#: R = max |x_hat_i|, gamma = the largest margin of a unit-norm w_hat,
#: bound = (R / gamma)^2.
NovikoffBound = namedtuple("NovikoffBound", "R gamma bound")

NOT_SEPARABLE = ("the data are not linearly separable, so Novikoff's theorem does not apply "
                 "(the perceptron never converges on them)")


def max_margin_through_origin(Z):
    """The w_hat of least norm with w_hat.z_i >= 1 for every row z_i of ``Z``.

    Lawson and Hanson's LDP (1974, ch. 23): with E = [Z^T; 1^T] and
    f = (0, ..., 0, 1), the non-negative least-squares solution u of
    min |E u - f| has residual r = E u - f, and w_hat = -r[:d] / r[d]; r = 0
    means that no w_hat satisfies the constraints. The multipliers u are the
    hard-margin SVM's (through the origin) up to the scale r[d]. A w_hat with
    every w_hat.z_i > 0 proves the points separable; none (or r[d] = 0) is
    refused as inseparable.

    Examples
    --------
    李航 例2.1's augmented, signed points z_i = y_i (x_i, 1):

    >>> import numpy as np
    >>> Z = np.array([[3.0, 3, 1], [4, 3, 1], [-1, -1, -1]])
    >>> max_margin_through_origin(Z).round(12).tolist()
    [0.5, 0.5, -2.0]
    """
    m, d = Z.shape
    E = np.vstack([Z.T, np.ones((1, m))])
    f = np.zeros(d + 1)
    f[d] = 1.0
    u, _ = nnls(E, f)
    r = E @ u - f
    if not r[d] < 0.0:
        raise ValueError(NOT_SEPARABLE)
    w_hat = -r[:d] / r[d]
    if not np.min(Z @ w_hat) > 0.0:
        raise ValueError(NOT_SEPARABLE)
    return w_hat


def novikoff_bound(X, y):
    """R, gamma and Novikoff's bound (R / gamma)^2 with augmented vectors.

    x_hat = (x, 1) and w_hat = (w, b) (李航 2.3.2): ``R = max |x_hat_i|``;
    ``gamma = max_{|w_hat| = 1} min_i y_i w_hat.x_hat_i``, the margin of the
    best separating hyperplane: ``gamma = 1 / |w_hat*|`` for the w_hat* of
    least norm with y_i w_hat.x_hat_i >= 1 (:func:`max_margin_through_origin`);
    the perceptron makes at most ``bound`` updates.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Two classes; ``classes_[1]`` (in sorted order) is +1.

    Returns
    -------
    NovikoffBound
        Named tuple ``(R, gamma, bound)``.

    Raises
    ------
    ValueError
        If the data are not linearly separable (or not two classes).

    Examples
    --------
    李航 例2.1 (x1 = (3, 3), x2 = (4, 3) positive, x3 = (1, 1) negative):

    >>> from hyperplane.linear import novikoff_bound
    >>> R, gamma, bound = novikoff_bound([[3, 3], [4, 3], [1, 1]], [1, 1, -1])
    >>> round(R ** 2, 6), round(gamma ** 2, 6), round(bound, 6)
    (26.0, 0.222222, 117.0)
    """
    X = check_array(X, dtype=np.float64, input_name="X")
    y = np.asarray(y)
    if y.ndim != 1 or y.shape[0] != X.shape[0]:
        raise ValueError(f"y must have shape ({X.shape[0]},); got {y.shape}")
    classes, y_index = encode_labels(y)
    if classes.shape[0] != 2:
        raise ValueError(f"Novikoff's bound needs two classes; got {classes.shape[0]}")
    signs = signed_labels(y_index)
    X_hat = np.hstack([X, np.ones((X.shape[0], 1))])
    Z = signs[:, None] * X_hat
    w_hat = max_margin_through_origin(Z)
    R = float(np.max(np.linalg.norm(X_hat, axis=1)))
    gamma = float(np.min(Z @ w_hat) / np.linalg.norm(w_hat))
    return NovikoffBound(R=R, gamma=gamma, bound=(R / gamma) ** 2)
