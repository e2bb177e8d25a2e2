"""Public names of a package imported on first use (PEP 562).

A family's ``__init__`` names where each public name is defined instead of
importing every module: ``from hyperplane.svm import SVC`` then imports the
SVC's modules and not LinearSVC's, so a command that fits one model does not
pay for the others' imports (``hyperplane fit``).
"""

from __future__ import annotations

import importlib
import sys


def lazy_exports(package, exports):
    """``(__getattr__, __dir__)`` for the package ``package`` whose public names
    are defined in its submodules.

    Parameters
    ----------
    package : str
        The package's ``__name__``.
    exports : dict of str to tuple of str
        Relative submodule name (``"._svc"``) -> the names it defines that the
        package exports.

    Returns
    -------
    (callable, callable)
        The module-level ``__getattr__`` and ``__dir__``: the first imports the
        submodule of a name on its first access and keeps the value in the
        package, so later accesses are plain attribute reads.

    Examples
    --------
    A package ``__init__`` assigns them by name (``json.decoder`` stands in
    for a submodule here):

    >>> __getattr__, __dir__ = lazy_exports("json", {".decoder": ("JSONDecoder",)})
    >>> __getattr__("JSONDecoder").__name__
    'JSONDecoder'
    >>> "JSONDecoder" in __dir__()
    True
    >>> __getattr__("nothing")
    Traceback (most recent call last):
    ...
    AttributeError: module 'json' has no attribute 'nothing'
    """
    where = {name: module for module, names in exports.items() for name in names}

    def __getattr__(name):
        if name not in where:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(where[name], package), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__():
        return sorted(set(vars(sys.modules[package])) | set(where))

    return __getattr__, __dir__
