"""Sufficient statistics of least squares and Fisher's discriminant.

Both models need only, for every class k,

* the count ``N_k``,
* the mean ``m_k = (1/N_k) Σ_{n∈C_k} x_n``, and
* the within-class scatter ``S_W = Σ_k Σ_{n∈C_k} (x_n − m_k)(x_n − m_k)ᵀ``
  (Bishop, PRML eq. 4.28; K classes eq. 4.40).

Everything else follows: the overall mean ``m = Σ N_k m_k / N``, the
between-class scatter ``S_B = Σ_k N_k (m_k − m)(m_k − m)ᵀ`` and the total
scatter ``S_T = S_W + S_B`` (the remark "the two scatters add up to the total
scatter"), and for least squares the centred products ``X̃ᵀX̃`` and ``X̃ᵀT``.

:func:`merge_class_moments` adds the moments of two disjoint chunks of rows
exactly (Chan, Golub & LeVeque's pairwise update). :func:`class_moments` is
that reduction over blocks of rows, in one pass over ``X``: each block's
class sums, then one Gram product of the block's class-centred rows, merged
into the running total; a Dask reduction over chunks is the same computation.
Centring before the Gram product keeps the scatter accurate when the
features have a large mean.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import scipy.linalg
import scipy.sparse

from .._validation import class_sample_weights, encode_labels
from ._moments_kernels import center_by_class, class_counts_and_sums


class ClassMoments(NamedTuple):
    """Per-class counts and means and the within-class scatter of a data set.

    Attributes
    ----------
    counts : ndarray of shape (n_classes,)
        ``N_k``; a class absent from a chunk has count 0 and mean 0.
    means : ndarray of shape (n_classes, n_features)
        ``m_k``.
    scatter : ndarray of shape (n_features, n_features)
        ``S_W``.
    """

    counts: np.ndarray
    means: np.ndarray
    scatter: np.ndarray

    @property
    def n_samples(self):
        """``N = Σ_k N_k``."""
        return float(self.counts.sum())

    @property
    def mean(self):
        """The overall mean ``m = Σ_k N_k m_k / N``."""
        return self.counts @ self.means / self.n_samples

    def between_class_root(self):
        """``D`` with rows ``√N_k (m_k − m)``, so that ``S_B = DᵀD``."""
        return np.sqrt(self.counts)[:, None] * (self.means - self.mean)

    def between_scatter(self):
        """``S_B = Σ_k N_k (m_k − m)(m_k − m)ᵀ`` (K-class form)."""
        D = self.between_class_root()
        return D.T @ D

    def total_scatter(self):
        """``S_T = S_W + S_B = Σ_n (x_n − m)(x_n − m)ᵀ``."""
        return self.scatter + self.between_scatter()


def weighted_labels(estimator, y, sample_weight):
    """Encode ``y`` into ``estimator.classes_`` and set ``class_weight_``;
    return ``(y_index, weight)`` with ``weight`` the sample weights times the
    class weights (None when neither is given: every row once), as
    :func:`class_moments` takes them. All zero is an error."""
    estimator.classes_, y_index = encode_labels(y)
    estimator.class_weight_, weight = class_sample_weights(
        estimator.class_weight, estimator.classes_, y_index, sample_weight)
    return y_index, weight


def reject_weights_on_dask(estimator, sample_weight):
    """Dask fits reduce unweighted chunk moments: sample and class weights are refused."""
    for name, value in (("sample_weight", sample_weight),
                        ("class_weight", estimator.class_weight)):
        if value is not None:
            raise ValueError(f"{name} is not available for Dask input: the chunks' class "
                             "moments are unweighted")


#: rows per block of :func:`class_moments` (a few MB of centred rows)
BLOCK_ROWS = 8192


def class_moments(X, y_index, n_classes, *, weight=None, block_rows=BLOCK_ROWS):
    """The :class:`ClassMoments` of ``X`` in one pass, block by block.

    With sample weights ``s_n`` the moments are the weighted ones,
    ``N_k = Σ s_n``, ``m_k = Σ s_n x_n / N_k``, ``S_W = Σ s_n (x_n − m_k)(x_n − m_k)ᵀ``:
    an integer weight counts a row that many times, a zero drops it.

    Parameters
    ----------
    X : ndarray or scipy.sparse matrix of shape (n_samples, n_features)
        float32 or float64; a sparse ``X`` goes to :func:`sparse_class_moments`.
    y_index : ndarray of int64 with values in ``range(n_classes)``
    n_classes : int
    weight : ndarray of shape (n_samples,) or None
        Sample weights (None: every row once).
    block_rows : int
        Rows per block; only memory and speed depend on it.

    Returns
    -------
    ClassMoments
        Counts, means and scatter in float64 (the Gram products themselves
        run in the dtype of ``X``).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0, 0.0], [2.0, 0.0], [1.0, 1.0], [1.0, 3.0]])
    >>> mom = class_moments(X, np.array([0, 0, 1, 1]), 2)
    >>> mom.counts.tolist(), mom.means.tolist()
    ([2.0, 2.0], [[1.0, 0.0], [1.0, 2.0]])
    >>> mom.scatter.tolist()
    [[2.0, 0.0], [0.0, 2.0]]
    """
    y_index = np.ascontiguousarray(y_index, dtype=np.int64)
    weight = (np.ones(y_index.shape[0]) if weight is None
              else np.ascontiguousarray(weight, dtype=np.float64))
    if scipy.sparse.issparse(X):
        return sparse_class_moments(X, y_index, n_classes, weight)
    X = np.asarray(X)
    n, d = X.shape
    buffer = np.empty((max(1, min(block_rows, n)), d), dtype=X.dtype)
    total = ClassMoments(np.zeros(n_classes), np.zeros((n_classes, d)), np.zeros((d, d)))
    for start in range(0, n, block_rows):
        stop = min(start + block_rows, n)
        block = block_moments(X[start:stop], y_index[start:stop], n_classes,
                              weight[start:stop], buffer)
        total = merge_class_moments(total, block)
    return total


def sparse_class_moments(X, y_index, n_classes, weight=None):
    """The :class:`ClassMoments` of a scipy.sparse ``X`` without densifying it.

    Centring would fill in the zeros, so the scatter comes from the sparse
    Gram product: ``S_W = XᵀSX − Σ_k N_k m_k m_kᵀ`` (float64, ``S`` the
    diagonal of the sample weights). The class sums are ``Yᵀ S X`` with ``Y``
    the sparse one-hot class indicator.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> X = np.array([[0.0, 0.0], [2.0, 0.0], [1.0, 1.0], [1.0, 3.0]])
    >>> mom = sparse_class_moments(sp.csr_matrix(X), np.array([0, 0, 1, 1]), 2)
    >>> mom.means.tolist(), mom.scatter.tolist()
    ([[1.0, 0.0], [1.0, 2.0]], [[2.0, 0.0], [0.0, 2.0]])
    """
    X = scipy.sparse.csr_matrix(X, dtype=np.float64)
    n = X.shape[0]
    weight = np.ones(n) if weight is None else np.asarray(weight, dtype=np.float64)
    indicator = scipy.sparse.csr_matrix(
        (weight, (np.arange(n), y_index)), shape=(n, n_classes))
    counts = np.bincount(y_index, weights=weight, minlength=n_classes).astype(np.float64)
    sums = np.asarray((indicator.T @ X).todense())
    means = sums / np.maximum(counts, 1.0)[:, None]
    gram = np.asarray((X.T @ (scipy.sparse.diags(weight) @ X)).todense())
    scatter = gram - (means.T * counts) @ means
    return ClassMoments(counts, means, _symmetrise(scatter))


def block_moments(X, y_index, n_classes, weight, buffer):
    """Moments of one block: class sums, then the Gram product of the
    class-centred rows (written into ``buffer``, at least as long as ``X``);
    with sample weights ``(S C)ᵀ C`` of the centred rows ``C``, the weights
    applied exactly (an integer weight is then that many copies)."""
    X = np.ascontiguousarray(X)
    counts, sums = class_counts_and_sums(X, y_index, n_classes, weight)
    means = sums / np.maximum(counts, 1.0)[:, None]
    centred = center_by_class(X, y_index, means.astype(X.dtype), buffer[:X.shape[0]])
    weighted = centred if np.all(weight == 1.0) else centred * weight.astype(X.dtype)[:, None]
    scatter = (weighted.T @ centred).astype(np.float64)
    return ClassMoments(counts, means, _symmetrise(scatter))


def merge_class_moments(a, b):
    """Moments of the union of two disjoint sets of rows.

    Per class, with ``δ = m_k^a − m_k^b``:
    ``N = N^a + N^b``, ``m = (N^a m^a + N^b m^b)/N`` and the scatter gains
    ``(N^a N^b / N) δ δᵀ`` on top of ``S^a + S^b``.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.random.default_rng(0).normal(size=(10, 3)); y = np.arange(10) % 2
    >>> whole = class_moments(X, y, 2)
    >>> parts = merge_class_moments(class_moments(X[:4], y[:4], 2),
    ...                             class_moments(X[4:], y[4:], 2))
    >>> bool(np.allclose(whole.scatter, parts.scatter))
    True
    """
    counts = a.counts + b.counts
    safe = np.maximum(counts, 1.0)
    means = (a.counts[:, None] * a.means + b.counts[:, None] * b.means) / safe[:, None]
    delta = a.means - b.means
    weight = a.counts * b.counts / safe
    scatter = a.scatter + b.scatter + (delta.T * weight) @ delta
    return ClassMoments(counts, means, _symmetrise(scatter))


def psd_eigh(S, rcond=None):
    """Eigen-decomposition of a symmetric positive semi-definite matrix.

    Returns the eigenvalues (ascending, negative rounding clipped to 0), the
    eigenvectors and a boolean mask of the eigenvalues above the rank cutoff
    ``rcond · λ_max`` (default ``rcond = 10 · n · eps``). This is how every
    solver of this family avoids inverting a singular matrix: it divides
    only by the kept eigenvalues (pseudo-inverse) or by regularised ones.
    """
    lam, V = scipy.linalg.eigh(S, check_finite=False)
    lam = np.maximum(lam, 0.0)
    if rcond is None:
        rcond = 10.0 * max(S.shape[0], 1) * np.finfo(np.float64).eps
    top = lam[-1] if lam.size else 0.0
    keep = lam > rcond * top if top > 0 else np.zeros(lam.shape, dtype=bool)
    return lam, V, keep


def _symmetrise(S):
    return 0.5 * (S + S.T)


__all__ = ["ClassMoments", "class_moments", "sparse_class_moments", "block_moments", "merge_class_moments",
           "psd_eigh"]
