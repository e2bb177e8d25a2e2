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

Pre and post pruning record each decision with the whole tree's validation
accuracy before and after it (周志华 figures 4.6 and 4.7) in a
:class:`PruningDecisions` list, published as ``pruning_trace_``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.stats import norm

from .._grow._builder import tree_from_arrays
from ._pessimistic_kernels import added_errors as _added_errors
from ._pessimistic_kernels import ErrorRule, NodeFit, Training, prune_raising
from .._state import TreeArrays

STRICT = 1e-12


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


class PruningDecisions:
    """Pruning decisions in the order made, each with the validation accuracy of
    the whole tree before and after it.

    A decision changes the correctly labelled validation weight of one node's
    subtree only, so the tree's accuracy moves by that change over the total
    validation weight; ``accuracy`` is the tree's accuracy so far.
    """

    def __init__(self, total_weight):
        self.total = float(total_weight)
        self.accuracy = None
        self.rows = []

    def record(self, kind, feature, correct_before, correct_after, adopted):
        """Log one decision; ``adopted`` moves the tree to the accuracy after it."""
        after = self.accuracy + (correct_after - correct_before) / self.total
        self.rows.append((kind, int(feature), self.accuracy, after, bool(adopted)))
        if adopted:
            self.accuracy = after

    def frame(self, names):
        """``pruning_trace_``: step, kind, attribute, accuracy before/after, decision."""
        decision = {("pre", True): "split", ("pre", False): "leaf",
                    ("post", True): "prune", ("post", False): "keep"}
        return pd.DataFrame(
            [{"step": k + 1, "kind": kind, "attribute": names[feature],
              "accuracy_before": before, "accuracy_after": after,
              "decision": decision[kind, adopted]}
             for k, (kind, feature, before, after, adopted) in enumerate(self.rows)],
            columns=["step", "kind", "attribute", "accuracy_before", "accuracy_after",
                     "decision"])


class PrePruner:
    """Veto of a split that does not strictly raise validation accuracy (周志华 4.3.1)."""

    def __init__(self, X_val, y_val, w_val, label_of):
        self.X, self.y, self.label_of = X_val, y_val, label_of
        self.state = {0: (np.arange(X_val.shape[0]), w_val)}
        self.pending = None
        self.decisions = PruningDecisions(w_val.sum())

    def _correct(self, rows, w, value):
        return float(w[self.y[rows] == self.label_of(value)].sum())

    def allows(self, node, value, child_values, r, test):
        rows, w = self.state.pop(node, (np.empty(0, dtype=np.int64), np.empty(0)))
        parts = route_validation(self.X, rows, w, test, r)
        before = self._correct(rows, w, value)
        after = 0.0
        for (rows_v, w_v), value_v in zip(parts, child_values):
            after += self._correct(rows_v, w_v, value_v)
        self.pending = parts
        if self.decisions.accuracy is None:  # the root as a leaf: the tree's first accuracy
            self.decisions.accuracy = before / self.decisions.total
        allowed = after > before + STRICT
        self.decisions.record("pre", test[0], before, after, allowed)
        return allowed

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


def _bottom_up(tree, leaf_cost, better_as_leaf, record=None):
    """Post-order pass: ``keep[t]`` False where the subtree at ``t`` becomes a leaf.

    ``record(t, cost_leaf, cost_subtree, pruned)``, if given, sees every decision.
    """
    keep = tree.feature >= 0
    cost = np.zeros(tree.n_nodes)
    for t in range(tree.n_nodes - 1, -1, -1):  # preorder reversed: children first
        cost_leaf = leaf_cost(t)
        if tree.feature[t] < 0:
            cost[t] = cost_leaf
            continue
        cost_subtree = cost[tree.kids(t)].sum()
        pruned = better_as_leaf(cost_leaf, cost_subtree)
        if record is not None:
            record(t, cost_leaf, cost_subtree, pruned)
        if pruned:
            keep[t] = False
            cost[t] = cost_leaf
        else:
            cost[t] = cost_subtree
    return keep


def _rebuild(tree, keep, criterion):
    return tree_from_arrays(tree.feature, tree.is_numeric, tree.threshold, tree.child_start,
                            tree.n_child, tree.children, tree.branch_r, tree.value, tree.weight,
                            tree.depth, criterion, keep)


