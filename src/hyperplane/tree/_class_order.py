"""The classifier's tie rule: the order in which classes win a tie between
their weights in a leaf (周志华 §4.1 leaves the tie open; hyperplane takes
the class seen first in the training labels, or the target's declared order
for a ``Categorical`` target)."""

from __future__ import annotations

import numpy as np


def first_seen_order(y_idx, n_classes):
    """Class indices ordered by their first occurrence in ``y`` (the tie rule).

    Examples
    --------
    >>> import numpy as np
    >>> first_seen_order(np.array([2, 0, 2, 1]), 3).tolist()
    [2, 0, 1]
    """
    first = np.full(n_classes, y_idx.size)
    np.minimum.at(first, y_idx, np.arange(y_idx.size))
    return np.argsort(first, kind="stable")


def declared_order(classes, declared):
    """Class indices ordered by the target's declared categories (the tie rule for a
    ``Categorical`` target).

    Examples
    --------
    >>> import numpy as np
    >>> declared_order(np.array(["否", "是"]), ["是", "否"]).tolist()
    [1, 0]
    """
    position = {c: i for i, c in enumerate(declared)}
    return np.argsort([position[c] for c in classes.tolist()], kind="stable")


__all__ = ["first_seen_order", "declared_order"]
