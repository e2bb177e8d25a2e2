"""Compiled C4.5 error-based pruning with subtree raising (Quinlan 1993, ch. 4; Weka J48).

C4.5 charges a leaf covering ``N`` (weighted) training cases with ``e``
errors ``E = e + addErrs(N, e, CF)``, the upper limit of the binomial
confidence interval at confidence ``CF`` (Weka ``Stats.addErrs``), and prunes
bottom up: a node becomes a leaf when ``E(leaf) ≤ E(subtree) + 0.1`` and
``E(leaf) ≤ E(largest branch) + 0.1``; otherwise, when ``E(largest branch)
≤ E(subtree) + 0.1``, the largest branch is *raised* into the node, refitted
to all of the node's training rows, and pruned again (subtree raising).

Everything here works on the flat tree arrays of :class:`~hyperplane.tree._grow._builder.Tree`
(mutated in place) and the training rows: a node's rows are split again at
every visit, with ``r_v`` recomputed from the known values of the rows being
split (rows missing the tested value go down every branch with weight
``r_v · w``, 周志华 4.4.2), as C4.5 does after raising: by the growth step's
own :func:`~hyperplane.tree._grow._expand_kernels.branch_weights`, and a node no row reaches
takes its parent's class weights by its :func:`~hyperplane.tree._grow._expand_kernels.empty_branch_leaf`.
The kernels take the tree's structure as a :class:`~hyperplane.tree._state.TreeArrays`, the
nodes' class weights as a :class:`NodeFit`, the training rows as a
:class:`Training` and C4.5's confidence as an :class:`ErrorRule`. The slow
reference is ``tests/tree/_raising_reference.py`` (the former pure-Python
pruner).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..._numba import by_first_type, jit, jit_internal, jit_twin
from ..._lowered import empty
from .._grow._expand_kernels import branch_weights, empty_branch_leaf
from .._scan._criterion_kernels import regression_impurity
from .._scan._split_kernels import C45_TIE, impurity
from .._scan._numpy_sum_kernels import numpy_sum
from .._scan._loops_kernels import pick_max
from .._scan._table_kernels import class_weights
from .._traverse_kernels import branch_of_rows, partition_rows

#: how much worse (in estimated errors) a leaf or a raised branch may be and still win
PRUNE_MARGIN = 0.1


class ChildRows(NamedTuple):
    """A node's rows sent down its branches: ``rows`` and ``weights`` grouped
    by branch (branch k at ``offsets[k]:offsets[k + 1]``) and the branch
    shares ``r`` that weighted the rows missing the tested value."""
    rows: np.ndarray
    weights: np.ndarray
    offsets: np.ndarray
    r: np.ndarray


class Training(NamedTuple):
    """The rows a tree grew on, as the pruning reads them."""

    X: np.ndarray  # (n, p) encoded attributes (categorical as codes), NaN missing
    y: np.ndarray  # (n,) class index
    n_classes: int


class NodeFit(NamedTuple):
    """What every node of a tree holds from its training rows (refitted after raising)."""

    value: np.ndarray  # (m, K) class weights
    weight: np.ndarray  # (m,) their sum
    depth: np.ndarray  # (m,)


class ErrorRule(NamedTuple):
    """C4.5's pessimistic error estimate: confidence CF and ``z = Φ⁻¹(1 − CF)``."""

    confidence: float
    z: float


@jit_internal
def _upper_errors(n, e, z):
    """addErrs for ``e ≥ 1``: N·U_CF(e, N) − e with the normal approximation (z = Φ⁻¹(1−CF))."""
    if e + 0.5 >= n:
        return pick_max(n - e, 0.0)
    f = (e + 0.5) / n
    r = (f + z * z / (2 * n) + z * np.sqrt(f / n - f * f / n + z * z / (4 * n * n))) \
        / (1 + z * z / n)
    return r * n - e


@jit_twin
def added_errors(n, e, confidence, z):
    """Extra errors C4.5 charges a leaf with ``n`` cases and ``e`` errors (Weka ``Stats.addErrs``).

    ``e < 1`` interpolates between the exact zero-error limit
    ``N (1 − CF^{1/N})`` and the value at ``e = 1`` (Quinlan 1993, 4.2).
    """
    if n <= 0.0:
        return 0.0
    if e < 1.0:
        base = n * (1.0 - confidence ** (1.0 / n))
        if e == 0.0:
            return base
        return base + e * (_upper_errors(n, 1.0, z) - base)
    return _upper_errors(n, e, z)


@jit_twin
def leaf_errors(value, rule):
    """E = e + addErrs(N, e, CF) of a leaf with class weights ``value`` (0 when empty)."""
    n = numpy_sum(value)
    if n <= 0.0:
        return 0.0
    e = n - value.max()
    return e + added_errors(n, e, rule.confidence, rule.z)


