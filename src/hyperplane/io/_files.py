"""Model files: a skops archive plus a small JSON header, loaded without code.

A model file is a zip archive written by :func:`skops.io.dump` (the model's
state as JSON and NumPy arrays, no pickle) to which a member
``hyperplane.json`` is added: the format name, its version, the hyperplane
and skops versions, the model's class and any metadata the caller gives.

Loading reads the header first, then asks skops which types the file names
that skops does not trust by default, and refuses the file unless every one
of them is a class hyperplane itself defines as storable. skops builds
objects without calling their constructors or any function the file names,
so a file can at worst be refused, never run code.

Saving writes a temporary file beside the target, checks it as loading
would, flushes it to disk and only then renames it over the target
(``os.replace``, atomic on POSIX and Windows): a save that fails or is
killed leaves the previous file as it was.
"""

from __future__ import annotations

import importlib
import io
import json
import os
import sys
import zipfile
from functools import cache
from pathlib import Path

from ._atomic import atomic_write
from ._skops import skops_io, skops_version

FORMAT_NAME = "hyperplane-model"
#: 2: a frame's column of equal-shaped arrays is stored stacked (``_frames``)
FORMAT_VERSION = 2
HEADER_MEMBER = "hyperplane.json"


def _version():
    from hyperplane import __version__
    return __version__


#: methods through which loading an object could run the class's own code
_HOOKS = ("__new__", "__setstate__", "__reduce__", "__reduce_ex__", "__setattr__",
          "__getattr__", "__getattribute__", "__init_subclass__", "__class_getitem__")


def restores_as_plain_data(cls):
    """Whether skops can only rebuild ``cls`` as data: no hyperplane-defined hook.

    True for a class none of whose hyperplane-defined bases (itself
    included) defines a method skops or Python would call while rebuilding
    an instance from a file (``__new__``, ``__setstate__``, ``__reduce__``,
    attribute hooks, ...), and that is not an exception or a metaclass.
    """
    if issubclass(cls, (BaseException, type)):
        return False
    own = [base for base in cls.__mro__ if base.__module__.startswith("hyperplane.")]
    return bool(own) and not any(hook in vars(base) for base in own for hook in _HOOKS)


#: the module that defines the kernels' base class, ``Kernel``
KERNEL_MODULE = "hyperplane.kernels._kernels"

#: scipy's CSR matrix (an SVM's support vectors after a sparse fit): skops
#: restores it with ``scipy.sparse.load_npz``, which reads arrays and runs no code
SPARSE_TYPES = ("scipy.sparse._csr.csr_matrix",)


@cache
def trusted_types():
    """Names of the types a model file may hold beyond skops' defaults.

    Computed from the package, so that a class a family adds is covered:
    hyperplane's estimators (scikit-learn ``BaseEstimator`` subclasses), its
    kernels, and every other class hyperplane defines that skops can only
    restore as plain data (see :func:`restores_as_plain_data`: e.g. a tree's
    node arrays, a perceptron's per-class state, FrameState). skops rebuilds
    such an object with ``cls.__new__(cls)`` and sets its attributes, so no
    code of the class runs on load.

    Returns
    -------
    frozenset of str
        Fully qualified names as skops writes them (``module.Class``).

    Examples
    --------
    Estimators and kernels are trusted; an exception class never is:

    >>> from hyperplane.io import trusted_types
    >>> names = trusted_types()
    >>> "hyperplane.linear._perceptron.Perceptron" in names
    True
    >>> "hyperplane.kernels._kernels.RBF" in names
    True
    >>> "hyperplane.kernels._resolve.NotPSDWarning" in names
    False
    """
    from hyperplane.utils import hyperplane_classes

    from ._frames import FrameState

    names = {f"{FrameState.__module__}.{FrameState.__qualname__}", *SPARSE_TYPES}
    for name, cls in hyperplane_classes().items():
        if _trusted_class(cls):
            names.add(name)
    return frozenset(names)


