"""hyperplane: the classic supervised learners exactly as the textbooks define
them (李航《统计学习方法》, 周志华《机器学习》), transparent about how they learn,
at compiled speed, as scikit-learn estimators.

Subpackages: :mod:`hyperplane.datasets`, :mod:`hyperplane.kernels`,
:mod:`hyperplane.linear`, :mod:`hyperplane.tree`, :mod:`hyperplane.svm`,
:mod:`hyperplane.neural`, :mod:`hyperplane.io`, :mod:`hyperplane.plot`.
"""

__all__ = ["__version__"]


def __getattr__(name):
    # the version is looked up on first use: importlib.metadata costs a
    # quarter of the command line's start-up (``hyperplane --help``)
    if name != "__version__":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("hyperplane")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "0.0.0+unknown"