@jit_internal
def split_rows(X, tree, t, rows, w):
    """Split ``rows`` (weights ``w``) over the branches of node ``t``'s test.

    ``r_v`` is :func:`~hyperplane.tree._grow._expand_kernels.branch_weights`' ``r̃_v`` of the rows
    (the stored fractions of ``t``'s children when no row knows the value); a
    row missing the value goes to every branch with weight ``r_v · w``.
    Returns ``(child_rows, child_w, offsets, r)``: branch ``v`` owns
    ``offsets[v]:offsets[v + 1]``, rows in their original order.
    """
    kids = tree.children[tree.child_start[t]:tree.child_start[t] + tree.n_child[t]]
    branch = branch_of_rows(X[:, tree.feature[t]], rows, tree.is_numeric[t],
                            tree.threshold[t])
    w_branch, r = branch_weights(branch, w, kids.shape[0])
    if not numpy_sum(w_branch) > 0:
        r = tree.branch_r[kids]
    child_rows, child_w, offsets = partition_rows(rows, w, branch, r)
    return ChildRows(child_rows, child_w, offsets, r)


@jit_twin
def tree_errors(t, tree, fit, rule):
    """Σ E over the leaves below ``t`` (their stored class weights)."""
    total = 0.0
    stack = [t]
    while len(stack) > 0:
        s = stack.pop()
        if tree.feature[s] >= 0:
            for i in range(tree.child_start[s], tree.child_start[s] + tree.n_child[s]):
                stack.append(tree.children[i])
        elif fit.weight[s] > 0:
            total += leaf_errors(fit.value[s], rule)
    return total


@jit_twin
def branch_errors(t, rows, w, data, tree, rule):
    """Σ E over the leaves below ``t`` if the subtree received ``rows`` (weights ``w``)."""
    total = 0.0
    stack_t = [t]
    stack_rows = [rows]
    stack_w = [w]
    while len(stack_t) > 0:
        s, rows_s, w_s = stack_t.pop(), stack_rows.pop(), stack_w.pop()
        if tree.feature[s] < 0:
            total += leaf_errors(class_weights(data.y, rows_s, w_s, data.n_classes), rule)
            continue
        child_rows, child_w, offsets, _ = split_rows(data.X, tree, s, rows_s, w_s)
        for v in range(tree.n_child[s]):
            a, b = offsets[v], offsets[v + 1]
            stack_t.append(tree.children[tree.child_start[s] + v])
            stack_rows.append(child_rows[a:b])
            stack_w.append(child_w[a:b])
    return total


@jit_twin
def refit(t, rows, w, data, tree, fit):
    """Class weights, weights, ``r_v`` and depths of the subtree at ``t`` from ``rows``.

    A node below ``t`` that no row reaches is an empty branch
    (:func:`~hyperplane.tree._grow._expand_kernels.empty_branch_leaf`, 周志华 4.1 line 12).
    """
    stack_t = [t]
    stack_rows = [rows]
    stack_w = [w]
    stack_parent = [-1]
    stack_depth = [fit.depth[t]]
    while len(stack_t) > 0:
        s, rows_s, w_s = stack_t.pop(), stack_rows.pop(), stack_w.pop()
        parent, d = stack_parent.pop(), stack_depth.pop()
        counts = class_weights(data.y, rows_s, w_s, data.n_classes)
        weight = numpy_sum(counts)
        if weight > 0 or parent < 0:
            fit.value[s] = counts
            fit.weight[s] = weight
        else:
            empty_branch_leaf(fit.value, fit.weight, s, fit.value[parent])
        fit.depth[s] = d
        if tree.feature[s] < 0:
            continue
        child_rows, child_w, offsets, r = split_rows(data.X, tree, s, rows_s, w_s)
        for v in range(tree.n_child[s]):
            k = tree.children[tree.child_start[s] + v]
            tree.branch_r[k] = r[v]
            stack_t.append(k)
            stack_rows.append(child_rows[offsets[v]:offsets[v + 1]])
            stack_w.append(child_w[offsets[v]:offsets[v + 1]])
            stack_parent.append(s)
            stack_depth.append(d + 1)


@jit_internal
def _largest_branch(t, tree, weight):
    """The largest branch of ``t`` as C4.5 release 8 picks it (Weka's ``maxBag``).

    Scanning the branches in order, a branch at least as heavy as the largest
    so far, less ``C45_TIE`` (Weka's ``Utils.SMALL``), becomes the largest:
    of tied branches the last wins.
    """
    best = tree.children[tree.child_start[t]]
    for i in range(tree.child_start[t] + 1, tree.child_start[t] + tree.n_child[t]):
        if weight[tree.children[i]] - weight[best] > -C45_TIE:
            best = tree.children[i]
    return best


