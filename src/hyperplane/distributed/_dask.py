"""The engine's helpers: lazy import, aligned row chunks, label encoding of a
chunk, the shallow tree reduction and lazy predictions (see :mod:`._chunks`)."""

from __future__ import annotations

import functools
import importlib

import numpy as np

from .._validation import is_dask_collection


def import_dask():
    """Import ``dask`` and ``dask.array`` or explain how to install them.

    Examples
    --------
    >>> import sys
    >>> from hyperplane.distributed import import_dask
    >>> dask = import_dask()
    >>> dask.__name__, "dask.array" in sys.modules
    ('dask', True)
    """
    try:
        dask = importlib.import_module("dask")
        importlib.import_module("dask.array")
    except ImportError as exc:  # pragma: no cover - dask is a test dependency
        raise ImportError("Dask input needs the optional dependency: "
                          "pip install 'hyperplane[dask]'") from exc
    return dask


def as_dask_array(data, name):
    """A dask.array with known chunk sizes from a dask array/dataframe/series."""
    import_dask()
    if hasattr(data, "to_dask_array"):           # dask dataframe or series
        return data.to_dask_array(lengths=True)
    if not is_dask_collection(data):
        raise TypeError(f"{name} must be a Dask collection when X is one; got "
                        f"{type(data).__name__}")
    if any(np.isnan(c).any() for c in data.chunks):
        data.compute_chunk_sizes()
    return data


def chunk_pairs(X, y=None):
    """Row chunks of ``X`` (and ``y``, rechunked to match) as lists of delayed blocks.

    Returns
    -------
    X_blocks : list of dask.delayed
        One 2-d block per row chunk (all columns in one block).
    y_blocks : list of dask.delayed or None

    Examples
    --------
    ``X`` in 2-row, 1-column chunks gives whole-row blocks, and ``y`` in
    chunks of 3 rows is rechunked to follow them:

    >>> import numpy as np
    >>> import dask.array as da
    >>> from hyperplane.distributed import chunk_pairs
    >>> X = da.from_array(np.arange(12.0).reshape(6, 2), chunks=(2, 1))
    >>> y = da.from_array(np.array([0, 1, 0, 1, 1, 1]), chunks=3)
    >>> X_blocks, y_blocks = chunk_pairs(X, y)
    >>> [block.compute().shape for block in X_blocks]
    [(2, 2), (2, 2), (2, 2)]
    >>> [block.compute().tolist() for block in y_blocks]
    [[0, 1], [0, 1], [1, 1]]
    """
    X = as_dask_array(X, "X")
    if X.ndim != 2:
        raise ValueError(f"X must be 2-dimensional; got a Dask array of shape {X.shape}")
    X = X.rechunk({1: -1})
    X_blocks = list(X.to_delayed().ravel())
    if y is None:
        return X_blocks, None
    y = as_dask_array(y, "y")
    if y.ndim == 2 and y.shape[1] == 1:
        y = y[:, 0]
    if y.shape[0] != X.shape[0]:
        raise ValueError(f"X has {X.shape[0]} rows but y has {y.shape[0]}")
    y = y.rechunk((X.chunks[0],))
    return X_blocks, list(y.to_delayed().ravel())


def dask_classes(y):
    """The sorted distinct labels of a Dask ``y`` (a small reduction)."""
    da = importlib.import_module("dask.array")
    y = as_dask_array(y, "y")
    classes = np.asarray(da.unique(y).compute())
    if classes.shape[0] < 2:
        raise ValueError("y has only one class; a classifier needs at least 2 classes")
    return classes


def encode_block(y_block, classes):
    """Indices of the labels of one chunk into the sorted ``classes``; a label
    outside them is an error naming it."""
    y_block = np.asarray(y_block)
    y_index = np.searchsorted(classes, y_block)
    bad = (y_index >= len(classes)) | (classes[np.minimum(y_index, len(classes) - 1)] != y_block)
    if np.any(bad):
        raise ValueError(f"y has a label {y_block[np.argmax(bad)].tolist()!r} outside "
                         f"{classes.tolist()}")
    return y_index.astype(np.int64)


def predict_lazy(method, X, *, ndim_out=1, dtype=None):
    """Apply ``method`` (e.g. ``model.predict``) to every row chunk of a Dask ``X``.

    Returns a lazy ``dask.array`` with one entry (``ndim_out=1``) or one row
    (``ndim_out=2``) per row of ``X``.

    Examples
    --------
    >>> import numpy as np
    >>> import dask.array as da
    >>> from hyperplane.distributed import predict_lazy
    >>> from hyperplane.linear import LeastSquaresClassifier
    >>> X = np.array([[3, 3], [4, 3], [1, 1], [0, 1], [5, 5], [1, 0]], dtype=float)
    >>> model = LeastSquaresClassifier().fit(X, [1, 1, -1, -1, 1, -1])
    >>> lazy = predict_lazy(model.predict, da.from_array(X, chunks=(2, 2)))
    >>> lazy.chunks
    ((2, 2, 2),)
    >>> lazy.compute().tolist() == model.predict(X).tolist()
    True
    """
    X = as_dask_array(X, "X").rechunk({1: -1})
    if dtype is None:
        dtype = np.asarray(method(np.zeros((1, X.shape[1]), dtype=X.dtype))).dtype
    if ndim_out == 1:
        return X.map_blocks(lambda block: np.asarray(method(block)), drop_axis=1,
                            dtype=dtype)
    sample = np.asarray(method(np.zeros((1, X.shape[1]), dtype=X.dtype)))
    return X.map_blocks(lambda block: np.asarray(method(block)),
                        chunks=(X.chunks[0], (sample.shape[1],)), dtype=dtype)


def _fold(combine, *parts):
    return functools.reduce(combine, parts)


def tree_reduce(dask, parts, combine, fan_in=8):
    """Combine delayed ``parts`` with the binary ``combine``, ``fan_in`` at a
    time per task (a shallow tree: few tasks for the scheduler, no single
    task holding every part when there are many chunks).

    Examples
    --------
    20 parts, 8 at a time: three tasks fold 8, 8 and 4 parts, one folds their
    three results.

    >>> import dask
    >>> import numpy as np
    >>> from hyperplane.distributed import add_parts, tree_reduce
    >>> parts = [dask.delayed(np.array)([k, 1]) for k in range(20)]
    >>> total = tree_reduce(dask, parts, add_parts, fan_in=8)
    >>> len(total.dask) - len(parts)
    4
    >>> total.compute().tolist()
    [190, 20]
    """
    fold = dask.delayed(_fold)
    while len(parts) > 1:
        parts = [fold(combine, *parts[i:i + fan_in]) for i in range(0, len(parts), fan_in)]
    return parts[0]


def add_parts(a, b):
    """Sum of two arrays or, elementwise, of two tuples of arrays (a ``combine``).

    Examples
    --------
    >>> import numpy as np
    >>> from hyperplane.distributed import add_parts
    >>> add_parts(np.array([1, 2]), np.array([10, 20])).tolist()
    [11, 22]
    >>> add_parts((np.array([1.0, 1.0]), 3), (np.array([0.5, 2.0]), 4))
    (array([1.5, 3. ]), 7)
    """
    if isinstance(a, tuple):
        return tuple(x + y for x, y in zip(a, b))
    return a + b
