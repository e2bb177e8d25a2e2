"""The four pruning kinds: pre and post (周志华 4.3), pessimistic (C4.5), cost complexity (CART).

* **pre**: while growing, a node is split only if accuracy on the validation
  set strictly rises (children labelled by their training majority).
* **post**: bottom up, a subtree becomes a leaf only if validation accuracy
  strictly rises.
* **pessimistic**: C4.5's error-based pruning (Quinlan 1993, ch. 4): a leaf
  covering N (weighted) cases with E errors is charged the upper limit of the
  binomial confidence interval at ``confidence`` (Weka's ``Stats.addErrs``);
  a subtree becomes a leaf when the leaf's charge is at most the sum of its
  leaves' charges + 0.1 and at most its largest branch's charge + 0.1; with
  the training rows, C4.5's subtree raising replaces a node by its largest
  branch (re-fitted to all of the node's rows) when that branch's charge is
  within 0.1 of the subtree's.
* **cost_complexity**: minimal cost-complexity pruning (Breiman et al. 1984,
  3.3) with R(t) the impurity of t weighted by its share of the training
  weight, as scikit-learn does: repeatedly prune the weakest link
  g(t) = (R(t) − R(T_t)) / (|leaves(T_t)| − 1) while g ≤ ``ccp_alpha``.

Validation rows missing a tested value are routed to every branch with
weight ``r_v``; accuracy is then the weight of correctly labelled rows.
"""

from __future__ import annotations

import numpy as np
from scipy.stats import norm

from ._builder import as_nodes, finalize

STRICT = 1e-12
#: Weka's ``Utils.SMALL``: J48's tolerance in the pruning comparisons
WEKA_SMALL = 1e-6


def route_validation(X, rows, w, test, r):
    """Split validation rows over a test's branches (missing → every branch, weight r_v)."""
    j, numeric, threshold = test
    x = X[rows, j]
    missing = np.isnan(x)
    if numeric:
        branch = np.where(x <= threshold, 0, 1)
    else:
        branch = np.where(missing, -1, np.nan_to_num(x, nan=-1)).astype(np.int64)
    out = []
    for v in range(r.shape[0]):
        take = missing | (branch == v)
        out.append((rows[take], np.where(missing[take], r[v] * w[take], w[take])))
    return out


class PrePruner:
    """Veto of a split that does not strictly raise validation accuracy (周志华 4.3.1)."""

    def __init__(self, X_val, y_val, w_val, label_of):
        self.X, self.y, self.label_of = X_val, y_val, label_of
        self.state = {0: (np.arange(X_val.shape[0]), w_val)}
        self.pending = None

    def _correct(self, rows, w, value):
        return float(w[self.y[rows] == self.label_of(value)].sum())

    def allows(self, node, value, child_values, r, test):
        rows, w = self.state.pop(node, (np.empty(0, dtype=np.int64), np.empty(0)))
        parts = route_validation(self.X, rows, w, test, r)
        before = self._correct(rows, w, value)
        after = 0.0
        for (rows_v, w_v), value_v, r_v in zip(parts, child_values, r):
            after += self._correct(rows_v, w_v, value_v if r_v > 0 else value)
        self.pending = parts
        return after > before + STRICT

    def adopt(self, node, children):
        for child, part in zip(children, self.pending):
            self.state[child] = part


def validation_counts(tree, X_val, y_val, w_val):
    """Weight of validation rows of each class reaching each node, shape (n_nodes, K)."""
    counts = np.zeros((tree.n_nodes, tree.value.shape[1]))
    known = y_val >= 0
    stack = [(0, np.flatnonzero(known), w_val[known])]
    while stack:
        t, rows, w = stack.pop()
        counts[t] = np.bincount(y_val[rows], weights=w, minlength=counts.shape[1])
        if tree.feature[t] < 0 or rows.size == 0:
            continue
        kids = tree.kids(t)
        test = (tree.feature[t], tree.is_numeric[t], tree.threshold[t])
        parts = route_validation(X_val, rows, w, test, tree.branch_r[kids])
        for child, (rows_v, w_v) in zip(kids, parts):
            stack.append((child, rows_v, w_v))
    return counts


def _bottom_up(tree, leaf_cost, better_as_leaf):
    """Post-order pass: ``keep[t]`` False where the subtree at ``t`` becomes a leaf."""
    keep = tree.feature >= 0
    cost = np.zeros(tree.n_nodes)
    for t in range(tree.n_nodes - 1, -1, -1):  # preorder reversed: children first
        cost_leaf = leaf_cost(t)
        if tree.feature[t] < 0:
            cost[t] = cost_leaf
            continue
        cost_subtree = cost[tree.kids(t)].sum()
        if better_as_leaf(cost_leaf, cost_subtree):
            keep[t] = False
            cost[t] = cost_leaf
        else:
            cost[t] = cost_subtree
    return keep


def _rebuild(tree, keep, criterion):
    return finalize(as_nodes(tree), criterion, tree.value.shape[1], keep=keep)


def post_prune(tree, X_val, y_val, w_val, label_of, criterion):
    """Reduced-error post-pruning: leaf iff validation accuracy strictly rises (周志华 4.3.2)."""
    counts = validation_counts(tree, X_val, y_val, w_val)
    labels = np.array([label_of(v) for v in tree.value])
    correct = counts[np.arange(tree.n_nodes), labels]
    # cost = minus correct weight; prune when the leaf is strictly better
    keep = _bottom_up(tree, lambda t: -correct[t], lambda leaf, sub: leaf < sub - STRICT)
    return _rebuild(tree, keep, criterion)


