"""Slow references: the former pure-Python C4.5 pruner (subtree raising) and tree layout.

This is the NumPy implementation ``hyperplane.tree._prune._kinds`` used before the
pruning was compiled (:mod:`hyperplane.tree._prune._pessimistic_kernels`); the tests check
that the compiled pruning gives the identical tree on random trees and data.
It works on its own growing storage (:class:`ListNodes`) and re-splits each node's
training rows with NumPy at every visit (Quinlan 1993, 4.2; Weka J48's
``C45PruneableClassifierTree``).
"""

from __future__ import annotations

import numpy as np
from scipy.stats import norm

from dataclasses import dataclass, field

from hyperplane.tree._grow._builder import Tree
from hyperplane.tree._state import NodeTest, new_store
from hyperplane.tree._grow._store_kernels import attach_children
from hyperplane.tree._scan._split_kernels import impurity
from hyperplane.tree._prune._kinds import route_validation

WEKA_SMALL = 1e-6


def added_errors(n, e, confidence, z=None):
    """Extra errors C4.5 charges leaves with ``n`` cases and ``e`` errors
    (Weka ``Stats.addErrs``), vectorised over ``n`` and ``e`` and written from
    Quinlan's definition (1993, 4.2), not from the kernel's expression: the
    charge is ``N U_CF(e, N) - e``, U_CF the upper limit of the binomial
    error rate at confidence CF,

    - ``e = 0``: the exact limit, the p with (1 - p)^N = CF
      (``-expm1(log(CF) / N)``);
    - ``e >= 1``: the normal approximation with a continuity correction, the
      larger root p of ``(p - f)^2 = z^2 p (1 - p) / N`` for
      ``f = (e + 1/2) / N`` (the quadratic ``a p^2 + b p + c = 0`` solved as
      such), capped at ``N - e`` once ``e + 1/2 >= N``;
    - ``0 < e < 1``: linear between the charges at 0 and at 1.

    ``z`` is ``Φ⁻¹(1 − CF)`` (computed here when None).
    """
    if confidence > 0.5:
        raise ValueError("confidence must be at most 0.5")
    if z is None:
        z = norm.ppf(1.0 - confidence)
    n, e = np.broadcast_arrays(np.asarray(n, dtype=float), np.asarray(e, dtype=float))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        zero = n * -np.expm1(np.log(confidence) / n)

        def upper(errors):
            f = (errors + 0.5) / n
            a, b, c = 1.0 + z * z / n, -(2.0 * f + z * z / n), f * f
            p = (-b + np.sqrt(b * b - 4.0 * a * c)) / (2.0 * a)
            return np.where(errors + 0.5 >= n, np.maximum(n - errors, 0.0), p * n - errors)

        out = np.where(e == 0.0, zero,
                       np.where(e < 1.0, zero + e * (upper(np.ones_like(e)) - zero), upper(e)))
    out = np.where(n <= 0.0, 0.0, out)
    return float(out) if out.ndim == 0 else out


@dataclass
class ListNodes:
    """Growing storage as Python lists, one entry per node (``kids``: its children's ids)."""

    feature: list = field(default_factory=list)
    is_numeric: list = field(default_factory=list)
    threshold: list = field(default_factory=list)
    kids: list = field(default_factory=list)
    branch_r: list = field(default_factory=list)
    value: list = field(default_factory=list)
    weight: list = field(default_factory=list)
    depth: list = field(default_factory=list)


