"""Alpha seeding of SMO for the linear kernel.

SMO started from alpha = 0 spends most of a linear-kernel fit in its first
iterations, when every variable is still active. For the linear kernel a
good start is cheap: dual coordinate descent (Hsieh et al. 2008, compiled in
:mod:`._seed_kernels`) solves the problem whose bias is a regularised extra
feature in O(n d) per epoch, and its alpha, made to satisfy y'alpha = 0, is
a feasible point close to SMO's solution (alpha seeding: DeCoste & Wagstaff,
KDD 2000). SMO then runs to its own stopping rule, so the solution is the
one of the SVM with a free bias; only the path to it is shorter.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from sklearn.utils import check_random_state

from .._csr_rows import CSRRows
from .._serial_sums import serial_dot
from ._linear_svc_kernels import shrink_thresholds, within_tol
from ._seed_kernels import DCDProblem, DCDState, csr_squared_norms, ordered_dcd_epoch, squared_norms

#: the constant feature that carries the bias in dual coordinate descent
BIAS_FEATURE = 1.0
#: epochs of dual coordinate descent at most
MAX_EPOCHS = 200
#: samples as the compiled epoch reads them: (is sparse) -> (rows, |x_t|^2)
LAYOUTS = {
    False: (lambda X: np.ascontiguousarray(X, dtype=np.float64), squared_norms),
    True: (lambda X: CSRRows(X.data.astype(np.float64, copy=False),
                             X.indices.astype(np.int32, copy=False),
                             X.indptr.astype(np.int64, copy=False)),
           csr_squared_norms),
}


def balance_equality(alpha, y, C):
    """Make ``y'alpha = 0`` by lowering multipliers of the heavier class.

    The free multipliers (0 < alpha < C) of that class are scaled down
    first, then, if they do not carry enough, all its non-zero ones: moving
    few variables off their bounds keeps SMO's shrinking effective.
    """
    alpha = alpha.copy()
    excess = serial_dot(alpha, y)
    heavy = y > 0 if excess > 0 else y < 0
    excess = abs(excess)
    for group in (heavy & (alpha > 0) & (alpha < C), heavy & (alpha > 0)):
        total = alpha[group].sum()
        if excess <= 0 or total <= 0:
            continue
        take = min(excess, total)
        alpha[group] *= 1.0 - take / total
        excess -= take
    return alpha


def linear_seed(X, y, C, *, eps, random_state=None, max_epochs=MAX_EPOCHS):
    """A feasible start for SMO on the linear kernel.

    Parameters
    ----------
    X : ndarray or scipy.sparse CSR matrix of shape (n, d)
        Sparse rows give the dense rows' seed bit for bit.
    y : ndarray of +-1, shape (n,)
    C : ndarray of shape (n,), finite upper bounds
    eps : float
        Stop when the projected-gradient spread of an epoch is at most eps
        (LIBLINEAR's test, :func:`~._linear_svc_kernels.within_tol`). Unlike
        LIBLINEAR, which then makes the shrunk variables active again and
        stops only when the test holds on all of them, the seed stops on the
        shrunk set too: SMO, which follows, checks every variable.
    random_state : int, RandomState or None
        Order of the coordinates in each epoch.

    Returns
    -------
    alpha : ndarray of shape (n,), 0 <= alpha <= C and y'alpha = 0.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[3.0, 3.0], [4.0, 3.0], [1.0, 1.0]])
    >>> y = np.array([1.0, 1.0, -1.0])
    >>> alpha = linear_seed(X, y, np.full(3, 10.0), eps=1e-6, random_state=0)
    >>> bool(abs(alpha @ y) < 1e-12 and np.all((alpha >= 0) & (alpha <= 10)))
    True
    """
    rng = check_random_state(random_state)
    rows, norms = LAYOUTS[sp.issparse(X)]
    n, d = X.shape
    X = rows(X)
    B = BIAS_FEATURE
    QD = norms(X) + B * B
    problem = DCDProblem(X=X, y=np.asarray(y, dtype=np.float64), C=np.asarray(C, dtype=np.float64),
                         B=float(B), QD=QD)
    state = DCDState(alpha=np.zeros(n), w=np.zeros(d + 1), active=np.arange(n, dtype=np.int64))
    n_active, M_bar, m_bar = n, np.inf, -np.inf
    for _ in range(max_epochs):
        rng.shuffle(state.active[:n_active])
        n_active, M, m = ordered_dcd_epoch(problem, state, n_active, M_bar, m_bar)
        if within_tol(M, m, eps):
            break
        M_bar, m_bar = shrink_thresholds(M, m)
    return balance_equality(state.alpha, y, C)
