"""Compiled per-node steps of the oblique (multivariate) decision tree.

Arrays and scalars in, arrays and scalars out; the estimator in
:mod:`hyperplane.tree._oblique` validates everything before calling them.

* :func:`project` -- ``z_k = w . x_{rows[k]}``, the node's linear test value.
* :func:`weighted_gram` -- ``Z^T W Z`` for Fisher's within-class scatter.
* :func:`best_threshold` -- scan the sorted projections for the cut
  ``z <= t`` of least weighted child impurity (Gini or entropy), by the
  univariate tree's ordered scan.
* :func:`perturb_coefficient` -- OC1's exact line search along one
  coefficient of the hyperplane.
* :func:`apply_tree` -- route every row of ``X`` to its leaf.

:func:`project` and :func:`apply_tree` use the strict IEEE decorator and the
same summation order, so a training sample's projection at prediction time is
bit-for-bit the value its threshold was chosen from.
"""

from __future__ import annotations

import numpy as np

from .._numba import jit, jit_fast
from ._scan._numeric_cut_kernels import KNOWN, LEFT, RIGHT, WORK_ROWS, ordered_row_cut
from ._scan._positions_kernels import KnownPart, RowPositions
from ._scan._split_kernels import ROUND_OFF, impurity
from ._state import GrowRules


@jit
def project(X, rows, w):
    """``z[k] = sum_j X[rows[k], j] * w[j]`` summed in column order."""
    n = rows.shape[0]
    d = X.shape[1]
    z = np.empty(n, dtype=np.float64)
    for k in range(n):
        s = 0.0
        r = rows[k]
        for j in range(d):
            s += X[r, j] * w[j]
        z[k] = s
    return z


@jit_fast
def weighted_gram(Z, w):
    """``Z^T diag(w) Z``, the weighted scatter matrix of the rows of ``Z``.

    Single-threaded on purpose: a per-node BLAS call of this size spends
    more time waking threads than computing when cores are shared.
    """
    n, d = Z.shape
    G = np.zeros((d, d), dtype=np.float64)
    for i in range(n):
        wi = w[i]
        for a in range(d):
            za = wi * Z[i, a]
            for b in range(a + 1):
                G[a, b] += za * Z[i, b]
    for a in range(d):
        for b in range(a):
            G[b, a] = G[a, b]
    return G


@jit
def best_threshold(z, y, w, n_classes, criterion, min_samples_leaf):
    """Best cut ``z <= t`` along sorted projections ``z``.

    Minimises the weighted child impurity
    ``|D-|/|D| I(D-) + |D+|/|D| I(D+)`` over midpoints between adjacent
    distinct values of ``z`` that leave at least ``min_samples_leaf`` samples
    on each side (周志华 4.4.1, as a univariate tree cuts a numeric attribute).
    Between equally good cuts the smaller ``t`` wins. The scan is the
    univariate tree's (:func:`~._scan._numeric_cut_kernels.ordered_class_cut`,
    one position per projected sample), whose cut qualities order the cuts as
    the child impurity does; the chosen cut's child impurity is then summed
    as :func:`split_impurity` and :func:`perturb_coefficient` sum theirs, so
    that OC1 compares like with like.

    Parameters
    ----------
    z : float64 array, sorted ascending
    y : int64 array of class indices (same order as ``z``)
    w : float64 array of positive sample weights (same order)
    n_classes : int
    criterion : int, ``_split_kernels.GINI`` or ``ENTROPY``
    min_samples_leaf : int

    Returns
    -------
    impurity : float
        The weighted child impurity, ``inf`` when no cut is allowed.
    threshold : float
    n_left : int
        Samples with ``z <= threshold`` (0 when no cut is allowed).

    Examples
    --------
    >>> import numpy as np
    >>> from hyperplane.tree._oblique_kernels import best_threshold
    >>> from hyperplane.tree._scan._split_kernels import GINI
    >>> z = np.array([0.0, 1.0, 2.0, 3.0])
    >>> y = np.array([0, 0, 1, 1])
    >>> best_threshold(z, y, np.ones(4), 2, GINI, 1)
    (0.0, 1.5, 2)
    """
    n = z.shape[0]
    work = np.empty((WORK_ROWS, n_classes))
    total = work[KNOWN]
    for k in range(n_classes):
        total[k] = 0.0
    for i in range(n):
        total[y[i]] += w[i]
    w_all = 0.0
    for k in range(n_classes):
        w_all += total[k]
    rules = GrowRules(criterion, None, np.inf, 2.0, float(min_samples_leaf), 0.0, None)
    cut = ordered_row_cut(RowPositions(z, y, w), KnownPart(w_all, w_all, n, n, False), work,
                          rules, np.empty(0))
    if not cut.valid:
        return np.inf, 0.0, 0
    below, above = work[LEFT], work[RIGHT]  # the chosen cut's sides, summed in row order
    for k in range(n_classes):
        below[k] = 0.0
    n_below = 0
    w_below = 0.0
    while z[n_below] <= cut.threshold:
        below[y[n_below]] += w[n_below]
        w_below += w[n_below]
        n_below += 1
    for k in range(n_classes):
        above[k] = total[k] - below[k]
    w_above = w_all - w_below
    imp = (w_below * impurity(below, w_below, criterion)
           + w_above * impurity(above, w_above, criterion)) / w_all
    return imp, cut.threshold, n_below