def finalize_reference(nodes, criterion, n_classes, keep=None):
    """Turn growing storage into a preorder :class:`Tree` (``keep``: nodes kept as internal)."""
    order = []
    stack = [0]
    while stack:
        t = stack.pop()
        order.append(t)
        if nodes.feature[t] >= 0 and (keep is None or keep[t]):
            stack.extend(reversed(nodes.kids[t]))
    new_id = {t: i for i, t in enumerate(order)}
    m = len(order)
    feature = np.full(m, -1, dtype=np.int64)
    is_numeric = np.zeros(m, dtype=np.bool_)
    threshold = np.full(m, np.nan)
    child_start = np.zeros(m, dtype=np.int64)
    n_child = np.zeros(m, dtype=np.int64)
    children = []
    branch_r = np.zeros(m)
    value = np.zeros((m, n_classes))
    weight = np.zeros(m)
    depth = np.zeros(m, dtype=np.int64)
    for i, t in enumerate(order):
        branch_r[i] = nodes.branch_r[t]
        value[i] = nodes.value[t]
        weight[i] = nodes.weight[t]
        depth[i] = nodes.depth[t]
        if nodes.feature[t] >= 0 and (keep is None or keep[t]):
            feature[i] = nodes.feature[t]
            is_numeric[i] = nodes.is_numeric[t]
            threshold[i] = nodes.threshold[t]
            child_start[i] = len(children)
            n_child[i] = len(nodes.kids[t])
            children.extend(new_id[k] for k in nodes.kids[t])
    imp = np.array([impurity(v, v.sum(), criterion) for v in value])
    return Tree(feature, is_numeric, threshold, child_start, n_child,
                np.array(children, dtype=np.int64), branch_r, value, weight, imp, depth)


def as_nodes(tree):
    """A :class:`Tree` back into growing storage (to prune and re-finalize)."""
    nodes = ListNodes()
    for t in range(tree.n_nodes):
        nodes.feature.append(int(tree.feature[t]))
        nodes.is_numeric.append(bool(tree.is_numeric[t]))
        nodes.threshold.append(float(tree.threshold[t]))
        nodes.kids.append([int(k) for k in tree.kids(t)])
        nodes.branch_r.append(float(tree.branch_r[t]))
        nodes.value.append(tree.value[t])
        nodes.weight.append(float(tree.weight[t]))
        nodes.depth.append(int(tree.depth[t]))
    return nodes


def as_store(tree):
    """A :class:`Tree` as the growers' :class:`~hyperplane.tree._state.NodeStore`, its
    nodes split in level order (so each node's children are contiguous), and
    the tree's id of every store node."""
    store = new_store(tree.value[0], tree.weight[0], int(tree.depth[0]), 1)
    tree_id = [0]
    t_at = 0
    while t_at < len(tree_id):
        t = tree_id[t_at]
        kids = tree.kids(t)
        if tree.feature[t] >= 0:
            store = attach_children(store, t_at, NodeTest(int(tree.feature[t]),
                                                          bool(tree.is_numeric[t]),
                                                          float(tree.threshold[t])),
                                    tree.branch_r[kids], tree.value[kids], tree.weight[kids])
            tree_id.extend(int(k) for k in kids)
        t_at += 1
    return store, np.array(tree_id)


