"""What every grown tree answers, classifier or regressor: its encoding of ``X``,
the leaves rows reach, its paths, depth and size (scikit-learn's tree API), and
the fitted attributes these read, set once a tree is grown
(:func:`set_tree_structure`: ``tree_``, ``n_leaves_``, ``depth_``,
``feature_importances_``)."""

from __future__ import annotations

import numba
import numpy as np

from .._validation import check_is_fitted
from ._encode import encode_predict, value_indicators
from ._traverse_kernels import tree_apply, tree_proba, tree_proba_parallel

#: predictions of fewer rows walk the tree on one thread (:func:`tree_proba`): a
#: parallel region costs more than it saves there, and a small call compiles no
#: parallel kernel (:func:`tree_proba_parallel`)
PARALLEL_PREDICT_ROWS = 4096


def visited_nodes(x, tree):
    """The nodes (preorder) an encoded row ``x`` visits: every branch of a test
    whose value is missing (NaN), else the branch its value takes."""
    visited, stack = [], [0]
    while stack:
        t = stack.pop()
        visited.append(t)
        if tree.feature[t] < 0:
            continue
        value = x[tree.feature[t]]
        kids = tree.kids(t)
        if np.isnan(value):
            stack.extend(int(k) for k in kids[::-1])
        elif tree.is_numeric[t]:
            stack.append(int(kids[0] if value <= tree.threshold[t] else kids[1]))
        elif 0 <= value < len(kids):
            stack.append(int(kids[int(value)]))
    return sorted(visited)


def parallel_predict(n_rows):
    """Whether a prediction of ``n_rows`` rows walks them side by side."""
    return n_rows >= PARALLEL_PREDICT_ROWS and numba.get_num_threads() > 1


class TreeMethods:
    """The methods of a fitted tree (``tree_``, ``_input_spec`` or ``_spec``, ``_source``)."""

    def _walk(self, X, leaf_values):
        """``X`` down the fitted tree: each row's leaf's row of the fitted attribute
        named ``leaf_values``, the leaves' mixed by ``r̃_v`` where a tested value is
        missing (周志华 4.4.2); many rows side by side (:func:`parallel_predict`)."""
        check_is_fitted(self)
        X_enc = self._encode(X)
        walk = tree_proba_parallel if parallel_predict(X_enc.shape[0]) else tree_proba
        # no value missing: each row reaches one leaf, and no branch walk is compiled
        stack_size = self._stack_size if np.isnan(X_enc).any() else None
        return walk(X_enc, self.tree_.arrays, getattr(self, leaf_values), stack_size)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True        # missing values: 周志华 4.4.2
        tags.input_tags.categorical = True      # category columns (multiway or CART's A = a)
        tags.input_tags.sparse = True           # densified (see _encode.densify)
        return tags

    def _encode(self, X):
        """``X`` encoded as the tree was grown on it (CART's indicator columns in binary mode)."""
        # a model saved before categorical_split existed has only ``_spec`` (multiway)
        spec = getattr(self, "_input_spec", self._spec)
        X_enc = encode_predict(self, X, spec)
        if getattr(self, "_source", None) is not None:
            X_enc = value_indicators(X_enc, spec).X
        return X_enc

    def apply(self, X):
        """Index (preorder) of the leaf each row reaches; −1 when a tested value is missing."""
        check_is_fitted(self)
        X_enc = self._encode(X)
        return tree_apply(X_enc, self.tree_.arrays)

    def get_depth(self):
        """Depth of the tree: the most tests on a path from the root to a leaf (as scikit-learn's).

        Examples
        --------
        >>> from hyperplane.datasets import load_watermelon
        >>> from hyperplane.tree import DecisionTreeClassifier
        >>> tree = DecisionTreeClassifier().fit(*load_watermelon("2.0"))
        >>> tree.get_depth(), tree.get_n_leaves()
        (4, 9)
        """
        check_is_fitted(self)
        return int(self.tree_.depth.max())

    def get_n_leaves(self):
        """Number of leaves of the tree (as scikit-learn's)."""
        check_is_fitted(self)
        return int(np.sum(self.tree_.feature < 0))

    def decision_path(self, X):
        """The nodes each row passes through, as scikit-learn's ``decision_path``.

        Returns a CSR indicator matrix of shape (n_samples, n_nodes) whose
        row ``i`` has a 1 at every node (in preorder) that row ``i`` visits;
        a row missing a tested value goes down every branch of that test
        (C4.5's fractional instance, 周志华 4.4.2), so all of them are marked.

        Examples
        --------
        >>> from hyperplane.datasets import load_watermelon
        >>> from hyperplane.tree import DecisionTreeClassifier
        >>> X, y = load_watermelon("2.0")
        >>> tree = DecisionTreeClassifier().fit(X, y)
        >>> path = tree.decision_path(X.iloc[:1])   # 编号 1: 纹理=清晰, 根蒂=蜷缩: 好瓜
        >>> path.shape == (1, tree.tree_.n_nodes), path.indices.tolist()
        (True, [0, 1, 2])
        """
        from scipy import sparse

        check_is_fitted(self)
        X_enc = self._encode(X)
        tree = self.tree_
        rows, nodes = [], []
        for i, x in enumerate(X_enc):
            visited = visited_nodes(x, tree)
            rows.extend([i] * len(visited))
            nodes.extend(visited)
        data = np.ones(len(rows), dtype=np.int64)
        return sparse.csr_matrix((data, (rows, nodes)), shape=(X_enc.shape[0], tree.n_nodes))


def set_tree_structure(estimator, tree):
    """What a fitted tree estimator (classifier or regressor) holds of ``tree``
    whatever its leaves predict: ``tree_``, ``n_leaves_``, ``depth_``,
    ``feature_importances_`` (an attribute's binary tests ``A = a`` summed into
    its own importance) and the stack size of the prediction walk."""
    estimator.tree_ = tree
    estimator.n_leaves_ = int(np.count_nonzero(tree.feature < 0))
    estimator.depth_ = int(tree.depth.max())
    importances = _importances(tree, len(estimator._spec.names))
    if estimator._source is not None:   # an attribute's tests A = a add up to its importance
        importances = np.bincount(estimator._source, weights=importances,
                                  minlength=estimator.n_features_in_)
    estimator.feature_importances_ = importances
    fan_out = int(tree.n_child.max()) if tree.n_nodes else 1
    estimator._stack_size = int(estimator.depth_ * max(fan_out, 1) + 2)


def _importances(tree, n_features):
    """Σ over a feature's nodes of W_t·I(t) − Σ_children W_c·I(c), normalised.

    One pass over the child links: every child adds ``W_c·I(c)`` to its
    parent's sum, every internal node its decrease (floored at 0) to its
    feature's, both in node order (``numpy.bincount``).
    """
    parent = np.repeat(np.arange(tree.n_nodes), tree.n_child)
    first = np.cumsum(tree.n_child) - tree.n_child
    kids = tree.children[tree.child_start[parent] + np.arange(parent.size) - first[parent]]
    children_part = np.bincount(parent, weights=tree.weight[kids] * tree.impurity[kids],
                                minlength=tree.n_nodes)
    internal = np.flatnonzero(tree.feature >= 0)
    decrease = tree.weight[internal] * tree.impurity[internal] - children_part[internal]
    imp = np.bincount(tree.feature[internal], weights=np.maximum(decrease, 0.0),
                      minlength=n_features).astype(np.float64)
    total = imp.sum()
    return imp / total if total > 0 else imp
