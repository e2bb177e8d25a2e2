"""DecisionTreeRegressor: CART's least-squares regression tree (李航《统计学习方法》§5.5.1)
and its least-absolute-deviation variant (Breiman et al. 1984, §8.11)."""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.utils.validation import check_consistent_length, check_is_fitted, column_or_1d

from .._parameters import keep_parameters
from .._progress import progress
from .._threads import uses_threads
from .._validation import (NON_NEGATIVE, Options, _numeric_target, check_sample_weight_vector,
                           is_dask_collection, validate_params)
from ._grow._builder import Growth, grow
from ._grow._layout import layout
from ._growth_rules import GROWTH_PARAMETER_RULES, grow_rules
from ._encode import encode_fit, value_indicators
from ._dask._fit import fit_regressor_dask
from ._scan._moments_kernels import N_MOMENTS
from ._prune._kinds import cost_complexity_path, cost_complexity_prune
from ._scan._regression_kernels import expand_regression_node, regression_scores, root_statistic
from ._scan._split_kernels import ABSOLUTE_ERROR, SQUARED_ERROR
from ._state import MinDecrease
from ._inspect._trace import Tracer
from ._tree_api import TreeMethods, set_tree_structure
from ._weights import relative_weights

#: criterion name -> impurity code
CRITERIA = {"squared_error": SQUARED_ERROR, "absolute_error": ABSOLUTE_ERROR}
SPLITTERS = ("best", "hist")


def regression_growth(rules, min_impurity_decrease, root_weight):
    """How :func:`~hyperplane.tree._grow._builder.grow` grows a regression tree (李航
    算法5.5; ``rules``: the tree's :class:`~hyperplane.tree._state.GrowRules`, whose criterion is
    ``SQUARED_ERROR`` or ``ABSOLUTE_ERROR``): the root's statistic and leaf test
    are one compiled call, :func:`~hyperplane.tree._scan._regression_kernels.root_statistic`
    (the moments ``[Σw, Σwy, Σwy²]`` of its targets, or ``[Σw, m, Σw|y − m|]``
    with ``m`` their weighted median), a node's attributes are scanned by
    :func:`~hyperplane.tree._scan._regression_kernels.regression_scores` and it is split by
    :func:`~hyperplane.tree._scan._regression_kernels.expand_regression_node`; a split must
    decrease the tree's weighted impurity by ``min_impurity_decrease``
    (``root_weight``: the training rows' weight). The root's leaf test reads
    ``rules`` as given (``grow`` changes only C4.5's ``min_weight``, which a
    regression tree does not have)."""
    least = MinDecrease(float(min_impurity_decrease), float(root_weight))
    root = {}

    def statistic(data, rows, w):
        root["statistic"] = root_statistic(data.y, rows, w, rules)
        return root["statistic"].value

    def root_reason(value, n_rows, grown_rules):
        return root["statistic"].reason

    def score(data, node, rules, scan):
        return regression_scores(least, data.columns, node, rules, scan, None)

    return Growth(statistic, lambda value: value[0], root_reason, score, expand_regression_node,
                  True, least)