def post_prune(tree, X_val, y_val, w_val, label_of, criterion, decisions=None):
    """Reduced-error post-pruning: leaf iff validation accuracy strictly rises (周志华 4.3.2).

    ``decisions`` (a :class:`PruningDecisions`), if given, records each node's decision.
    """
    counts = validation_counts(tree, X_val, y_val, w_val)
    labels = np.array([label_of(v) for v in tree.value])
    correct = counts[np.arange(tree.n_nodes), labels]
    record = None
    if decisions is not None:
        decisions.accuracy = correct[tree.feature < 0].sum() / decisions.total

        def record(t, leaf, subtree, pruned):
            decisions.record("post", tree.feature[t], -subtree, -leaf, pruned)
    # cost = minus correct weight; prune when the leaf is strictly better
    keep = _bottom_up(tree, lambda t: -correct[t], lambda leaf, sub: leaf < sub - STRICT,
                      record)
    return _rebuild(tree, keep, criterion)


def added_errors(n, e, confidence, z=None):
    """Extra errors C4.5 charges a leaf with ``n`` cases and ``e`` errors (Weka Stats.addErrs).

    ``z`` is the normal quantile ``Φ⁻¹(1 − confidence)``; pass it when charging
    many leaves so that it is computed once per pruning, not once per node.
    Compiled in :func:`~._pessimistic_kernels.added_errors`.
    """
    if confidence > 0.5:
        raise ValueError("confidence must be at most 0.5")
    if z is None:
        z = norm.ppf(1.0 - confidence)
    return _added_errors(float(n), float(e), float(confidence), float(z))


#: a subtree whose training errors are within this of its root's errors as a leaf collapses
COLLAPSE_SLACK = 1e-3


def collapse(tree, criterion):
    """C4.5 release 8's collapse before pruning (Weka's ``ClassifierTree.collapse``).

    Top down, a subtree that makes at least as many training errors as its
    root would as a leaf, less ``COLLAPSE_SLACK``, becomes that leaf. The
    errors of a node are its weight minus its majority class's weight.
    """
    errors = np.where(tree.weight > 0, tree.weight - tree.value.max(axis=1), 0.0)
    subtree = errors.copy()
    for t in range(tree.n_nodes - 1, -1, -1):  # preorder reversed: children first
        if tree.feature[t] >= 0:
            subtree[t] = subtree[tree.kids(t)].sum()
    keep = (tree.feature >= 0) & (subtree < errors - COLLAPSE_SLACK)
    return _rebuild(tree, keep, criterion)


def pessimistic_prune(tree, confidence, criterion, training=None):
    """C4.5 error-based pruning: leaf iff its estimated errors ≤ the subtree's + 0.1.

    The tree is first :func:`collapse`-d. With ``training=(X, y, w)`` (the
    encoded rows the tree was grown on) C4.5's subtree raising is done too
    (:func:`prune_with_raising`).
    """
    tree = collapse(tree, criterion)
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


def prune_with_raising(tree, confidence, criterion, X, y, w):
    """C4.5 error-based pruning with subtree raising (Quinlan 1993, 4.2; Weka J48).

    Bottom up, with ``E = e + addErrs(N, e, CF)`` summed over leaves: a node
    becomes a leaf if ``E(leaf) ≤ E(subtree) + 0.1`` and ``E(leaf) ≤
    E(largest branch) + 0.1``, where the largest branch is charged on *all*
    the node's training rows; otherwise, if ``E(largest branch) ≤
    E(subtree) + 0.1``, the largest branch replaces the node, its class
    weights are recomputed from the node's rows, and it is pruned again.
    Compiled in :func:`~._pessimistic_kernels.prune_raising` on copies of the
    tree's arrays; ``X`` is the encoded training data the tree grew on.
    """
    if confidence > 0.5:
        raise ValueError("confidence must be at most 0.5")
    structure = TreeArrays(*(a.copy() for a in tree.arrays))
    fit = NodeFit(tree.value.copy(), tree.weight.copy(), tree.depth.copy())
    rows = np.flatnonzero(w > 0).astype(np.int64)
    data = Training(np.ascontiguousarray(X, dtype=np.float64), np.asarray(y, dtype=np.int64),
                    tree.value.shape[1])
    rule = ErrorRule(float(confidence), float(norm.ppf(1.0 - confidence)))
    prune_raising(data, rows, np.asarray(w, dtype=np.float64)[rows], structure, fit, rule)
    return tree_from_arrays(*structure, *fit, criterion)


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
