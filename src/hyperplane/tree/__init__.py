"""Decision trees: ID3, C4.5, CART and oblique trees (周志华 chapter 4)."""

from ._oblique import ObliqueTreeClassifier

__all__ = ["ObliqueTreeClassifier"]
