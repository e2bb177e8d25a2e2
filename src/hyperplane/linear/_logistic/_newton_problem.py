"""The penalised logistic objective for Newton's method (:mod:`hyperplane._optimize._newton`) on
dense data with few parameters, solved on nested row subsamples.

``f(W̃) = ½‖W‖² + C Σ_n ℓ_n`` (intercepts not penalised) and its gradient
come from the compiled loss-and-gradient pass over the rows (the one L-BFGS
uses); the Hessian ``I⁰ + C Σ_n ∇²ℓ_n`` is formed by matrix products (BLAS):
its blocks are ``Σ_n D_n x̃_n x̃_nᵀ``, ``D_n = σ_n(1 − σ_n)`` for two classes
and ``Σ_n p_nk(δ_kj − p_nj) x̃_n x̃_nᵀ`` between classes k and j (Bishop, PRML
eq. 4.110).

Far from the minimum Newton's steps are short and many. So the objective is
first minimised on a random tenth of the rows with ``C`` scaled by ten (its
minimiser estimates the full one within the sampling error), recursively down
to 10,000-20,000 rows, where Newton's method runs on the exact Hessian; each
larger problem starts at the smaller one's minimiser with the smaller one's
Hessian there, corrected by BFGS updates from the exact gradients (the subsampled-Hessian methods of
Byrd, Chin, Neveitt & Nocedal, SIAM J. Optim. 21 (2011), and quasi-Newton
started from a Hessian). The full data are read for a few iterations only,
each one pass, and the stopping test is the full problem's, so the minimiser
is the same.

The softmax does not change when every intercept moves by the same amount,
so the multinomial Hessian is singular along ``u`` (1 on the intercepts, 0
elsewhere), a direction the gradient has no component in; ``γ uuᵀ`` is added
to it, which leaves the Newton step unchanged and makes the matrix positive
definite.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np
from scipy.special import expit, softmax

from ..._optimize import minimize_newton

#: most multiply-adds per row of the Hessian (:func:`hessian_work`) for which
#: ``solver="auto"`` forms it. Measured against scikit-learn's lbfgs on one
#: thread (benchmarks/RESULTS.md): 2601 (two classes, 50 features) 2.0x and
#: 7803 (three classes, 50 features) 2.4x faster, 40401 (two classes, 200
#: features) 3x slower.
NEWTON_MAX_HESSIAN_WORK = 8_000


def hessian_work(n_classes, n_features):
    """Multiply-adds per row of the Hessian's products: ``(d + 1)²`` per block,
    one block for two classes, ``K(K − 1)/2`` for K (see :func:`softmax_hessian`)."""
    blocks = 1 if n_classes == 2 else n_classes * (n_classes - 1) // 2
    return blocks * (n_features + 1) ** 2


#: the share of the rows each smaller problem keeps, and the fewest rows of
#: any (and at least ten per parameter). The floor trades the smallest
#: problem's Hessians against the BFGS iterations its estimate leaves on the
#: full data; measured on one thread (30k-500k rows, 2-5 classes, near-separable
#: with C = 100, badly scaled, weighted): 10,000 was as fast as 20,000 or faster in
#: every case (30k-50k rows 1.5-2x), 5,000 faster on easy problems but 2x slower
#: near separability
SUBSAMPLE_SHARE = 0.1
SUBSAMPLE_MIN_ROWS = 10_000


def subsample_rows(n_samples, n_parameters, seed=0):
    """A fixed random tenth of the rows (sorted), at least the floor
    ``max(SUBSAMPLE_MIN_ROWS, 10 · n_parameters)`` of them; None for fewer
    than twice the floor (the problem is then the smallest)."""
    floor = max(SUBSAMPLE_MIN_ROWS, 10 * n_parameters)
    if n_samples < 2 * floor:
        return None
    m = max(int(SUBSAMPLE_SHARE * n_samples), floor)
    return np.sort(np.random.default_rng(seed).choice(n_samples, size=m, replace=False))


class NestedNewtonProblem:
    """``½‖W‖² + C Σ ℓ_n`` for :func:`~hyperplane._optimize.minimize_newton`, with the
    same objective on a subsample of its rows (:meth:`smaller`).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features), C-contiguous
    y_index : ndarray of int64
        Class indices.
    n_classes : int
    C : float
    loss_grad : callable ``(X, y_index, coef, intercept, weight) -> (loss, grad_coef, grad_intercept)``
        Weighted sums over the rows of ``X`` (:func:`~._estimator.logistic_loss_grad`).
    weight : ndarray of shape (n_samples,) or None
        The rows' weights ``s_n`` (None: all 1).
    """

    def __init__(self, X, y_index, n_classes, C, loss_grad, weight=None):
        n, d = X.shape
        self.X, self.y_index, self.n_classes = X, y_index, n_classes
        self.n_rows = 1 if n_classes == 2 else n_classes
        self.shape = (self.n_rows, d + 1)
        self.C = float(C)
        self.loss_grad = loss_grad
        self.weight = weight
        mask = np.ones(self.shape)
        mask[:, -1] = 0.0
        self.penalised = mask.ravel()      # 1 on weights, 0 on intercepts

    def smaller(self):
        """The same objective on :func:`subsample_rows` of the rows, ``C``
        scaled by ``n / m`` (with weights: by the total weight over the
        subsample's; None for a problem already small)."""
        rows = subsample_rows(self.X.shape[0], self.penalised.size)
        if rows is None:
            return None
        if self.weight is None:
            scale, weight = self.X.shape[0] / rows.size, None
        else:
            weight = np.ascontiguousarray(self.weight[rows])
            scale = float(np.sum(self.weight) / max(np.sum(weight), np.finfo(float).tiny))
        return NestedNewtonProblem(np.ascontiguousarray(self.X[rows]), self.y_index[rows],
                                   self.n_classes, self.C * scale, self.loss_grad, weight)

    @cached_property
    def design(self):
        """``X̃ = [X, 1]``, for the Hessian's matrix products."""
        return np.column_stack([self.X, np.ones(self.X.shape[0])])

    def evaluate(self, theta):
        """Objective and gradient at ``theta = W̃.ravel()``, over all rows."""
        W = theta.reshape(self.shape)
        loss, g_coef, g_intercept = self.loss_grad(self.X, self.y_index, W[:, :-1], W[:, -1],
                                                   self.weight)
        weights = theta * self.penalised
        grad = np.column_stack([g_coef, g_intercept]).ravel()
        return 0.5 * np.dot(weights, weights) + self.C * loss, weights + self.C * grad

    def hessian(self, theta):
        """The Hessian at ``theta`` (see the module docstring)."""
        Xt = self.design
        Z = Xt @ theta.reshape(self.shape).T
        if self.n_rows == 1:
            p = expit(Z[:, 0])
            D = p * (1.0 - p) if self.weight is None else self.weight * (p * (1.0 - p))
            A = Xt * np.sqrt(D)[:, None]
            H = A.T @ A
        else:
            H = softmax_hessian(Xt, softmax(Z, axis=1), self.weight)
        H *= self.C
        H[np.diag_indices_from(H)] += self.penalised
        if self.n_rows > 1:
            flat = self.penalised == 0.0
            H[np.ix_(flat, flat)] += H[flat, flat].mean()
        return H



def softmax_hessian(Xt, P, weight=None):
    """``H_kj = Σ_n s_n p_nk(δ_kj − p_nj) x̃_n x̃_nᵀ`` for every pair of classes
    (``s_n = 1`` without ``weight``).

    The blocks of one row sum to zero (``Σ_k p_k(δ_kj − p_j) = 0``), so matrix
    products form only the pairs ``k ≤ j`` among the first K − 1 classes (one
    ``n × (d + 1)`` temporary each) and the last class's blocks are minus the
    sums of the others.
    """
    K, q = P.shape[1], Xt.shape[1]
    H = np.empty((K, q, K, q))
    for k in range(K - 1):
        for j in range(k, K - 1):
            D = P[:, k] * ((k == j) - P[:, j])
            block = Xt.T @ (Xt * (D if weight is None else weight * D)[:, None])
            H[k, :, j, :] = block
            H[j, :, k, :] = block.T
    H[:K - 1, :, K - 1, :] = -H[:K - 1, :, :K - 1, :].sum(axis=2)
    H[K - 1, :, :, :] = -H[:K - 1, :, :, :].sum(axis=0)
    return H.reshape(K * q, K * q)


def minimize_nested(problem, theta0, *, max_iter, converged, on_step=None):
    """Newton's method on ``problem`` from the minimiser of its
    :meth:`~NestedNewtonProblem.smaller` problem, found the same way (Newton
    with the exact Hessian on the smallest, from ``theta0``), then BFGS from
    the smaller problem's Hessian at that point (see the module docstring).

    The stopping test is the full problem's: a subsample's objective, with
    ``C`` scaled by ``n / m``, has the same units. ``n_iter`` counts the
    iterations on the full data (each one pass over all rows).

    Returns
    -------
    :class:`~hyperplane._optimize.Minimum`
    """
    smaller = problem.smaller()
    if smaller is None:
        return minimize_newton(problem, theta0, max_iter=max_iter, converged=converged,
                               on_step=on_step)
    theta0, _, _ = minimize_nested(smaller, theta0, max_iter=max_iter, converged=converged)
    return minimize_newton(problem, theta0, max_iter=max_iter, converged=converged,
                           on_step=on_step, hessian0=smaller.hessian(theta0))


__all__ = ["NestedNewtonProblem", "NEWTON_MAX_HESSIAN_WORK", "hessian_work", "minimize_nested",
           "subsample_rows"]
