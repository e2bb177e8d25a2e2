"""The magnitude of the features, for learners that float64 cannot run on
every scale.

Learners whose answer does not depend on the units of ``X`` in exact
arithmetic (the perceptron on separable data, least squares, Fisher) train
on ``X · 2⁻ᵏ`` and fold the exact power of two back into their weights
(:func:`power_of_two_exponent`), so that ``X · 1e300`` and ``X · 1e-300``
give the predictions of ``X``. The others (logistic regression, Adaline,
networks) are not scale-invariant; they refuse features whose magnitude
leaves :data:`SAFE_MAGNITUDE` (:func:`check_magnitude`) instead of
returning NaN weights or a constant predictor.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse

#: magnitudes between these keep products of two features and sums over
#: many rows far from float64's overflow (1.8e308) and underflow (2.2e-308)
SAFE_MAGNITUDE = (1e-100, 1e100)


def feature_magnitudes(X):
    """The largest ``|x_j|`` of every feature (0 for an all-zero one)."""
    if scipy.sparse.issparse(X):
        return np.asarray(abs(X).max(axis=0).todense()).ravel()
    if not X.shape[0]:
        return np.zeros(X.shape[1])
    return np.maximum(X.max(axis=0), -X.min(axis=0))     # two reductions, no copy of |X|


def inside_safe_range(values):
    """Whether every nonzero ``|x|`` of the stored values of a sparse matrix
    lies in :data:`SAFE_MAGNITUDE` (then no feature's magnitude can leave it:
    a test on the values, without the column reduction)."""
    magnitudes = np.abs(values)
    nonzero = magnitudes[magnitudes > 0]
    if nonzero.size == 0:
        return True
    low, high = SAFE_MAGNITUDE
    return bool(nonzero.max() <= high and nonzero.min() >= low)


def check_magnitude(estimator, X):
    """Refuse features of a magnitude outside :data:`SAFE_MAGNITUDE`.

    Raises
    ------
    ValueError
        Naming the feature and its magnitude and saying that the scale is the
        problem (and that standardising ``X`` fixes it).

    Examples
    --------
    >>> import numpy as np
    >>> check_magnitude(None, np.array([[1.0, 2.0], [3.0, 4.0]]))
    >>> check_magnitude(None, np.array([[1.0, 2e300], [3.0, 4.0]]))
    Traceback (most recent call last):
    ...
    ValueError: NoneType: feature 1 of X reaches magnitude 2e+300, ...
    """
    low, high = SAFE_MAGNITUDE
    if scipy.sparse.issparse(X) and inside_safe_range(X.data):
        return
    mags = feature_magnitudes(X)
    bad = np.flatnonzero((mags > high) | ((mags > 0) & (mags < low)))
    if bad.size:
        j = int(bad[0])
        raise ValueError(
            f"{type(estimator).__name__}: feature {j} of X reaches magnitude "
            f"{mags[j]:.3g}, outside [{low:g}, {high:g}]; the scale of X is the problem: "
            "this learner's result depends on the units of X and float64 overflows or "
            "underflows at this scale. Standardise X first (e.g. "
            "sklearn.preprocessing.StandardScaler).")


def check_target_magnitude(estimator, y):
    """Refuse a regression target whose magnitude leaves :data:`SAFE_MAGNITUDE`
    (the message blames ``y``, not the features or the learning rate).

    Examples
    --------
    >>> import numpy as np
    >>> check_target_magnitude(None, np.array([1.0, -2.0]))
    >>> check_target_magnitude(None, np.array([1.0, 3e300]))
    Traceback (most recent call last):
    ...
    ValueError: NoneType: the target y reaches magnitude 3e+300 (row 1), ...
    """
    low, high = SAFE_MAGNITUDE
    Y = np.abs(np.asarray(y, dtype=np.float64).reshape(len(y), -1))
    bad = (Y > high) | ((Y > 0) & (Y < low))
    if bad.any():
        row = int(np.flatnonzero(bad.any(axis=1))[0])
        raise ValueError(
            f"{type(estimator).__name__}: the target y reaches magnitude "
            f"{Y[row][bad[row]][0]:.3g} (row {row}), outside [{low:g}, {high:g}]; the scale "
            "of y is the problem: float64 overflows or underflows at this scale. "
            "Standardise y first (e.g. sklearn.compose.TransformedTargetRegressor "
            "with a StandardScaler).")


def power_of_two_exponent(X):
    """``k`` such that ``X · 2⁻ᵏ`` has its largest entry in [0.5, 1), or 0
    when that entry is already inside :data:`SAFE_MAGNITUDE` (no rescaling).

    Dividing by a power of two is exact in floating point, so a learner that
    trains on ``X · 2⁻ᵏ`` and multiplies its weights by ``2⁻ᵏ`` answers as on
    ``X`` while never forming ``x²`` out of range.

    Examples
    --------
    >>> import numpy as np
    >>> power_of_two_exponent(np.array([[3.0, -4.0]]))
    0
    >>> power_of_two_exponent(np.array([[1e300]]))
    997
    """
    mags = feature_magnitudes(X)
    top = float(mags.max()) if mags.size else 0.0
    low, high = SAFE_MAGNITUDE
    if top == 0.0 or low <= top <= high:
        return 0
    return int(np.frexp(top)[1])


def scaled_by_power_of_two(X, k):
    """``X · 2⁻ᵏ`` (exact; ``X`` itself when ``k == 0``)."""
    if k == 0:
        return X
    factor = np.ldexp(1.0, -k)
    return X * factor if scipy.sparse.issparse(X) else np.ldexp(X, -k).astype(X.dtype)


__all__ = ["SAFE_MAGNITUDE", "check_magnitude", "check_target_magnitude", "feature_magnitudes",
           "power_of_two_exponent", "scaled_by_power_of_two"]
