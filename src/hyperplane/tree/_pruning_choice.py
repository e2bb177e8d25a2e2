"""Which pruning the classifier runs after growth, and on which rows it is judged.

Pre- and post-pruning (周志华 §4.3) judge a split on validation data: the
user's ``validation_data``, or a third of the training rows held out;
pessimistic pruning (Quinlan 1993, C4.5) and CART's cost-complexity pruning
(Breiman et al. 1984, 李航 §5.5.2) need none. ``ccp_alpha > 0`` alone means
cost-complexity pruning (scikit-learn's meaning of ``ccp_alpha``).
"""

from __future__ import annotations

import warnings

import numpy as np
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_consistent_length, column_or_1d

from .._stacklevel import user_stacklevel
from ._prune._kinds import cost_complexity_prune, pessimistic_prune, post_prune

PRUNINGS = (None, "pre", "post", "pessimistic", "cost_complexity")
#: pruning applied to the grown tree:
#: name -> f(estimator, tree, validation, training, criterion); ``training`` is
#: the encoded (X, y, w) the tree grew on, or None when it is not in memory
AFTER_GROWTH = {
    "post": lambda est, tree, validation, training, criterion: post_prune(
        tree, *validation, est._label_of, criterion, getattr(est, "_decisions", None)),
    "pessimistic": lambda est, tree, validation, training, criterion: pessimistic_prune(
        tree, est.confidence, criterion,
        training=training if est.subtree_raising else None),
    "cost_complexity": lambda est, tree, validation, training, criterion: cost_complexity_prune(
        tree, est.ccp_alpha, criterion),
}
#: fraction of the training data held out for pre/post pruning without validation_data
HOLDOUT_FRACTION = 1 / 3


def pruning_after_growth(pruning, ccp_alpha):
    """``pruning``, with ``ccp_alpha > 0`` alone meaning CART's cost-complexity
    pruning (scikit-learn's meaning of ``ccp_alpha``).

    Examples
    --------
    >>> pruning_after_growth(None, 0.01), pruning_after_growth("post", 0.0)
    ('cost_complexity', 'post')
    """
    if ccp_alpha > 0 and pruning is None:
        return "cost_complexity"
    return pruning


def warn_unused_ccp_alpha(pruning, ccp_alpha):
    """``ccp_alpha > 0`` with another pruning has no effect: said, not silent.

    Examples
    --------
    >>> warn_unused_ccp_alpha("cost_complexity", 0.01)  # used: no warning
    """
    if ccp_alpha > 0 and pruning not in (None, "cost_complexity"):
        warnings.warn(f"ccp_alpha={ccp_alpha!r} is not used: pruning="
                      f"{pruning!r} prunes otherwise (ccp_alpha belongs to "
                      "pruning='cost_complexity', or to pruning=None)", UserWarning,
                      stacklevel=user_stacklevel())


def hold_out(X, y, w, pruning, random_state):
    """Split off a third of the rows (``random_state``) as the validation set of
    ``pruning`` (``"pre"`` or ``"post"``): ``(X, y, w)`` of the rest and the
    held-out ``(X, y, w)``.

    Examples
    --------
    >>> import numpy as np
    >>> X, y, w = np.arange(6.0)[:, None], np.arange(6), np.ones(6)
    >>> X_train, y_train, w_train, (X_val, y_val, w_val) = hold_out(X, y, w, "post", 0)
    >>> y_train.size, y_val.size
    (4, 2)
    """
    n = X.shape[0]
    n_val = int(np.floor(n * HOLDOUT_FRACTION))
    if n_val < 1 or n - n_val < 1:
        least = int(np.ceil(1 / HOLDOUT_FRACTION))  # the smallest n whose third is a row
        raise ValueError(f"pruning={pruning!r} without validation_data holds out a "
                         f"third of the samples for validation and needs at least {least} "
                         f"samples; got {n}")
    perm = check_random_state(random_state).permutation(n)
    val, train = np.sort(perm[:n_val]), np.sort(perm[n_val:])
    return X[train], y[train], w[train], (X[val], y[val], w[val])


def encode_validation(encode, classes, validation_data):
    """``(X_val, y_val, w_val)`` of the pair ``validation_data``: its rows
    through ``encode`` (the fitted tree's encoding), its labels as indices
    into ``classes`` (-1: a class the tree never saw), unit weights.

    Examples
    --------
    >>> import numpy as np
    >>> X_val, y_val, w_val = encode_validation(np.asarray, np.array(["a", "b"]),
    ...                                         ([[0.0], [1.0]], ["b", "c"]))
    >>> y_val.tolist(), w_val.tolist()
    ([1, -1], [1.0, 1.0])
    """
    try:
        X_val, y_val = validation_data
    except (TypeError, ValueError) as exc:
        raise ValueError("validation_data must be a pair (X_val, y_val)") from exc
    X_val = encode(X_val)
    y_val = column_or_1d(y_val)
    check_consistent_length(X_val, y_val)
    lookup = {c: k for k, c in enumerate(classes.tolist())}
    y_idx = np.array([lookup.get(v, -1) for v in y_val.tolist()], dtype=np.int64)
    return X_val, y_idx, np.ones(X_val.shape[0])


__all__ = ["PRUNINGS", "AFTER_GROWTH", "HOLDOUT_FRACTION", "pruning_after_growth",
           "warn_unused_ccp_alpha", "hold_out", "encode_validation"]
