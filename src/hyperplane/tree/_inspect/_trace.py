"""The per-node trace of a tree's growth and the split table of one node.

A split table is what a node compares: the :class:`~hyperplane.tree._state.Splits`
the growers compute, one row per available attribute, in the criterion's
words. :func:`splits_frame` turns it into a DataFrame for
:func:`~._export.split_table` (the root) and for
``DecisionTreeClassifier(record_trace=True).trace_`` (every node), so both
show the numbers the tree chose from.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .._grow._expand_kernels import LEAF_REASONS, c45_candidates
from .._grow._builder import store_links
from .._grow._preorder import preorder_layout


@dataclass
class NodeTrace:
    """One node of a tree's growth.

    A plain (not frozen) dataclass, so that a saved model restores it as data
    (:func:`hyperplane.io.load` never runs a class's own ``__setattr__``).

    Attributes
    ----------
    node : int
        Index of the node in ``tree_`` (preorder) of the grown tree; after
        pruning, of the tree before pruning.
    depth : int
    weight : float
        Total weight of the node's rows (a row missing a tested value counts
        with its ``r̃_v``-scaled weight).
    n_rows : int
        Rows at the node (a row missing a tested value counts in every branch).
    split_table : DataFrame or None
        What the node compared (see :func:`~hyperplane.tree.split_table`);
        None for a node that became a leaf without being scored.
    attribute : str or None
        The attribute the node tests; None for a leaf.
    threshold : float
        The cut of a numeric test (``x <= threshold`` first); NaN otherwise.
    leaf_reason : str or None
        Why the node is a leaf; None for an internal node.
    """

    node: int
    depth: int
    weight: float
    n_rows: int
    split_table: pd.DataFrame | None
    attribute: str | None
    threshold: float
    leaf_reason: str | None


#: criterion name -> the split table's columns before threshold / rho / valid
SCORE_COLUMNS = {
    "info_gain": lambda s, keep: {"info_gain": s.score[keep]},
    "gain_ratio": lambda s, keep: {"gain_ratio": s.ratio[keep], "info_gain": s.score[keep],
                                   "candidate": c45_candidates(s.score, s.valid)[keep]},
    "gini": lambda s, keep: {"gini_index": s.after[keep], "gini_gain": s.score[keep]},
    "squared_error": lambda s, keep: {"mse_after": s.after[keep], "mse_decrease": s.score[keep]},
    "absolute_error": lambda s, keep: {"mae_after": s.after[keep], "mae_decrease": s.score[keep]},
}


def splits_frame(splits, names, criterion, avail):
    """The split table of the attributes ``avail`` as a DataFrame (index: attribute).

    Columns: the criterion's (``info_gain`` = ρ·Gain on the known part, C4.5:
    charged for the cut; ``gain_ratio`` with the ``info_gain`` it starts
    from and ``candidate``, whether that gain is at least the average of the
    valid attributes; ``gini_index`` = Σ_v r̃_v Gini(D̃_v) with ``gini_gain``
    = ρ·(Gini(D̃) − gini_index), which the tree maximises; a regression tree's
    ``mse_after`` = Σ_v r̃_v MSE(D̃_v) with ``mse_decrease`` = ρ·(MSE(D̃) − mse_after), or
    ``mae_after`` and ``mae_decrease`` alike with the mean absolute deviation from the
    weighted median), then
    ``threshold``, ``rho`` and ``valid`` (admissible).
    """
    keep = np.flatnonzero(avail)
    columns = SCORE_COLUMNS[criterion](splits, keep)
    return pd.DataFrame({**columns, "threshold": splits.threshold[keep],
                         "rho": splits.rho[keep], "valid": splits.valid[keep]},
                        index=pd.Index([names[j] for j in keep], name="attribute"))


class Tracer:
    """Collects the trace while a tree grows (growing-storage node ids)."""

    def __init__(self, names, criterion):
        self.names, self.criterion = names, criterion
        self.raw = {}

    def scored(self, node_id, node, splits, test, reason):
        """A node that was scored: split on ``test = (j, numeric, threshold)`` or
        (``test`` None) a leaf for ``reason``."""
        table = splits_frame(splits, self.names, self.criterion, node.avail)
        self._add(node_id, node, table, test, None if test is not None else reason)

    def leaf(self, node_id, node, reason):
        """A node that became a leaf without being scored."""
        self._add(node_id, node, None, None, reason)

    def _add(self, node_id, node, table, test, reason):
        attribute, threshold = None, np.nan
        if test is not None:
            attribute = self.names[test[0]]
            threshold = float(test[2]) if test[1] else np.nan
        n_rows = node.count[node.rows].sum() if node.count.size else node.rows.size
        self.raw[node_id] = (int(node.depth), float(node.w.sum()), int(n_rows), table,
                             attribute, threshold,
                             None if reason is None else LEAF_REASONS[int(reason)])

    def entries(self, store):
        """The trace in preorder of the grown tree (a
        :class:`~hyperplane.tree._state.NodeStore` grown by ``criterion``), ids as in
        its ``tree_`` (the layout :func:`~hyperplane.tree._grow._builder.finalize` makes)."""
        feature = store.feature[:store.n_nodes]
        order = preorder_layout(feature, *store_links(store),
                                np.ones(feature.size, dtype=np.bool_)).order
        return [NodeTrace(new, *self.raw[old]) for new, old in enumerate(order.tolist())
                if old in self.raw]
