"""The primal perceptron, 李航《统计学习方法》algorithm 2.1."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils import check_random_state

from .._base import LinearDecisionMixin, dask_classification_data
from .._numerics import power_of_two_exponent, scaled_by_power_of_two
from .._parameters import (FLAG, N_JOBS, POSITIVE, POSITIVE_INT, SEED, VERBOSE, Options,
                           keep_parameters, validate_params)
from .._progress import progress
from .._threads import one_blas_thread, resolve_n_jobs
from .._validation import (CLASS_WEIGHT, check_X_y, encode_labels, is_dask_collection,
                           one_vs_rest_targets, one_vs_rest_weights, partial_fit_labels,
                           warn_not_converged)
from ._perceptron_mixing import fit_parameter_mixing
from ._perceptron_rules import (
    UPDATE_RULES,
    VARIANTS,
    BinaryPerceptronState,
    run_epoch,
)


#: the parameters of the online perceptrons (primal and dual), ruled once
ONLINE_RULES = {
    "eta": POSITIVE, "max_iter": POSITIVE_INT, "shuffle": FLAG, "random_state": SEED,
    "record_trace": FLAG, "class_weight": CLASS_WEIGHT,
}


class Perceptron(LinearDecisionMixin, ClassifierMixin, BaseEstimator):
    """Perceptron ``f(x) = sign(w.x + b)`` learned by algorithm 2.1.

    Minimises ``L(w, b) = -Σ_{x_i∈M} y_i (w.x_i + b)`` over the set M of
    misclassified points by stochastic gradient descent (李航 2.3.1): from
    ``w = 0, b = 0``, every sample with ``y_i (w.x_i + b) <= 0`` triggers
    ``w <- w + eta y_i x_i, b <- b + eta y_i``; the samples are visited in
    order (or shuffled each epoch) until an epoch makes no update.

    Parameters
    ----------
    eta : float, default=1.0
        Learning rate η, 0 < η.
    max_iter : int, default=1000
        Maximum number of epochs (passes over the data); reaching it emits a
        ``ConvergenceWarning`` and sets ``converged_ = False``.
    shuffle : bool, default=False
        Visit the samples in a new random order each epoch.
    random_state : int, RandomState or None
        Seeds the shuffling.
    variant : {"standard", "pocket", "averaged"}
        ``"standard"`` returns the last weights; ``"pocket"`` the weights with
        the fewest training mistakes seen at the end of an epoch (Gallant
        1990), for non-separable data; ``"averaged"`` the average of the
        weights over every visit (Freund & Schapire 1999), or over epochs with
        ``update="batch"``.
    update : {"online", "batch"}
        ``"online"`` is algorithm 2.1; ``"batch"`` is the batch perceptron rule
        (Duda, Hart & Stork, *Pattern Classification*, §5.5.1)
        ``w <- w + eta Σ_{i∈M} y_i x_i`` applied once per epoch.
    record_trace : bool, default=False
        Keep every update in ``trace_``.
    verbose : bool, default=False
        Show a progress bar of the epochs (rounds on Dask) and the updates.
    class_weight : dict, "balanced" or None, default=None
        Weight ``w_k`` of each class, multiplying ``sample_weight`` as
        scikit-learn's ``Perceptron`` does (``{label: w}``, or
        ``"balanced"``, ``n / (K n_k)`` from the class counts): two classes,
        sample i's step is ``η s_i w_{y_i}``; K classes, the one-vs-rest
        problem of class k weighs its samples by ``w_k`` and the rest by 1
        (LIBLINEAR's rule). In memory only.
    n_jobs : int or None, default=None
        Threads of an in-memory ``fit`` with more than two classes: the
        one-vs-rest problems are independent and run side by side
        (scikit-learn's ``Perceptron`` does the same), ``None`` on every idle
        core (see :func:`hyperplane._threads.resolve_n_jobs`). The weights do
        not depend on it: with ``shuffle=True`` each problem draws its own
        visiting orders from a seed drawn for it first. ``verbose`` runs them
        one after another.

    Attributes
    ----------
    classes_ : ndarray
        Sorted labels; ``classes_[1]`` is the positive class (+1).
    class_weight_ : ndarray of shape (n_classes,)
        The weight of each class the last fit used.
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
        ``w`` (one row per class for one-vs-rest with more than 2 classes).
    intercept_ : ndarray of shape (1,) or (n_classes,)
        ``b``.
    n_iter_ : int
        Epochs run (the largest over one-vs-rest problems).
    n_updates_ : int
        Updates made (summed over one-vs-rest problems).
    converged_ : bool
        Whether an epoch without updates was reached (every problem).
    trace_ : pandas.DataFrame
        With ``record_trace=True``: one row per update with ``step``
        (1-based), ``sample`` (0-based row; a list of rows for a batch
        update), ``w`` (weights after the update) and ``b``; plus ``class``
        with more than two classes.

    Examples
    --------
    李航 例2.1:

    >>> from hyperplane.datasets import load_perceptron_example
    >>> X, y = load_perceptron_example()
    >>> model = Perceptron(record_trace=True).fit(X, y)
    >>> model.coef_.tolist(), model.intercept_.tolist()
    ([[1.0, 1.0]], [-3.0])
    >>> model.trace_["sample"].tolist()
    [0, 2, 2, 2, 0, 2, 2]
    """

    def __init__(self, *, eta=1.0, max_iter=1000, shuffle=False, random_state=None,
                 variant="standard", update="online", record_trace=False, verbose=False,
                 class_weight=None, n_jobs=None):
        keep_parameters(self, locals())

    _parameter_rules = {
        **ONLINE_RULES, "variant": Options(VARIANTS), "update": Options(UPDATE_RULES),
        "verbose": VERBOSE, "n_jobs": N_JOBS,
    }

    # ------------------------------------------------------------------ checks

    def _binary_targets(self, y_index):
        """±1 targets, one row per binary problem (one-vs-rest for K > 2)."""
        return one_vs_rest_targets(y_index, len(self.classes_))

    def _weights(self, sample_weight, y_index):
        """The sample weights of each one-vs-rest problem: ``s_i`` times the
        class weight (:func:`~hyperplane._validation.one_vs_rest_weights`)."""
        self.class_weight_, weights = one_vs_rest_weights(self.class_weight, self.classes_,
                                                          y_index, sample_weight)
        return weights

    def _order(self, n, rng):
        if self.shuffle:
            return rng.permutation(n).astype(np.int64)
        return np.arange(n, dtype=np.int64)

    # --------------------------------------------------------------------- fit
    def fit(self, X, y, sample_weight=None):
        """Run algorithm 2.1 until an epoch makes no update or ``max_iter``.

        Parameters
        ----------
        X : array-like or scipy.sparse matrix of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), optional
            ``s_i`` scales sample i's update: ``w <- w + η s_i y_i x_i``
            (online), its term of the batch sum, and its count in the pocket's
            mistakes. A sample of weight 0 is never visited, as if it were not
            there; the online rule is order-dependent, so an integer weight is
            not a repeated row. ``class_weight`` multiplies it. In memory only.

        Returns
        -------
        self
        """
        validate_params(self)
        if is_dask_collection(X):
            for name, value in (("sample_weight", sample_weight),
                                ("class_weight", self.class_weight)):
                if value is not None:
                    raise ValueError(f"{name} is not available for Dask input: parameter "
                                     "mixing averages the chunks' weights unweighted")
            if self.record_trace:
                raise ValueError("record_trace=True is not available for Dask input: the "
                                 "updates happen on the workers")
            return fit_parameter_mixing(self, dask_classification_data(self, X, y))
        X, y = check_X_y(self, X, y, reset=True, accept_sparse="csr")
        self.classes_, y_index = encode_labels(y)
        weights = self._weights(sample_weight, y_index)
        self._exponent = power_of_two_exponent(X)
        X = scaled_by_power_of_two(X, self._exponent)
        rng = self._rng = check_random_state(self.random_state)
        problems = self._binary_targets(y_index)
        rngs = [rng] if len(problems) == 1 else [  # one stream per problem: any thread count
            check_random_state(seed) for seed in rng.randint(np.iinfo(np.int32).max,
                                                             size=len(problems))]

        def solve(k):
            return self._fit_binary(X, problems[k].astype(X.dtype), weights[k], rngs[k])

        threads = 1 if self.verbose else min(resolve_n_jobs(self.n_jobs), len(problems))
        if threads == 1:
            self._states = [solve(k) for k in range(len(problems))]
        else:  # our own threads: BLAS's stay off their cores
            with one_blas_thread(), ThreadPoolExecutor(threads) as pool:
                self._states = list(pool.map(solve, range(len(problems))))
        self._export(fresh=True)
        if not self.converged_:
            warn_not_converged(
                self, self.n_iter_,
                "the data may not be linearly separable: raise max_iter or use "
                "variant='pocket' or 'averaged'")
        return self

    def _fit_binary(self, X, y_signed, weight, rng):
        """Epochs of the rule on one ±1 problem until one makes no update or
        ``max_iter``; its compiled epochs release the GIL, so problems run side
        by side on threads."""
        state = BinaryPerceptronState(X.shape[1], X.dtype)
        with progress(self.max_iter, "perceptron epochs", enabled=bool(self.verbose)) as bar:
            for _ in range(self.max_iter):
                n = run_epoch(state, X, y_signed, weight=weight, eta=self.eta,
                              order=self._order(X.shape[0], rng), update=self.update,
                              variant=self.variant, record=self.record_trace)
                bar.advance(1, updates=n)
                if n == 0:
                    state.converged = True
                    break
        return state

    def partial_fit(self, X, y, classes=None, sample_weight=None):
        """One pass over the batch ``(X, y)`` (for streaming data).

        Parameters
        ----------
        X : array-like or scipy.sparse matrix of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        classes : array-like, optional
            All the labels; required on the first call unless ``y`` holds
            every class.
        sample_weight : array-like of shape (n_samples,), optional
            As in :meth:`fit`, for this batch.

        Returns
        -------
        self
        """
        first = not hasattr(self, "_states") or not hasattr(self, "_rng")
        if first:
            validate_params(self)
            X, y = check_X_y(self, X, y, reset=True, accept_sparse="csr")
            self.classes_, _ = encode_labels(y if classes is None else classes)
            self._rng = check_random_state(self.random_state)
            self._exponent = 0
        else:
            X, y = check_X_y(self, X, y, reset=False, accept_sparse="csr")
        X = scaled_by_power_of_two(X, self._exponent)
        y_index = partial_fit_labels(y, self.classes_, self.class_weight)
        weights = self._weights(sample_weight, y_index)
        if first:
            self._states = [BinaryPerceptronState(X.shape[1], X.dtype)
                            for _ in self._binary_targets(y_index)]
        for state, y_signed, weight in zip(self._states, self._binary_targets(y_index), weights):
            n = run_epoch(state, X, y_signed.astype(X.dtype), weight=weight, eta=self.eta,
                          order=self._order(X.shape[0], self._rng),
                          update=self.update, variant=self.variant,
                          record=self.record_trace)
            state.converged = n == 0
        self._export(fresh=first)
        return self

    # ----------------------------------------------------------------- results
    def _export(self, fresh):
        """Copy the states' weights into the public attributes (and their new
        updates into ``trace_``, a new one when ``fresh``)."""
        weights = [VARIANTS[self.variant](s, self.update) for s in self._states]
        self.coef_ = np.ldexp(np.vstack([w for w, _ in weights]), -self._exponent)
        self.intercept_ = np.array([b for _, b in weights], dtype=self.coef_.dtype)
        self.n_iter_ = max(s.n_epochs for s in self._states)
        self.n_updates_ = int(sum(s.n_updates for s in self._states))
        self.converged_ = all(s.converged for s in self._states)
        if self.record_trace:
            self._extend_trace(fresh)

    def _extend_trace(self, fresh):
        """Move the updates the states noted since the last export into
        ``trace_`` (a new frame when ``fresh``): only their rows are built and
        the states' lists are emptied, so a run of ``partial_fit`` epochs
        builds each row once, and a saved model holds each update once.
        Rows run class by class, by order of update within a class."""
        multiclass = len(self._states) > 1
        previous = None if fresh else getattr(self, "trace_", None)
        done = 0 if previous is None else len(previous)
        rows = []
        for k, state in enumerate(self._states):
            rows += self._trace_rows(state.trace, done + len(rows) + 1,
                                     self.classes_[k] if multiclass else None)
            state.trace = []
        if done and not rows:
            return
        columns = ["step", "sample", "w", "b"] + (["class"] if multiclass else [])
        frame = pd.DataFrame(rows, columns=columns)
        if done:
            frame = pd.concat([previous, frame], ignore_index=True)
            if multiclass:   # the new rows of class k go after its earlier ones
                by_class = np.searchsorted(self.classes_, frame["class"].to_numpy())
                frame = frame.iloc[np.argsort(by_class, kind="stable")].reset_index(drop=True)
                frame["step"] = np.arange(1, len(frame) + 1)
        self.trace_ = frame

    def _trace_rows(self, updates, first_step, label=None):
        """One ``trace_`` row per update ``(sample, w, b)`` of a state's list,
        numbered from ``first_step`` (with its ``class`` when ``label``)."""
        rows = []
        for step, (sample, w, b) in enumerate(updates, start=first_step):
            row = {"step": step, "sample": sample, "w": np.ldexp(w, -self._exponent), "b": b}
            if label is not None:
                row["class"] = label
            rows.append(row)
        return rows

    def __setstate__(self, state):
        """A model saved before ``_extend_trace`` emptied the states' lists
        (pickle, or a model file of format 1) has its updates in both: they
        are in ``trace_``, so a later ``partial_fit`` starts the lists anew."""
        super().__setstate__(state)
        if "trace_" in state:
            for per_class in state.get("_states", []):
                per_class.trace = []

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = True
        tags.input_tags.sparse = True
        return tags
