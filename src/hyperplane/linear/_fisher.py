"""Fisher's linear discriminant (Bishop, PRML §4.1.4 and §4.1.6) and its kernel form, KLDA
(周志华《机器学习》§6.6; Mika, Rätsch, Weston, Schölkopf & Müller 1999).

Two classes: ``w ∝ S_W⁻¹(m₂ − m₁)`` maximises ``J(w) = wᵀS_Bw / wᵀS_Ww``.
K classes: the columns of ``W`` maximising ``Tr{(WS_WWᵀ)⁻¹(WS_BWᵀ)}`` are the
leading generalised eigenvectors of ``S_B w = λ S_W w``; ``S_B`` has rank at
most ``K − 1``, hence at most ``K − 1`` directions (Fukunaga 1990).

KLDA is the same computation on the empirical kernel map: with ``K`` the
kernel matrix and ``φ̂(x) = (κ(x₁, x), …, κ(x_m, x))``, the book's
``μ̂_i = K1_i / |X_i|`` are the class means of ``φ̂`` and
``N = KKᵀ − Σ_i |X_i| μ̂_i μ̂_iᵀ`` is its within-class scatter, so
``α ∝ (N + reg·I)⁻¹(μ̂₁ − μ̂₀)`` comes out of the linear solver unchanged and
``h(x) = Σ_i α_i κ(x_i, x)``.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import (
    BaseEstimator,
    ClassifierMixin,
    ClassNamePrefixFeaturesOutMixin,
    TransformerMixin,
)

from .._base import dask_classification_data, predict_from_scores
from .._validation import (
    CLASS_WEIGHT,
    NON_NEGATIVE,
    NONE,
    POSITIVE_INT,
    Either,
    check_is_fitted,
    check_number,
    check_X,
    check_X_y,
    is_dask_collection,
    validate_params,
)
from ..distributed import predict_lazy
from .._numerics import power_of_two_exponent, scaled_by_power_of_two
from .._parameters import N_JOBS, keep_parameters
from .._threads import uses_threads
from ..kernels import KERNEL_PARAMETER_RULES, resolve_kernel
from ..svm._precomputed import KERNEL_OR_PRECOMPUTED, training_gram
from ._moments import (class_moments, merge_class_moments, psd_eigh, reject_weights_on_dask,
                       weighted_labels)


#: ``reg`` used by ``reg=None`` when the within-class scatter is singular
SINGULAR_REG = 1e-6


def feature_scales(moments):
    """``s_j = √(S_T)_jj``, each feature's spread over all rows (1 for a
    constant feature): the units the regularisation is measured in."""
    s = np.sqrt(np.maximum(np.diag(moments.total_scatter()), 0.0))
    return np.where(s > 0, s, 1.0)


def regularised_whitener(S_W, reg, scales):
    """``P`` with ``Pᵀ S̃_W P = I``, working on the correlation form.

    With ``D = diag(scales)`` and ``R = D⁻¹ S_W D⁻¹`` (unit-free: rescaling a
    feature rescales its row and column of ``S_W`` and its ``s_j`` alike),
    ``S̃_W = D (R + reg · I) D = S_W + reg · D²`` and ``P = D⁻¹ V Λ̃^{-1/2}``
    from the eigen-decomposition ``R = V Λ Vᵀ``.

    * ``reg=None``: no regularisation when ``R`` is non-singular, so that
      ``P Pᵀ = S_W⁻¹`` exactly; :data:`SINGULAR_REG` when it is singular
      (collinear or constant features, fewer samples than features).
    * ``reg > 0``: always ``R + reg · I``.
    * ``reg = 0``: only the eigenvalues of ``R`` above the rank cutoff are
      kept (a pseudo-inverse); if none is (``S_W = 0``), ``P = D⁻¹``.
    """
    R = S_W / np.outer(scales, scales)
    lam, V, keep = psd_eigh(R)
    if reg is None:
        reg = 0.0 if keep.all() else SINGULAR_REG
    if reg > 0:
        lam, keep = lam + reg, np.ones(lam.shape, dtype=bool)
    if not keep.any():
        return np.diag(1.0 / scales)
    return V[:, keep] / np.sqrt(lam[keep]) / scales[:, None]


def fisher_direction(moments, reg):
    """Two classes: ``w = S̃_W⁻¹(m₂ − m₁)`` scaled to ``wᵀS̃_Ww = 1``.

    ``w·m₂ > w·m₁``: the second class (``classes_[1]``) projects higher.

    Returns
    -------
    ndarray of shape (n_features, 1)
    """
    P = regularised_whitener(moments.scatter, reg, feature_scales(moments))
    a = P.T @ (moments.means[1] - moments.means[0])
    norm = np.linalg.norm(a)
    return (P @ (a / norm if norm > 0 else a))[:, None]


def discriminant_directions(moments, reg, n_components):
    """K classes: the ``n_components`` leading solutions of ``S_B w = λ S̃_W w``.

    Whitening by :func:`regularised_whitener` turns the generalised problem
    into the ordinary symmetric one ``(DP)ᵀ(DP) u = λu`` with ``S_B = DᵀD``;
    ``W = PU``, so ``WᵀS̃_WW = I``. Each column's largest entry is made
    positive (a deterministic sign).

    Returns
    -------
    ndarray of shape (n_features, n_components)
    """
    P = regularised_whitener(moments.scatter, reg, feature_scales(moments))
    DP = moments.between_class_root() @ P
    _, U = np.linalg.eigh(DP.T @ DP)
    W = P @ U[:, ::-1][:, :n_components]
    flip = np.sign(W[np.argmax(np.abs(W), axis=0), np.arange(W.shape[1])])
    return W * np.where(flip == 0, 1.0, flip)


class FisherDiscriminant(ClassNamePrefixFeaturesOutMixin, TransformerMixin,
                         ClassifierMixin, BaseEstimator):
    """Fisher's linear discriminant, and the kernel Fisher discriminant (KLDA).

    ``fit`` finds the directions (one pass over ``X``: class means and one
    Gram product of the class-centred rows); ``transform`` projects onto them,
    ``z = Wᵀx`` (kernel: ``z = Σ_i α_i κ(x_i, x)``). **Prediction rule:** a
    sample gets the class whose projected mean ``μ_k = Wᵀm_k`` is nearest to
    ``z`` in Euclidean distance (the directions are scaled so that
    ``WᵀS̃_WW = I``). With two classes this is the threshold
    ``z ≥ (μ₁ + μ₂)/2`` at the midpoint of the projected means, ties going to
    the positive class ``classes_[1]``; class priors play no part.

    Parameters
    ----------
    n_components : int or None, default=None
        Number of directions, at most ``min(K − 1, n_features)`` (kernel:
        ``min(K − 1, n_samples)``); ``None`` takes all of them. Two classes
        always have one.
    kernel : None, str or hyperplane.kernels.Kernel, default=None
        ``None``: the linear discriminant in the input space. Otherwise KLDA
        with this kernel: a kernel object (also combined ones such as
        ``RBF() + Polynomial()``) or a name ``"linear"``, ``"poly"``,
        ``"rbf"``, ``"laplace"``, ``"sigmoid"`` with scikit-learn's
        ``gamma``, ``degree``, ``coef0``. ``"precomputed"``: ``fit`` takes
        the n x n kernel matrix K of the training samples, ``transform``,
        ``predict`` and ``decision_function`` the m x n kernel values
        between new and training samples.
    reg : float or None, default=None
        Regularisation of the within-class scatter, measured on its
        correlation form so that it does not depend on the units of any
        feature: ``S̃_W = S_W + reg · diag(s_j²)`` with ``s_j²`` the spread of
        feature ``j`` over all rows (``(S_T)_jj``; KLDA: the same on ``N``,
        each column of ``K`` scaled by its own spread, so it is 周志华 式6.66's
        ``N + λI`` only when every column of ``K`` has unit spread).
        ``None``: the book's direction ``S_W⁻¹(m₂ − m₁)`` exactly when
        ``S_W`` is non-singular, and ``reg = 1e-6`` only when it is singular
        (collinear or constant features, fewer samples than features).
        ``reg > 0`` always regularises; ``reg = 0`` uses the pseudo-inverse
        of the correlation form instead.
    gamma : {"scale", "auto"} or float, default="scale"
        Kernel coefficient for ``"rbf"``, ``"poly"``, ``"sigmoid"``,
        ``"laplace"`` (scikit-learn's meaning).
    degree : int, default=3
        Degree of the ``"poly"`` kernel.
    coef0 : float, default=0.0
        Constant of the ``"poly"`` and ``"sigmoid"`` kernels.
    class_weight : dict, "balanced" or None, default=None
        Weight of each class's rows in the class moments (``N_k``, ``m_k``,
        ``S_W``), multiplying ``sample_weight`` (scikit-learn's meaning):
        ``{label: w}``, or ``"balanced"``, ``n / (K n_k)`` from the class
        counts, which gives every class the same total weight. The class
        means do not depend on it and the threshold stays midway between the
        projected means, so it changes the direction (through ``S_W``), not
        the class the boundary leans to. In memory only.
    n_jobs : int or None, default=None
        Threads of an in-memory ``fit``, as
        :class:`~hyperplane.linear.LeastSquaresClassifier`'s.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    class_weight_ : ndarray of shape (n_classes,)
        The weight of each class the last in-memory fit used.
    n_components_ : int
    means_ : ndarray of shape (n_classes, n_features)
        Class means in the input space (``m_k``).
    projected_means_ : ndarray of shape (n_classes, ``n_components_``)
        ``μ_k``, the class means on the directions.
    threshold_ : float
        Two classes only: ``(μ₁ + μ₂)/2``.
    scalings_ : ndarray of shape (n_features, ``n_components_``)
        The directions ``W`` (linear form only); for two classes parallel to
        ``S_W⁻¹(m₂ − m₁)``.
    coef_, intercept_ : ndarray
        Linear form only: the nearest-mean rule written as linear scores,
        ``coef_ = μ Wᵀ``, ``intercept_ = −½‖μ_k‖²`` (two classes: their
        difference, shape (1, n_features) and (1,)).
    alpha_ : ndarray of shape (n_samples,) or (n_samples, ``n_components_``)
        Kernel form only: ``h(x) = Σ_i α_i κ(x_i, x)`` (one column per
        direction when ``K > 2``).
    kernel_ : hyperplane.kernels.Kernel
        Kernel form only: the resolved kernel.
    X_fit_ : ndarray of shape (n_samples, n_features)
        Kernel form only: the training samples ``x_i``.

    Examples
    --------
    >>> from hyperplane.datasets import load_watermelon
    >>> from hyperplane.linear import FisherDiscriminant
    >>> X, y = load_watermelon("3.0alpha")
    >>> lda = FisherDiscriminant().fit(X, y)
    >>> lda.transform(X).shape, round(lda.score(X, y), 3)
    ((17, 1), 0.706)
    >>> from sklearn.datasets import make_circles
    >>> Xc, yc = make_circles(200, factor=0.4, noise=0.05, random_state=0)
    >>> FisherDiscriminant(kernel="rbf", gamma=2.0).fit(Xc, yc).score(Xc, yc)
    1.0
    """

    def __init__(self, *, n_components=None, kernel=None, reg=None,
                 gamma="scale", degree=3, coef0=0.0, class_weight=None, n_jobs=None):
        keep_parameters(self, locals())

    _parameter_rules = {
        "n_components": Either(NONE, POSITIVE_INT), "reg": Either(NONE, NON_NEGATIVE),
        "class_weight": CLASS_WEIGHT, "n_jobs": N_JOBS,
        **KERNEL_PARAMETER_RULES, "kernel": Either(NONE, KERNEL_OR_PRECOMPUTED),
    }

    @uses_threads
    def fit(self, X, y, sample_weight=None):
        """Find the Fisher directions and the projected class means.

        A ``dask.array``/``dask.dataframe`` ``X`` is fitted on the Dask cluster
        from class moments reduced over its chunks (linear form only).
        ``sample_weight`` (times ``class_weight``) weighs the class moments:
        ``N_k = Σ s_n``, ``m_k`` and ``S_W`` weighted, so an integer weight is
        that many copies of the row and 0 drops it. In memory only.
        """
        validate_params(self)
        if is_dask_collection(X):
            reject_weights_on_dask(self, sample_weight)
            return self._fit_dask(X, y)
        X, y = check_X_y(self, X, y, accept_sparse="csr" if self.kernel is None else False)
        y_index, weight = weighted_labels(self, y, sample_weight)
        n_classes = self.classes_.shape[0]
        exponent = power_of_two_exponent(X) if self.kernel is None else 0
        features = self._fit_feature_map(scaled_by_power_of_two(X, exponent))
        self._fit_moments(class_moments(features, y_index, n_classes, weight=weight), exponent)
        return self

    def _fit_dask(self, X, y):
        """The linear form from the merge of every chunk's class moments."""
        if self.kernel is not None:
            raise TypeError("the kernel FisherDiscriminant (KLDA) needs the n×n kernel "
                            "matrix and does not scale out on Dask; use kernel=None")
        self.__dict__.pop("kernel_", None)
        self.__dict__.pop("X_fit_", None)
        chunks = dask_classification_data(self, X, y)
        return self._fit_moments(chunks.reduce(class_moments, merge_class_moments,
                                               self.classes_.shape[0]))

    def _fit_moments(self, moments, exponent=0):
        """Directions and projected means from the class moments of the
        features (``classes_`` already set): those of the whole data, or on
        Dask the merge of every chunk's. Moments of ``X · 2⁻ᵏ`` (``exponent = k``,
        linear form) give the directions of ``X`` after ``W ← W · 2⁻ᵏ`` (the
        projections do not change)."""
        n_classes = moments.counts.shape[0]
        n_components = self._check_n_components(n_classes, moments.means.shape[1])
        if n_classes == 2:
            W = fisher_direction(moments, self.reg)
        else:
            W = discriminant_directions(moments, self.reg, n_components)
        self.n_components_ = W.shape[1]
        self._n_features_out = W.shape[1]
        self.projected_means_ = moments.means @ W
        for stale in ("alpha_", "scalings_", "means_", "coef_", "intercept_", "threshold_"):
            self.__dict__.pop(stale, None)      # a refit may switch the form or K
        if self.kernel is None:
            self._set_linear_form(np.ldexp(moments.means, exponent), np.ldexp(W, -exponent))
        else:
            self.alpha_ = W[:, 0] if n_classes == 2 else W
        if n_classes == 2:
            self.threshold_ = float(self.projected_means_[:, 0].mean())
        return self

    def _fit_feature_map(self, X):
        """The features the linear solver sees: ``X`` or ``K(X, X)``."""
        if self.kernel is None:
            self.__dict__.pop("kernel_", None)
            self.__dict__.pop("X_fit_", None)
            return X
        if self._is_precomputed():     # X is K itself (square, symmetric)
            self.kernel_ = "precomputed"
            self.__dict__.pop("X_fit_", None)
            return np.ascontiguousarray(training_gram(X)[0].gram)
        self.kernel_ = resolve_kernel(self.kernel, X, gamma=self.gamma,
                                      degree=self.degree, coef0=self.coef0)
        self.X_fit_ = X
        return np.ascontiguousarray(self.kernel_(X, X))

    def _is_precomputed(self):
        return isinstance(self.kernel, str) and self.kernel == "precomputed"

    def _check_n_components(self, n_classes, n_features):
        most = max(1, min(n_classes - 1, n_features))
        if self.n_components is None:
            return most
        check_number(self.n_components, "n_components", low=1, integer=True)
        if self.n_components > most:
            raise ValueError(f"n_components cannot be larger than min(n_classes - 1, "
                             f"n_features) = {most}; got {self.n_components}")
        return self.n_components

    def _set_linear_form(self, means, W):
        self.means_ = means
        self.scalings_ = W
        mu = self.projected_means_
        coef = mu @ W.T
        intercept = -0.5 * np.einsum("kq,kq->k", mu, mu)
        if mu.shape[0] == 2:
            coef, intercept = (coef[1] - coef[0])[None, :], intercept[1:] - intercept[:1]
        self.coef_, self.intercept_ = coef, intercept

    def transform(self, X):
        """Project onto the Fisher directions: ``z = Wᵀx`` (kernel: ``Σ α_i κ(x_i, x)``).

        Returns
        -------
        ndarray of shape (n_samples, ``n_components_``)
        """
        check_is_fitted(self)
        if is_dask_collection(X):
            return predict_lazy(self.transform, X, ndim_out=2)
        X = check_X(self, X, reset=False,
                    accept_sparse=("csr", "csc") if self.kernel is None else False)
        if self.kernel is None:
            return X @ self.scalings_
        alpha = self.alpha_.reshape(self.n_features_in_ if self._is_precomputed()
                                    else self.X_fit_.shape[0], -1)
        if self._is_precomputed():      # X: kernel values against the training samples
            return X @ alpha
        return self.kernel_(X, self.X_fit_) @ alpha

    def decision_function(self, X):
        """Nearest-projected-mean scores ``z·μ_k − ½‖μ_k‖²``.

        Two classes: ``(μ₂ − μ₁)(z − threshold_)``, positive for ``classes_[1]``.

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_classes)
        """
        if is_dask_collection(X):
            check_is_fitted(self)
            return predict_lazy(self.decision_function, X,
                                ndim_out=1 if len(self.classes_) == 2 else 2)
        z = self.transform(X)
        mu = self.projected_means_
        scores = z @ mu.T - 0.5 * np.einsum("kq,kq->k", mu, mu)
        if mu.shape[0] == 2:
            return scores[:, 1] - scores[:, 0]
        return scores

    def predict(self, X):
        """The class with the nearest projected mean (ties: ``classes_[1]``
        for two classes, else the first class)."""
        if is_dask_collection(X):
            check_is_fitted(self)
            return predict_lazy(self.predict, X, dtype=self.classes_.dtype)
        scores = self.decision_function(X)
        return predict_from_scores(self.classes_, scores)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = self.kernel is None
        return tags


__all__ = ["FisherDiscriminant", "fisher_direction", "discriminant_directions",
           "regularised_whitener", "feature_scales", "SINGULAR_REG"]
