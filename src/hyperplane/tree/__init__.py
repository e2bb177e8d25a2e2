"""Decision trees: ID3, C4.5 and CART (周志华《机器学习》chapter 4).

Public names: :class:`DecisionTreeClassifier`, :class:`DecisionTreeRegressor` (CART's
least-squares tree, 李航《统计学习方法》§5.5.1), :func:`split_table`,
:func:`candidate_thresholds`, :func:`node_weights`, :func:`branches`, :func:`export_text`, :func:`export_graphviz`.
"""

import hyperplane._numba  # noqa: F401  (its OpenMP wait policy, set before numba's pool starts)
from hyperplane._lazy import lazy_exports

__all__ = ["DecisionTreeClassifier", "DecisionTreeRegressor", "ObliqueTreeClassifier", "split_table", "export_text",
           "candidate_thresholds", "node_weights", "branches",
           "export_graphviz"]

#: where each public name is defined: imported on first use
__getattr__, __dir__ = lazy_exports(__name__, {
    "._inspect._candidates": ("branches", "candidate_thresholds", "node_weights"),
    "._classes": ("DecisionTreeClassifier",),
    "._inspect._export": ("export_graphviz", "export_text", "split_table"),
    "._oblique": ("ObliqueTreeClassifier",),
    "._regressor": ("DecisionTreeRegressor",),
})
