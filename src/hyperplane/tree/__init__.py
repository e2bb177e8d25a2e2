"""Decision trees: ID3, C4.5 and CART (周志华《机器学习》chapter 4).

Public names: :class:`DecisionTreeClassifier`, :func:`split_table`,
:func:`export_text`, :func:`export_graphviz`.
"""

from ._classes import DecisionTreeClassifier
from ._export import export_graphviz, export_text, split_table

__all__ = ["DecisionTreeClassifier", "split_table", "export_text", "export_graphviz"]
