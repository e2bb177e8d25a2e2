"""Multilayer networks trained by error backpropagation (周志华 section 5.3).

The estimators validate input, encode targets, draw the initial weights and
run the epoch loop (convergence, early stopping, progress, divergence);
:mod:`._bp` and :mod:`._backprop_kernels` do one epoch of BP.
"""

from __future__ import annotations

import numbers

import numpy as np
import scipy.sparse
from sklearn.base import BaseEstimator
from sklearn.model_selection import train_test_split
from sklearn.utils import check_random_state

from .._numerics import check_magnitude
from .._parameters import (FLAG, N_JOBS, NON_NEGATIVE, NONE, POSITIVE, POSITIVE_INT, SEED,
                           VERBOSE, Either, Options, Real, Sizes, validate_params)
from .._progress import progress
from .._threads import fit_threads, one_blas_thread
from .._validation import check_sample_weight_vector, check_X_y, warn_not_converged
from . import _backprop_kernels as K
from ._bp import BP_RULES, hidden_layer_outputs, predict_outputs
from ._network import (
    ACTIVATIONS, INITIALISATIONS, LOSSES, OUTPUT_ACTIVATIONS, Layout, output_activation,
)
from ._row_space import training_for
from ._state import Learning


#: a run of epochs is convergence only if its last loss stayed within this
#: fraction of the lowest loss seen (beyond ``tol``): a loss that rose is not
SETTLED_RISE = 0.1
#: a hidden neuron is saturated on a row when its f'(z) is below this
#: (sigmoid output within ~1e-6 of 0 or 1, tanh within ~5e-7 of ±1, a ReLU at 0)
SATURATED = 1e-6
#: rows per block of the saturation check (the first unsaturated block ends it)
SATURATION_BLOCK = 4096


def saturated(b, activation):
    """Whether ``f'(z) < SATURATED`` for hidden outputs ``b = f(z)`` (周志华
    式5.9's ``f' = b(1 - b)`` for the sigmoid; ``1 - b²`` for tanh; ReLU's
    is 0 below 0)."""
    if activation == "sigmoid":
        return b * (1.0 - b) < SATURATED
    if activation == "tanh":
        return 1.0 - b * b < SATURATED
    return b <= 0.0


def paralysed(net, X, activation):
    """Network paralysis: every hidden neuron saturated on every row of ``X``.

    Then ``e_h = b_h(1 − b_h) Σ_j w_hj g_j`` (周志华 式5.15) vanishes for every
    h and row, no gradient reaches the hidden weights, and the loss stops
    changing without being at a minimum (Rumelhart, Hinton & Williams 1986
    warn of it for large weights; a large learning rate drives the units
    there in a few steps). False for a network without hidden layers.
    """
    if net.sizes.shape[0] <= 2:
        return False
    for start in range(0, X.shape[0], SATURATION_BLOCK):
        block = X[start:start + SATURATION_BLOCK]
        if not all(saturated(b, activation).all() for b in hidden_layer_outputs(net, block)):
            return False
    return True


def _kernel_array(a, dtype=None):
    """C-contiguous, writeable array: the one layout the kernels are compiled for
    (a read-only memmap would otherwise compile a second copy of every kernel).
    Sparse input becomes CSR with sorted indices (the first layer reads it)."""
    if scipy.sparse.issparse(a):
        a = scipy.sparse.csr_matrix(a, dtype=dtype)
        a.sort_indices()
        return a
    return np.require(a, dtype=dtype, requirements=("C", "W"))


