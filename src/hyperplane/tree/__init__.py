"""Decision trees: ID3, C4.5 and CART (周志华《机器学习》chapter 4).

Public names: :class:`DecisionTreeClassifier`, :class:`DecisionTreeRegressor` (CART's
least-squares tree, 李航《统计学习方法》§5.5.1), :func:`split_table`,
:func:`candidate_thresholds`, :func:`node_weights`, :func:`branches`, :func:`export_text`, :func:`export_graphviz`.
"""

from ._inspect._candidates import branches, candidate_thresholds, node_weights
from ._classes import DecisionTreeClassifier
from ._inspect._export import export_graphviz, export_text, split_table
from ._oblique import ObliqueTreeClassifier
from ._regressor import DecisionTreeRegressor

__all__ = ["DecisionTreeClassifier", "DecisionTreeRegressor", "ObliqueTreeClassifier", "split_table", "export_text",
           "candidate_thresholds", "node_weights", "branches",
           "export_graphviz"]
