"""Utilities for developers and tests: discovery of hyperplane's estimators."""

from ._discovery import all_estimators, hyperplane_classes

__all__ = ["all_estimators", "hyperplane_classes"]
