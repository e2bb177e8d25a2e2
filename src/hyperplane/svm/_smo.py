"""The SMO solver's Python driver: state, kernel rows of generic kernels,
gradient reconstruction after shrinking, the threshold b and the objective.

The compiled loop is :mod:`._smo_kernels`, its state :mod:`._smo_state` (see
there for the problem) and its rows :mod:`._kernel_rows`.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
import scipy.sparse as sp

from .._serial_sums import serial_dot
from ..kernels import RBF, Laplace, Linear, Polynomial, Sigmoid
from . import _kernel_rows as kr
from . import _smo_state as st
from ._reconstruct_kernels import reconstruct_gradient
from ._row_cache_kernels import store_row
from ._shrinking_kernels import permuted_in_python
from ._smo_kernels import smo_iterate

#: The solution of the dual: ``alpha`` and ``gradient`` in the caller's order,
#: ``b`` the threshold of f(x) = sum_t y_t alpha_t k(x_t, x) + b; ``r`` the
#: nu dual's second multiplier (:meth:`SMOSolver.nu_rho_r`), nan for the dual with
#: one equality constraint.
DualSolution = namedtuple(
    "DualSolution", "alpha b objective gradient n_iter converged r")

#: kernel classes whose rows are computed in compiled code:
#: type -> (code, gamma, coef0, degree) in scikit-learn's parametrisation.
COMPILED_KERNELS = {
    Linear: lambda k: (kr.LINEAR_KERNEL, 1.0, 0.0, 1),
    Polynomial: lambda k: (kr.POLY_KERNEL, float(k.gamma), float(k.coef0), int(k.degree)),
    RBF: lambda k: (kr.RBF_KERNEL, 1.0 / (2.0 * k.sigma ** 2), 0.0, 1),
    Laplace: lambda k: (kr.LAPLACE_KERNEL, 1.0 / k.sigma, 0.0, 1),
    Sigmoid: lambda k: (kr.SIGMOID_KERNEL, float(k.beta), float(k.theta), 1),
}

#: iterations per call of the compiled loop between two divergence checks.
CHUNK = 200_000
#: kernel values computed at once by the solver's :func:`kernel_dot` calls
SOLVER_BLOCK_ENTRIES = 2 ** 20
#: |alpha| beyond which a hard margin (C = inf) is declared impossible.
DIVERGED = 1e12


def kernel_dot(kernel, A, B, coef, block_entries):
    """``kernel(A, B) @ coef`` computed ``block_entries`` kernel values at a
    time, so that no ``len(A) × len(B)`` matrix is built; for the linear
    kernel ``A (B' coef)``. ``coef`` has one column per function, or is 1-d."""
    if type(kernel) is Linear:
        return A @ (B.T @ coef)
    out = np.empty((A.shape[0],) + coef.shape[1:])
    step = max(1, block_entries // max(1, B.shape[0]))
    for start in range(0, A.shape[0], step):
        out[start:start + step] = kernel(A[start:start + step], B) @ coef
    return out


def compiled_kernel(kernel):
    """``(code, gamma, coef0, degree)`` of a kernel whose rows the compiled
    code computes, or ``(GENERIC, 0, 0, 1)`` for any other kernel object
    (combined kernels, user kernels), whose rows are computed by calling it."""
    rule = COMPILED_KERNELS.get(type(kernel))
    return rule(kernel) if rule is not None else (kr.GENERIC, 0.0, 0.0, 1)


def check_diagonal(kernel, QD):
    """The kernel rows are cached in float32: k(x, x) must fit (for a
    positive semi-definite kernel |k(x, y)| <= sqrt(k(x, x) k(y, y)), so
    then every row fits)."""
    top = float(np.max(np.abs(QD))) if QD.size else 0.0
    if not np.isfinite(top) or top > np.finfo(np.float32).max:
        raise ValueError(
            f"kernel {kernel!r} gives k(x, x) = {top:.3g} on the training data, beyond "
            "float32, the precision of the SVM's kernel cache; scale the features down "
            "(or lower gamma/degree)")


def default_max_iter(l):
    """LIBSVM's cap on SMO iterations: max(10^7, 100 l)."""
    return max(10_000_000, 100 * l)


class SMOSolver:
    """Sequential minimal optimisation for
    ``min 1/2 a'Qa + p'a, 0 <= a <= C, y'a = y'alpha0``
    with ``Q[t, s] = y_t y_s kernel(X[kidx[t]], X[kidx[s]])``.

    Parameters
    ----------
    kernel : hyperplane.kernels.Kernel
    X : ndarray of shape (n_samples, n_features), float64, or CSR matrix
        CSR: float64 with sorted indices and no duplicates (the kernel rows
        are then computed from the nonzeros, LIBSVM's sparse mode).
    kidx : ndarray of int, shape (l,)
        Sample row of each dual variable.
    y : ndarray of +-1, shape (l,)
    p : ndarray of shape (l,)
    C : ndarray of shape (l,)
        Upper bounds (``inf`` allowed: hard margin).
    tol : float
        Stop when the maximal KKT violation m(alpha) - M(alpha) <= tol.
    max_iter : int
    cache_size : float
        Megabytes of float32 kernel rows kept (at least two rows).
    shrinking : bool
    alpha0 : ndarray of shape (l,), optional
        A feasible start (default 0); fixes Delta = y'alpha0.
    by_label : bool, default=False
        Solve the nu dual instead (Chang & Lin 2001; LIBSVM's ``Solver_NU``):
        one equality constraint per label, sum_{y_t = +1} alpha_t and
        sum_{y_t = -1} alpha_t both fixed by ``alpha0``; the working set is
        chosen within one label and b = -rho with (rho, r) from
        :meth:`nu_rho_r`.

    Examples
    --------
    >>> import numpy as np
    >>> from hyperplane.kernels import Linear
    >>> X = np.array([[3.0, 3.0], [4.0, 3.0], [1.0, 1.0]])
    >>> y = np.array([1.0, 1.0, -1.0])
    >>> sol = SMOSolver(Linear(), X, np.arange(3), y, -np.ones(3),
    ...                 np.full(3, np.inf), tol=1e-10).solve()
    >>> np.round(sol.alpha, 6).tolist(), round(sol.b, 6)
    ([0.25, 0.0, 0.25], -2.0)
    """

    def __init__(self, kernel, X, kidx, y, p, C, *, tol=1e-3, max_iter=None,
                 cache_size=200.0, shrinking=True, alpha0=None, bar=None, by_label=False):
        self.kernel = kernel
        #: the working-set rule's flag for the compiled loop: None (one
        #: constraint) or 1 (one per label); numba compiles the loop per type
        self.halves = 1 if by_label else None
        #: the compiled loop's flag of a solve from alpha0 != 0: True (its gradient's
        #: steps compiled into the loop) or None (reconstructed by a separate entry)
        self.started = None if alpha0 is None else True
        self.bar = bar
        self.X = X if sp.issparse(X) else np.ascontiguousarray(X, dtype=np.float64)
        n = self.X.shape[0]
        l = len(kidx)
        self.tol = float(tol)
        self.max_iter = default_max_iter(l) if max_iter is None else int(max_iter)
        code, gamma, coef0, degree = compiled_kernel(kernel)
        self.samples = kr.samples_of(self.X, code, gamma, coef0, degree)
        kidx = np.asarray(kidx, dtype=np.int64)
        y = np.asarray(y, dtype=np.float64)
        C = np.asarray(C, dtype=np.float64)
        p = np.asarray(p, dtype=np.float64)
        alpha = np.zeros(l) if alpha0 is None else np.array(alpha0, dtype=np.float64)
        QD = np.asarray(kernel.diag(self.X), dtype=np.float64)[kidx]
        check_diagonal(kernel, QD)
        status = np.empty(l, dtype=np.uint8)      # set by the compiled loop's SET_UP
        self.var = st.Variables(alpha=alpha, score=np.zeros(l), H=np.zeros(n), y=y.copy(),
                                p=p.copy(), C=C.copy(), QD=QD, kidx=kidx.copy(),
                                perm=np.arange(l, dtype=np.int64), status=status)
        n_slots = int(max(2, min(n, cache_size * 2 ** 20 // (4 * n))))
        self.cache = st.empty_row_cache(n, n_slots)
        self.active_rows = np.empty(n, dtype=np.int64)
        self.ist = np.zeros(st.N_STATE, dtype=np.int64)
        self.ist[st.ACTIVE_SIZE] = l
        # a seeded start is near the solution: shrink from the first iteration
        # (the nu dual's start only makes it feasible: LIBSVM's schedule)
        near = alpha0 is not None and not by_label
        self.ist[st.COUNTER] = 1 if near else min(l, st.SHRINK_EVERY)
        self.ist[st.SHRINKING] = 1 if shrinking else 0
        self._initial_gradient()

    # ------------------------------------------------------------------
    def _kernel_block(self, rows_a, rows_b, coef):
        """``kernel(X[rows_a], X[rows_b]) @ coef`` in blocks of bounded size."""
        if len(rows_b) == 0:
            return np.zeros(len(rows_a))
        return kernel_dot(self.kernel, self.X[rows_a], self.X[rows_b], coef,
                          SOLVER_BLOCK_ENTRIES)

    def _initial_gradient(self):
        """The solve's set-up (every variable's status, the active rows: the
        compiled loop's SET_UP), and G = Q alpha + p (as ``score``) and, per
        sample r, H_r = sum_{alpha_u = C_u} C_u y_u k(x_u, x_r) (LIBSVM's
        G_bar_t is y_t H[kidx[t]]) at the start: compiled from the cached
        kernel rows
        (:func:`~._reconstruct_kernels.gradient_from_rows`, asked of the
        compiled loop, which then stops before its first iteration), or from
        blocks of a generic kernel object."""
        v = self.var
        start = bool(np.any(v.alpha > 0))
        if start and self.samples.code != kr.GENERIC:
            self._compiled_task(st.START_GRADIENT)      # the set-up too
            return
        self._compiled_task(st.SET_UP)
        if not start:
            v.score[:] = -v.y * v.p
        else:
            nz = np.flatnonzero(v.alpha > 0)
            G = v.p + v.y * self._kernel_block(v.kidx, v.kidx[nz], v.alpha[nz] * v.y[nz])
            v.score[:] = -v.y * G
            up = np.flatnonzero(v.alpha >= v.C)
            if up.size:
                v.H[:] = self._kernel_block(np.arange(self.X.shape[0]), v.kidx[up],
                                            v.C[up] * v.y[up])

    def _compiled_task(self, task):
        """Run ``task`` (:data:`~._smo_state.SET_UP`,
        :data:`~._smo_state.START_GRADIENT` or :data:`~._smo_state.RECONSTRUCT`)
        in the compiled loop's entry, with no iteration: the one compiled
        function a solve calls from Python (but the reconstruction of a solve
        from alpha = 0)."""
        self.ist[st.TASK] = task
        self.ist[st.MAX_ITER_AT] = self.ist[st.N_ITER]
        smo_iterate(self.samples, self.var, self.cache, self.active_rows, self.ist, self.tol,
                    self.halves, self.started)

    def _fill_row(self):
        """Compute the kernel row the compiled loop asked for (generic kernel)."""
        r = int(self.ist[st.REQ_ROW])
        n = self.X.shape[0]
        full = bool(self.ist[st.REQ_FULL]) or self.ist[st.N_ACTIVE_ROWS] == n
        cols = self.samples.all_rows if full else self.active_rows[:self.ist[st.N_ACTIVE_ROWS]].copy()
        values = np.asarray(self.kernel(self.X[r:r + 1], self.X[cols]), dtype=np.float64)[0]
        store_row(r, cols, values, np.uint8(full), self.cache, self.ist)

    def reconstruct_gradient(self):
        """Recompute G of the shrunk variables (LIBSVM's reconstruct_gradient):
        G_t = G_bar_t + p_t + sum_{free s} alpha_s Q_ts, then make every
        variable active again and start a new cache epoch. Compiled for the
        named kernels; a generic kernel object is called on blocks."""
        alpha, score, H, y, p, C, kidx = (self.var.alpha, self.var.score, self.var.H, self.var.y,
                                          self.var.p, self.var.C, self.var.kidx)
        a = int(self.ist[st.ACTIVE_SIZE])
        l = alpha.shape[0]
        if a < l and self.samples.code != kr.GENERIC and self.started is None:
            reconstruct_gradient(self.samples, self.var, self.cache, self.ist)
        elif a < l and self.samples.code != kr.GENERIC:
            self._compiled_task(st.RECONSTRUCT)
        elif a < l:
            free = np.flatnonzero((alpha[:a] > 0) & (alpha[:a] < C[:a]))
            G = y[a:] * H[kidx[a:]] + p[a:] + y[a:] * self._kernel_block(
                kidx[a:], kidx[free], alpha[free] * y[free])
            score[a:] = -y[a:] * G
        if a < l:
            permuted_in_python(self.var, np.argsort(self.var.perm, kind="stable"))
        self.ist[st.ACTIVE_SIZE] = l
        self.ist[st.EPOCH] += 1
        self._compiled_task(st.SET_UP)      # the statuses (unchanged) and the active rows

    def calculate_b(self):
        """The threshold b = -rho (LIBSVM's calculate_rho): rho is the mean of
        y_t G_t over free variables (0 < alpha_t < C_t), where the KKT
        conditions make y_t G_t = rho; without free variables, the middle of
        the interval the bound variables allow."""
        alpha, y, C = self.var.alpha, self.var.y, self.var.C
        yG = -self.var.score
        upper = alpha >= C
        lower = alpha <= 0
        free = ~upper & ~lower
        if free.any():
            rho = float(yG[free].mean())
        else:
            ub_mask = (upper & (y < 0)) | (lower & (y > 0))
            lb_mask = (upper & (y > 0)) | (lower & (y < 0))
            ub = yG[ub_mask].min() if ub_mask.any() else np.inf
            lb = yG[lb_mask].max() if lb_mask.any() else -np.inf
            rho = float((ub + lb) / 2) if np.isfinite(ub + lb) else float(
                ub if np.isfinite(ub) else lb if np.isfinite(lb) else 0.0)
        return -rho

    def nu_rho_r(self):
        """(rho, r) of the nu dual (LIBSVM's ``Solver_NU::calculate_rho``):
        within each label the KKT conditions make G_t equal on the free
        variables, r_1 for y = +1 and r_2 for y = -1 (their mean; without
        free variables the middle of the interval the bound ones allow);
        rho = (r_1 - r_2) / 2 and r = (r_1 + r_2) / 2 (Chang & Lin 2001,
        section 4)."""
        alpha, y, C = self.var.alpha, self.var.y, self.var.C
        G = -y * self.var.score
        upper = alpha >= C
        lower = alpha <= 0
        free = ~upper & ~lower
        r = []
        for label in (y > 0, y < 0):
            if (free & label).any():
                r.append(float(G[free & label].mean()))
            else:
                ub = G[lower & label].min() if (lower & label).any() else np.inf
                lb = G[upper & label].max() if (upper & label).any() else -np.inf
                r.append(float((ub + lb) / 2))
        return (r[0] - r[1]) / 2, (r[0] + r[1]) / 2

    def threshold(self):
        """(b, r): b = -rho of the solved dual (:meth:`calculate_b`, or
        :meth:`nu_rho_r` for the nu dual) and r (nan without ``by_label``)."""
        if self.halves is None:
            return self.calculate_b(), np.nan
        rho, r = self.nu_rho_r()
        return -rho, r

    def objective(self):
        """f(alpha) = 1/2 alpha'Q alpha + p'alpha = 1/2 sum alpha_t (G_t + p_t)."""
        v = self.var
        return 0.5 * serial_dot(v.alpha, v.p - v.y * v.score)

    # ------------------------------------------------------------------
    def solve(self, watch=None):
        """Iterate to the stopping rule or the cap; returns a DualSolution.

        ``watch`` (see :class:`._trace.StepTrace`), if given, is shown every
        iteration: the compiled loop then runs one iteration per call, and
        ``watch.before(self)`` / ``watch.after(self, before)`` are called
        around each one that updates a pair."""
        outcome = st.MAX_ITER
        chunk = CHUNK if watch is None else 1
        while True:
            done = int(self.ist[st.N_ITER])
            cap = min(self.max_iter, done + chunk)
            before = watch.before(self) if watch is not None else None
            self.ist[st.MAX_ITER_AT] = cap
            outcome = smo_iterate(self.samples, self.var, self.cache, self.active_rows,
                                  self.ist, self.tol, self.halves, self.started)
            if watch is not None and self.ist[st.N_ITER] > done:
                watch.after(self, before)
            if self.bar is not None:
                self.bar.advance(int(self.ist[st.N_ITER]) - done,
                                 active=int(self.ist[st.ACTIVE_SIZE]))
            if outcome == st.NEED_ROW:
                self._fill_row()
            elif outcome == st.NEED_UNSHRINK:
                self.reconstruct_gradient()
                if self.ist[st.REQ_FINAL]:
                    self.ist[st.COUNTER] = 1
                else:
                    self.ist[st.UNSHRUNK] = 1
            elif outcome == st.CONVERGED or self.ist[st.N_ITER] >= self.max_iter:
                break
            elif np.max(self.var.alpha) > DIVERGED:
                raise ValueError(
                    "the hard-margin problem (C=inf) has no solution: the data are "
                    "not separable with this kernel; use a finite C")
        self.reconstruct_gradient()      # every variable active, in the caller's order
        b, r = self.threshold()
        return DualSolution(alpha=self.var.alpha.copy(), b=b,
                            objective=self.objective(), gradient=-self.var.y * self.var.score,
                            n_iter=int(self.ist[st.N_ITER]),
                            converged=outcome == st.CONVERGED, r=r)
