"""skops, the model files' archive format, imported on first use.

skops' import lists scikit-learn's estimators, the types it trusts by default,
by walking every scikit-learn module; the list depends only on the installed
scikit-learn and skops, so the first import keeps it (:func:`trusted_estimator_names`)
and later imports hand skops those names instead of the walk.

Examples
--------
>>> from hyperplane.io._skops import skops_io
>>> skops_io().__name__
'skops.io'
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ._atomic import atomic_write


def skops_io():
    """:mod:`skops.io`, imported by the first save or load, not by ``import
    hyperplane.io``.

    skops' import lists scikit-learn's estimators, the types it trusts by
    default, by ``sklearn.utils.all_estimators()``, which imports every
    scikit-learn module (0.4-0.7 s of CPU on a 2-core machine, 430 modules),
    and looks each SciPy ufunc up in every loaded module; it is paid only by
    a command that writes or reads a model file (``read_header`` needs
    neither skops nor pandas). The lookup grows with the modules already
    loaded, so a caller that will write a file may call this first (the
    command line's ``fit``).

    The list depends only on the installed scikit-learn and skops, so the
    first import keeps the names skops computed
    (:func:`trusted_estimator_names`), and later imports hand skops those
    names instead of the walk: skops then trusts exactly the types it would
    have listed itself.

    Returns
    -------
    module
        :mod:`skops.io`.

    Examples
    --------
    >>> from hyperplane.io._files import skops_io
    >>> skops_io().__name__
    'skops.io'
    """
    if "skops.io" in sys.modules:
        return sys.modules["skops.io"]
    # skops names each SciPy ufunc by the first module in sys.modules that
    # holds it (pickle.whichmodule): imported before scikit-learn, scipy.special
    # is found before any of scikit-learn's modules is walked (0.25 -> 0.13 s
    # of CPU in the command line's ``fit``), and the names found are the same
    import scipy.special  # noqa: F401

    names = trusted_estimator_names()
    if names is None:
        import skops.io
        from skops.io._trusted_types import SKLEARN_ESTIMATOR_TYPE_NAMES

        _keep_estimator_names(SKLEARN_ESTIMATOR_TYPE_NAMES)
        return skops.io
    import sklearn.utils

    walk = sklearn.utils.all_estimators
    # skops reads ``module.name`` of each listed class only (pickle.whichmodule)
    sklearn.utils.all_estimators = lambda: [
        (name, type(name, (), {"__module__": module}))
        for module, _, name in (full.rpartition(".") for full in names)]
    try:
        import skops.io
    finally:
        sklearn.utils.all_estimators = walk
    return skops.io


def _estimator_names_file():
    """Where the first import of skops keeps scikit-learn's estimator names:
    beside this module's bytecode, named by the scikit-learn and skops
    versions that listed them."""
    import sklearn
    import skops

    return (Path(__file__).parent / "__pycache__"
            / f"skops-trusted-sklearn-{sklearn.__version__}-skops-{skops.__version__}.json")


def trusted_estimator_names():
    """The names of scikit-learn's estimators as skops' import listed them
    for the installed scikit-learn and skops (``module.Class``), or None
    before skops was first imported through :func:`skops_io` (or where the
    list could not be kept). Only ``sklearn.`` names are read: skops trusts
    no other name from this list.

    Examples
    --------
    >>> names = trusted_estimator_names()
    >>> names is None or "sklearn.svm._classes.SVC" in names
    True
    """
    try:
        names = json.loads(_estimator_names_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(names, list) or not names:
        return None
    return [name for name in names if isinstance(name, str) and name.startswith("sklearn.")]


def _keep_estimator_names(names):
    path = _estimator_names_file()
    try:
        path.parent.mkdir(exist_ok=True)
        with atomic_write(path) as (handle, _):
            handle.write(json.dumps(list(names)).encode("utf-8"))
    except OSError:  # a read-only installation: every import walks again
        pass


def skops_version():
    """The version of skops that writes the file (in its header)."""
    import skops

    return skops.__version__
