"""nu-SVC and nu-SVR (Schölkopf et al. 2000, "New support vector
algorithms", Neural Computation 12(5)), solved as LIBSVM does (Chang & Lin
2001, "Training nu-support vector classifiers: theory and algorithms";
Chang & Lin 2011 §2.2, §2.4, §4.2): the SMO of :class:`SVC` with one
equality constraint per label (``by_label``), from LIBSVM's feasible start."""

from __future__ import annotations

import numpy as np

from .._validation import Real
from .._parameters import keep_parameters
from ._base import BaseSVM
from ._precomputed import KERNEL_OR_PRECOMPUTED
from ._svc import BaseOneVsOneSVC
from ._svr import BaseTubeSVR

#: nu in (0, 1]
NU = Real(low=0.0, high=1.0, low_open=True)


def fill_in_order(total, C):
    """LIBSVM's start of a sum constraint: alpha_t = min(C_t, what is left of
    ``total``) in order, so the first variables sit at their bound C_t, one
    takes the remainder and the rest are 0. What is left before variable t is
    ``total`` less C_0, ..., C_{t-1} subtracted one at a time, as LIBSVM's
    loop does (``np.subtract.accumulate`` is that left fold; nothing compiled);
    alpha_t = 0 once nothing is left.

    Examples
    --------
    >>> fill_in_order(2.5, np.ones(4)).tolist()
    [1.0, 1.0, 0.5, 0.0]
    """
    C = np.asarray(C, dtype=np.float64)
    left = np.subtract.accumulate(np.concatenate(([float(total)], C)))[:-1]
    return np.where(left > 0.0, np.minimum(C, left), 0.0)


def nu_svc_start(y, C, nu):
    """LIBSVM's ``solve_nu_svc`` start (scikit-learn's, with bounds C_t):
    each label's multipliers filled in order (:func:`fill_in_order`) up to
    nu sum_t C_t / 2, which makes e'alpha_+ = e'alpha_- = nu l / 2 for unit
    bounds (the constraints of the scaled nu dual, Chang & Lin 2001, eq. 2.4)."""
    half = nu * float(np.sum(C)) / 2
    alpha = np.zeros(y.size)
    for label in (1.0, -1.0):
        rows = np.flatnonzero(y == label)
        alpha[rows] = fill_in_order(half, C[rows])
    return alpha


def check_nu_feasible(nu, classes, y_index, weight, pairs):
    """LIBSVM's ``svm_check_parameter`` for nu-SVC: a pair (a, b) of classes
    with weights n_a, n_b (counts without sample weights) is solvable only
    if nu (n_a + n_b) / 2 <= min(n_a, n_b) (Chang & Lin 2001, Theorem 1:
    nu <= 2 min(n_a, n_b) / (n_a + n_b))."""
    n = np.bincount(y_index, weights=weight, minlength=len(classes))
    for a, b in pairs:
        if nu * (n[a] + n[b]) / 2 > min(n[a], n[b]):
            first, second = np.asarray(classes)[[a, b]].tolist()  # plain values in the text
            raise ValueError(
                f"nu={nu!r} is infeasible (LIBSVM: \"specified nu is infeasible\") for "
                f"classes {first!r} and {second!r}: nu must be at most "
                f"2 min(n_a, n_b) / (n_a + n_b) = {2 * min(n[a], n[b]) / (n[a] + n[b]):.6g}, "
                "with n_a, n_b the classes' (weighted) sizes")


