"""Public estimators of :mod:`hyperplane.neural`."""

from __future__ import annotations

import numpy as np
from sklearn.base import ClassifierMixin, RegressorMixin

from .._numerics import check_target_magnitude
from .._validation import (CLASS_WEIGHT, Options, check_is_fitted, check_X, class_sample_weights,
                           encode_labels, partial_fit_labels)
from ._mlp import _BaseMLP

_COMMON_PARAMS = """
    hidden_layer_sizes : tuple of int, default=(10,)
        Neurons of each hidden layer (any number of layers). ``()`` leaves
        only the output layer: the two-layer network of section 5.2, which
        can separate only linearly separable classes.
    activation : {"sigmoid", "relu", "tanh"}, default="sigmoid"
        Activation ``f`` of the hidden neurons (周志华 section 5.1; the sigmoid
        is computed without overflow).
    bp : {"standard", "accumulated", "minibatch"}, default="accumulated"
        ``"standard"`` updates after every sample (the book's algorithm,
        figure 5.8, compiled); ``"accumulated"`` once per epoch on
        ``E = (1/m) sum_k E_k`` (eq. 5.16); ``"minibatch"`` after every
        ``batch_size`` samples. Both batch rules use BLAS matrix products,
        on one thread: a mini-batch's products are too small to pay for more, and
        the weights then do not depend on the machine's thread count.
    batch_size : int, default=200
        Samples per update of ``bp="minibatch"`` (clipped to the data size).
    learning_rate : float, default=0.1
        The step ``eta`` of eq. 5.11: ``Delta w_hj = eta g_j b_h``. A loss or a
        weight that becomes NaN/inf stops training with an error naming it and
        the epoch.
    max_iter : int, default=200
        Maximum number of epochs (passes over the data).
    tol : float, default=1e-4
        Training stops once the loss (the validation loss with
        ``early_stopping``) has not fallen by ``tol`` for ``n_iter_no_change``
        consecutive epochs.
    n_iter_no_change : int, default=10
        See ``tol``.
    early_stopping : bool, default=False
        Hold out ``validation_fraction`` of the data (stratified for
        classification), stop when its error ``E`` stops falling and keep the
        weights of the epoch with the lowest validation error (section 5.3).
    validation_fraction : float, default=0.1
        Share of the data held out by ``early_stopping``.
    reg_lambda : float in (0, 1] or None, default=None
        λ of eq. 5.17: minimise ``λ (1/m) sum_k E_k + (1 - λ) sum_w w^2``, the
        sum over every connection weight and threshold. ``None``: no penalty.
    init : {"glorot", "book"}, default="glorot"
        Initial weights: Glorot-uniform (scikit-learn's, same draws for the
        same ``random_state``) or the book's (figure 5.8, step 1): every
        weight and threshold uniform in (0, 1).
    shuffle : bool, default=True
        Visit the samples in a new random order every epoch; ``False`` visits
        them in the order given.
    random_state : int, RandomState or None, default=None
        Seeds the initial weights, the shuffling and the validation split.
    verbose : bool, default=False
        Show a progress bar with the current loss.
    n_jobs : int or None, default=None
        Threads of the fit's matrix products (BLAS). ``None`` (scikit-learn's
        meaning: one) keeps them on one thread, so the weights do not depend
        on the machine; ``k >= 1`` gives ``k`` threads (at most numba's pool),
        ``-1`` every thread of the pool (``-k``: all but ``k - 1``); then BLAS splits the sums of accumulated BP's
        ``X^T delta`` among its threads and the last bits of the weights
        depend on their number. Standard BP is serial whatever ``n_jobs``."""

