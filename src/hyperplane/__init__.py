"""hyperplane: the classic supervised learners exactly as the textbooks define
them (李航《统计学习方法》, 周志华《机器学习》), transparent about how they learn,
at compiled speed, as scikit-learn estimators.

Subpackages: :mod:`hyperplane.datasets`, :mod:`hyperplane.kernels`,
:mod:`hyperplane.linear`, :mod:`hyperplane.tree`, :mod:`hyperplane.svm`,
:mod:`hyperplane.neural`, :mod:`hyperplane.io`, :mod:`hyperplane.plot`.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("hyperplane")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0.0.0+unknown"

__all__ = ["__version__"]
