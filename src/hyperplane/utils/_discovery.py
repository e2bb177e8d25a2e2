"""Find hyperplane's own classes by walking the installed package.

Used by :func:`all_estimators` (tests that must cover every estimator, even
those of families merged later) and by :mod:`hyperplane.io` (the classes a
model file may name). Computing the lists from the package means they never
go stale when a family adds a class.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import pkgutil

from sklearn.base import BaseEstimator

#: subpackages that hold user-facing tooling, not models: never scanned (the
#: playground's server imports Flask, an optional extra)
_TOOLING = ("hyperplane.cli", "hyperplane.io", "hyperplane.playground", "hyperplane.plot",
            "hyperplane.utils", "hyperplane.__main__")


def _is_tooling(name):
    return any(name == prefix or name.startswith(prefix + ".") for prefix in _TOOLING)


def is_model_module(name):
    """Whether ``name`` is an installed hyperplane module that may define
    models (found without importing it).

    Examples
    --------
    >>> is_model_module("hyperplane.svm._svc"), is_model_module("hyperplane.cli._app")
    (True, False)
    >>> is_model_module("os"), is_model_module("hyperplane.no_such_module")
    (False, False)
    """
    if not name.startswith("hyperplane.") or _is_tooling(name):
        return False
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):  # a parent that is not a package, or no parent
        return False


def model_modules():
    """Import and return every hyperplane module that may define models.

    Every model module imports without the optional extras (Dask is imported
    only when a Dask collection is given), so an import error here is a real
    fault and propagates.
    """
    import hyperplane

    modules = []
    for info in pkgutil.walk_packages(hyperplane.__path__, prefix="hyperplane."):
        if _is_tooling(info.name):
            continue
        modules.append(importlib.import_module(info.name))
    return modules


def hyperplane_classes():
    """Every class defined (not merely imported) in a hyperplane model module.

    Returns
    -------
    dict of str to type
        ``{"module.Class": class}``, keyed by the defining module.

    Examples
    --------
    >>> from hyperplane.utils import hyperplane_classes
    >>> classes = hyperplane_classes()
    >>> classes["hyperplane.linear._perceptron.Perceptron"].__name__
    'Perceptron'
    >>> "hyperplane.linear.Perceptron" in classes          # a re-export, not a definition
    False
    >>> any(name.startswith(("hyperplane.cli.", "hyperplane.io.", "hyperplane.plot."))
    ...     for name in classes)                           # tooling is not scanned
    False
    """
    found = {}
    for module in model_modules():
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == module.__name__:
                found[f"{cls.__module__}.{cls.__qualname__}"] = cls
    return found


def all_estimators(type_filter=None):
    """The public scikit-learn estimators that hyperplane defines.

    Parameters
    ----------
    type_filter : {"classifier", "regressor", "transformer"} or None
        Keep only estimators of that kind (scikit-learn's tags).

    Returns
    -------
    list of (name, class)
        Sorted by name; private (``_``), base (``Base*``, as in scikit-learn)
        and abstract classes left out.

    Examples
    --------
    >>> from hyperplane.utils import all_estimators
    >>> all(isinstance(name, str) for name, _ in all_estimators())
    True
    """
    from sklearn.base import is_classifier, is_regressor

    kinds = {
        None: lambda est: True,
        "classifier": is_classifier,
        "regressor": is_regressor,
        "transformer": lambda est: hasattr(est, "transform"),
    }
    if type_filter not in kinds:
        raise ValueError(f"type_filter must be one of {list(kinds)}; got {type_filter!r}")
    estimators = {}
    for cls in hyperplane_classes().values():
        if (issubclass(cls, BaseEstimator) and not cls.__name__.startswith(("_", "Base"))
                and not inspect.isabstract(cls)):
            try:
                instance = cls()
            except TypeError:  # a required constructor argument: not a plain estimator
                continue
            if kinds[type_filter](instance):
                estimators[cls.__name__] = cls
    return sorted(estimators.items())
