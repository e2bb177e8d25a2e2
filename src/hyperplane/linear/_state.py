"""Named arguments of the linear models' compiled kernels.

The kernels of :mod:`._perceptron_kernels` and :mod:`._logistic._gradient_kernels` take
a few of these named tuples instead of long positional lists (numba compiles
a field access to a plain load): sparse training rows (:class:`CSRRows`),
the averaged perceptron's running sums (:class:`Averages`, Freund & Schapire
1999; Collins 2002), the record of an epoch's updates (:class:`Trace`), the columns the sparse
passes of the trust-region Newton method read (Lin, Weng & Keerthi 2008), per chunk of rows (:class:`ColumnChunks`), and what every
logistic pass reads of a row besides ``x_n`` (:class:`Targets`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._csr_rows import CSRRows

__all__ = ["Averages", "ColumnChunks", "CSRRows", "Targets", "Trace"]


class Averages(NamedTuple):
    """The averaged perceptron's running sums after ``c`` visits.

    ``u = Σ_k c_k eta y_k x_k`` and ``ub = Σ_k c_k eta y_k`` over the updates,
    ``c_k`` being the number of visits before update k: the average of the
    weights seen at every visit is ``w - u / c`` (and ``b - ub / c``).
    ``u`` is updated in place; the scalars come back from the kernel.
    """

    u: np.ndarray
    ub: float
    c: float


class Trace(NamedTuple):
    """Where an epoch records its updates: ``updated[k]`` is the k-th updated
    sample; when ``w`` has rows, row k is the weight vector after that update
    and ``b[k]`` the bias (algorithm 2.1's table of 李航 例2.1)."""

    updated: np.ndarray
    w: np.ndarray
    b: np.ndarray


class ColumnChunks(NamedTuple):
    """The columns of a sparse ``X`` whose rows are split into consecutive
    chunks: the CSC arrays of each chunk's rows, one chunk after the other.

    Column ``j`` of chunk ``c`` holds ``data[indptr[c, j]:indptr[c, j + 1]]``
    in the rows ``indices[...]`` (row numbers of ``X``, ascending);
    ``indptr`` has shape (n_chunks, n_features + 1). One chunk is the plain
    CSC form (Saad, *Iterative Methods for Sparse Linear Systems*, 2nd ed., §3.4).
    """

    data: np.ndarray
    indices: np.ndarray
    indptr: np.ndarray


class Targets(NamedTuple):
    """What a logistic pass reads of row n besides ``x_n``: its target and its weight.

    ``y`` holds float64 1/0 (positive class or not) for two classes, int64
    class indices for more; ``weight`` the rows' weights ``s_n`` (sample
    weight times class weight), or None when every row weighs 1 (the passes
    are then compiled without the multiplications,
    :func:`~._logistic._rules_kernels.row_weight`).
    """

    y: np.ndarray
    weight: np.ndarray | None
