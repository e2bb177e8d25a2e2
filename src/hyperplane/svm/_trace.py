"""A record of every SMO step, for teaching and inspection.

Each iteration of SMO (李航《统计学习方法》7.4, with LIBSVM's working-set
selection, Fan, Chen & Lin 2005) picks the pair (i, j) that most violates
the KKT conditions, moves alpha_i and alpha_j along the line
``y_i alpha_i + y_j alpha_j = const`` to the minimum of the dual objective
and clips alpha_j to the segment ``[L, H]`` the box allows (李航 7.4.1).
:class:`StepTrace` watches a :class:`~._smo.SMOSolver` and keeps one row per
step: the pair and why it was chosen, the clipping, the new multipliers, the
threshold b and the objective after the step.
"""

from __future__ import annotations

import numpy as np

from .._in_python import in_python
from . import _smo_state as st
from . import _working_set_kernels as ws

#: the columns of a trace, in order (see :meth:`StepTrace.row`)
TRACE_COLUMNS = (
    "iteration", "i", "j", "m", "M", "violation", "G_i", "G_j", "eta",
    "alpha_j_unclipped", "L", "H", "alpha_i", "alpha_j", "b", "objective",
)


def pair_bounds(alpha_i, alpha_j, y_i, y_j, C_i, C_j):
    """The segment ``[L, H]`` of alpha_j on the line ``y_i alpha_i + y_j alpha_j
    = const`` inside the box ``[0, C_i] x [0, C_j]`` (李航 7.4.1, with one C
    per variable): ``L = max(0, alpha_j - alpha_i)``, ``H = min(C_j, C_i +
    alpha_j - alpha_i)`` if y_i != y_j, else ``L = max(0, alpha_i + alpha_j -
    C_i)``, ``H = min(C_j, alpha_i + alpha_j)``.

    Examples
    --------
    >>> pair_bounds(0.2, 0.5, 1.0, -1.0, 1.0, 1.0)
    (0.3, 1.0)
    """
    if y_i != y_j:
        return max(0.0, alpha_j - alpha_i), min(C_j, C_i + alpha_j - alpha_i)
    return max(0.0, alpha_i + alpha_j - C_i), min(C_j, alpha_i + alpha_j)


#: :func:`._working_set_kernels.violation_extremes` and its loops in Python;
#: NumPy's ``fmax`` / ``fmin`` are LLVM's ``maxnum`` / ``minnum`` (IEEE
#: 754 maxNum, minNum: a NaN operand passed over)
_VIOLATION_EXTREMES = in_python(
    ws.violation_extremes,
    max_in_up=in_python(ws.max_in_up, maxnum=np.fmax),
    min_in_low=in_python(ws.min_in_low, minnum=np.fmin))


def violation_pair(score, status):
    """``(m(alpha), M(alpha))``: the largest ``-y_t G_t`` over I_up and the
    smallest over I_low (-inf and inf for an empty set, a NaN score passed
    over), by the solver's own rule
    (:func:`._working_set_kernels.violation_extremes`, run by Python). The
    KKT conditions hold when ``m - M <= 0``."""
    m, M = _VIOLATION_EXTREMES(score, status, score.shape[0])
    return float(m), float(M)


class StepTrace:
    """Watches an SMO solve (``solver.solve(watch=trace)``) and records one
    row per iteration. The solver must run without shrinking, so that every
    variable is active and b and the objective are those of the whole
    problem after each step.

    Row indices ``i`` and ``j`` are the solver's variable indices, mapped by
    ``index`` (an array) when given.
    """

    def __init__(self, index=None):
        self.index = index
        self.rows = []

    def before(self, solver):
        """The state a step starts from: alpha, score = -y G and status."""
        alpha, score, status = solver.var.alpha, solver.var.score, solver.var.status
        return alpha.copy(), score.copy(), status.copy()

    def after(self, solver, before):
        """Record the step that moved the solver from ``before``."""
        self.rows.append(self.row(solver, *before))

    def row(self, solver, alpha_old, score_old, status_old):
        """One step: the pair (i, j) with m(alpha) = -y_i G_i, M(alpha) and
        their gap m - M (the KKT violation that chose it), the curvature eta
        along the pair's line, alpha_j before and after clipping to [L, H]
        (李航 式7.106-7.108), the new alpha_i, alpha_j, b and objective."""
        alpha, y, C, QD, kidx, perm = (solver.var.alpha, solver.var.y, solver.var.C,
                                       solver.var.QD, solver.var.kidx, solver.var.perm)
        i, j = int(solver.ist[st.LAST_I]), int(solver.ist[st.LAST_J])
        if solver.halves is None:
            m, M = violation_pair(score_old, status_old)
        else:       # the nu dual: m and M within the pair's label (Solver_NU)
            m_pos, M_pos, m_neg, M_neg = ws.extremes_by_label(
                solver.halves, score_old, status_old, y, score_old.shape[0])
            m, M = (float(m_pos), float(M_pos)) if y[i] > 0 else (float(m_neg), float(M_neg))
        eta = max(QD[i] + QD[j] - 2.0 * self.kernel_value(solver, kidx[i], kidx[j]), st.TAU)
        L, H_ = pair_bounds(alpha_old[i], alpha_old[j], y[i], y[j], C[i], C[j])
        unclipped = alpha_old[j] - y[j] * (score_old[i] - score_old[j]) / eta
        caller_i, caller_j = int(perm[i]), int(perm[j])
        if self.index is not None:
            caller_i, caller_j = int(self.index[caller_i]), int(self.index[caller_j])
        return {
            "iteration": int(solver.ist[st.N_ITER]), "i": caller_i, "j": caller_j,
            "m": m, "M": M, "violation": m - M,
            "G_i": float(-y[i] * score_old[i]), "G_j": float(-y[j] * score_old[j]),
            "eta": float(eta), "alpha_j_unclipped": float(unclipped),
            "L": float(L), "H": float(H_),
            "alpha_i": float(alpha[i]), "alpha_j": float(alpha[j]),
            "b": solver.threshold()[0], "objective": solver.objective(),
        }

    @staticmethod
    def kernel_value(solver, r, c):
        """k(x_r, x_c) as the solver used it: from its cached float32 row."""
        rows, slot_of = solver.cache.rows, solver.cache.slot_of
        s = slot_of[r]
        if s >= 0:
            return float(rows[s][c])
        return float(solver.kernel(solver.X[r:r + 1], solver.X[c:c + 1])[0, 0])

    def frame(self, **constant):
        """The trace as a pandas DataFrame (columns :data:`TRACE_COLUMNS`,
        preceded by one column per keyword of ``constant``)."""
        import pandas as pd

        frame = pd.DataFrame(self.rows, columns=list(TRACE_COLUMNS))
        for k, (name, value) in enumerate(constant.items()):
            frame.insert(k, name, value)
        return frame