def save(model, path, *, metadata=None):
    """Write ``model`` to ``path`` as a hyperplane model file.

    Parameters
    ----------
    model : estimator
        A fitted estimator or pipeline made only of types :func:`load`
        trusts (:func:`trusted_types`): hyperplane's estimators and kernels,
        scikit-learn's estimators, transformers and pipelines, NumPy arrays,
        SciPy sparse matrices and pandas frames. Anything else (a lambda, a
        user-defined class, an object skops cannot write) is refused with a
        :class:`TypeError` before the file is touched.
    path : str or path-like
        The file to write (conventionally ``*.hyperplane``).
    metadata : dict, optional
        JSON-serialisable facts stored in the header (the command line keeps
        the training columns and the target's name there).

    Raises
    ------
    TypeError
        If the model holds an object skops cannot write, or one of a type
        that :func:`load` would refuse (a lock, a ``functools.partial``, an
        estimator outside the trusted list); the message names the type. The
        file at ``path`` is then left as it was, as after any failed save.

    Examples
    --------
    >>> import tempfile, os
    >>> from sklearn.linear_model import Perceptron
    >>> from hyperplane.io import save, load
    >>> model = Perceptron().fit([[3, 3], [4, 3], [1, 1]], [1, 1, -1])
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = os.path.join(tmp, "model.hyperplane")
    ...     save(model, path)
    ...     copy = load(path)
    >>> copy.predict([[3, 3]]).tolist()
    [1]
    """
    path = Path(os.path.realpath(path))   # through a symlink: replace what it points to
    if path.is_dir():
        raise IsADirectoryError(f"{path} is a directory: give the model file's name")
    if not path.parent.is_dir():
        raise FileNotFoundError(f"cannot write {path.name}: no directory {path.parent}")
    header = {
        "format": FORMAT_NAME,
        "format_version": FORMAT_VERSION,
        "hyperplane_version": _version(),
        "skops_version": skops_version(),
        "model": class_name(model),
        "metadata": metadata or {},
    }
    try:
        text = json.dumps(header, ensure_ascii=False, indent=2)
    except TypeError as exc:
        raise TypeError(f"metadata must be JSON-serialisable: {exc}") from None
    sio = skops_io()  # first: its import grows with the modules loaded before it
    from ._frames import frames_to_states

    state = frames_to_states(model)
    with atomic_write(path) as (handle, temporary):
        try:
            sio.dump(state, handle, compression=zipfile.ZIP_DEFLATED)
        except (TypeError, ValueError, AttributeError) as exc:
            raise TypeError(f"cannot save {class_name(model)}: {exc}") from None
        with zipfile.ZipFile(handle, "a") as archive:
            archive.writestr(HEADER_MEMBER, text)
        handle.flush()
        refused = untrusted_in(sio.get_untrusted_types(file=temporary))
        if refused:
            raise TypeError(f"cannot save {class_name(model)} to {path}: it holds "
                            f"{', '.join(refused)}, which hyperplane does not trust to load; "
                            "remove it from the model (the file was not written)")


def class_name(obj):
    """``module.Class`` of ``obj``, as headers and skops name classes."""
    return f"{type(obj).__module__}.{type(obj).__qualname__}"


def untrusted_in(types):
    """The names in ``types`` that neither skops nor hyperplane trusts, sorted.

    Each name is judged by :func:`is_trusted_name`, which imports only the
    module the name points into, so saving or loading an SVC does not import
    the tree and network families; the verdict equals membership in
    :func:`trusted_types` (``tests/io``).
    """
    return sorted(name for name in set(types) if not is_trusted_name(name))


@cache
def is_trusted_name(name):
    """Whether ``module.Class`` is in :func:`trusted_types`, importing at most
    the one hyperplane model module it names (never a tooling module, never a
    module outside hyperplane: those names are untrusted without an import)."""
    from hyperplane.utils._discovery import is_model_module

    from ._frames import FrameState

    if name in SPARSE_TYPES or name == f"{FrameState.__module__}.{FrameState.__qualname__}":
        return True
    module_name, _, qualname = name.rpartition(".")
    if not is_model_module(module_name):
        return False
    module = importlib.import_module(module_name)
    cls = getattr(module, qualname, None)
    return (isinstance(cls, type) and cls.__module__ == module_name
            and cls.__qualname__ == qualname and _trusted_class(cls))


def _trusted_class(cls):
    from sklearn.base import BaseEstimator

    # a subclass of Kernel exists only once Kernel's module is loaded: judging
    # a perceptron or a tree imports no kernel module (and with it numba)
    kernels = sys.modules.get(KERNEL_MODULE)
    bases = (BaseEstimator,) if kernels is None else (BaseEstimator, kernels.Kernel)
    return issubclass(cls, bases) or restores_as_plain_data(cls)


def read_header(path):
    """The header of a model file (format, versions, model class, metadata).

    Raises
    ------
    ValueError
        If ``path`` is not a readable hyperplane model file; the message names it.

    Examples
    --------
    The header tells what a file holds without loading the model:

    >>> import os, tempfile
    >>> from hyperplane.io import read_header, save
    >>> from hyperplane.linear import LeastSquaresClassifier
    >>> model = LeastSquaresClassifier().fit([[3, 3], [4, 3], [1, 1]], [1, 1, -1])
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = os.path.join(tmp, "model.hyperplane")
    ...     save(model, path, metadata={"target": "label"})
    ...     header = read_header(path)
    >>> header["format"], header["format_version"]
    ('hyperplane-model', 2)
    >>> header["model"], header["metadata"]
    ('hyperplane.linear._least_squares.LeastSquaresClassifier', {'target': 'label'})
    """
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"{path}: no such model file")
    try:
        with zipfile.ZipFile(path) as archive:
            members = set(archive.namelist())
            if HEADER_MEMBER not in members or "schema.json" not in members:
                raise ValueError(f"{path}: not a hyperplane model file")
            header = json.loads(archive.read(HEADER_MEMBER).decode("utf-8"))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError,
            UnicodeDecodeError, json.JSONDecodeError, RuntimeError, NotImplementedError) as exc:
        raise ValueError(f"{path}: not a hyperplane model file, or corrupt/truncated "
                         f"({type(exc).__name__})") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT_NAME:
        raise ValueError(f"{path}: not a hyperplane model file (unknown format)")
    version = header.get("format_version")
    if "format_version" not in header:
        raise ValueError(f"{path}: the model file's header has no format_version; "
                         "the file is damaged or was not written by hyperplane")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise ValueError(f"{path}: the model file's format_version {version!r} is not a "
                         "positive integer; the file is damaged or was not written by hyperplane")
    if version > FORMAT_VERSION:
        raise ValueError(f"{path}: model file format version {version!r} is newer than this "
                         f"hyperplane ({_version()}) reads; upgrade hyperplane")
    return header