_COMMON_ATTRIBUTES = """
    coefs_ : list of ndarray
        ``coefs_[l]`` of shape ``(fan_in, fan_out)``: connection weights of
        layer ``l`` (``v_ih`` for the first, ``w_hj`` for the last layer).
    intercepts_ : list of ndarray
        Biases ``-theta`` of each layer (the book writes ``f(beta_j - theta_j)``).
    loss_curve_ : list of float
        One value per epoch: ``λ`` times the mean ``E_k`` (weighted by
        ``sample_weight``: ``sum_k s_k E_k / sum_k s_k``) measured while
        passing over the data (each sample or batch just before its update;
        for accumulated BP the error at the start of the epoch) plus
        ``(1 - λ) sum_w w^2`` at the end of the epoch.
    n_iter_ : int
        Epochs run.
    n_updates_ : int
        Parameter updates made (samples per epoch for standard BP, one per
        epoch for accumulated BP).
    converged_ : bool
        Whether the ``tol`` rule stopped training before ``max_iter`` with the
        loss settled: a run whose last training loss is above the lowest one
        by more than ``tol`` plus 10% of it (the loss rose, e.g. under too
        large a ``learning_rate``) is never converged and warns.
    validation_loss_curve_ : list of float
        With ``early_stopping``: validation error ``E`` after every epoch.
    best_validation_loss_ : float
        With ``early_stopping``: the lowest validation error (its weights are kept).
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        When ``X`` is a DataFrame with string column names.
    n_layers_ : int
        Layers including input and output.
    n_outputs_ : int
        Output neurons.
    out_activation_ : str
        Activation of the output neurons: ``"identity"``, ``"logistic"`` or
        ``"softmax"``."""


