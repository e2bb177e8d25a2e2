"""Novikoff's theorem (李航《统计学习方法》定理2.1): on linearly separable data
the perceptron makes at most k <= (R / gamma)^2 mistakes."""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from sklearn.utils import check_array

from .._validation import encode_labels, signed_labels
from ..kernels import Linear
from ..svm._separable import separable
from ..svm._smo import SMOSolver

#: R = max |x_hat_i|, gamma = the largest margin of a unit-norm w_hat,
#: bound = (R / gamma)^2.
NovikoffBound = namedtuple("NovikoffBound", "R gamma bound")


def max_margin_through_origin(Z, tol=1e-10):
    """The w_hat of min |w_hat|^2 subject to w_hat.z_i >= 1, by the hard-margin
    SMO solver (C = inf) on the symmetric set {(z_i, +1), (-z_i, -1)}: its
    constraints are symmetric in the bias, so the optimal bias is 0 and the
    SVM's w is the homogeneous one."""
    m = Z.shape[0]
    points = np.vstack([Z, -Z])
    labels = np.concatenate([np.ones(m), -np.ones(m)])
    solution = SMOSolver(Linear(), points, np.arange(2 * m), labels, -np.ones(2 * m),
                         np.full(2 * m, np.inf), tol=tol).solve()
    return (solution.alpha * labels) @ points


def novikoff_bound(X, y):
    """R, gamma and Novikoff's bound (R / gamma)^2 with augmented vectors.

    x_hat = (x, 1) and w_hat = (w, b) (李航 2.3.2): ``R = max |x_hat_i|``;
    ``gamma = max_{|w_hat| = 1} min_i y_i w_hat.x_hat_i``, the margin of the
    best separating hyperplane, computed by the hard-margin SVM solver
    (``gamma = 1 / |w_hat*|`` for the w_hat* of least norm with
    y_i w_hat.x_hat_i >= 1); the perceptron makes at most ``bound`` updates.

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
    if not separable(X, signs):
        raise ValueError("the data are not linearly separable, so Novikoff's theorem "
                         "does not apply (the perceptron never converges on them)")
    w_hat = max_margin_through_origin(Z)
    R = float(np.max(np.linalg.norm(X_hat, axis=1)))
    gamma = float(np.min(Z @ w_hat) / np.linalg.norm(w_hat))
    return NovikoffBound(R=R, gamma=gamma, bound=(R / gamma) ** 2)
