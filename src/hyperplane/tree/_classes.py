"""DecisionTreeClassifier: ID3, C4.5 and CART as 周志华《机器学习》chapter 4 defines them."""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_consistent_length, column_or_1d

from .._parameters import keep_parameters
from .._progress import progress
from .._threads import uses_threads
from .._validation import (CLASS_WEIGHT, FLAG, NONE, Either, Options, Real, check_is_fitted,
                           check_sample_weight_vector, class_weight_vector, encode_labels,
                           is_dask_collection, validate_params)
from ._grow._builder import grow
from ._grow._layout import layout
from ._dask._fit import fit_tree_dask
from ._weights import relative_weights
from ._encode import (declared_classes, encode_fit, value_indicators,
                      warn_values_within)
from ._prune._kinds import PrePruner, PruningDecisions, cost_complexity_path
from ._pruning_choice import (AFTER_GROWTH, PRUNINGS, encode_validation, hold_out,
                              pruning_after_growth, warn_unused_ccp_alpha)
from ._class_order import declared_order, first_seen_order
from ._scan._split_kernels import C45_EQUAL, ENTROPY, GINI
from ._inspect._trace import Tracer
from ._growth_rules import GROWTH_PARAMETER_RULES, grow_rules
from ._tree_api import TreeMethods, set_tree_structure

#: criterion name -> (impurity code, C4.5's rules: gain ratio among attributes of average gain)
CRITERIA = {"info_gain": (ENTROPY, False), "gain_ratio": (ENTROPY, True), "gini": (GINI, False)}
SPLITTERS = ("best", "hist")
CUT_POINTS = ("midpoint", "training_value")
#: how a categorical attribute splits: one branch per value (周志华 §4.1, ID3 / C4.5) or
#: CART's binary test A = a against A ≠ a (李航 §5.5.2, 算法5.6)
CATEGORICAL_SPLITS = ("multiway", "binary")