class MLPClassifier(ClassifierMixin, _BaseMLP):
    __doc__ = f"""Multilayer network classifier trained by error backpropagation.

    周志华《机器学习》section 5.3: neurons ``y = f(sum_i w_i x_i - theta)``,
    forward propagation, output gradients ``g_j``, hidden gradients ``e_h``,
    standard / accumulated BP, early stopping and the regularised error of
    eq. 5.17 -- generalised to any number of hidden layers.

    Two classes use one output neuron (target 1 for ``classes_[1]``), ``K``
    classes use ``K`` (one-hot targets).

    Parameters
    ----------{_COMMON_PARAMS}
    loss : {{"log_loss", "squared_error"}}, default="log_loss"
        ``"squared_error"`` is the book's setting: sigmoid output neurons and
        ``E_k = 1/2 sum_j (y_hat_j - y_j)^2`` (eq. 5.4), so
        ``g_j = y_hat_j (1 - y_hat_j)(y_j - y_hat_j)`` (eq. 5.10).
        ``"log_loss"`` (cross-entropy, the usual choice for classification and
        scikit-learn's) uses a logistic output for two classes and softmax for
        more, so ``g_j = y_j - y_hat_j``.
    class_weight : dict, "balanced" or None, default=None
        Weight of each class's samples, multiplying ``sample_weight``
        (scikit-learn's meaning): ``{{label: w}}``, or ``"balanced"``:
        ``n / (K n_k)`` from the class counts of ``y``. ``None``: all 1.

    Attributes
    ----------
    classes_ : ndarray
        Sorted class labels; ``classes_[1]`` is the positive class.
    class_weight_ : ndarray of shape (n_classes,)
        The weight of each class of ``classes_`` the last fit used.{_COMMON_ATTRIBUTES}

    Examples
    --------
    >>> import numpy as np
    >>> from hyperplane.neural import MLPClassifier
    >>> X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]], dtype=float)
    >>> y = np.array([0, 1, 1, 0])  # XOR
    >>> net = MLPClassifier(hidden_layer_sizes=(4,), activation="tanh", bp="standard",
    ...                     learning_rate=0.5, max_iter=2000, random_state=0).fit(X, y)
    >>> net.predict(X).tolist()
    [0, 1, 1, 0]
    """

    _task = "classification"
    _losses = ("log_loss", "squared_error")
    _parameter_rules = {**_BaseMLP._parameter_rules, "loss": Options(_losses),
                        "class_weight": CLASS_WEIGHT}

    def __init__(self, *, hidden_layer_sizes=(10,), activation="sigmoid", bp="accumulated",
                 batch_size=200, learning_rate=0.1, max_iter=200, tol=1e-4,
                 n_iter_no_change=10, early_stopping=False, validation_fraction=0.1,
                 reg_lambda=None, loss="log_loss", init="glorot", shuffle=True,
                 random_state=None, verbose=False, class_weight=None, n_jobs=None):
        super().__init__(hidden_layer_sizes=hidden_layer_sizes, activation=activation, bp=bp,
                         batch_size=batch_size, learning_rate=learning_rate,
                         max_iter=max_iter, tol=tol, n_iter_no_change=n_iter_no_change,
                         early_stopping=early_stopping,
                         validation_fraction=validation_fraction, reg_lambda=reg_lambda,
                         init=init, shuffle=shuffle, random_state=random_state,
                         verbose=verbose, n_jobs=n_jobs)
        self.loss = loss
        self.class_weight = class_weight

    def _loss_name(self):
        return self.loss

    def _targets(self, y_index):
        """One column (binary) or one-hot columns of 0/1 targets."""
        n_classes = len(self.classes_)
        if n_classes == 2:
            return (y_index == 1).astype(np.float64)[:, None]
        return np.eye(n_classes)[y_index]

    def _weights(self, sample_weight, y_index):
        """``s_k`` times the weight of sample k's class (scikit-learn's meaning)."""
        self.class_weight_, weights = class_sample_weights(self.class_weight, self.classes_,
                                                           y_index, sample_weight)
        return weights

    def fit(self, X, y, sample_weight=None):
        """Train from freshly drawn weights for up to ``max_iter`` epochs.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Numeric features (encode categorical attributes first, e.g. one-hot).
        y : array-like of shape (n_samples,)
            Class labels.
        sample_weight : array-like of shape (n_samples,), optional
            ``s_k >= 0``: the error becomes ``sum_k s_k E_k / sum_k s_k`` (see
            :class:`MLPRegressor`); multiplied by the class weights.

        Returns
        -------
        self
        """
        hidden = self._check_params()
        X, y = self._checked(X, y, reset=True)
        self.classes_, y_index = encode_labels(y)
        weights = self._weights(sample_weight, y_index)
        rng = self._rng_for(incremental=False)
        n_outputs = 1 if len(self.classes_) == 2 else len(self.classes_)
        self._initialize(hidden, n_outputs, X.dtype, rng)
        return self._fit(X, self._targets(y_index), weights, incremental=False, rng=rng)

    def partial_fit(self, X, y, classes=None, sample_weight=None):
        """One epoch of the chosen BP rule, starting from the current weights.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        classes : array-like, optional
            All labels that will ever occur; required on the first call.
        sample_weight : array-like of shape (n_samples,), optional
            As in :meth:`fit`, for this batch.

        Returns
        -------
        self
        """
        first = not hasattr(self, "coefs_")
        hidden = self._check_params()
        X, y = self._checked(X, y, reset=first)
        if first:
            if classes is None:
                raise ValueError("classes must be passed on the first call to partial_fit")
            self.classes_, _ = encode_labels(classes)
        elif classes is not None and not np.array_equal(np.unique(classes), self.classes_):
            raise ValueError(f"classes={list(classes)} differs from classes_ "
                             f"{list(self.classes_)} of the first partial_fit call")
        y_index = partial_fit_labels(y, self.classes_, self.class_weight)
        weights = self._weights(sample_weight, y_index)
        rng = self._rng_for(incremental=not first)
        if first:
            n_outputs = 1 if len(self.classes_) == 2 else len(self.classes_)
            self._initialize(hidden, n_outputs, X.dtype, rng)
        return self._fit(X, self._targets(y_index), weights, incremental=True, rng=rng)

    def predict_proba(self, X):
        """Class probabilities: the output neurons, rescaled to sum to 1.

        With ``loss="log_loss"`` they are the logistic/softmax outputs; with
        ``loss="squared_error"`` the sigmoid outputs normalised per row.
        """
        check_is_fitted(self)
        X = check_X(self, X, reset=False, accept_sparse="csr")
        out = self._forward(X)
        if out.shape[1] == 1:
            return np.hstack([1.0 - out, out])
        total = out.sum(axis=1, keepdims=True)
        return out / np.where(total > 0, total, 1.0)

    def predict(self, X):
        """``classes_[1]`` when the output is >= 0.5 (two classes), else argmax."""
        check_is_fitted(self)
        X = check_X(self, X, reset=False, accept_sparse="csr")
        out = self._forward(X)
        if out.shape[1] == 1:
            return self.classes_[(out[:, 0] >= 0.5).astype(np.int64)]
        return self.classes_[np.argmax(out, axis=1)]


