"""LIBLINEAR's dual coordinate descent with shrinking for the L2-regularised
linear SVM (Hsieh, Chang, Lin, Keerthi & Sundararajan, ICML 2008, alg. 1 and
§3.2; LIBLINEAR's ``solve_l2r_l1l2_svc``): the samples as the compiled epochs
read them, the dual variables' records, the working set and the solver's loop.
:class:`~._linear_svc.LinearSVC` solves its binary problems with it."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np
import scipy.sparse as sp

from .._csr_rows import CSRRows
from ._liblinear import EPOCHS_PER_CALL, csr_samples, generator_state
from ._sparse_rows_kernels import csr_squared_norms_fast
from ._support_kernels import take_csr_rows
from ._linear_svc_kernels import (LINE, SET_SETTLED, VARIABLE, WITHIN_TOL, EpochLimits,
                                  dcd_epochs)


#: loss -> (U_t, D_tt) of the dual as functions of C_t (Hsieh et al. 2008, eq. 4)
LOSSES = {
    "hinge": lambda C: (C, np.zeros_like(C)),
    "squared_hinge": lambda C: (np.full_like(C, np.inf), 0.5 / C),
}


def take_dense_samples(X, rows):
    """Rows ``rows`` of a dense ``X``, contiguous, and their flat row bounds."""
    return np.ascontiguousarray(X[rows]), np.arange(len(rows) + 1) * X.shape[1]


def take_csr_samples(X, rows):
    """Rows ``rows`` of CSR samples ``X`` (:class:`~hyperplane._csr_rows.CSRRows`),
    contiguous, and their ``indptr`` (the compiled gathering of the SVMs'
    support vectors, :func:`~._support_kernels.take_csr_rows`)."""
    data, indices, indptr = take_csr_rows(X.data, X.indices, X.indptr, rows)
    return CSRRows(data, indices, indptr), indptr


#: column numbers of CSR samples are stored in the narrowest of these types that holds them


class SampleLayout(NamedTuple):
    """How the compiled epoch reads the samples of one storage format."""

    prepare: Callable       # X -> samples as the epoch reads them
    row_bounds: Callable    # X -> positions start:stop of each row in the samples
    take: Callable          # (samples, rows) -> (those rows contiguous, their bounds)
    epochs: Callable        # a bounded run of epochs, see dcd_epochs


#: (is sparse) -> its layout
LAYOUTS = {
    False: SampleLayout(lambda X: np.ascontiguousarray(X, dtype=np.float64),
                  lambda X: np.arange(X.shape[0] + 1) * X.shape[1], take_dense_samples,
                  dcd_epochs),
    True: SampleLayout(csr_samples, lambda X: X.indptr, take_csr_samples, dcd_epochs),
}
#: the working set is compacted when its active variables fall to this fraction
#: of it (and the last epoch shrank few of them, ``_linear_svc_kernels.settled``)
COMPACT_BELOW = 0.5

def squared_row_norms(X):
    """|x_t|^2 of every row, dense or sparse."""
    if sp.issparse(X):
        return csr_squared_norms_fast(CSRRows.of(X))
    return np.einsum("ij,ij->i", X, X)


def aligned_records(n):
    """``n`` zeroed :data:`~._linear_svc_kernels.VARIABLE` records in an array
    aligned to a cache line, so that each record fills exactly one."""
    raw = np.zeros(n * VARIABLE.itemsize + LINE, dtype=np.uint8)
    offset = -raw.ctypes.data % LINE
    return raw[offset:offset + n * VARIABLE.itemsize].view(VARIABLE)


def take_records(var, rows):
    """Records ``var[rows]`` in a new cache-line-aligned array (copied as rows
    of 64-bit words, which numpy copies faster than structured records)."""
    out = aligned_records(rows.shape[0])
    words = VARIABLE.itemsize // 8
    np.take(var.view(np.uint64).reshape(-1, words), rows, axis=0,
            out=out.view(np.uint64).reshape(-1, words))
    return out


def dual_variables(y, D, U, QD, row_bounds):
    """The dual variables as the compiled epoch reads them: one record per
    sample (alpha = 0) with its row's positions ``row_bounds[t]:row_bounds[t + 1]``."""
    var = aligned_records(y.shape[0])
    var["QD"], var["y"], var["D"], var["U"] = QD, y, D, U
    var["start"], var["stop"] = row_bounds[:-1], row_bounds[1:]
    return var