class _BaseMLP(BaseEstimator):
    """Shared training loop of :class:`MLPClassifier` and :class:`MLPRegressor`."""

    _task = None  # "classification" or "regression"

    _parameter_rules = {
        "hidden_layer_sizes": Sizes(), "activation": Options(ACTIVATIONS),
        "bp": Options(BP_RULES), "batch_size": POSITIVE_INT, "learning_rate": POSITIVE,
        "max_iter": POSITIVE_INT, "tol": NON_NEGATIVE, "n_iter_no_change": POSITIVE_INT,
        "early_stopping": FLAG,
        "validation_fraction": Real(low=0, high=1, low_open=True, high_open=True),
        "reg_lambda": Either(NONE, Real(low=0, high=1, low_open=True)),
        "init": Options(INITIALISATIONS), "shuffle": FLAG, "random_state": SEED,
        "verbose": VERBOSE, "n_jobs": N_JOBS,
    }

    def __init__(self, *, hidden_layer_sizes=(10,), activation="sigmoid", bp="accumulated",
                 batch_size=200, learning_rate=0.1, max_iter=200, tol=1e-4,
                 n_iter_no_change=10, early_stopping=False, validation_fraction=0.1,
                 reg_lambda=None, init="glorot", shuffle=True, random_state=None,
                 verbose=False, n_jobs=None):
        self.hidden_layer_sizes = hidden_layer_sizes
        self.activation = activation
        self.bp = bp
        self.batch_size = batch_size
        self.learning_rate = learning_rate
        self.max_iter = max_iter
        self.tol = tol
        self.n_iter_no_change = n_iter_no_change
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.reg_lambda = reg_lambda
        self.init = init
        self.shuffle = shuffle
        self.random_state = random_state
        self.verbose = verbose
        self.n_jobs = n_jobs

    # ------------------------------------------------------------------
    # hyper-parameters
    # ------------------------------------------------------------------
    def _check_params(self):
        """Validate the declared parameters; return the layer sizes as a tuple."""
        validate_params(self)
        hidden = self.hidden_layer_sizes
        return (hidden,) if isinstance(hidden, numbers.Integral) else tuple(hidden)

    def _checked(self, X, y, *, reset, **kw):
        """``X`` and ``y`` checked (dense or CSR ``X``), with ``X``'s magnitude."""
        X, y = check_X_y(self, X, y, reset=reset, accept_sparse="csr", **kw)
        check_magnitude(self, X)
        return X, y

    def _lambda(self):
        """λ of eq. 5.17; ``None`` means no penalty, i.e. λ = 1."""
        return 1.0 if self.reg_lambda is None else float(self.reg_lambda)

    # ------------------------------------------------------------------
    # the network
    # ------------------------------------------------------------------
    def _layout(self):
        return Layout.of(self.coefs_)

    def _codes(self):
        act = ACTIVATIONS[self.activation][0]
        return act, OUTPUT_ACTIVATIONS[self.out_activation_], LOSSES[self._loss_name()]

    def _initialize(self, hidden, n_outputs, dtype, rng):
        """Fresh Glorot weights for a ``n_features_in_``-hidden-``n_outputs`` network."""
        self.n_outputs_ = n_outputs
        self.n_layers_ = len(hidden) + 2
        self.out_activation_ = output_activation(self._loss_name(), n_outputs, self._task)
        layout = Layout.from_sizes((self.n_features_in_, *hidden, n_outputs))
        packed = layout.initial_params(self.activation, rng, dtype, self.init)
        self.coefs_, self.intercepts_ = layout.unpack(packed)
        self.loss_curve_ = []
        self.n_iter_ = 0
        self.n_updates_ = 0
        self.converged_ = False
        self._best_loss = np.inf
        self._no_improvement = 0

    def _packed(self, dtype):
        return self._layout().pack(self.coefs_, self.intercepts_, dtype)

    def _network(self, dtype):
        """The kernels' :class:`~._state.Network` of the current weights (a copy)."""
        act, out_act, _ = self._codes()
        return self._layout().network(self._packed(dtype), act, out_act)

    def _learning(self):
        """The kernels' :class:`~._state.Learning`: eta, lambda, the loss code."""
        return Learning(float(self.learning_rate), self._lambda(), self._codes()[2])

    def _forward(self, X):
        """Output layer for the rows of validated ``X``."""
        return predict_outputs(self._network(X.dtype), _kernel_array(X))

    def _objective(self, data_loss, penalty):
        """E~ = λ E + (1 - λ) Σ w² (eq. 5.17); E alone when reg_lambda is None.
        ``penalty()`` returns Σ w²."""
        lam = self._lambda()
        if lam == 1.0:
            return data_loss
        return lam * data_loss + (1.0 - lam) * penalty()

    # ------------------------------------------------------------------
    # training
    # ------------------------------------------------------------------
    def _run_epochs(self, X, Y, weights, n_epochs, rng, *, incremental):
        """The outer epoch loop: one BP epoch, loss curve, stopping, progress."""
        X = _kernel_array(X)
        Y, weights = _kernel_array(Y, X.dtype), _kernel_array(weights, X.dtype)
        validation = None
        if self.early_stopping and not incremental:
            X, X_val, Y, Y_val, weights, w_val = self._validation_split(X, Y, weights, rng)
            validation = (X_val, Y_val, w_val)
            self.validation_loss_curve_ = []
            self.best_validation_loss_, best_params = np.inf, None
        net, learning = self._network(X.dtype), self._learning()
        packed = net.packed
        training = training_for(self.bp, net, X, validation is not None)
        stopped = False
        threads = one_blas_thread() if self.n_jobs is None else fit_threads(self.n_jobs)
        with threads, progress(n_epochs, f"{self.bp} BP", enabled=self.verbose) as bar:
            for _ in range(n_epochs):
                epoch_loss = self._epoch(training, net, learning, X, Y, weights, rng)
                monitored, fields = epoch_loss, {"loss": epoch_loss}
                if validation is not None:
                    monitored = fields["val_loss"] = self._validation_loss(net, learning,
                                                                           *validation)
                    self.validation_loss_curve_.append(monitored)
                    if monitored < self.best_validation_loss_:
                        self.best_validation_loss_, best_params = monitored, packed.copy()
                stopped = self._no_progress(monitored)
                bar.advance(1, **fields)
                if stopped and not incremental:
                    break
        training.finish(net, X)
        if validation is not None:
            packed = best_params  # the book: keep the weights of the lowest validation error
        self.coefs_, self.intercepts_ = self._layout().unpack(packed)
        if not incremental:
            rose = self._loss_rose()
            stuck = (stopped and not rose and self.loss_curve_[-1] > self.tol
                     and paralysed(self._layout().network(packed, *self._codes()[:2]), X,
                                   self.activation))
            self.converged_ = stopped and not rose and not stuck
            if stuck:
                warn_not_converged(
                    self, self.n_iter_,
                    f"the training loss stalled at {self.loss_curve_[-1]:.4g} because every "
                    "hidden neuron is saturated on every training row (f'(z) < "
                    f"{SATURATED:g}: network paralysis), not at a minimum; "
                    f"learning_rate={self.learning_rate} is too large for this data (lower "
                    "learning_rate or standardise X)")
            elif rose:
                warn_not_converged(
                    self, self.n_iter_,
                    f"the training loss rose from {min(self.loss_curve_):.4g} to "
                    f"{self.loss_curve_[-1]:.4g}: learning_rate={self.learning_rate} is too "
                    "large for this data (lower learning_rate or standardise X)")
            elif not stopped:
                warn_not_converged(self, self.n_iter_,
                                   "increase max_iter or learning_rate, or scale X")
        return self

    def _loss_rose(self):
        """Whether the last training loss is above the lowest one by more than
        ``tol + SETTLED_RISE · lowest``: then the run did not settle, whatever
        the stopping rule says (a rising loss is never convergence)."""
        lowest = min(self.loss_curve_)
        return self.loss_curve_[-1] > lowest + self.tol + SETTLED_RISE * abs(lowest)

    def _epoch(self, training, net, learning, X, Y, weights, rng):
        """One pass of the BP rule over the data; returns and records the epoch's E~
        (``E = sum_k s_k E_k / sum_k s_k``, the book's mean for unit weights)."""
        updates_per_epoch = BP_RULES[self.bp][1]
        m = X.shape[0]
        order = rng.permutation(m) if self.shuffle else np.arange(m)
        data_loss = training.epoch(net, learning, X, Y, weights, order.astype(np.int64),
                                   self.batch_size) / K.total_weight(weights)
        epoch_loss = self._objective(data_loss, lambda: training.penalty(net.packed))
        self._check_finite(epoch_loss, training.finite(net.packed))
        self.loss_curve_.append(epoch_loss)
        self.n_iter_ += 1
        self.n_updates_ += updates_per_epoch(m, self.batch_size)
        return epoch_loss

    def _no_progress(self, value):
        """scikit-learn's rule: ``n_iter_no_change`` epochs without a gain of ``tol``."""
        if value > self._best_loss - self.tol:
            self._no_improvement += 1
        else:
            self._no_improvement = 0
        self._best_loss = min(self._best_loss, value)
        return self._no_improvement >= self.n_iter_no_change

    def _check_finite(self, epoch_loss, weights_finite):
        """A non-finite loss or weight is divergence: stop and say where."""
        if not np.isfinite(epoch_loss) or not weights_finite:
            what = (f"the training loss became {epoch_loss}" if not np.isfinite(epoch_loss)
                    else "the weights became non-finite")
            raise ValueError(
                f"{what} in epoch {self.n_iter_ + 1}: "
                f"backpropagation diverged; learning_rate={self.learning_rate} is too "
                "large for this data (lower learning_rate or standardise X)")

    def _validation_split(self, X, Y, weights, rng):
        stratify = None
        if self._task == "classification":
            labels = Y.argmax(axis=1) if Y.shape[1] > 1 else Y[:, 0]
            counts = np.unique(labels, return_counts=True)[1]
            n_val = int(np.ceil(self.validation_fraction * len(labels)))
            if counts.min() >= 2 and len(counts) <= min(n_val, len(labels) - n_val):
                stratify = labels
        split = train_test_split(X, Y, weights, test_size=self.validation_fraction,
                                 random_state=rng.randint(np.iinfo(np.int32).max),
                                 stratify=stratify)
        if split[0].shape[0] == 0 or split[1].shape[0] == 0:
            raise ValueError("early_stopping needs at least one training and one validation "
                             f"sample; validation_fraction={self.validation_fraction} leaves "
                             "none")
        for part, name in ((split[4], "training"), (split[5], "validation")):
            if not part.sum() > 0:
                raise ValueError(f"early_stopping's {name} rows all have sample_weight 0; "
                                 "its weighted error is undefined (change random_state or "
                                 "validation_fraction, or drop the zero-weight rows)")
        return tuple(_kernel_array(a) for a in split)

    def _validation_loss(self, net, learning, X_val, Y_val, w_val):
        """Validation error E (no penalty): the book's early-stopping criterion,
        weighted as the training error."""
        Y_hat = predict_outputs(net, X_val)
        return float(K.batch_loss(Y_hat, Y_val, learning.loss, w_val) / K.total_weight(w_val))

    def _fit(self, X, Y, sample_weight, *, incremental, rng):
        """``max_iter`` epochs for ``fit``, one for ``partial_fit``; ``sample_weight``
        validated here (None: ones), so every path trains on one weight vector."""
        weights = check_sample_weight_vector(sample_weight, X.shape[0], X.dtype)
        if not weights.sum() > 0:
            raise ValueError("sample_weight is zero for every sample: the weighted mean "
                             "error sum_k s_k E_k / sum_k s_k is undefined")
        n_epochs = 1 if incremental else self.max_iter
        return self._run_epochs(X, Y, weights, n_epochs, rng, incremental=incremental)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags

    def _rng_for(self, incremental):
        if not incremental or not hasattr(self, "_rng"):
            self._rng = check_random_state(self.random_state)
        return self._rng
