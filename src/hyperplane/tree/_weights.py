"""Sample weights of a tree as relative weights: the lightest row weighs 1.

A tree's splits depend only on the ratios of the weights (周志华 4.4.2 weighs
every sum by ``w``), but C4.5's rules count weight as rows: the minimum
weight of a branch (``min_samples_leaf``), the MDL charge ``log2(#cuts)/W``
and pessimistic pruning's ``N`` and ``E`` (Quinlan 1993 ch. 4). With raw
weights of 1e-100 no branch reaches the minimum weight (one leaf), and with
1e200 the sums of squares in the Gini index overflow. So the
estimator divides the weights once by the smallest positive weight before it
grows: uniform weights of any scale give the unweighted tree, ``w`` and
``c·w`` give the same tree (bit for bit when c is a power of two), a
weighted count is in units of the lightest row, and integer weights with a
weight of 1 among them are the rows repeated.
"""

from __future__ import annotations

import numpy as np  # noqa: F401  (the examples below use it)

#: the largest ratio of two positive weights: relative weights up to this,
#: summed over rows and squared in the Gini index, stay far inside float64
MAX_WEIGHT_RATIO = 1e100


def weight_unit(smallest, largest):
    """The divisor of the weights: the smallest positive weight, or a
    ValueError naming ``sample_weight`` when the weights span more than
    :data:`MAX_WEIGHT_RATIO`.

    Examples
    --------
    >>> weight_unit(0.25, 3.0)
    0.25
    >>> weight_unit(1e-200, 1.0)
    Traceback (most recent call last):
    ...
    ValueError: sample_weight spans 1e+200 from its smallest positive weight ...
    """
    ratio = largest / smallest
    if not ratio <= MAX_WEIGHT_RATIO:
        raise ValueError(
            f"sample_weight spans {ratio:.3g} from its smallest positive weight "
            f"({smallest:.3g}) to its largest ({largest:.3g}); a tree uses the ratios of the "
            f"weights and needs them within {MAX_WEIGHT_RATIO:g} (float64 sums of the "
            "relative weights would overflow); give the lightest rows weight 0 or clip "
            "the weights")
    return float(smallest)


def relative_weights(w):
    """``w`` divided by its smallest positive weight (:func:`weight_unit`);
    ``w`` itself when that weight is 1 (unit and integer weights are kept
    bit for bit).

    Examples
    --------
    >>> relative_weights(np.array([3e200, 3e200, 6e200, 0.0])).tolist()
    [1.0, 1.0, 2.0, 0.0]
    >>> w = np.array([1.0, 2.0, 0.0])
    >>> relative_weights(w) is w
    True
    """
    positive = w[w > 0]
    if positive.size == 0:
        return w
    unit = weight_unit(float(positive.min()), float(positive.max()))
    return w if unit == 1.0 else w / unit


__all__ = ["MAX_WEIGHT_RATIO", "relative_weights", "weight_unit"]