class NuSVC(BaseOneVsOneSVC):
    """nu-support vector classifier (Schölkopf et al. 2000): the primal
    ``min 1/2 |w|^2 - nu rho + 1/l sum xi_i``, ``y_i (w'phi(x_i) + b) >=
    rho - xi_i``, ``xi_i >= 0``, ``rho >= 0``, whose dual LIBSVM solves in the
    scaled form (Chang & Lin 2001, eq. 2.4)::

        min 1/2 a'Qa   s.t.   0 <= a_i <= 1,   e'a_+ = e'a_- = nu l / 2,

    one equality constraint per label (Q_ij = y_i y_j k(x_i, x_j)), by the
    SMO of :class:`SVC` with the working set taken within one label
    (LIBSVM's ``Solver_NU``). From the KKT conditions r_1, r_2 (the gradient
    on the free variables of each label) give rho = (r_1 - r_2) / 2 and
    r = (r_1 + r_2) / 2; the decision function is
    f(x) = (sum a_i y_i k(x_i, x) - rho) / r, i.e. the C-SVC of C = 1/r
    (Chang & Lin 2001, section 4). nu is an upper bound on the fraction of
    margin errors and a lower bound on the fraction of support vectors.
    Several classes: one-vs-one, as :class:`SVC`.

    ``X`` may be a ``scipy.sparse`` matrix, as for :class:`SVC`.

    Parameters
    ----------
    nu : float, default=0.5
        In (0, 1]; a pair of classes of sizes n_a, n_b needs
        nu <= 2 min(n_a, n_b) / (n_a + n_b) (else ValueError naming nu).
    kernel, gamma, degree, coef0, tol, max_iter, cache_size, shrinking, random_state, verbose, n_jobs
        As for :class:`SVC`; ``kernel="precomputed"`` also.
    class_weight : dict, "balanced" or None, default=None
        Weights each sample's bound, C_i = w_{y_i} s_i with s_i the
        ``sample_weight`` (scikit-learn's weighted nu-SVC: the start and the
        nu of the constraints count weights). scikit-learn's NuSVC accepts
        ``class_weight`` but ignores it; here it acts as the same per-sample
        weights would.
    decision_function_shape : {"ovr", "ovo"}, default="ovr"
        As for :class:`SVC`.
    probability : bool, default=False
        LIBSVM's probability model (as :class:`SVC`, each fold solved as a
        nu-SVC).
    record_trace : bool, default=False
        One row per SMO step in ``trace_``, as :class:`SVC`'s (``m``, ``M``
        within the pair's label; ``b`` before the 1/r scaling). The traced
        solve keeps the feasible start (it fixes the constraints).

    Attributes
    ----------
    classes_, pairs_, support_, support_vectors_, n_support_, class_weight_
        As for :class:`SVC`.
    alpha_ : ndarray of shape (n_samples,), or (n_pairs, n_samples)
        a_i / r: the multipliers of the equivalent C-SVC (C = 1/r).
    dual_coef_ : ndarray of shape (1, n_SV), or (n_pairs, n_SV)
        a_i y_i / r of the support vectors.
    intercept_ : ndarray of shape (1,), or (n_pairs,)
        -rho / r.
    coef_ : ndarray
        w (linear kernel only).
    kernel_, n_iter_, converged_, objective_
        As for :class:`SVC`; ``objective_`` is LIBSVM's, 1/2 a'Qa / r^2.

    Examples
    --------
    Two well separated groups; nu = 0.5 makes at least half of the six
    points support vectors:

    >>> import numpy as np
    >>> from hyperplane.svm import NuSVC
    >>> X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [3.0, 3.0], [3.0, 4.0], [4.0, 3.0]])
    >>> clf = NuSVC(nu=0.5, kernel="linear", tol=1e-8).fit(X, [0, 0, 0, 1, 1, 1])
    >>> clf.predict([[0.5, 0.5], [3.5, 3.5]]).tolist()
    [0, 1]
    >>> clf.support_.size >= 3
    True

    A nu beyond 2 min(n_a, n_b) / (n_a + n_b) has no solution:

    >>> NuSVC(nu=0.9).fit(X[:4], [0, 0, 0, 1])
    Traceback (most recent call last):
    ...
    ValueError: nu=0.9 is infeasible (LIBSVM: "specified nu is infeasible") ...
    """

    _parameter_rules = {
        **{k: v for k, v in BaseOneVsOneSVC._parameter_rules.items() if k != "C"}, "nu": NU}

    def __init__(self, *, nu=0.5, kernel="rbf", gamma="scale", degree=3, coef0=0.0,
                 tol=1e-3, max_iter=None, cache_size=200, shrinking=True,
                 class_weight=None, probability=False, decision_function_shape="ovr",
                 random_state=None, verbose=False, record_trace=False, n_jobs=None):
        keep_parameters(self, locals())

    def _check_pairs(self, kernel, X, y_index, weight):
        """Every pair must admit nu (:func:`check_nu_feasible`)."""
        check_nu_feasible(float(self.nu), self.classes_, y_index, weight, self.pairs_)

    def _solve_pair(self, kernel, X, y, weight, index=None, record=True):
        """The scaled nu dual of one pair (bounds C_i = weight_i, p = 0, from
        :func:`nu_svc_start`), then a / r and b / r: the C-SVC of C = 1/r
        (LIBSVM's ``solve_nu_svc``)."""
        C = np.asarray(weight, dtype=np.float64)
        solution, trace = self._solve(kernel, X, np.arange(y.size), y, np.zeros(y.size), C,
                                      nu_svc_start(y, C, float(self.nu)), index=index,
                                      record=record, by_label=True)
        r = solution.r
        if not r > 0:
            raise ValueError(
                f"nu-SVC found r = {r:.3g} for a pair of classes: their training samples "
                "cannot be told apart in the kernel's feature space (for example identical "
                "rows with different labels), so the decision values "
                "(sum a_i y_i k(x_i, x) - rho) / r are undefined; remove the conflicting "
                "samples or use another kernel")
        return solution._replace(alpha=solution.alpha / r, b=solution.b / r,
                                 objective=solution.objective / (r * r)), trace


