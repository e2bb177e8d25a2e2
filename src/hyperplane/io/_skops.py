"""skops, the model files' archive format, imported on first use.

skops' import lists scikit-learn's estimators, the types it trusts by default,
by walking every scikit-learn module; the list depends only on the installed
scikit-learn and skops, so the first import keeps it (:func:`trusted_estimator_names`)
and later imports hand skops those names instead of the walk. It also names
each public ufunc of SciPy's special functions and of NumPy by the first
loaded module that holds it, one walk of ``sys.modules`` per ufunc; those
names are kept the same way (:func:`kept_public_type_names`).

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
    have listed itself. So with the names it finds for SciPy's and NumPy's
    ufuncs (:func:`kept_public_type_names`; 0.1-0.15 s of CPU in the command
    line's ``fit``, where ~530 modules are loaded before SciPy's), kept only
    by an import that loads ``scipy.special`` itself: then every ufunc is
    found in SciPy's or NumPy's own modules, whatever else was loaded.

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
    # of CPU in the command line's ``fit``), and the names found are the same;
    # imported here, the walk's result depends on the installed versions only
    ufuncs_found_in_scipy = "scipy.special" not in sys.modules
    import scipy.special  # noqa: F401

    names = trusted_estimator_names()
    kept_ufuncs = kept_public_type_names()
    found_ufuncs = {}
    import sklearn.utils

    walk = sklearn.utils.all_estimators

    def listed_estimators():
        # called by skops' ``_trusted_types`` as it runs, before it lists the ufuncs
        _hand_public_type_names(kept_ufuncs, found_ufuncs)
        if names is None:
            return walk()
        # skops reads ``module.name`` of each listed class only (pickle.whichmodule)
        return [(name, type(name, (), {"__module__": module}))
                for module, _, name in (full.rpartition(".") for full in names)]

    sklearn.utils.all_estimators = listed_estimators
    try:
        import skops.io
    finally:
        sklearn.utils.all_estimators = walk
        _hand_public_type_names(None, None)
    if names is None:
        from skops.io._trusted_types import SKLEARN_ESTIMATOR_TYPE_NAMES

        _keep_estimator_names(SKLEARN_ESTIMATOR_TYPE_NAMES)
    if kept_ufuncs is None and found_ufuncs and ufuncs_found_in_scipy:
        _keep(_public_type_names_file(), found_ufuncs)
    return skops.io


#: skops' own ``get_public_type_names``, while :func:`_hand_public_type_names` replaces it
_SKOPS_PUBLIC_TYPE_NAMES = []


def _hand_public_type_names(kept, found):
    """Inside the running import of skops' ``_trusted_types``: make its
    ``get_public_type_names`` answer from ``kept`` (``{key: names}``, or None)
    and put what it had to walk for into ``found``; with ``kept`` and
    ``found`` None, give skops its own function back."""
    trusted = sys.modules.get("skops.io._trusted_types")
    if kept is None and found is None:
        if trusted is not None and _SKOPS_PUBLIC_TYPE_NAMES:
            trusted.get_public_type_names = _SKOPS_PUBLIC_TYPE_NAMES.pop()
        return
    skops_own = getattr(trusted, "get_public_type_names", None)
    if skops_own is None:  # another skops: its own walk
        return

    def public_type_names(module, oftype):
        key = _public_type_key(module, oftype)
        if kept is not None and key in kept:
            return list(kept[key])
        found[key] = skops_own(module=module, oftype=oftype)
        return found[key]

    _SKOPS_PUBLIC_TYPE_NAMES.append(skops_own)
    trusted.get_public_type_names = public_type_names


def _public_type_key(module, oftype):
    return f"{module.__name__} {oftype.__module__}.{oftype.__qualname__}"


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
    names = _kept_json(_estimator_names_file(), list)
    if names is None:
        return None
    return [name for name in names if isinstance(name, str) and name.startswith("sklearn.")]


def _kept_json(path, kind):
    """The non-empty ``kind`` (``list`` or ``dict``) a first import kept in
    ``path``, or None where the file is missing, unreadable or holds anything else."""
    try:
        kept = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return kept if isinstance(kept, kind) and kept else None


def _public_type_names_file():
    """Where the first import of skops keeps the names of the ufuncs it
    trusts, named by the SciPy, NumPy and skops versions that listed them."""
    import numpy
    import scipy
    import skops

    return (Path(__file__).parent / "__pycache__"
            / f"skops-ufuncs-scipy-{scipy.__version__}-numpy-{numpy.__version__}"
              f"-skops-{skops.__version__}.json")


def kept_public_type_names():
    """``{"module oftype": names}``: the public objects of a module that skops'
    import listed by type (its ``get_public_type_names``: SciPy's and NumPy's
    ufuncs) for the installed SciPy, NumPy and skops, or None before skops was
    first imported through :func:`skops_io` with ``scipy.special`` not yet
    loaded (or where they could not be kept). Only lists of names inside the
    module's own package are read.

    Examples
    --------
    >>> kept = kept_public_type_names()
    >>> kept is None or any(n.endswith(".expit") for n in kept["scipy.special numpy.ufunc"])
    True
    """
    kept = _kept_json(_public_type_names_file(), dict)
    if kept is None:
        return None
    names = {}
    for key, listed in kept.items():
        package = key.split(" ", 1)[0].split(".", 1)[0] + "."  # "scipy.", "numpy."
        inside = [n for n in listed if isinstance(n, str) and n.startswith(package)] \
            if isinstance(listed, list) else []
        if inside:  # none: skops' own walk for this key
            names[key] = inside
    return names or None


def _keep_estimator_names(names):
    _keep(_estimator_names_file(), list(names))


def _keep(path, value):
    """Write ``value`` as JSON to ``path`` (beside this module's bytecode)."""
    try:
        path.parent.mkdir(exist_ok=True)
        with atomic_write(path) as (handle, _):
            handle.write(json.dumps(value).encode("utf-8"))
    except OSError:  # a read-only installation: every import walks again
        pass


def skops_version():
    """The version of skops that writes the file (in its header)."""
    import skops

    return skops.__version__