@jit
def split_impurity(V, y, w, n_classes, criterion):
    """Weighted child impurity of the split ``V <= 0`` (left) / ``V > 0``."""
    left = np.zeros(n_classes, dtype=np.float64)
    right = np.zeros(n_classes, dtype=np.float64)
    for i in range(V.shape[0]):
        if V[i] <= 0.0:
            left[y[i]] += w[i]
        else:
            right[y[i]] += w[i]
    w_left = left.sum()
    w_right = right.sum()
    return (w_left * impurity(left, w_left, criterion)
            + w_right * impurity(right, w_right, criterion)) / (w_left + w_right)


@jit
def perturb_coefficient(V, x_m, a_m, y, w, n_classes, criterion, min_samples_leaf):
    """OC1's deterministic perturbation of one coefficient (Murthy et al. 1994, 2.2).

    The hyperplane is ``V_j = sum_i a_i x_ji + a_{d+1}``, sample ``j`` on the
    left when ``V_j <= 0``. Changing ``a_m`` to ``a`` moves ``V_j`` by
    ``(a - a_m) x_jm``, so sample ``j`` changes side at
    ``U_j = a_m - V_j / x_jm``: for ``x_jm > 0`` it is left iff ``a <= U_j``,
    for ``x_jm < 0`` iff ``a >= U_j``; ``x_jm = 0`` never moves. Scanning the
    sorted ``U_j`` is an exact line search for the ``a`` of least weighted
    child impurity, evaluated at midpoints of adjacent distinct ``U_j``.

    Returns
    -------
    impurity : float
        Least impurity found (``inf`` if no admissible value).
    a : float
        The value of ``a_m`` achieving it (the smallest among ties).
    """
    n = V.shape[0]
    left = np.zeros(n_classes, dtype=np.float64)
    right = np.zeros(n_classes, dtype=np.float64)
    n_left = 0
    m = 0
    for j in range(n):
        if x_m[j] != 0.0:
            m += 1
    U = np.empty(m, dtype=np.float64)
    movers = np.empty(m, dtype=np.int64)
    k = 0
    for j in range(n):
        xj = x_m[j]
        if xj > 0.0 or (xj == 0.0 and V[j] <= 0.0):  # left at a = -inf
            left[y[j]] += w[j]
            n_left += 1
        else:
            right[y[j]] += w[j]
        if xj != 0.0:
            U[k] = a_m - V[j] / xj
            movers[k] = j
            k += 1
    order = np.argsort(U)
    w_all = left.sum() + right.sum()
    best = np.inf
    best_a = a_m
    for r in range(m):
        j = movers[order[r]]
        if x_m[j] > 0.0:  # crosses left -> right
            left[y[j]] -= w[j]
            right[y[j]] += w[j]
            n_left -= 1
        else:
            right[y[j]] -= w[j]
            left[y[j]] += w[j]
            n_left += 1
        if r + 1 < m and not U[order[r + 1]] > U[order[r]]:
            continue
        if n_left < min_samples_leaf or n - n_left < min_samples_leaf:
            continue
        w_left = 0.0
        for c in range(n_classes):
            w_left += left[c]
        w_right = w_all - w_left
        imp = (w_left * impurity(left, max(w_left, 0.0), criterion)
               + w_right * impurity(right, max(w_right, 0.0), criterion)) / w_all
        if imp < best - ROUND_OFF:
            best = imp
            lo = U[order[r]]
            best_a = lo + 1.0 if r + 1 == m else lo + (U[order[r + 1]] - lo) / 2.0
    return best, best_a


@jit
def apply_tree(X, coef, threshold, children_left, children_right):
    """Leaf index of every row: go left while ``coef[node] . x <= threshold[node]``.

    A node is a leaf when ``children_left[node] == -1``.
    """
    n = X.shape[0]
    d = X.shape[1]
    leaves = np.empty(n, dtype=np.int64)
    for i in range(n):
        node = 0
        while children_left[node] != -1:
            s = 0.0
            for j in range(d):
                s += X[i, j] * coef[node, j]
            if s <= threshold[node]:
                node = children_left[node]
            else:
                node = children_right[node]
        leaves[i] = node
    return leaves
