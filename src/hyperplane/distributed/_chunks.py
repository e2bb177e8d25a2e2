"""The Dask engine: row chunks mapped to a statistic, tree-reduced, in rounds.

It knows no model family. An estimator declares its statistic next to its
in-memory code (a function of one block of rows and the current
parameters) and how two statistics merge; :class:`Chunks` maps the
statistic over the row chunks of a Dask ``X`` (with ``y`` and the sample
weights aligned to them) on the workers and merges the results in a shallow
tree (:func:`~._dask.tree_reduce`), so only the small statistics travel. An
iterative fit (L-BFGS, parameter mixing, level-by-level tree growth) calls
:meth:`Chunks.reduce` once per round with its current parameters; the
in-memory fit evaluates the same statistic on the whole data as one chunk.
This is the "summation form" of Chu et al., "Map-Reduce for Machine Learning
on Multicore" (NIPS 2006).
"""

from __future__ import annotations

import numpy as np

from .._validation import is_dask_collection
from ._dask import as_dask_array, dask_classes, encode_block, import_dask, tree_reduce


def _is_frame(X):
    return hasattr(X, "to_delayed") and hasattr(X, "npartitions") and hasattr(X, "columns")


def _same_partitions(v, X):
    return (hasattr(v, "npartitions") and hasattr(v, "to_delayed")
            and not hasattr(v, "chunks") and v.npartitions == X.npartitions)


def _follow(v, name, lengths):
    """Delayed chunks of ``v`` with the row counts ``lengths``."""
    v = as_dask_array(v, name) if is_dask_collection(v) else np.asarray(v)
    if v.ndim == 2 and v.shape[1] == 1:
        v = v[:, 0]
    if v.ndim != 1 or v.shape[0] != sum(lengths):
        raise ValueError(f"{name} must have shape ({sum(lengths)},); got {v.shape}")
    if not is_dask_collection(v):          # in memory already
        bounds = np.concatenate([[0], np.cumsum(lengths)])
        return [v[a:b] for a, b in zip(bounds[:-1], bounds[1:])]
    return list(v.rechunk((tuple(lengths),)).to_delayed().ravel())


def aligned_row_blocks(X, others, *, frames):
    """Aligned row chunks of ``X`` and of each ``(name, value)`` in ``others``.

    A dask.dataframe ``X`` keeps its partitions as pandas frames when
    ``frames`` (categorical columns survive), else becomes a numeric
    dask.array; an array ``X`` is rechunked to whole rows. The others follow
    the row chunks of ``X`` (same partitions, or rechunked to their lengths).

    Returns
    -------
    X_blocks : list of dask.delayed
    other_blocks : list of (list of dask.delayed or None), one per entry of ``others``
    lengths : tuple of int or None
        Rows per chunk (None: partitions aligned as given, not counted).

    Examples
    --------
    >>> import numpy as np
    >>> import dask.array as da
    >>> X = da.from_array(np.arange(12.0).reshape(6, 2), chunks=(4, 1))
    >>> X_blocks, (y_blocks, w_blocks), lengths = aligned_row_blocks(
    ...     X, [("y", np.arange(6)), ("sample_weight", None)], frames=False)
    >>> lengths, [b.tolist() for b in y_blocks], w_blocks
    ((4, 2), [[0, 1, 2, 3], [4, 5]], None)
    """
    dask = import_dask()
    if frames and _is_frame(X):
        blocks = list(X.to_delayed())
        present = [v for _, v in others if v is not None]
        if all(_same_partitions(v, X) for v in present):   # no pass over X needed
            return blocks, [None if v is None else list(v.to_delayed()) for _, v in others], \
                None
        lengths = tuple(int(n) for n in dask.compute(X.map_partitions(len))[0])
    else:
        X = as_dask_array(X, "X")
        if X.ndim != 2:
            raise ValueError(f"X must be 2-dimensional; got a Dask array of shape {X.shape}")
        X = X.rechunk({1: -1})
        blocks, lengths = list(X.to_delayed().ravel()), tuple(int(n) for n in X.chunks[0])
    return blocks, [None if v is None else _follow(v, name, lengths) for name, v in others], \
        lengths