class DecisionTreeClassifier(TreeMethods, ClassifierMixin, BaseEstimator):
    """Decision tree classifier: generate_tree of 周志华《机器学习》4.1 with ID3, C4.5 and CART choices.

    At every node the attribute with the best score is chosen (4.2):
    information gain ``Gain(D, a) = Ent(D) − Σ_v |D^v|/|D| Ent(D^v)``
    (``"info_gain"``, ID3), gain ratio ``Gain / IV`` among attributes whose gain
    is at least average (``"gain_ratio"``, C4.5), or the Gini index
    ``Σ_v |D^v|/|D| Gini(D^v)`` (``"gini"``, CART; smallest wins). Categorical
    attributes split multiway with one branch per value of the attribute's
    domain -- the declared categories of a pandas ``Categorical`` column, in
    their order, else the values seen in training -- and are not reused
    below; a value no row reaches gets an empty branch, a leaf labelled with
    its parent's majority class (algorithm 4.2, lines 12-14). Numeric
    attributes split in two at a midpoint (4.4.1) and can be reused. Missing
    values follow C4.5 (4.4.2): scores on the known part times ρ, rows with a
    missing value go to every branch with weight ``r_v · w``, prediction
    mixes the branches by ``r_v``. A training set of one class gives a
    one-leaf tree.

    ``criterion="gain_ratio"`` follows C4.5 release 8 as Weka's J48 does
    (Quinlan 1993; Quinlan 1996, "Improved use of continuous attributes in
    C4.5"), and with ``pruning="pessimistic", min_samples_leaf=2`` the tree
    is J48's (``-C confidence -M 2``) node for node:

    * the candidates are the attributes whose gain is at least the average
      gain of the admissible ones less 1e-3; scanning them in column order,
      one replaces the best so far when its gain ratio is larger by more than
      1e-6 (no split when no ratio exceeds 1e-6);
    * numeric values closer than 1e-5 are one value (no cut between them, not
      counted in the MDL charge ``log2(#cuts)/W``; a column whose values all
      lie within 1e-5, e.g. data in tiny units, gets a warning); a later cut replaces the
      best so far when its gain is larger by more than 1e-6 per unit of the
      node's weight; an attribute whose charged gain is below 1e-6 is not
      used; a node needs at least ``2·min(25, max(M, 0.1 W̃/K))`` known rows
      (see ``min_samples_leaf``);
    * the split information counts the missing weight as one more branch;
    * the threshold is the largest training value at or below the midpoint
      (``cut_point``);
    * ``pruning="pessimistic"`` first collapses every subtree whose training
      errors are not below its root's as a leaf less 1e-3, then prunes bottom
      up with subtree raising, where the largest branch is the last of the
      branches within 1e-6 of the heaviest.

    Parameters
    ----------
    criterion : {"info_gain", "gain_ratio", "gini"}, default="info_gain"
    splitter : {"best", "hist"}, default="best"
        ``"best"`` tries every midpoint (exact). ``"hist"`` bins each numeric
        attribute into at most ``max_bins`` quantile bins once and only cuts
        between bins, by the exact scan's rules (midpoint thresholds between
        the training values either side; C4.5's numeric rules with
        ``"gain_ratio"``): approximate, and the ``"best"`` tree when an
        attribute has at most ``max_bins`` distinct values; much faster on
        large data. The bin
        edges are weighted quantiles of all training rows when there are at
        most 200 000 of them, and of 200 000 rows drawn uniformly without
        replacement (seeded by ``random_state``; 0 when it is None) above
        that, like LightGBM's ``bin_construct_sample_cnt``. Trees without
        exact numeric attributes (``"hist"``, or only categorical attributes)
        grow in compiled code, using every thread (numba's thread count) for
        the top's class tables and for independent subtrees, and
        LightGBM's histogram subtraction (Ke et al. 2017); the tree is the
        same as node by node, up to round-off with fractional weights.
    pruning : {None, "pre", "post", "pessimistic", "cost_complexity"}, default=None
        ``"pre"``/``"post"``: reduced-error pruning on ``validation_data``
        (4.3), strict improvement only; without ``validation_data`` a third of
        the training data (chosen with ``random_state``) is held out.
        ``"pessimistic"``: C4.5 error-based pruning with ``confidence``,
        including C4.5's subtree raising.
        ``"cost_complexity"``: CART minimal cost-complexity pruning with ``ccp_alpha``.
    max_depth : int or None, default=None
    min_samples_split : int or float, default=2
        Minimum number of rows (a row missing a tested value counts in every
        branch it goes down) to split a node; a float is a fraction of the
        training rows, as in scikit-learn. With ``criterion="gain_ratio"``
        (C4.5) the node's weight is compared instead, so fractional copies of
        rows missing a value stop splitting.
    min_samples_leaf : int or float, default=1
        Minimum number of rows with a known value in every non-empty branch.
        With ``criterion="gain_ratio"`` (J48's rules) a categorical split needs
        at least two branches weighing ``min_samples_leaf`` or more (the others
        may be lighter or empty), and a numeric cut follows C4.5 release 8:
        both sides must *weigh* at least ``min(25, max(min_samples_leaf,
        0.1 W̃/K))`` (W̃ the node's known weight, K the classes), and the cut's
        gain is charged ``log2(#admissible cuts)/W`` (an attribute whose
        charged gain is below 1e-6 is not used). J48's ``-M 2`` is
        ``min_samples_leaf=2``.
    confidence : float, default=0.25
        C4.5's confidence factor CF in (0, 0.5] for ``pruning="pessimistic"``.
    ccp_alpha : float, default=0.0
        Complexity parameter of ``pruning="cost_complexity"``; a positive
        ``ccp_alpha`` with ``pruning=None`` prunes by cost complexity, as in
        scikit-learn, and with another pruning is unused (with a warning).
    max_bins : int, default=256
        Bins per numeric attribute for ``splitter="hist"`` (2..65535).
    class_weight : dict, "balanced" or None, default=None
        Weights of the classes, multiplying every row's weight (with
        ``sample_weight``): each class table counts a row of class k as w_k,
        so the criteria, leaf labels and pruning see the rescaled class
        counts of 周志华 §3.6 (再缩放, rescaling: w_k = 1 / m_k^+ makes a
        leaf predict the class whose share exceeds its prior). ``"balanced"``
        is scikit-learn's n / (K n_k); a dict names classes by label
        (others weigh 1). Integer weights are repeated rows.
    random_state : int, RandomState or None, default=None
        Chooses the hold-out rows for pre/post pruning and the rows that
        define the ``"hist"`` bin edges on more than 200 000 rows.
    subtree_raising : bool, default=True
        With ``pruning="pessimistic"``, also try C4.5's subtree raising
        (replace a node by its largest branch refitted to all the node's rows,
        Weka J48's default; ``False`` is J48's ``-S``). It needs the training
        rows in memory, so a Dask fit requires ``False``.
    cut_point : {"midpoint", "training_value"} or None, default=None
        Threshold of an exact numeric cut (``splitter="best"``): the midpoint
        between the two adjacent values (周志华 eq. 4.7), or C4.5 release 8's
        largest training value at or below that midpoint (Weka's J48; rows
        of the training set route the same way, new values between the two
        differ). None: ``"training_value"`` in the C4.5 mode
        (``criterion="gain_ratio", pruning="pessimistic"``), else ``"midpoint"``.
    categorical_split : {"multiway", "binary"}, default="multiway"
        How a categorical attribute splits. ``"multiway"``: one branch per
        value (周志华 §4.1–4.2: ID3, C4.5 and 周志华's Gini index 式4.6).
        ``"binary"``: CART's test ``A = a`` against ``A ≠ a`` (李航 §5.5.2,
        算法5.6, Gini(D, A = a) of 式5.25 with ``criterion="gini"``): the tree
        is grown on one 0/1 column ``"A = a"`` per value (``tree_.feature``
        and ``export_text`` name those columns; the cut ``<= 0.5`` is
        ``A ≠ a``, its first branch), and ``feature_importances_`` adds an
        attribute's columns up. In-memory data only.
    verbose : bool, default=False
        Show a progress bar of the training weight settled into leaves (in
        memory) or of the levels grown (Dask).
    record_trace : bool, default=False
        Keep ``trace_``, one entry per node of the grown tree with the split
        table it compared. The tree is then grown node by node in Python
        (never by the compiled subtree growth), so it is the same tree up to
        the round-off of histogram subtraction with fractional weights.
    n_jobs : int or None, default=None
        Threads of ``fit`` (numba's, for the duration of the call): ``None``
        uses numba's thread count less the cores other processes keep busy
        when the fit starts, ``-1`` every core, ``k`` ``k`` threads. The tree
        does not depend on it.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    class_weight_ : ndarray of shape (n_classes,)
        The weight of each class (ones without ``class_weight``).
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Column names (DataFrame input only).
    n_leaves_ : int
    depth_ : int
        Depth of the deepest leaf (a single leaf has depth 0).
    feature_importances_ : ndarray of shape (n_features,)
        Weighted impurity decrease per attribute, normalised to sum to 1.
    tree_ : Tree
        The flat node arrays (preorder); see :mod:`hyperplane.tree._grow._builder`.
    pruning_trace_ : pandas.DataFrame
        With ``pruning="pre"`` or ``"post"``: one row per pruning decision in
        the order made, with ``kind``, the ``attribute`` tested at the node,
        the tree's validation ``accuracy_before`` and ``accuracy_after`` the
        decision, and the ``decision`` ("split"/"leaf", "prune"/"keep").
    trace_ : list of NodeTrace
        With ``record_trace=True``: every node of the grown tree in preorder
        (before pruning), each with its index ``node`` in ``tree_`` (the grown
        tree's), ``depth``, the ``weight`` and ``n_rows`` of its rows, its
        ``split_table`` (a DataFrame like :func:`~hyperplane.tree.split_table`'s,
        computed by the same code under the tree's own parameters; None for a
        node that became a leaf unscored), the ``attribute`` and ``threshold``
        it tests, or its ``leaf_reason``.

    Notes
    -----
    Ties: attributes whose scores agree within 1e-9 are tied and the first in
    column order wins; between equally good cuts of one numeric attribute the
    smaller threshold wins; a leaf whose class weights tie is labelled with the
    class declared first when ``y`` is a pandas ``Categorical``, else the one
    that occurs first in the ``y`` given to ``fit`` (so an empty branch,
    labelled with its parent's majority, follows the same rule).
    A categorical value not seen in training is treated as missing at predict
    time: the branches' class distributions are combined by ``r_v``.

    Dask: ``fit`` accepts a ``dask.array`` / ``dask.dataframe`` ``X`` (with
    ``y`` and ``sample_weight`` as Dask collections or, for the weights, an
    array) and grows the tree level by level on the cluster without gathering
    the data (:mod:`hyperplane.tree._dask._levels`): every chunk sends the
    class-weight tables of the frontier nodes, the client sums them and
    chooses splits with the same scoring code. Categorical attributes give
    the identical tree; numeric attributes need ``splitter="hist"`` and give
    the identical tree to the in-memory ``"hist"`` fit (same bin edges, from
    the same rows). Every pruning works; ``"pre"``/``"post"`` need
    ``validation_data`` in memory (no hold-out is drawn from Dask rows).
    ``predict``/``predict_proba`` of a Dask ``X`` return lazy Dask arrays.

    Examples
    --------
    >>> from hyperplane.datasets import load_watermelon
    >>> from hyperplane.tree import DecisionTreeClassifier
    >>> X, y = load_watermelon("2.0")
    >>> tree = DecisionTreeClassifier(criterion="info_gain").fit(X, y)
    >>> tree.n_leaves_, tree.depth_
    (9, 4)
    >>> tree.predict(X.iloc[:2]).tolist()
    ['是', '是']
    >>> root = DecisionTreeClassifier(record_trace=True).fit(X, y).trace_[0]
    >>> root.attribute, root.split_table["info_gain"].idxmax()
    ('纹理', '纹理')
    """

    def __init__(self, *, criterion="info_gain", splitter="best", pruning=None, max_depth=None,
                 min_samples_split=2, min_samples_leaf=1, confidence=0.25, ccp_alpha=0.0,
                 max_bins=256, class_weight=None, random_state=None, verbose=False,
                 subtree_raising=True, record_trace=False, cut_point=None,
                 categorical_split="multiway", n_jobs=None):
        keep_parameters(self, locals())

    # ------------------------------------------------------------------ fit
    _parameter_rules = {
        **GROWTH_PARAMETER_RULES,
        "criterion": Options(CRITERIA), "splitter": Options(SPLITTERS),
        "pruning": Either(NONE, Options(PRUNINGS[1:])),
        "confidence": Real(low=0, high=0.5, low_open=True), "class_weight": CLASS_WEIGHT,
        "subtree_raising": FLAG, "cut_point": Either(NONE, Options(CUT_POINTS)),
        "categorical_split": Options(CATEGORICAL_SPLITS),
    }

    def _check_params(self, total_weight):
        """The growth rules (the declared parameter rules were checked by ``fit``)."""
        criterion, c45 = CRITERIA[self.criterion]
        return grow_rules(self, criterion, c45, total_weight,
                          self._cut_point() == "training_value")

    def _cut_point(self):
        """``cut_point`` with None resolved: C4.5's training value in the C4.5 mode."""
        if self.cut_point is None:
            c45_mode = self.criterion == "gain_ratio" and self.pruning == "pessimistic"
            return "training_value" if c45_mode else "midpoint"
        return self.cut_point

    @uses_threads
    def fit(self, X, y, *, validation_data=None, sample_weight=None):
        """Grow (and prune) the tree.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            Numeric, or a DataFrame mixing categorical and numeric columns;
            NaN/None marks a missing value.
        y : array-like of shape (n_samples,)
        validation_data : tuple (X_val, y_val), optional
            Validation set for ``pruning="pre"``/``"post"``.
        sample_weight : array-like of shape (n_samples,), optional
            Initial weights w_i (1 by default; 周志华 4.4.2). Only their
            ratios count: they are divided by the smallest positive weight
            first, so uniform weights of any scale grow the unweighted tree
            and the weight C4.5's rules count as rows (``min_samples_leaf``
            with ``"gain_ratio"``, the MDL charge, pessimistic pruning's
            N and E) is in units of the lightest row; integer weights with a
            1 among them are the rows repeated. Positive weights may span a
            ratio of at most 1e100.

        Returns
        -------
        self
        """
        validate_params(self)
        warn_unused_ccp_alpha(self.pruning, self.ccp_alpha)
        if is_dask_collection(X):
            if self.class_weight is not None:
                raise ValueError("class_weight is not supported with Dask input yet; pass "
                                 "the class weights as sample_weight")
            if self.categorical_split == "binary":
                raise ValueError('categorical_split="binary" is not supported with Dask input '
                                 'yet; fit on a pandas DataFrame')
            tracer = Tracer(None, self.criterion) if self.record_trace else None
            fit_tree_dask(self, X, y, validation_data=validation_data,
                          sample_weight=sample_weight,
                          prune_after=AFTER_GROWTH.get(
                              pruning_after_growth(self.pruning, self.ccp_alpha)),
                          tracer=tracer)
            self._set_trace(tracer)
            return self
        declared = declared_classes(y)
        X_enc, y, spec = encode_fit(self, X, y)
        self._input_spec, self._source = spec, None
        if self.categorical_split == "binary":   # CART's A = a / A ≠ a (李航 算法5.6)
            X_enc, spec, self._source = value_indicators(X_enc, spec)
        y = column_or_1d(y, warn=True)
        check_consistent_length(X_enc, y)
        self.classes_, y_idx = encode_labels(y, min_classes=1)
        self.class_weight_ = class_weight_vector(self.class_weight, self.classes_, y_idx)
        w = check_sample_weight_vector(sample_weight, X_enc.shape[0]) * self.class_weight_[y_idx]
        if not np.any(w > 0):
            raise ValueError("sample_weight is zero for every sample; at least one weight "
                             "must be positive")
        w = relative_weights(w)             # the lightest row weighs 1: only ratios count
        params = self._check_params(np.count_nonzero(w > 0))
        if params.c45:
            warn_values_within(X_enc if np.all(w > 0) else X_enc[w > 0], spec, C45_EQUAL)
        self._spec = spec
        self._preference = (first_seen_order(y_idx[w > 0], self.classes_.size)
                            if declared is None else declared_order(self.classes_, declared))
        label_of = self._label_of
        X_train, y_train, w_train, validation = X_enc, y_idx, w, None
        if not np.all(w > 0):  # a zero weight is the same as an absent row
            positive = w > 0
            X_train, y_train, w_train = (X_enc[positive], y_idx[positive],
                                         w[positive])
        if self.pruning in ("pre", "post"):
            if validation_data is not None:
                validation = self._encode_validation(validation_data)
            else:
                X_train, y_train, w_train, validation = hold_out(X_enc, y_idx, w, self.pruning,
                                                                 self.random_state)
        elif validation_data is not None:
            raise ValueError(f"validation_data is only used with pruning='pre' or 'post'; "
                             f"got pruning={self.pruning!r}")
        data = layout(X_train, y_train, w_train, spec.categorical, spec.n_codes,
                      self.classes_.size, self.splitter, self.max_bins, self.random_state)
        pre = PrePruner(*validation, label_of) if self.pruning == "pre" else None
        if self.pruning in ("pre", "post"):
            self._decisions = pre.decisions if pre else PruningDecisions(validation[2].sum())
        tracer = Tracer(spec.names, self.criterion) if self.record_trace else None
        with progress(float(w_train.sum()), "tree growth (weight in leaves)",
                      enabled=bool(self.verbose)) as bar:
            tree = grow(data, params, pre_pruner=pre, bar=bar if self.verbose else None,
                        tracer=tracer)
        self._set_trace(tracer)
        prune_after = AFTER_GROWTH.get(pruning_after_growth(self.pruning, self.ccp_alpha))
        if prune_after is not None:
            tree = prune_after(self, tree, validation, (X_train, y_train, w_train),
                               params.criterion)
        if self.pruning in ("pre", "post"):
            self.pruning_trace_ = self._decisions.frame(spec.names)
        self._set_tree(tree)
        return self

    def _set_trace(self, tracer):
        """``trace_`` from the tracer of the fit (absent without ``record_trace``)."""
        if tracer is not None:
            self.trace_ = tracer.trace
        elif hasattr(self, "trace_"):
            del self.trace_

    def _set_tree(self, tree):
        set_tree_structure(self, tree)
        leaf_value = tree.value.copy()
        sums = leaf_value.sum(axis=1, keepdims=True)
        self._leaf_proba = np.divide(leaf_value, sums, out=np.full_like(leaf_value, 1.0 /
                                     leaf_value.shape[1]), where=sums > 0)

    def _label_of(self, value):
        """Majority class of a weight vector; ties → the tie rule (declared or first-seen order)."""
        pref = self._preference
        return int(pref[np.argmax(value[pref])])

    def _encode_validation(self, validation_data):
        """``(X_val, y_val as class indices, unit weights)`` of ``validation_data``."""
        return encode_validation(self._encode, self.classes_, validation_data)

    # -------------------------------------------------------------- predict
    def _proba(self, X):
        return self._walk(X, "_leaf_proba")

    def predict_proba(self, X):
        """Class distribution of the leaf (mixed by r_v over branches where a value is missing).

        A Dask ``X`` gives a lazy Dask array.
        """
        if is_dask_collection(X):
            from ..distributed._dask import predict_lazy
            check_is_fitted(self)
            return predict_lazy(self._proba, X, ndim_out=2, dtype=np.float64)
        return self._proba(X)

    def predict(self, X):
        """Majority class of :meth:`predict_proba` (ties: declared or first-seen class order).

        A Dask ``X`` gives a lazy Dask array.
        """
        if is_dask_collection(X):
            from ..distributed._dask import predict_lazy
            check_is_fitted(self)
            return predict_lazy(self.predict, X, dtype=self.classes_.dtype)
        proba = self._proba(X)
        pref = self._preference
        return self.classes_[pref[np.argmax(proba[:, pref], axis=1)]]

    def cost_complexity_pruning_path(self, X, y, sample_weight=None):
        """Effective alphas of minimal cost-complexity pruning, like scikit-learn's.

        Grows the unpruned tree with the current parameters and returns a
        :class:`sklearn.utils.Bunch` with ``ccp_alphas`` (increasing, first 0)
        and ``impurities`` (total weighted leaf impurity after each step).
        """
        from sklearn.base import clone
        from sklearn.utils import Bunch

        est = clone(self).set_params(pruning=None).fit(X, y, sample_weight=sample_weight)
        alphas, impurities, _ = cost_complexity_path(est.tree_)
        return Bunch(ccp_alphas=alphas, impurities=impurities)

