"""A slow, literal re-statement of Weka J48's growth and pruning rules.

Purpose: pin down *which* J48 rules make its trees differ from
``hyperplane.tree.DecisionTreeClassifier(criterion="gain_ratio",
pruning="pessimistic")``. If this reference reproduces J48's tree size and
accuracy on the same files, the rules below are the whole difference. The
rules, as Weka 3.6 implements C4.5 release 8 (classes ``C45ModelSelection``,
``C45Split``, ``InfoGainSplitCrit``, ``GainRatioSplitCrit``,
``C45PruneableClassifierTree``, ``Stats``; tolerances are Weka's
``Utils.SMALL = 1e-6``):

R1 a node is a leaf when its weight is ``< 2M`` or it is pure.
R2 gain ``= rho (Ent(D~) - sum_v r_v Ent(D~_v))`` (as the book); split info
   ``IV = -sum_v W_v/W log2 W_v/W - W_?/W log2 W_?/W`` counts the missing
   weight ``W_?`` as one more branch; ratio ``= gain / IV``.
R3 nominal attribute: one branch per declared value; admissible when at
   least TWO branches have weight ``>= M`` (others may be smaller or empty).
R4 numeric attribute: cuts only between sorted known values more than 1e-5
   apart, each side with weight ``>= minSplit = min(25, max(M, 0.1 W~/K))``
   (and at least ``2 minSplit`` known instances); the cut maximises the gain
   (first cut wins unless a later one is better by more than 1e-6); then the
   MDL correction ``gain -= log2(#admissible cuts) / W`` and the attribute is
   dropped if the corrected gain is ``<= 0``.
R5 among admissible attributes with gain ``>= mean gain - 1e-3`` the largest
   ratio wins (a later attribute must beat it by more than 1e-6); no split if
   the best ratio is 0.
R6 the numeric threshold is moved down to the largest training value (of the
   whole training set) ``<=`` the midpoint.
R7 collapse: top-down, a subtree whose training errors are ``>=`` its root's
   leaf errors ``- 1e-3`` becomes a leaf (also with ``-U``).
R8 pessimistic pruning bottom-up with subtree raising: with ``E(leaf)``,
   ``E(tree)`` (sum over leaves) and ``E(raise)`` (largest branch's subtree
   re-fitted to all of the node's data), become a leaf if
   ``E(leaf) <= E(tree) + 0.1`` and ``E(leaf) <= E(raise) + 0.1``; else replace
   the node by its largest branch if ``E(raise) <= E(tree) + 0.1`` and prune
   again. ``E = e + addErrs(N, e, CF)`` (C4.5's upper confidence limit).
R9 prediction: missing value -> branches combined by their weight fractions;
   an empty branch answers with its parent's class distribution.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.stats import norm

SMALL = 1e-6


def xlog2x(v):
    v = np.asarray(v, dtype=float)
    return np.where(v > 0, v * np.log2(np.where(v > 0, v, 1.0)), 0.0)


def weighted_ent(counts):
    """``N Ent`` of a class-count vector (Weka's un-normalised entropy)."""
    total = counts.sum()
    return float(xlog2x(total) - xlog2x(counts).sum())


def add_errs(n, e, cf):
    """C4.5's extra pessimistic errors (Weka ``Stats.addErrs``)."""
    if e < 1:
        base = n * (1 - cf ** (1 / n))
        return base if e == 0 else base + e * (add_errs(n, 1, cf) - base)
    if e + 0.5 >= n:
        return max(n - e, 0.0)
    z = norm.ppf(1 - cf)
    f = (e + 0.5) / n
    r = (f + z * z / (2 * n) + z * np.sqrt(f / n - f * f / n + z * z / (4 * n * n))) \
        / (1 + z * z / n)
    return r * n - e


class Data:
    """Attributes as float columns (nominal as codes), NaN missing."""

    def __init__(self, X, y, header_X, header_y):
        self.nominal = [not pd.api.types.is_numeric_dtype(header_X[c]) for c in header_X]
        self.values = [sorted({str(v) for v in header_X[c].dropna()}) if nom else None
                       for c, nom in zip(header_X.columns, self.nominal)]
        self.classes = sorted({str(v) for v in header_y})
        self.X = self.encode(X)
        self.y = np.array([self.classes.index(str(v)) for v in y])
        self.K = len(self.classes)

    def encode(self, X):
        cols = []
        for j, c in enumerate(X.columns):
            if self.nominal[j]:
                index = {v: i for i, v in enumerate(self.values[j])}
                cols.append([index[str(v)] if pd.notna(v) else np.nan for v in X[c]])
            else:
                cols.append(X[c].to_numpy(dtype=float))
        return np.array(cols, dtype=float).T


class Node:
    def __init__(self, rows, w, data):
        self.rows, self.w = rows, w
        self.dist = np.bincount(data.y[rows], w, data.K)
        self.att = None  # leaf
        self.threshold = None  # numeric test x <= threshold (None: nominal)
        self.empty = False  # a branch no training weight reached
        self.sons = []

    @property
    def total(self):
        return self.dist.sum()

    def errors(self):
        return self.total - self.dist.max()


#: J48's choices; ``BOOK`` swaps in the core tree's (周志华 4.2-4.4) to ablate them
J48_RULES = dict(numeric_min_split="j48", nominal_min="two_branches", mdl=True,
                 iv_unknown=True, relocate=True, collapse=True, raising=True)
BOOK_RULES = dict(numeric_min_split="leaf", nominal_min="every_branch", mdl=False,
                  iv_unknown=False, relocate=False, collapse=False, raising=False)


class J48Reference:
    """``fit``/``predict`` following R1-R9 with ``M`` and confidence ``cf``.

    ``rules`` overrides entries of :data:`J48_RULES` (R3 ``nominal_min``, R4
    ``numeric_min_split``/``mdl``, R2 ``iv_unknown``, R6 ``relocate``, R7
    ``collapse``, R8 ``raising``), e.g. with values from :data:`BOOK_RULES`.
    """

    def __init__(self, M=2, cf=0.25, prune=True, **rules):
        self.M, self.cf, self.prune = M, cf, prune
        unknown = set(rules) - set(J48_RULES)
        if unknown:
            raise ValueError(f"unknown rules {sorted(unknown)}")
        self.rules = {**J48_RULES, **rules}

    # ------------------------------------------------------------- growth
    def fit(self, data):
        self.data = data
        n = data.X.shape[0]
        self.root = self.build(np.arange(n), np.ones(n))
        if self.rules["collapse"]:
            self.collapse(self.root)
        if self.prune:
            self.prune_node(self.root)
        return self

    def build(self, rows, w):
        node = Node(rows, w, self.data)
        if node.total < 2 * self.M - SMALL or abs(node.total - node.dist.max()) < SMALL:
            return node
        model = self.select(node)
        if model is None:
            return node
        node.att, node.threshold = model
        for sub_rows, sub_w in self.split(node, node.rows, node.w):
            if sub_w.sum() == 0:
                son = Node(sub_rows, sub_w, self.data)
                son.empty = True  # R9: answers with the parent's distribution
                node.sons.append(son)
            else:
                node.sons.append(self.build(sub_rows, sub_w))
        return node

    def select(self, node):
        d = self.data
        X, y = d.X[node.rows], d.y[node.rows]
        total = node.total
        results = []
        for j in range(X.shape[1]):
            fn = self.nominal_split if d.nominal[j] else self.numeric_split
            results.append(fn(X[:, j], y, node.w, total, j))
        valid = [r for r in results if r is not None]
        if not valid:
            return None
        average = np.mean([r[1] for r in valid])
        best, best_ratio = None, 0.0
        for r in results:
            if r is not None and r[1] >= average - 1e-3 and r[2] - best_ratio > SMALL:
                best, best_ratio = r, r[2]
        if best is None or abs(best_ratio) < SMALL:
            return None
        j, threshold = best[0], best[3]
        if threshold is not None and self.rules["relocate"]:  # R6
            col = d.X[:, j]
            threshold = col[(col <= threshold) & ~np.isnan(col)].max()
        return j, threshold

    def gain_and_ratio(self, bags, total, gain=None):
        known = bags.sum()
        if gain is None:
            numerator = (weighted_ent(bags.sum(axis=0)) - sum(weighted_ent(b) for b in bags))
            numerator *= known / total
            gain = 0.0 if abs(numerator) < SMALL else numerator / known
        if not self.rules["iv_unknown"]:  # the book's IV over the known values only
            total_iv = known
            split_ent = -xlog2x(bags.sum(axis=1)).sum() + xlog2x(known)
        else:
            total_iv = total
            split_ent = (-xlog2x(bags.sum(axis=1)).sum() - xlog2x(total - known) + xlog2x(total))
        ratio = 0.0 if abs(split_ent) < SMALL else gain / (split_ent / total_iv)
        return gain, ratio

    def nominal_split(self, x, y, w, total, j):
        known = ~np.isnan(x)
        nv = len(self.data.values[j])
        bags = np.zeros((nv, self.data.K))
        np.add.at(bags, (x[known].astype(int), y[known]), w[known])
        sizes = bags.sum(axis=1)
        if np.sum(sizes >= self.M) < 2:  # R3
            return None
        if self.rules["nominal_min"] == "every_branch" and np.any((sizes > 0) & (sizes < self.M)):
            return None
        gain, ratio = self.gain_and_ratio(bags, total)
        return j, gain, ratio, None

    def numeric_split(self, x, y, w, total, j):
        known = ~np.isnan(x)
        order = np.argsort(x[known], kind="stable")
        xs, ys, ws = x[known][order], y[known][order], w[known][order]
        K = self.data.K
        known_w = ws.sum()
        min_split = min(25.0, max(float(self.M), 0.1 * known_w / K))  # R4
        if self.rules["numeric_min_split"] == "leaf":
            min_split = float(self.M)
        if xs.size < 2 * min_split - SMALL:
            return None
        onehot = np.zeros((xs.size, K))
        onehot[np.arange(xs.size), ys] = ws
        left = np.cumsum(onehot, axis=0)
        all_counts = left[-1]
        default_ent = weighted_ent(all_counts)
        best_gain, best_i, n_cuts = 0.0, -1, 0
        for i in np.flatnonzero(xs[:-1] + 1e-5 < xs[1:]):
            lw = left[i].sum()
            if lw < min_split - SMALL or known_w - lw < min_split - SMALL:
                continue
            n_cuts += 1
            new_ent = weighted_ent(left[i]) + weighted_ent(all_counts - left[i])
            numerator = (default_ent - new_ent) * known_w / total
            gain = 0.0 if abs(numerator) < SMALL else numerator / known_w
            if gain - best_gain > SMALL:
                best_gain, best_i = gain, i
        if n_cuts == 0:
            return None
        gain = best_gain - (np.log2(n_cuts) / total if self.rules["mdl"] else 0.0)  # MDL
        if gain <= SMALL or best_i < 0:
            return None
        bags = np.array([left[best_i], all_counts - left[best_i]])
        _, ratio = self.gain_and_ratio(bags, total, gain=gain)
        midpoint = (xs[best_i] + xs[best_i + 1]) / 2
        if midpoint == xs[best_i + 1]:
            midpoint = xs[best_i]
        return j, gain, ratio, midpoint

    def branch_of(self, node, rows):
        x = self.data.X[rows, node.att]
        if node.threshold is None:
            return x  # the nominal code (NaN missing)
        return np.where(np.isnan(x), np.nan, (x > node.threshold).astype(float))

    def split(self, node, rows, w):
        """Rows per branch; a missing value goes everywhere with weight ``r_v w``
        (``r_v`` from the known values of the rows being split)."""
        n_branches = 2 if node.threshold is not None else len(self.data.values[node.att])
        b = self.branch_of(node, rows)
        missing = np.isnan(b)
        sizes = np.bincount(b[~missing].astype(int), w[~missing], n_branches)
        r = sizes / sizes.sum() if sizes.sum() > 0 else np.zeros(n_branches)
        out = []
        for v in range(n_branches):
            take = missing | (b == v)
            out.append((rows[take], np.where(missing[take], r[v] * w[take], w[take])))
        return out

    # ------------------------------------------------------------- pruning
    def training_errors(self, node):
        if not node.sons:
            return node.errors()
        return sum(self.training_errors(s) for s in node.sons)

    def collapse(self, node):  # R7
        if node.sons:
            if self.training_errors(node) >= node.errors() - 1e-3:
                node.sons, node.att = [], None
            else:
                for s in node.sons:
                    self.collapse(s)

    def leaf_estimate(self, dist):
        n = dist.sum()
        if n == 0:
            return 0.0
        e = n - dist.max()
        return e + add_errs(n, e, self.cf)

    def tree_estimate(self, node):
        if not node.sons:
            return self.leaf_estimate(node.dist)
        return sum(self.tree_estimate(s) for s in node.sons)

    def branch_estimate(self, node, rows, w):
        if not node.sons:
            return self.leaf_estimate(np.bincount(self.data.y[rows], w, self.data.K))
        return sum(self.branch_estimate(s, r, ww)
                   for s, (r, ww) in zip(node.sons, self.split(node, rows, w)))

    def redistribute(self, node, rows, w):
        fresh = Node(rows, w, self.data)
        node.rows, node.w, node.dist = rows, w, fresh.dist
        if node.sons:
            for s, (r, ww) in zip(node.sons, self.split(node, rows, w)):
                self.redistribute(s, r, ww)

    def prune_node(self, node):  # R8
        if not node.sons:
            return
        for s in node.sons:
            self.prune_node(s)
        sizes = np.array([s.total for s in node.sons])
        largest = node.sons[int(np.argmax(sizes))]
        e_raise = (self.branch_estimate(largest, node.rows, node.w) if self.rules["raising"]
                   else np.inf)
        e_leaf = self.leaf_estimate(node.dist)
        e_tree = self.tree_estimate(node)
        if e_leaf <= e_tree + 0.1 + SMALL and e_leaf <= e_raise + 0.1 + SMALL:
            node.sons, node.att = [], None
            return
        if e_raise <= e_tree + 0.1 + SMALL:
            node.att, node.threshold, node.sons = largest.att, largest.threshold, largest.sons
            self.redistribute(node, node.rows, node.w)
            self.prune_node(node)

    # ------------------------------------------------------------- predict
    def proba(self, node, row, weight=1.0, parent=None):  # R9
        if node.empty:
            return weight * parent.dist / parent.total
        if not node.sons:
            return weight * node.dist / node.total
        x = self.data_test[row, node.att]
        if np.isnan(x):
            sizes = np.array([s.total for s in node.sons])
            r = sizes / sizes.sum()
            return sum(self.proba(s, row, weight * r[v], node)
                       for v, s in enumerate(node.sons) if r[v] > 0)
        v = int(x) if node.threshold is None else int(x > node.threshold)
        return self.proba(node.sons[v], row, weight, node)

    def predict(self, X_encoded):
        self.data_test = X_encoded
        return np.array([int(np.argmax(self.proba(self.root, i)))
                         for i in range(X_encoded.shape[0])])

    def size(self, node=None):
        node = self.root if node is None else node
        return 1 + sum(self.size(s) for s in node.sons)

    def leaves(self, node=None):
        node = self.root if node is None else node
        return 1 if not node.sons else sum(self.leaves(s) for s in node.sons)