def _task(statistic, check_block, parts, args, more):
    """One task: the checked X block and the other row parts through the statistic
    (``args``: the round's arguments, shared by every task; ``more``: this chunk's)."""
    X_block, *rest = parts
    if check_block is not None:
        X_block = check_block(X_block)
    return statistic(X_block, *rest, *args, *more)


class Chunks:
    """The row chunks of a Dask ``X``, with ``y`` and sample weights aligned,
    that a fit maps and reduces.

    Parameters
    ----------
    X : dask.array.Array or dask.dataframe.DataFrame of shape (n_samples, n_features)
    y : dask collection or ndarray of shape (n_samples,), optional
    sample_weight : dask collection or ndarray of shape (n_samples,), optional
    check_block : callable, optional
        Applied to every block of ``X`` inside its task before the statistic
        (the estimator's own input check, e.g. finite floats); it returns the
        block to use.
    frames : bool, default=False
        Keep the partitions of a dask.dataframe ``X`` as pandas frames
        (their dtypes, e.g. categories, survive) instead of a numeric array.
    always_weights : bool, default=False
        Hand the statistic a weight block even without ``sample_weight``
        (then None: every row weighs 1), so that one statistic serves
        weighted and unweighted fits.

    Attributes
    ----------
    X_blocks, y_blocks, weight_blocks : list of dask.delayed (the last two may be None)
    n_samples, n_features : int
    lengths : tuple of int or None
        Rows per chunk when known without a pass over ``X`` (None: the
        partitions of a dataframe, aligned as given).
    feature_names : ndarray of str or None
        The column names of a dataframe ``X`` when they are all strings.

    The statistic of :meth:`map` and :meth:`reduce` is called as
    ``statistic(X_block, [y_block,] [w_block,] *args, *per_chunk[i])``, with
    the ``y`` and weight blocks present when they were given (the weight
    block always with ``always_weights``). ``args`` travel to the workers
    once per round, as one object every task reads, not once per chunk.

    Examples
    --------
    Column sums and class counts of 6 rows in 3 chunks, one round:

    >>> import numpy as np
    >>> import dask.array as da
    >>> from hyperplane.distributed import Chunks, add_parts
    >>> X = da.from_array(np.arange(12.0).reshape(6, 2), chunks=(2, 2))
    >>> y = da.from_array(np.array([0, 1, 0, 1, 1, 1]), chunks=3)
    >>> chunks = Chunks(X, y)
    >>> len(chunks), chunks.n_samples, chunks.n_features, chunks.classes().tolist()
    (3, 6, 2, [0, 1])
    >>> def sums(X_block, y_block):
    ...     return X_block.sum(axis=0), np.bincount(y_block, minlength=2)
    >>> column_sums, class_counts = chunks.reduce(sums, add_parts)
    >>> column_sums.tolist(), class_counts.tolist()
    ([30.0, 36.0], [2, 4])
    """

    def __init__(self, X, y=None, *, sample_weight=None, check_block=None, frames=False,
                 always_weights=False):
        self.dask = import_dask()
        columns = list(X.columns) if hasattr(X, "columns") else None
        self.X_blocks, (self.y_blocks, self.weight_blocks), lengths = aligned_row_blocks(
            X, [("y", y), ("sample_weight", sample_weight)], frames=frames)
        if always_weights and self.weight_blocks is None:
            self.weight_blocks = [None] * len(self.X_blocks)
        self._weighted = sample_weight is not None
        self._y = y
        self.lengths = lengths
        self._n_samples = None if lengths is None else int(sum(lengths))
        self.n_features = int(X.shape[1])
        self.feature_names = (np.asarray(columns, dtype=object) if columns is not None
                              and all(isinstance(c, str) for c in columns) else None)
        self.check_block = check_block

    def __len__(self):
        return len(self.X_blocks)

    @property
    def n_samples(self):
        """Rows of ``X`` (counted from the chunks when Dask did not know them)."""
        if self._n_samples is None:
            count = self.dask.delayed(len)
            self._n_samples = int(sum(self.dask.compute(*[count(b) for b in self.X_blocks])))
        return self._n_samples

    def classes(self):
        """The sorted distinct labels of ``y`` (one small reduction)."""
        return dask_classes(self._y)

    def encode_labels(self, classes):
        """Replace the label blocks by their indices into ``classes``, computed
        once and kept where the scheduler keeps data (on the workers with a
        distributed client), not re-encoded every round."""
        encode = self.dask.delayed(encode_block)
        self.y_blocks = list(self.dask.persist(*[encode(yb, classes) for yb in self.y_blocks]))
        return self

    def transform(self, fn, *args, whole=False):
        """Replace every (checked) ``X`` block by ``fn(X_block, *args)``, computed
        once and persisted like :meth:`encode_labels` (e.g. a tree's integer
        codes); a chunk lost with a worker is recomputed from this lineage.

        ``whole``: ``fn`` takes the whole chunk, as a statistic does
        (``fn(X_block, [y_block,] [w_block,] *args)``), and its result stands
        for all of it (e.g. codes, class indices and weights in one record):
        the ``y`` and weight blocks then travel inside it, and later
        statistics are called as ``statistic(record, *args)``.
        """
        parts = self._parts() if whole else [(xb,) for xb in self.X_blocks]
        task = self.dask.delayed(_task)
        self.X_blocks = list(self.dask.persist(*[task(fn, self.check_block, part, args, ())
                                                 for part in parts]))
        if whole:
            self.y_blocks = self.weight_blocks = None
        self.check_block = None
        return self

    def transform_weights(self, fn, *args):
        """Replace every weight block by ``fn(w_block, *args)`` (lazily: e.g.
        weights relative to a unit); no effect without ``sample_weight``."""
        if self._weighted:
            task = self.dask.delayed(fn)
            self.weight_blocks = [task(wb, *args) for wb in self.weight_blocks]
        return self

    def each_weight_block(self, statistic, *args):
        """``statistic(w_block, *args)`` of every weight block, computed without
        reading ``X`` (None without ``sample_weight``)."""
        if not self._weighted:
            return None
        task = self.dask.delayed(statistic)
        return list(self.dask.compute(*[task(wb, *args) for wb in self.weight_blocks]))

    def _parts(self):
        columns = [self.X_blocks] + [b for b in (self.y_blocks, self.weight_blocks)
                                     if b is not None]
        return list(zip(*columns))

    def map(self, statistic, *args, per_chunk=None):
        """Delayed ``statistic`` of every chunk (see the class docstring)."""
        task = self.dask.delayed(_task)
        extra = per_chunk if per_chunk is not None else [()] * len(self)
        if len(extra) != len(self):
            raise ValueError(f"per_chunk has {len(extra)} entries for {len(self)} chunks")
        shared = self.dask.delayed(args, traverse=False) if args else ()
        return [task(statistic, self.check_block, parts, shared, more)
                for parts, more in zip(self._parts(), extra)]

    def each(self, statistic, *args, per_chunk=None):
        """The ``statistic`` of every chunk, computed and returned in chunk order
        (a round whose parts the client combines itself)."""
        return list(self.dask.compute(*self.map(statistic, *args, per_chunk=per_chunk)))

    def reduce(self, statistic, merge, *args, per_chunk=None):
        """One round: the statistic of every chunk, merged on the cluster by the
        binary ``merge``; only the merged result reaches the client."""
        tasks = self.map(statistic, *args, per_chunk=per_chunk)
        (total,) = self.dask.compute(tree_reduce(self.dask, tasks, merge))
        return total


__all__ = ["Chunks", "aligned_row_blocks"]