@jit_internal
def _raise_branch(t, largest, tree):
    """Node ``t`` takes the test and the children of its branch ``largest``."""
    tree.feature[t] = tree.feature[largest]
    tree.is_numeric[t] = tree.is_numeric[largest]
    tree.threshold[t] = tree.threshold[largest]
    tree.child_start[t] = tree.child_start[largest]
    tree.n_child[t] = tree.n_child[largest] if tree.feature[t] >= 0 else 0


@jit
def prune_raising(data, rows, w, tree, fit, rule):
    """C4.5 pruning with subtree raising, in place on the tree arrays (Quinlan 1993, 4.2).

    Post-order from the root, a node's rows being split over its children
    before they are pruned: leaf if ``E(leaf) ≤ E(subtree) + 0.1`` and
    ``E(leaf) ≤ E(largest branch) + 0.1`` (``feature[t] = −1``); else raise
    the largest branch if ``E(largest branch) ≤ E(subtree) + 0.1`` (``t``
    takes its test and children, :func:`refit` to ``t``'s rows, pruned again).
    Each comparison allows Weka's ``Utils.SMALL`` (``C45_TIE``) more.
    """
    m = tree.feature.shape[0]
    rows_of = [rows[:0] for _ in range(m)]
    w_of = [w[:0] for _ in range(m)]
    rows_of[0], w_of[0] = rows, w
    stack_t = [0]
    stack_done = [False]
    while len(stack_t) > 0:
        t, done = stack_t.pop(), stack_done.pop()
        if tree.feature[t] < 0:
            continue
        rows_t, w_t = rows_of[t], w_of[t]
        if not done:
            stack_t.append(t)
            stack_done.append(True)
            child_rows, child_w, offsets, _ = split_rows(data.X, tree, t, rows_t, w_t)
            for v in range(tree.n_child[t]):
                k = tree.children[tree.child_start[t] + v]
                rows_of[k] = child_rows[offsets[v]:offsets[v + 1]]
                w_of[k] = child_w[offsets[v]:offsets[v + 1]]
                stack_t.append(k)
                stack_done.append(False)
            continue
        largest = _largest_branch(t, tree, fit.weight)
        e_raise = branch_errors(largest, rows_t, w_t, data, tree, rule)
        e_leaf = leaf_errors(fit.value[t], rule)
        e_tree = tree_errors(t, tree, fit, rule)
        # E + 0.1 + SMALL, added in this order (the reference's rounding)
        tree_bound = e_tree + PRUNE_MARGIN + C45_TIE
        to_leaf = e_leaf <= tree_bound and e_leaf <= e_raise + PRUNE_MARGIN + C45_TIE
        if not to_leaf and e_raise <= tree_bound:
            _raise_branch(t, largest, tree)
            refit(t, rows_t, w_t, data, tree, fit)
            stack_t.append(t)
            stack_done.append(False)
            continue
        for v in range(tree.n_child[t]):  # t is settled: its children's rows are no longer needed
            k = tree.children[tree.child_start[t] + v]
            rows_of[k], w_of[k] = rows[:0], w[:0]
        if to_leaf:
            tree.feature[t] = -1
            tree.n_child[t] = 0


@jit_internal
def _class_impurity(criterion, value):
    """A classifier's node impurity from its class weights ``value``
    (:func:`~hyperplane.tree._scan._split_kernels.impurity`)."""
    return impurity(value, numpy_sum(value), criterion)


def _impurity_rule(criterion):
    """:func:`_class_impurity` for a classifier's criterion (``ENTROPY``, ``GINI``: integer
    codes), else the regression criterion's own impurity
    (:data:`~hyperplane.tree._scan._criterion_kernels.regression_impurity`, which
    chooses it by the criterion's type)."""
    from numba.core import types
    if isinstance(criterion, types.Integer):
        return _class_impurity
    return regression_impurity


#: ``node_impurity(criterion, value)``: a node's impurity from its statistic, by the
#: criterion's type (:func:`_impurity_rule`); a fit compiles its criterion's rule only
node_impurity = by_first_type(_impurity_rule, "node_impurity")


@jit
def node_impurities(value, order, criterion):
    """Impurity of the statistic ``value[order[i]]`` of every node ``i``
    (:data:`node_impurity`) of a tree laid out in preorder
    (:func:`~hyperplane.tree._grow._preorder.preorder_layout`)."""
    out = empty(order.shape[0], np.float64)
    for i in range(order.shape[0]):
        out[i] = node_impurity(criterion, value[order[i]])
    return out