def added_errors(n, e, confidence, z=None):
    """Extra errors C4.5 charges a leaf with ``n`` cases and ``e`` errors (Weka Stats.addErrs).

    ``z`` is the normal quantile ``Φ⁻¹(1 − confidence)``; pass it when charging
    many leaves so that it is computed once per pruning, not once per node.
    """
    if confidence > 0.5:
        raise ValueError("confidence must be at most 0.5")
    if n <= 0.0:
        return 0.0
    if e < 1.0:
        base = n * (1.0 - confidence ** (1.0 / n))
        if e == 0.0:
            return base
        return base + e * (added_errors(n, 1.0, confidence, z) - base)
    if e + 0.5 >= n:
        return max(n - e, 0.0)
    if z is None:
        z = norm.ppf(1.0 - confidence)
    f = (e + 0.5) / n
    r = (f + z * z / (2 * n) + z * np.sqrt(f / n - f * f / n + z * z / (4 * n * n))) \
        / (1 + z * z / n)
    return r * n - e


def pessimistic_prune(tree, confidence, criterion, training=None):
    """C4.5 error-based pruning: leaf iff its estimated errors ≤ the subtree's + 0.1.

    With ``training=(X, y, w)`` (the encoded rows the tree was grown on) C4.5's
    subtree raising is done too (:func:`prune_with_raising`).
    """
    if training is not None:
        return prune_with_raising(tree, confidence, criterion, *training)
    errors = tree.weight - tree.value.max(axis=1)
    errors = np.where(tree.weight > 0, errors, 0.0)
    z = norm.ppf(1.0 - confidence)

    def leaf_cost(t):
        n = tree.weight[t]
        return errors[t] + added_errors(n, errors[t], confidence, z) if n > 0 else 0.0

    keep = _bottom_up(tree, leaf_cost, lambda leaf, sub: leaf <= sub + 0.1)
    return _rebuild(tree, keep, criterion)


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
            largest = kids[int(np.argmax([nodes.weight[k] for k in kids]))]
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


def prune_with_raising(tree, confidence, criterion, X, y, w):
    """C4.5 error-based pruning with subtree raising (Quinlan 1993, 4.2; Weka J48).

    Bottom up, with ``E = e + addErrs(N, e, CF)`` summed over leaves: a node
    becomes a leaf if ``E(leaf) ≤ E(subtree) + 0.1`` and ``E(leaf) ≤
    E(largest branch) + 0.1``, where the largest branch is charged on *all*
    the node's training rows; otherwise, if ``E(largest branch) ≤
    E(subtree) + 0.1``, the largest branch replaces the node, its class
    weights are recomputed from the node's rows, and it is pruned again.
    """
    nodes = as_nodes(tree)
    pruner = _RaisingPruner(nodes, X, y, tree.value.shape[1], confidence)
    rows = np.flatnonzero(w > 0)
    pruner.prune(rows, w[rows])
    return finalize(nodes, criterion, tree.value.shape[1])


def cost_complexity_path(tree):
    """Effective alphas and total leaf impurities of the nested pruned trees (weakest links).

    Returns ``(ccp_alphas, impurities, prune_order)``; ``prune_order[i]`` is
    the node pruned to reach step ``i + 1``.
    """
    total = tree.weight[0]
    r_node = tree.weight / total * tree.impurity
    parent = np.full(tree.n_nodes, -1)
    for t in range(tree.n_nodes):
        parent[tree.kids(t)] = t
    internal = tree.feature >= 0
    n_leaves = np.where(internal, 0, 1).astype(np.int64)
    r_branch = np.where(internal, 0.0, r_node)
    for t in range(tree.n_nodes - 1, 0, -1):
        n_leaves[parent[t]] += n_leaves[t]
        r_branch[parent[t]] += r_branch[t]
    alive = internal.copy()
    alphas, impurities, pruned = [0.0], [r_branch[0]], []
    while alive[0]:
        g = np.full(tree.n_nodes, np.inf)
        g[alive] = (r_node[alive] - r_branch[alive]) / (n_leaves[alive] - 1)
        t = int(np.argmin(g))
        alpha = g[t]
        # remove the subtree below t
        stack = list(tree.kids(t))
        while stack:
            s = stack.pop()
            alive[s] = False
            stack.extend(tree.kids(s) if tree.feature[s] >= 0 else [])
        alive[t] = False
        d_leaves = n_leaves[t] - 1
        d_r = r_branch[t] - r_node[t]
        a = t
        while a >= 0:
            n_leaves[a] -= d_leaves
            r_branch[a] -= d_r
            a = parent[a]
        alphas.append(alpha)
        impurities.append(r_branch[0])
        pruned.append(t)
    return np.array(alphas), np.array(impurities), pruned


def cost_complexity_prune(tree, ccp_alpha, criterion):
    """Prune the weakest links while their effective alpha ≤ ``ccp_alpha``."""
    alphas, _, pruned = cost_complexity_path(tree)
    keep = tree.feature >= 0
    for alpha, t in zip(alphas[1:], pruned):
        if alpha > ccp_alpha:
            break
        keep[t] = False
    return _rebuild(tree, keep, criterion)