class WorkingSet:
    """The variables the epochs visit, kept contiguous in memory.

    Shrinking leaves the active variables scattered over the whole problem,
    so a step on a small active set still waits for memory (its row, its
    record) far from the last one's. Once the active variables are at most
    :data:`COMPACT_BELOW` of the working set and an epoch shrank few of them
    (``_linear_svc_kernels.settled``: a settled set is visited for many
    epochs, which repay the copy), their
    rows and records are copied into a new, contiguous working set (LIBSVM's
    shrinking likewise confines its work to the active set; Fan, Chen & Lin,
    JMLR 2005, section 5). Position ``j`` of the active order still holds
    the same variable (``active`` maps the order to the new storage,
    ``origin`` the storage to the whole problem), so the epochs visit the
    same variables in the same order as without copying; :meth:`restore`
    writes alpha and the order back to the whole problem.
    """

    def __init__(self, layout, samples, var):
        self.layout, self.all_samples, self.all_var = layout, samples, var
        self.all_active = np.arange(var.shape[0], dtype=np.int64)
        self.samples, self.var, self.active, self.origin = samples, var, self.all_active, None

    def restore(self):
        """Make the whole problem the working set again, with the working
        set's alpha and visiting order written back."""
        if self.origin is not None:
            self.all_var["alpha"][self.origin] = self.var["alpha"]
            self.all_active[:self.origin.shape[0]] = self.origin[self.active]
        self.samples, self.var, self.active, self.origin = (
            self.all_samples, self.all_var, self.all_active, None)

    def compact(self, n_active):
        """Copy the first ``n_active`` variables of the active order into a
        contiguous working set, stored by index (the copy then reads memory
        in order) and visited in the active order."""
        self.restore()
        order = np.argsort(self.all_active[:n_active])
        rows = self.all_active[:n_active][order]
        self.samples, row_bounds = self.layout.take(self.all_samples, rows)
        self.var = take_records(self.all_var, rows)
        self.var["start"], self.var["stop"] = row_bounds[:-1], row_bounds[1:]
        self.active = np.empty(n_active, dtype=np.int64)
        self.active[order] = np.arange(n_active)
        self.origin = rows



class Samples(NamedTuple):
    """The samples of a fit as the epochs read them, shared by its binary problems."""

    layout: SampleLayout
    rows: object              # what ``layout.prepare`` made of X
    squared_norms: np.ndarray
    row_bounds: np.ndarray
    n_features: int


def dcd_samples(X):
    """:class:`Samples` of a dense or CSR ``X``, prepared once per fit."""
    layout = LAYOUTS[sp.issparse(X)]
    return Samples(layout, layout.prepare(X), squared_row_norms(X), layout.row_bounds(X),
                   X.shape[1])


def solve_dual(samples, y, C, loss, B, tol, max_iter, rng, compact_below=COMPACT_BELOW):
    """Dual coordinate descent with shrinking for one binary problem on
    ``samples`` (:func:`dcd_samples`).

    Each epoch visits the active variables in a random order (drawn in the
    compiled epoch from a generator seeded by ``rng``); a bound
    variable whose gradient points out of the box by more than the last
    epoch's extremes is shrunk. When the projected-gradient spread
    ``M - m`` of an epoch falls to ``tol`` on the active set, every variable
    is made active again, and the solver stops when it holds for all
    (LIBLINEAR's ``solve_l2r_l1l2_svc``). The epochs run on a
    :class:`WorkingSet` compacted when its active part falls to
    ``compact_below`` of it (0: never), which changes where the variables are
    stored, not the steps. One compiled call runs up to
    :data:`EPOCHS_PER_CALL` epochs and returns early when the solver must
    unshrink, stop or compact, which this loop does. Returns
    ``(w, alpha, epochs, converged)`` with ``w`` of length d + 1 (the last
    entry multiplies B).
    """
    n = y.shape[0]
    layout = samples.layout
    U, D = LOSSES[loss](C)
    work = WorkingSet(layout, samples.rows, dual_variables(
        y, D, U, samples.squared_norms + B * B + D, samples.row_bounds))
    w = np.zeros(samples.n_features + 1)
    bounds = np.array([n, np.inf, -np.inf])
    state = generator_state(rng)
    epochs, converged, B = 0, False, float(B)
    while epochs < max_iter and not converged:
        limits = EpochLimits(float(tol), min(EPOCHS_PER_CALL, max_iter - epochs),
                             float(compact_below))
        ran, event = layout.epochs(work.samples, work.var, B, w, work.active, bounds, state,
                                   limits)
        epochs += ran
        if event == WITHIN_TOL:
            converged = work.origin is None and bounds[0] == n
            work.restore()                          # unshrink and check every variable
            bounds[:] = n, np.inf, -np.inf
        elif event == SET_SETTLED:
            work.compact(int(bounds[0]))
        # else GO_ON: the call ran its epochs; the next one goes on from bounds
    work.restore()
    return w, work.all_var["alpha"].copy(), epochs, converged