#: classes that moved to another module since a model file could name them:
#: the name an older file gives each → the name it has now (the tree's modules
#: went into stage folders, ``tree/_grow/`` …, in hyperplane 0.x)
MOVED_TYPES = {
    "hyperplane.tree._builder.Tree": "hyperplane.tree._grow._builder.Tree",
}

#: the archive member in which skops keeps the object graph
SCHEMA_MEMBER = "schema.json"


def renamed_types(node):
    """Point every object of ``node`` (a skops schema) whose class moved at
    the module :data:`MOVED_TYPES` names now; return how many it changed.

    >>> schema = {"__class__": "Tree", "__module__": "hyperplane.tree._builder",
    ...           "content": [{"__class__": "int", "__module__": "builtins"}]}
    >>> renamed_types(schema), schema["__module__"]
    (1, 'hyperplane.tree._grow._builder')
    """
    changed = 0
    if isinstance(node, dict):
        name = f"{node.get('__module__')}.{node.get('__class__')}"
        if name in MOVED_TYPES:
            node["__module__"] = MOVED_TYPES[name].rpartition(".")[0]
            changed += 1
        nodes = node.values()
    elif isinstance(node, list):
        nodes = node
    else:
        return 0
    return changed + sum(renamed_types(child) for child in nodes)


def current_archive(path):
    """The bytes of the model file ``path``, its schema naming every moved
    class by its current module (:data:`MOVED_TYPES`); the file itself is
    never rewritten."""
    data = Path(path).read_bytes()
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        schema = json.loads(archive.read(SCHEMA_MEMBER).decode("utf-8"))
        if not renamed_types(schema):
            return data
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as copy:
            for item in archive.infolist():
                member = (json.dumps(schema).encode("utf-8") if item.filename == SCHEMA_MEMBER
                          else archive.read(item.filename))
                copy.writestr(item, member)
    return out.getvalue()


def load(path):
    """Read a model written by :func:`save`, never executing code from the file.

    Raises
    ------
    ValueError
        If ``path`` is missing, corrupt, truncated, foreign, names a type
        that is not trusted, or holds an object of another class than its
        header names; the message names the file (and both classes).

    Examples
    --------
    >>> import os, tempfile
    >>> import numpy as np
    >>> from hyperplane.io import load, save
    >>> from hyperplane.linear import LeastSquaresClassifier
    >>> X, y = [[3, 3], [4, 3], [1, 1]], [1, 1, -1]
    >>> model = LeastSquaresClassifier().fit(X, y)
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = os.path.join(tmp, "model.hyperplane")
    ...     save(model, path)
    ...     copy = load(path)
    >>> type(copy).__name__, np.array_equal(copy.coef_, model.coef_)
    ('LeastSquaresClassifier', True)
    >>> copy.predict(X).tolist()
    [1, 1, -1]

    A file that is not a model file is refused, by name:

    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = os.path.join(tmp, "notes.txt")
    ...     with open(path, "w") as handle:
    ...         _ = handle.write("not a model")
    ...     load(path)
    Traceback (most recent call last):
    ...
    ValueError: ...notes.txt: not a hyperplane model file, or corrupt/truncated (BadZipFile)
    """
    path = Path(path)
    header = read_header(path)
    sio = skops_io()  # first: its import grows with the modules loaded before it
    from ._frames import states_to_frames

    try:
        data = current_archive(path)
        untrusted = sio.get_untrusted_types(data=data)
    except Exception as exc:  # skops raises many kinds on a damaged schema
        raise ValueError(f"{path}: corrupt model file ({type(exc).__name__}: {exc})") from None
    refused = untrusted_in(untrusted)
    if refused:
        raise ValueError(f"{path}: refused to load: the file names types that hyperplane "
                         f"does not trust: {', '.join(refused)}")
    try:
        model = sio.loads(data, trusted=list(untrusted))
    except Exception as exc:  # damaged arrays, missing members, bad state
        raise ValueError(f"{path}: corrupt model file ({type(exc).__name__}: {exc})") from None
    model = states_to_frames(model)
    if class_name(model) != MOVED_TYPES.get(header.get("model"), header.get("model")):
        raise ValueError(f"{path}: refused to load: the header names the class "
                         f"{header.get('model')} but the file holds a {class_name(model)}")
    return model