class DecisionTreeRegressor(TreeMethods, RegressorMixin, BaseEstimator):
    """CART's least-squares regression tree (李航《统计学习方法》§5.5.1, 算法5.5).

    The input space is divided recursively in two: at every node, over every
    attribute ``j`` and cut point ``s`` (a midpoint between adjacent distinct
    values; ``x_j <= s`` goes to the first region ``R1``), the cut chosen is
    the one of least squared error (式5.21)

    ``min_{j,s} [min_{c1} Σ_{R1(j,s)} (y_i − c1)² + min_{c2} Σ_{R2(j,s)} (y_i − c2)²]``

    and each region outputs the mean of its targets, ``ĉ_m = ave(y_i | x_i ∈ R_m)``
    (式5.17 with the squared error): a prediction is the mean of the leaf a row
    reaches. Weights multiply every row's terms (means and errors are
    weighted). Categorical columns of a DataFrame become CART's binary tests
    ``A = a`` / ``A ≠ a`` (李航 §5.5.2; one 0/1 column per value). Missing
    values (NaN) follow C4.5 as the classifier does (周志华 §4.4.2): a cut is
    scored on the rows whose value is known times ρ, their share of the
    node's weight; a row missing the tested value goes down both branches with
    weight ``r̃_v · w``, and its prediction mixes the branches' means by ``r̃_v``.

    Parameters
    ----------
    criterion : {"squared_error", "absolute_error"}, default="squared_error"
        ``"squared_error"``: the least-squares rule of 李航 §5.5.1; a node's
        impurity is its mean squared error ``Σw(y − ȳ)²/Σw`` and its output
        the mean. ``"absolute_error"``: least absolute deviation (Breiman et
        al. 1984, §8.11; scikit-learn's criterion of that name): 式5.21 with
        ``|y_i − c|`` for ``(y_i − c)²``, so a region outputs a weighted median
        ``m`` of its targets (the mid-point of the two middle targets when
        the weight splits exactly in half) and its impurity is the mean
        absolute deviation ``Σw|y − m|/Σw``.
    splitter : {"best", "hist"}, default="best"
        ``"best"``: every cut point of every attribute is tried (exact).
        ``"hist"``: each numeric attribute is binned once into at most
        ``max_bins`` quantile bins (as the classifier's ``"hist"``) and only
        cuts between bins are tried, by the exact scan itself: a node's rows
        are ordered by bin (counting sort) and a cut between two bins lies
        midway between the largest training value of one and the smallest of
        the next, so that when an attribute has at most ``max_bins`` distinct
        values ``"hist"`` grows the ``"best"`` tree. Both criteria.
    max_depth : int or None, default=None
    min_samples_split : int or float, default=2
        Minimum number of rows to split a node (a float is a fraction of the
        training rows, rounded up, as in scikit-learn).
    min_samples_leaf : int or float, default=1
        Minimum number of rows with a known value on each side of a cut.
    min_impurity_decrease : float, default=0.0
        A node is split only when the split decreases the tree's weighted
        impurity ``W_t/W · (MSE(t) − Σ_v W_v/W_t MSE(v))`` by at least this
        (scikit-learn's rule, with its tolerance of one machine epsilon).
    ccp_alpha : float, default=0.0
        Minimal cost-complexity pruning (李航 算法5.7, Breiman et al. 1984):
        the grown tree's weakest links are pruned while their ``α`` is at
        most ``ccp_alpha``, with ``C(T)`` the weighted mean squared error of
        the leaves as scikit-learn measures it. 0: no pruning.
    max_bins : int, default=256
        Bins per numeric attribute for ``splitter="hist"`` (2..65535).
    random_state : int, RandomState or None, default=None
        Chooses the rows that define the ``"hist"`` bin edges on more than
        200 000 rows (as the classifier's).
    verbose : bool, default=False
        Show a progress bar of the training weight settled into leaves.
    record_trace : bool, default=False
        Keep ``trace_``, one entry per node of the grown tree with the split
        table it compared (``mse_after``, ``mse_decrease``, ``threshold``,
        ``rho``, ``valid`` per attribute). The tree is then grown node by
        node in Python instead of in compiled subtrees side by side on every
        thread (numba's thread count): the same tree.
    n_jobs : int or None, default=None
        Threads of ``fit``, as :class:`DecisionTreeClassifier`'s ``n_jobs``;
        the tree does not depend on it.

    Attributes
    ----------
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Column names (DataFrame input only).
    n_leaves_ : int
    depth_ : int
    feature_importances_ : ndarray of shape (n_features,)
        Weighted impurity decrease per attribute, normalised to sum to 1.
    tree_ : Tree
        The flat node arrays (preorder); ``tree_.value[t]`` holds the moments
        ``[Σw, Σwy, Σwy²]`` of node ``t``'s training rows (weights relative
        to the lightest row), or with ``"absolute_error"`` ``[Σw, m, Σw|y − m|]``;
        ``tree_.impurity[t]`` is their mean squared (absolute) error.
    trace_ : list of NodeTrace
        With ``record_trace=True``: every node of the grown tree in preorder.

    Notes
    -----
    Ties: cuts of one attribute whose squared errors agree up to round-off
    go to the smaller threshold (absolute errors: the smaller threshold
    unless round-off makes a later one smaller, as in scikit-learn); attributes
    whose scores agree within 1e-9 go to the first in column order. A node whose targets are all equal (mean
    squared error at most one machine epsilon) is a leaf.

    Dask: ``fit`` accepts a ``dask.array`` or numeric ``dask.dataframe`` ``X``
    (``y`` and ``sample_weight`` as Dask collections) with ``splitter="hist"``
    and ``criterion="squared_error"``: each level the chunks send the moments
    ``(Σw, Σwy, Σwy²)`` of every frontier node's rows per attribute and bin,
    summed on the cluster, and the client scans them as the in-memory
    ``"hist"`` tree scans its rows, so the tree is the same (up to the order
    of the sums). ``predict`` of a Dask ``X`` returns a lazy Dask array.

    Examples
    --------
    李航 习题5.2: the root cut of x = 1..10 is x <= 5 (a threshold of 5.5, the
    midpoint to the next value), with the regions' means 5.06 and 8.18:

    >>> import numpy as np
    >>> from hyperplane.tree import DecisionTreeRegressor
    >>> x = np.arange(1.0, 11.0).reshape(-1, 1)
    >>> y = [4.50, 4.75, 4.91, 5.34, 5.80, 7.05, 7.90, 8.23, 8.70, 9.00]
    >>> stump = DecisionTreeRegressor(max_depth=1).fit(x, y)
    >>> float(stump.tree_.threshold[0]), stump.predict([[3.0], [8.0]]).round(2).tolist()
    (5.5, [5.06, 8.18])

    With the absolute error each region outputs its median instead:

    >>> lad = DecisionTreeRegressor(criterion="absolute_error", max_depth=1).fit(x, y)
    >>> float(lad.tree_.threshold[0]), lad.predict([[3.0], [8.0]]).tolist()
    (5.5, [4.91, 8.23])
    """

    def __init__(self, *, criterion="squared_error", splitter="best", max_depth=None,
                 min_samples_split=2, min_samples_leaf=1, min_impurity_decrease=0.0,
                 ccp_alpha=0.0, max_bins=256, random_state=None, verbose=False,
                 record_trace=False, n_jobs=None):
        keep_parameters(self, locals())

    _parameter_rules = {
        **GROWTH_PARAMETER_RULES,
        "criterion": Options(CRITERIA), "splitter": Options(SPLITTERS),
        "min_impurity_decrease": NON_NEGATIVE,
    }

    def _rules(self, n_rows):
        """The growth rules (the declared parameter rules were checked by ``fit``)."""
        return grow_rules(self, CRITERIA[self.criterion], False, n_rows)

    @uses_threads
    def fit(self, X, y, sample_weight=None):
        """Grow (and, with ``ccp_alpha``, prune) the tree.

        Parameters
        ----------
        X : array-like, sparse matrix or DataFrame of shape (n_samples, n_features)
            Numeric, or a DataFrame mixing categorical and numeric columns;
            NaN/None marks a missing value.
        y : array-like of shape (n_samples,)
            Real targets.
        sample_weight : array-like of shape (n_samples,), optional
            Row weights (1 by default); only their ratios count.

        Returns
        -------
        self
        """
        validate_params(self)
        if is_dask_collection(X) or is_dask_collection(y):
            return self._fit_dask(X, y, sample_weight)
        if y is not None:
            y = _numeric_target(self, y)
        X_enc, y, spec = encode_fit(self, X, y)
        self._input_spec, self._spec, self._source = spec, spec, None
        if np.any(spec.categorical):      # CART's tests A = a (李航 §5.5.2)
            X_enc, self._spec, self._source = value_indicators(X_enc, spec)
        y = np.asarray(column_or_1d(y, warn=True), dtype=np.float64)
        check_consistent_length(X_enc, y)
        if not np.all(np.isfinite(y)):
            raise ValueError(f"y contains NaN or infinity (row "
                             f"{int(np.flatnonzero(~np.isfinite(y))[0])})")
        w = check_sample_weight_vector(sample_weight, X_enc.shape[0])
        if not np.any(w > 0):
            raise ValueError("sample_weight is zero for every sample; at least one weight "
                             "must be positive")
        w = relative_weights(w)
        positive = w > 0
        X_train, y_train, w_train = X_enc[positive], y[positive], w[positive]
        rules = self._rules(X_train.shape[0])
        data = layout(X_train, y_train, w_train, self._spec.categorical, self._spec.n_codes,
                      N_MOMENTS, self.splitter, self.max_bins, self.random_state)
        tracer = Tracer(self._spec.names, self.criterion) if self.record_trace else None
        growth = regression_growth(rules, self.min_impurity_decrease, w_train.sum())
        with progress(float(w_train.sum()), "tree growth (weight in leaves)",
                      enabled=bool(self.verbose)) as bar:
            tree = grow(data, rules, bar=bar if self.verbose else None, tracer=tracer,
                        growth=growth)
        if tracer is not None:
            self.trace_ = tracer.trace
        elif hasattr(self, "trace_"):
            del self.trace_
        if self.ccp_alpha > 0:
            tree = cost_complexity_prune(tree, self.ccp_alpha, rules.criterion)
        self._set_tree(tree)
        return self

    def _fit_dask(self, X, y, sample_weight):
        """Fit on Dask input (:func:`~hyperplane.tree._dask._fit.fit_regressor_dask`): the bins'
        moments summed over the chunks, so only the sums-based rule runs there."""
        if not is_dask_collection(X):
            raise ValueError("y is a Dask collection but X is not; pass X as a dask.array or "
                             "dask.dataframe too")
        if self.splitter != "hist":
            raise ValueError(f"splitter={self.splitter!r} needs every node's sorted values in "
                             "one process; use splitter='hist' on Dask input")
        if self.criterion != "squared_error":
            raise ValueError(f"criterion={self.criterion!r} is not supported on Dask input: a "
                             "node's weighted median is not a sum of its chunks' statistics; "
                             "use criterion='squared_error', or call .compute() on X and y")
        if self.record_trace:
            raise ValueError("record_trace=True is not supported on Dask input; use "
                             "record_trace=False")
        return fit_regressor_dask(self, X, y, sample_weight=sample_weight)

    def _set_tree(self, tree):
        set_tree_structure(self, tree)
        if CRITERIA[self.criterion] == ABSOLUTE_ERROR:     # [Σw, m, Σw|y − m|]
            self._leaf_value = tree.value[:, 1:2].copy()
            return
        w = tree.value[:, 0]
        means = np.divide(tree.value[:, 1], w, out=np.zeros_like(w), where=w > 0)
        self._leaf_value = means.reshape(-1, 1)

    def predict(self, X):
        """The mean of the leaf each row reaches (李航 式5.17); a row missing a tested
        value gets the branches' means mixed by ``r̃_v`` (周志华 §4.4.2). A Dask ``X``
        gives a lazy Dask array."""
        if is_dask_collection(X):
            from ..distributed._dask import predict_lazy
            check_is_fitted(self)
            return predict_lazy(self.predict, X, dtype=np.float64)
        return self._walk(X, "_leaf_value")[:, 0]

    def cost_complexity_pruning_path(self, X, y, sample_weight=None):
        """Effective alphas of minimal cost-complexity pruning (李航 算法5.7), like scikit-learn's.

        Grows the unpruned tree with the current parameters and returns a
        :class:`sklearn.utils.Bunch` with ``ccp_alphas`` (increasing, first 0):
        the ``α = (C(t) − C(T_t)) / (|T_t| − 1)`` of the weakest link pruned at
        each step, ``C`` the weighted mean squared error of the leaves, and
        ``impurities`` (``C`` of the tree after each step).

        Examples
        --------
        >>> import numpy as np
        >>> from hyperplane.tree import DecisionTreeRegressor
        >>> x = np.arange(1.0, 5.0).reshape(-1, 1)
        >>> path = DecisionTreeRegressor().cost_complexity_pruning_path(x, [1.0, 1.0, 3.0, 5.0])
        >>> path.ccp_alphas.tolist(), path.impurities.tolist()
        ([0.0, 0.5, 2.25], [0.0, 0.5, 2.75])
        """
        from sklearn.base import clone
        from sklearn.utils import Bunch

        est = clone(self).set_params(ccp_alpha=0.0).fit(X, y, sample_weight=sample_weight)
        alphas, impurities, _ = cost_complexity_path(est.tree_)
        return Bunch(ccp_alphas=alphas, impurities=impurities)