class NuSVR(BaseTubeSVR):
    """nu-support vector regression (Schölkopf et al. 2000): the tube's
    width eps is a variable, ``min 1/2 |w|^2 + C (nu eps + 1/l sum (xi_i +
    xi_i^*))``; LIBSVM's dual (Chang & Lin 2011, eq. 2.4 scaled by l)::

        min 1/2 (a_hat - a)'K(a_hat - a) + z'(a - a_hat)
        s.t. 0 <= a_hat_i, a_i <= C,  e'a_hat = e'a = C nu l / 2,

    the 2n variables stacked as for :class:`SVR` (labels +1, -1, linear term
    (-z, z)) and solved by the same SMO with one constraint per label
    (LIBSVM's ``Solver_NU``). With r_1, r_2 from the KKT conditions,
    b = -(r_1 - r_2) / 2 and the tube's half-width is eps = -(r_1 + r_2) / 2.
    f(x) = sum (a_hat_i - a_i) k(x_i, x) + b. nu is an upper bound on the
    fraction of errors (outside the tube) and a lower bound on the fraction
    of support vectors.

    ``X`` may be a ``scipy.sparse`` matrix, as for :class:`SVR`.

    Parameters
    ----------
    nu : float, default=0.5
        In (0, 1].
    C : float, default=1.0
        Penalty, > 0.
    kernel, gamma, degree, coef0, tol, max_iter, cache_size, shrinking, random_state, verbose, n_jobs
        As for :class:`SVR`; ``kernel="precomputed"`` also.
    record_trace : bool, default=False
        As for :class:`SVR` (``m``, ``M`` within the pair's label).

    Attributes
    ----------
    alpha_, support_, support_vectors_, dual_coef_, coef_, intercept_, n_support_
        As for :class:`SVR`.
    epsilon_ : float
        The tube's half-width eps found by the fit, -(r_1 + r_2) / 2.
    kernel_, n_iter_, converged_, objective_
        As for :class:`SVR`.

    Examples
    --------
    nu bounds the fraction of training points outside the tube from above
    and the fraction of support vectors from below (Schölkopf et al. 2000,
    proposition 1); the fit chooses the width eps that this takes:

    >>> import numpy as np
    >>> from hyperplane.svm import NuSVR
    >>> x = np.linspace(0.0, 3.0, 40)
    >>> z = np.sin(x) + 0.1 * np.cos(7.0 * x)
    >>> reg = NuSVR(nu=0.3, C=10.0, gamma=1.0, tol=1e-8).fit(x[:, None], z)
    >>> outside = np.abs(z - reg.predict(x[:, None])) > reg.epsilon_ + 1e-6
    >>> bool(outside.sum() <= 0.3 * 40 <= reg.support_.size), bool(reg.epsilon_ > 0)
    (True, True)
    """

    _parameter_rules = {**BaseSVM._parameter_rules, "nu": NU, "kernel": KERNEL_OR_PRECOMPUTED}

    def __init__(self, *, nu=0.5, C=1.0, kernel="rbf", gamma="scale", degree=3,
                 coef0=0.0, tol=1e-3, max_iter=None, cache_size=200, shrinking=True,
                 random_state=None, verbose=False, record_trace=False, n_jobs=None):
        keep_parameters(self, locals())

    def _tube_problem(self, z, C):
        """LIBSVM's ``solve_nu_svr``: p = (-z, z), both halves started by
        :func:`fill_in_order` up to nu sum C_i / 2, one constraint per label."""
        half = fill_in_order(float(self.nu) * float(np.sum(C)) / 2, C)
        return np.concatenate([-z, z]), np.tile(half, 2), True

    def _solved(self, solution):
        """``epsilon_ = -r``, the tube's half-width (LIBSVM prints it)."""
        self.epsilon_ = -float(solution.r)
