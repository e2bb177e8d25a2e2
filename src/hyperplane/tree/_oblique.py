"""Oblique (multivariate) decision tree, 周志华《机器学习》section 4.5.

Every internal node tests a linear combination of the numeric attributes,
``w . x <= t``, so the decision boundary is made of slanted segments instead
of the axis-parallel staircase of a univariate tree (the book's figure 4.12).

Method: Fisher directions refined by OC1
----------------------------------------
At each node the classes present are grouped into two superclasses and the
direction ``w`` is Fisher's linear discriminant of the two groups
(周志华 section 3.4, eq. 3.39)::

    w = S_w^{-1} (mu_0 - mu_1),   S_w = sum_{x in D_0} (x - mu_0)(x - mu_0)^T
                                      + sum_{x in D_1} (x - mu_1)(x - mu_1)^T

computed on the node's samples standardised per attribute (then mapped back
to the original units) with a tiny ridge ``RIDGE * I`` so that a singular
``S_w`` still gives a direction. With two classes there is one grouping; with
``K > 2`` classes each one-vs-rest grouping gives a candidate direction. This
is the linear discriminant tree of Loh & Vanichsetakul (1988, "Tree-structured
classification via generalized discriminant analysis", JASA 83:715-725) and
Yildiz & Alpaydin (2005, "Linear discriminant trees", IJPRAI 19(3):323-353).

The threshold ``t`` along each candidate direction is the midpoint between
adjacent projected values that minimises the weighted child impurity (Gini
index or entropy), exactly as a univariate tree cuts a numeric attribute
(section 4.4.1, by the same ordered scan). As in OC1 (Murthy, Kasif & Salzberg 1994, "A system for
induction of oblique decision trees", JAIR 2:1-32) the ``d`` axis-parallel
directions compete too (listed first, so they win ties), and the best
candidate is then refined by OC1's deterministic hill climbing: one
coefficient of ``(w, -t)`` at a time moves to its exactly best value (a line
search over the points where samples change side), in sequential order,
until a pass brings no strict improvement; then up to ``n_jumps`` random
directions are tried to leave the local minimum (OC1's random jumps). As in
OC1 the search runs on the node's attributes standardised to zero mean and
unit variance. Fisher's direction assumes Gaussian classes with a shared
covariance; the perturbation repairs it when they are not (e.g. uniform data
cut by a diagonal). No node therefore does worse than the univariate CART
split of the same samples.

Growth follows 周志华's generate_tree: a node becomes a leaf when it is pure,
has fewer than ``min_samples_split`` samples, is at ``max_depth`` or has no
cut leaving ``min_samples_leaf`` samples on both sides (e.g. all ``x``
equal).
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils import check_random_state

from .._validation import (CLASS_WEIGHT, NONE, POSITIVE_INT, SEED, Either, Integer, Options,
                           check_is_fitted, check_sample_weight_vector, check_X, check_X_y,
                           class_weight_vector, encode_labels, validate_params)
from ._oblique_kernels import (apply_tree, best_threshold, perturb_coefficient, project,
                               split_impurity, weighted_gram)
from ._scan._split_kernels import ENTROPY, GINI

#: the impurity a threshold minimises, by the univariate tree's names (``"info_gain"``: the
#: entropy of 周志华 eq. 4.1, whose decrease is the information gain); ``"entropy"`` is the
#: same criterion under its older name here
CRITERIA = {"gini": GINI, "info_gain": ENTROPY, "entropy": ENTROPY}
RIDGE = 1e-6          # added to the standardised S_w (a unit-free shrinkage)
TIE_TOLERANCE = 1e-12  # impurities closer than this are tied; first candidate wins
MAX_PERTURB_PASSES = 20  # OC1 hill-climbing passes over the d + 1 coefficients


def weighted_moments(Xn, w):
    """Weighted mean and standard deviation of each attribute at a node, and
    ``varies``: the attributes that are not constant there."""
    total = w.sum()
    mean = w @ Xn / total
    std = np.sqrt(w @ (Xn - mean) ** 2 / total)
    return mean, std, std > 1e-12 * (1.0 + np.abs(mean))


def fisher_directions(Xn, y_node, w, groupings):
    """Fisher's discriminant direction for each superclass grouping (周志华 eq. 3.39).

    For grouping ``k`` superclass 0 is class ``k`` and superclass 1 the rest.
    The attributes are standardised at the node; with ``Z^T W Z`` shared by
    all groupings, ``S_w = Z^T W Z - s_0 mu_0 mu_0^T - s_1 mu_1 mu_1^T``
    (weighted scatter around each superclass mean, divided by the total
    weight), plus ``RIDGE * I``; ``w = S_w^{-1} (mu_0 - mu_1)``.

    Parameters
    ----------
    Xn : ndarray (n, d), the node's samples
    y_node : int ndarray (n,), class indices
    w : ndarray (n,), sample weights
    groupings : iterable of class indices

    Returns
    -------
    list of ndarray (d,)
        Directions in the original units with unit Euclidean norm (a
        grouping with an empty superclass gives none; none at all when every
        attribute is constant at the node).
    """
    total = w.sum()
    mean, std, keep = weighted_moments(Xn, w)
    if not keep.any():
        return []
    Z = (Xn[:, keep] - mean[keep]) / std[keep]
    gram = weighted_gram(np.ascontiguousarray(Z), w)
    directions = []
    for k in groupings:
        w0 = np.where(y_node == k, w, 0.0)
        s0 = w0.sum()
        s1 = total - s0
        if s0 <= 0 or s1 <= 0:
            continue
        sum_0 = w0 @ Z
        mu_0, mu_1 = sum_0 / s0, -sum_0 / s1  # Z is centred: s0 mu_0 + s1 mu_1 = 0
        S_w = (gram - s0 * np.outer(mu_0, mu_0) - s1 * np.outer(mu_1, mu_1)) / total
        S_w[np.diag_indices_from(S_w)] += RIDGE
        v = np.linalg.solve(S_w, mu_0 - mu_1)
        coef = np.zeros(Xn.shape[1])
        coef[keep] = v / std[keep]
        norm = np.linalg.norm(coef)
        if np.isfinite(norm) and norm > 0:
            directions.append(coef / norm)
    return directions


def candidate_directions(Xn, y_node, w_node, n_classes):
    """Axis-parallel directions first, then one Fisher direction per grouping."""
    d = Xn.shape[1]
    candidates = list(np.eye(d))
    present = np.flatnonzero(np.bincount(y_node, w_node, n_classes) > 0)
    if d < 2 or present.size < 2:
        return candidates
    groupings = present[:1] if present.size == 2 else present
    return candidates + fisher_directions(Xn, y_node, w_node, groupings)


def cut_along(X, rows, y_node, w_node, coef, n_classes, criterion, min_samples_leaf):
    """Best threshold along ``coef``: ``(impurity, t, z)`` with ``z`` the projections."""
    z = project(X, rows, coef)
    order = np.argsort(z, kind="stable")
    imp, t, _ = best_threshold(z[order], y_node[order], w_node[order],
                               n_classes, criterion, min_samples_leaf)
    return imp, t, z


def perturb_hyperplane(Xn, y_node, w_node, coef, t, n_classes, criterion,
                       min_samples_leaf, n_jumps, rng):
    """OC1's hill climbing with random jumps (Murthy, Kasif & Salzberg 1994, 2.2-2.3).

    With ``a = (coef, -t)`` and ``x_{d+1} = 1``: perturb one coefficient at a
    time to its exactly best value (:func:`perturb_coefficient`), accepting
    strict improvements, until a pass improves nothing; then, to leave the
    local minimum, try up to ``n_jumps`` random directions ``R`` (uniform on
    ``[-1, 1]^{d+1}``), moving to the best ``a + alpha R`` (the same line
    search with ``x_j . R`` in place of ``x_jm``) and climbing again whenever
    one improves. The search runs on standardised attributes
    ``z = (x - mean) / std``; returns ``coef`` in the original units (unit norm).
    """
    mean, std, varies = weighted_moments(Xn, w_node)  # integer weights = repeated rows
    std[~varies] = 1.0
    Z = (Xn - mean) / std
    Xa = np.asfortranarray(np.column_stack([Z, np.ones(Xn.shape[0])]))  # columns contiguous
    a = np.append(coef * std, coef @ mean - t)  # the same hyperplane in z-coordinates
    args = (y_node, w_node, n_classes, criterion, min_samples_leaf)
    V = Xa @ a
    current = split_impurity(V, y_node, w_node, n_classes, criterion)
    jumps = 0
    while current > TIE_TOLERANCE:
        for _ in range(MAX_PERTURB_PASSES):
            improved = False
            for m in range(a.shape[0]):
                imp, a_m = perturb_coefficient(V, Xa[:, m], a[m], *args)
                if imp < current - TIE_TOLERANCE:
                    V += (a_m - a[m]) * Xa[:, m]
                    a[m], current, improved = a_m, imp, True
            V = Xa @ a  # no drift from the incremental updates
            if not improved:
                break
        jumped = False
        while jumps < n_jumps and not jumped:
            jumps += 1
            R = rng.uniform(-1.0, 1.0, size=a.shape[0])
            imp, alpha = perturb_coefficient(V, Xa @ R, 0.0, *args)
            if imp < current - TIE_TOLERANCE:
                a, current, jumped = a + alpha * R, imp, True
                V = Xa @ a
        if not jumped:
            break
    refined = a[:-1] / std
    norm = np.linalg.norm(refined)
    return refined / norm if np.isfinite(norm) and norm > 0 else coef


def best_split(X, rows, y, w, n_classes, criterion, min_samples_leaf, n_jumps, rng):
    """The node test ``coef . x <= t`` of least weighted child impurity.

    The best candidate direction (axis-parallel or Fisher) is refined by
    OC1's coefficient perturbation and random jumps; the refined hyperplane
    replaces it only if its own best cut is strictly better. Returns ``(coef, t, z)`` with
    ``z`` the projections of ``rows``, or ``None`` when no cut is admissible.
    """
    Xn, y_node, w_node = X[rows], y[rows], w[rows]
    args = (n_classes, criterion, min_samples_leaf)
    best, best_imp = None, np.inf
    for coef in candidate_directions(Xn, y_node, w_node, n_classes):
        imp, t, z = cut_along(X, rows, y_node, w_node, coef, *args)
        if imp < best_imp - TIE_TOLERANCE:
            best, best_imp = (coef, t, z), imp
    if best is None or best_imp <= TIE_TOLERANCE:
        return best
    coef = perturb_hyperplane(Xn, y_node, w_node, best[0], best[1], *args,
                              n_jumps, rng)
    imp, t, z = cut_along(X, rows, y_node, w_node, coef, *args)
    return (coef, t, z) if imp < best_imp - TIE_TOLERANCE else best


class ObliqueTreeClassifier(ClassifierMixin, BaseEstimator):
    """Multivariate decision tree with linear node tests ``w·x <= t``.

    Each internal node learns Fisher's discriminant direction between two
    superclasses of its samples and cuts it at the threshold of least Gini
    index or entropy; the axis-parallel cuts compete as well and the winner
    is refined by OC1's coefficient perturbation (module docstring: linear
    discriminant trees, Loh & Vanichsetakul 1988, Yildiz & Alpaydin 2005;
    OC1, Murthy et al. 1994; 周志华 section 4.5). Numeric attributes only, no
    missing values.

    Parameters
    ----------
    criterion : {"gini", "info_gain", "entropy"}, default="gini"
        Impurity minimised by the threshold: the Gini index (周志华 eq.
        4.5-4.6), or the information entropy (eq. 4.1), whose least weighted
        child value is the largest information gain (eq. 4.2):
        ``"info_gain"``, the name :class:`DecisionTreeClassifier` gives it,
        or ``"entropy"``, the same criterion.
    max_depth : int or None, default=None
        Depth at which nodes become leaves (``None``: grow until pure).
    min_samples_split : int >= 2, default=2
        A node with fewer samples becomes a leaf.
    min_samples_leaf : int >= 1, default=1
        Samples required on each side of a cut.
    n_jumps : int >= 0, default=10
        Random directions OC1 tries per node to leave a local minimum of the
        coefficient-wise hill climbing (0: pure deterministic perturbation).
    random_state : None, int or RandomState, default=None
        Seeds the random jumps; with ``n_jumps=0`` the fit is deterministic.
    class_weight : dict, "balanced" or None, default=None
        Weight of each class, multiplying ``sample_weight`` (scikit-learn's
        meaning; ``"balanced"``: n / (K n_k), 周志华 §3.6's rescaling):
        every impurity and class count weighs a row of class k by w_k.

    Attributes
    ----------
    classes_ : ndarray (n_classes,)
    class_weight_ : ndarray (n_classes,)
        The weight of each class (ones without ``class_weight``).
    n_features_in_ : int
    feature_names_in_ : ndarray of str (when fitted on a DataFrame)
    coef_ : ndarray (n_nodes, n_features)
        ``w`` of every node's test (unit norm, zeros at leaves).
    threshold_ : ndarray (n_nodes,)
        ``t`` of every node's test (0 at leaves).
    children_left_, children_right_ : ndarray of int64 (n_nodes,)
        Children of each node (``-1`` at leaves); samples with
        ``w . x <= t`` go to ``children_left_``. Node 0 is the root.
    value_ : ndarray (n_nodes, n_classes)
        Weighted class counts of the training samples reaching each node.
    n_leaves_ : int
    depth_ : int
        Length of the longest root-to-leaf path (a single leaf has depth 0).

    Examples
    --------
    >>> import numpy as np
    >>> from hyperplane.tree import ObliqueTreeClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(-1, 1, size=(200, 2))
    >>> y = (X[:, 0] + X[:, 1] > 0).astype(int)
    >>> tree = ObliqueTreeClassifier(random_state=0).fit(X, y)
    >>> tree.n_leaves_, tree.score(X, y)
    (2, 1.0)
    """

    def __init__(self, *, criterion="gini", max_depth=None, min_samples_split=2,
                 min_samples_leaf=1, n_jumps=10, random_state=None, class_weight=None):
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.n_jumps = n_jumps
        self.random_state = random_state
        self.class_weight = class_weight

    # ------------------------------------------------------------------ fit
    _parameter_rules = {
        "criterion": Options(CRITERIA), "max_depth": Either(NONE, POSITIVE_INT),
        "min_samples_split": Integer(low=2), "min_samples_leaf": POSITIVE_INT,
        "n_jumps": Integer(low=0), "random_state": SEED, "class_weight": CLASS_WEIGHT,
    }

    def fit(self, X, y, *, sample_weight=None):
        """Grow the tree on numeric ``X`` (n_samples, n_features) and labels ``y``.

        Rows with zero ``sample_weight`` are ignored, so a weight of 0 is the
        same as leaving the row out and an integer weight the same as
        repeating it.
        """
        validate_params(self)
        X, y = check_X_y(self, X, y, dtype=np.float64)
        self.classes_, y_index = encode_labels(y)
        self.class_weight_ = class_weight_vector(self.class_weight, self.classes_, y_index)
        w = check_sample_weight_vector(sample_weight, X.shape[0]) * self.class_weight_[y_index]
        first_seen = np.unique(y_index, return_index=True)[1]
        self._tie_rank = np.argsort(np.argsort(first_seen))  # 0 = first in y
        keep = np.flatnonzero(w > 0)
        if keep.size == 0:
            raise ValueError("sample_weight is zero for every row; nothing to learn")
        self._grow(np.ascontiguousarray(X), y_index, w, keep)
        return self

    def _grow(self, X, y, w, rows):
        """generate_tree (周志华 figure 4.2) with an explicit stack, nodes in preorder."""
        K = self.classes_.shape[0]
        crit = CRITERIA[self.criterion]
        rng = check_random_state(self.random_state)
        max_depth = np.inf if self.max_depth is None else self.max_depth
        nodes = []  # [coef, t, left, right, value, depth]
        stack = [(rows, 0, -1, False)]
        while stack:
            rows, depth, parent, is_right = stack.pop()
            node = len(nodes)
            value = np.bincount(y[rows], w[rows], K)
            nodes.append([None, 0.0, -1, -1, value, depth])
            if parent >= 0:
                nodes[parent][3 if is_right else 2] = node
            split = None
            if (np.count_nonzero(value) > 1 and depth < max_depth
                    and rows.size >= self.min_samples_split
                    and rows.size >= 2 * self.min_samples_leaf):
                split = best_split(X, rows, y, w, K, crit, self.min_samples_leaf,
                                   self.n_jumps, rng)
            if split is None:
                continue
            coef, t, z = split
            nodes[node][0], nodes[node][1] = coef, t
            stack.append((rows[z > t], depth + 1, node, True))
            stack.append((rows[z <= t], depth + 1, node, False))
        d = X.shape[1]
        self.coef_ = np.array([np.zeros(d) if n[0] is None else n[0] for n in nodes])
        self.threshold_ = np.array([n[1] for n in nodes], dtype=np.float64)
        self.children_left_ = np.array([n[2] for n in nodes], dtype=np.int64)
        self.children_right_ = np.array([n[3] for n in nodes], dtype=np.int64)
        self.value_ = np.array([n[4] for n in nodes])
        self.n_leaves_ = int(np.sum(self.children_left_ == -1))
        self.depth_ = int(max(n[5] for n in nodes))
        self._leaf_class = np.array([self._majority(v) for v in self.value_])

    def _majority(self, value):
        """Class of largest weight; ties go to the class seen first in ``y``."""
        tied = np.flatnonzero(value >= value.max() * (1 - 1e-12))
        return tied[np.argmin(self._tie_rank[tied])]

    # -------------------------------------------------------------- predict
    def apply(self, X):
        """Index of the leaf each row of ``X`` reaches."""
        check_is_fitted(self)
        X = check_X(self, X, reset=False, dtype=np.float64)
        return apply_tree(np.ascontiguousarray(X), self.coef_, self.threshold_,
                          self.children_left_, self.children_right_)

    def predict(self, X):
        """Majority class of the leaf each row reaches."""
        check_is_fitted(self)
        return self.classes_[self._leaf_class[self.apply(X)]]

    def predict_proba(self, X):
        """Class proportions (by weight) of the leaf each row reaches."""
        check_is_fitted(self)
        value = self.value_[self.apply(X)]
        return value / value.sum(axis=1, keepdims=True)

    # --------------------------------------------------------------- export
    def export_text(self, *, feature_names=None, decimals=3):
        """The node tests as indented text, one line per branch.

        Parameters
        ----------
        feature_names : list of str, optional
            Defaults to ``feature_names_in_`` or ``x0, x1, ...``.
        decimals : int
            Digits of the coefficients and thresholds.
        """
        check_is_fitted(self)
        names = self._feature_names(feature_names)
        lines = []
        self._export_node(0, 0, names, decimals, lines)
        return "\n".join(lines) + "\n"

    def _feature_names(self, feature_names):
        if feature_names is None:
            feature_names = getattr(self, "feature_names_in_",
                                    [f"x{j}" for j in range(self.n_features_in_)])
        names = [str(n) for n in feature_names]
        if len(names) != self.n_features_in_:
            raise ValueError(f"feature_names has {len(names)} names; the tree "
                             f"has {self.n_features_in_} features")
        return names

    def _export_node(self, node, depth, names, decimals, lines):
        indent = "|   " * depth + "|--- "
        left = self.children_left_[node]
        if left == -1:
            lines.append(f"{indent}class: {self.classes_[self._leaf_class[node]]}")
            return
        test = linear_test_text(self.coef_[node], names, decimals)
        t = f"{self.threshold_[node]:.{decimals}f}"
        lines.append(f"{indent}{test} <= {t}")
        self._export_node(left, depth + 1, names, decimals, lines)
        lines.append(f"{indent}{test} >  {t}")
        self._export_node(self.children_right_[node], depth + 1, names, decimals, lines)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = False
        return tags


def linear_test_text(coef, names, decimals):
    """``0.707*x0 - 0.707*x1`` (zero terms left out; one term: just the name)."""
    terms = [(c, n) for c, n in zip(coef, names) if c != 0]
    if len(terms) == 1 and terms[0][0] == 1.0:
        return terms[0][1]
    text = ""
    for c, n in terms:
        sign = "-" if c < 0 else "+"
        mag = f"{abs(c):.{decimals}f}*{n}"
        text = f"-{mag}" if not text and sign == "-" else (
            mag if not text else f"{text} {sign} {mag}")
    return text