class MLPRegressor(RegressorMixin, _BaseMLP):
    __doc__ = f"""Multilayer network regressor trained by error backpropagation.

    As :class:`MLPClassifier`, with identity output neurons and the squared
    error ``E_k = 1/2 sum_j (y_hat_j - y_j)^2`` of eq. 5.4 (so ``g_j = y_j -
    y_hat_j``); ``y`` may have several columns (one output neuron each).

    Sample weights ``s_k`` (``fit(X, y, sample_weight)``) weight the error:
    accumulated and mini-batch BP descend each batch's
    ``E = sum_k s_k E_k / sum_k s_k`` (eq. 5.16 weighted; scikit-learn's MLP
    since 1.7 normalises each batch by its summed weight the same way, so an
    integer weight is a repeated row for accumulated BP); standard BP's step
    on sample k descends ``s_k E_k`` (``g_j`` and ``e_h`` of eqs. 5.10, 5.15
    times ``s_k``, as scikit-learn's ``SGDRegressor`` scales its step). A
    sample of weight 0 takes no part; a batch whose weights are all 0 makes
    no step. ``loss_curve_`` holds the weighted mean error.

    Parameters
    ----------{_COMMON_PARAMS}

    Attributes
    ----------{_COMMON_ATTRIBUTES}

    Examples
    --------
    >>> import numpy as np
    >>> from hyperplane.neural import MLPRegressor
    >>> X = np.linspace(-1, 1, 50)[:, None]
    >>> net = MLPRegressor(hidden_layer_sizes=(8,), activation="tanh", bp="standard",
    ...                    learning_rate=0.05, max_iter=500, random_state=0)
    >>> net.fit(X, X[:, 0] ** 2).score(X, X[:, 0] ** 2) > 0.95
    True
    """

    _task = "regression"
    _losses = ("squared_error",)

    def _loss_name(self):
        return "squared_error"

    @staticmethod
    def _targets(X, y):
        return np.asarray(y, dtype=X.dtype).reshape(len(y), -1)

    def fit(self, X, y, sample_weight=None):
        """Train from freshly drawn weights for up to ``max_iter`` epochs.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,) or (n_samples, n_outputs)
        sample_weight : array-like of shape (n_samples,), optional
            ``s_k >= 0``, see above; None: every ``s_k = 1`` (the book).

        Returns
        -------
        self
        """
        return self._train(X, y, sample_weight, partial=False)

    def partial_fit(self, X, y, sample_weight=None):
        """One epoch of the chosen BP rule, starting from the current weights."""
        return self._train(X, y, sample_weight, partial=True)

    def _train(self, X, y, sample_weight, *, partial):
        """``fit`` (fresh weights, ``max_iter`` epochs) or ``partial_fit`` (one epoch
        from the current weights, fresh ones on the first call)."""
        first = not partial or not hasattr(self, "coefs_")
        hidden = self._check_params()
        X, y = self._checked(X, y, reset=first, multi_output=True, y_numeric=True)
        check_target_magnitude(self, y)
        Y = self._targets(X, y)
        rng = self._rng_for(incremental=not first)
        if first:
            self._initialize(hidden, Y.shape[1], X.dtype, rng)
        elif Y.shape[1] != self.n_outputs_:
            raise ValueError(f"y has {Y.shape[1]} columns; the network has "
                             f"{self.n_outputs_} outputs")
        return self._fit(X, Y, sample_weight, incremental=partial, rng=rng)

    def predict(self, X):
        """Output neurons of the network (1-d for a single output, as scikit-learn)."""
        check_is_fitted(self)
        X = check_X(self, X, reset=False, accept_sparse="csr")
        out = self._forward(X)
        return out[:, 0] if out.shape[1] == 1 else out

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.multi_output = True
        return tags