class _RaisingPruner:
    """Quinlan's C4.5 pruning with subtree raising (Weka ``C45PruneableClassifierTree``).

    Works on growing storage (mutable node lists) and the training rows: a
    node's rows are split again at every visit, with ``r_v`` recomputed from
    the known values of the rows being split, as C4.5 does after raising.
    """

    def __init__(self, nodes, X, y, K, confidence):
        self.nodes, self.X, self.y, self.K = nodes, X, y, K
        self.confidence = confidence
        self.z = norm.ppf(1.0 - confidence)

    def split(self, t, rows, w):
        """``[(rows_v, w_v)]`` of node ``t``'s branches and the fractions ``r_v``."""
        nodes = self.nodes
        kids = nodes.kids[t]
        j, numeric, threshold = nodes.feature[t], nodes.is_numeric[t], nodes.threshold[t]
        x = self.X[rows, j]
        known = ~np.isnan(x)
        branch = (x[known] > threshold).astype(np.int64) if numeric else x[known].astype(np.int64)
        sizes = np.bincount(branch, weights=w[known], minlength=len(kids))
        if sizes.sum() > 0:
            r = sizes / sizes.sum()
        else:
            r = np.array([nodes.branch_r[k] for k in kids])
        return route_validation(self.X, rows, w, (j, numeric, threshold), r), r

    def leaf_errors(self, value):
        """E = e + addErrs(N, e, CF) of a leaf with class weights ``value``."""
        n = value.sum()
        if n <= 0.0:
            return 0.0
        e = n - value.max()
        return e + added_errors(n, e, self.confidence, self.z)

    def tree_errors(self, t):
        """Sum of the leaves' E below ``t`` (their stored class weights)."""
        nodes, total, stack = self.nodes, 0.0, [t]
        while stack:
            s = stack.pop()
            if nodes.feature[s] >= 0:
                stack.extend(nodes.kids[s])
            elif nodes.weight[s] > 0:
                total += self.leaf_errors(nodes.value[s])
        return total

    def branch_errors(self, t, rows, w):
        """E of the subtree at ``t`` if it received ``rows`` (weights ``w``) instead."""
        total, stack = 0.0, [(t, rows, w)]
        while stack:
            s, rows_s, w_s = stack.pop()
            if self.nodes.feature[s] < 0:
                total += self.leaf_errors(np.bincount(self.y[rows_s], weights=w_s,
                                                      minlength=self.K))
                continue
            parts, _ = self.split(s, rows_s, w_s)
            stack.extend((k, *part) for k, part in zip(self.nodes.kids[s], parts))
        return total

    def refit(self, t, rows, w):
        """Class weights, weights, r_v and depths of the subtree at ``t`` from ``rows``."""
        nodes = self.nodes
        stack = [(t, rows, w, nodes.depth[t], None)]
        while stack:
            s, rows_s, w_s, depth, parent_value = stack.pop()
            value = np.bincount(self.y[rows_s], weights=w_s, minlength=self.K)
            nodes.weight[s] = float(value.sum())
            nodes.value[s] = value if value.sum() > 0 or parent_value is None else parent_value
            nodes.depth[s] = depth
            if nodes.feature[s] < 0:
                continue
            parts, r = self.split(s, rows_s, w_s)
            for k, part, r_v in zip(nodes.kids[s], parts, r):
                nodes.branch_r[k] = float(r_v)
                stack.append((k, *part, depth + 1, nodes.value[s]))

    def prune(self, rows, w):
        """Bottom up: leaf, raise the largest branch (then prune it again) or keep."""
        nodes = self.nodes
        rows_of = {0: (rows, w)}
        stack = [(0, False)]
        while stack:
            t, children_done = stack.pop()
            if nodes.feature[t] < 0:
                continue
            rows_t, w_t = rows_of[t]
            kids = nodes.kids[t]
            if not children_done:
                stack.append((t, True))
                parts, _ = self.split(t, rows_t, w_t)
                for k, part in zip(kids, parts):
                    rows_of[k] = part
                    stack.append((k, False))
                continue
            largest = kids[0]  # Weka's maxBag: the last branch within SMALL of the heaviest
            for k in kids[1:]:
                if nodes.weight[k] - nodes.weight[largest] > -WEKA_SMALL:
                    largest = k
            e_raise = self.branch_errors(largest, rows_t, w_t)
            e_leaf = self.leaf_errors(nodes.value[t])
            e_tree = self.tree_errors(t)
            if e_leaf <= e_tree + 0.1 + WEKA_SMALL and e_leaf <= e_raise + 0.1 + WEKA_SMALL:
                nodes.feature[t], nodes.kids[t] = -1, []
            elif e_raise <= e_tree + 0.1 + WEKA_SMALL:
                nodes.feature[t] = nodes.feature[largest]
                nodes.is_numeric[t] = nodes.is_numeric[largest]
                nodes.threshold[t] = nodes.threshold[largest]
                nodes.kids[t] = list(nodes.kids[largest]) if nodes.feature[t] >= 0 else []
                self.refit(t, rows_t, w_t)
                stack.append((t, False))


def prune_with_raising_reference(tree, confidence, criterion, X, y, w):
    """The reference pruning: same contract as ``_prune.prune_with_raising``."""
    nodes = as_nodes(tree)
    pruner = _RaisingPruner(nodes, X, y, tree.value.shape[1], confidence)
    rows = np.flatnonzero(w > 0)
    pruner.prune(rows, w[rows])
    return finalize_reference(nodes, criterion, tree.value.shape[1])
