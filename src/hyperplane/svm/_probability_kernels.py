"""Compiled steps of SVC's probability estimates (LIBSVM's ``-b 1``).

* :func:`sigmoid_train` -- Platt's sigmoid P(y = +1 | f) = 1 / (1 + exp(A f + B))
  fitted to decision values f by Newton's method with backtracking on the
  regularised targets, as Lin, Lin & Weng (2007), "A note on Platt's
  probabilistic outputs for support vector machines", Algorithm 1 (LIBSVM's
  ``sigmoid_train``).
* :func:`couple_rows` -- pairwise coupling of the one-vs-one probabilities
  r_ij into class probabilities p: Wu, Lin & Weng (2004), "Probability
  estimates for multi-class classification by pairwise coupling", method 2,
  solved by their fixed-point iteration (LIBSVM's ``multiclass_probability``).

Strict arithmetic (:data:`jit`): the stopping tests compare sums to constants.
"""

from __future__ import annotations

from collections import namedtuple
from math import exp, log

import numpy as np

from .._lowered import empty
from .._numba import jit

#: Lin, Lin & Weng 2007, Algorithm 1 (LIBSVM's constants)
MAX_ITER = 100          # Newton iterations
MIN_STEP = 1e-10        # smallest step of the backtracking line search
SIGMA = 1e-12           # added to the Hessian's diagonal: strictly positive definite
EPS = 1e-5              # stop when |dF/dA| < EPS and |dF/dB| < EPS
ARMIJO = 1e-4           # sufficient decrease: F(new) < F + ARMIJO * step * g'd

#: outcome of :func:`sigmoid_train`
CONVERGED, LINE_SEARCH_FAILED, MAX_ITER_REACHED = 0, 1, 2

#: the fitted sigmoid, the Newton iterations taken and the outcome code
SigmoidFit = namedtuple("SigmoidFit", "A B n_iter status")


@jit
def logistic_loss(f, t, A, B):
    """F(A, B) = sum_i -(t_i log p_i + (1 - t_i) log(1 - p_i)) with
    p_i = 1 / (1 + exp(A f_i + B)), written without overflow (Lin, Lin &
    Weng 2007, eq. (4)-(5): the branch on the sign of A f_i + B)."""
    total = 0.0
    for i in range(f.shape[0]):
        fApB = f[i] * A + B
        if fApB >= 0.0:
            total += t[i] * fApB + log(1.0 + exp(-fApB))
        else:
            total += (t[i] - 1.0) * fApB + log(1.0 + exp(fApB))
    return total


@jit
def sigmoid_train(f, positive):
    """Platt's (A, B) for decision values ``f`` and labels ``positive``
    (bool), by Lin, Lin & Weng 2007, Algorithm 1.

    Targets t_i = (N+ + 1)/(N+ + 2) on positives, 1/(N- + 2) on negatives
    (Platt's regularisation); start A = 0, B = log((N- + 1)/(N+ + 1));
    Newton direction on H + SIGMA I, backtracking from step 1 by halves
    to MIN_STEP with the sufficient-decrease test; stop when both partial
    derivatives are below EPS. Returns a :data:`SigmoidFit`.
    """
    l = f.shape[0]
    prior1 = 0.0
    for i in range(l):
        if positive[i]:
            prior1 += 1.0
    prior0 = l - prior1
    hi_target = (prior1 + 1.0) / (prior1 + 2.0)
    lo_target = 1.0 / (prior0 + 2.0)
    t = empty(l, np.float64)
    for i in range(l):
        t[i] = hi_target if positive[i] else lo_target
    A = 0.0
    B = log((prior0 + 1.0) / (prior1 + 1.0))
    fval = logistic_loss(f, t, A, B)
    status = MAX_ITER_REACHED
    it = 0
    while it < MAX_ITER:
        # gradient g and Hessian H' = H + SIGMA I of F at (A, B)
        h11 = SIGMA
        h22 = SIGMA
        h21 = 0.0
        g1 = 0.0
        g2 = 0.0
        for i in range(l):
            fApB = f[i] * A + B
            if fApB >= 0.0:
                p = exp(-fApB) / (1.0 + exp(-fApB))
                q = 1.0 / (1.0 + exp(-fApB))
            else:
                p = 1.0 / (1.0 + exp(fApB))
                q = exp(fApB) / (1.0 + exp(fApB))
            d2 = p * q
            h11 += f[i] * f[i] * d2
            h22 += d2
            h21 += f[i] * d2
            d1 = t[i] - p
            g1 += f[i] * d1
            g2 += d1
        if abs(g1) < EPS and abs(g2) < EPS:
            status = CONVERGED
            break
        # Newton direction d = -H'^{-1} g
        det = h11 * h22 - h21 * h21
        dA = -(h22 * g1 - h21 * g2) / det
        dB = -(-h21 * g1 + h11 * g2) / det
        gd = g1 * dA + g2 * dB
        step = 1.0
        while step >= MIN_STEP:
            newA = A + step * dA
            newB = B + step * dB
            newf = logistic_loss(f, t, newA, newB)
            if newf < fval + ARMIJO * step * gd:
                A = newA
                B = newB
                fval = newf
                break
            step = step / 2.0
        if step < MIN_STEP:
            status = LINE_SEARCH_FAILED
            break
        it += 1
    return SigmoidFit(A, B, it, status)


@jit
def sigmoid_predict(f, A, B, out):
    """``out_i = 1 / (1 + exp(A f_i + B))``, computed as exp(-z)/(1 + exp(-z))
    for z = A f_i + B >= 0 (no overflow, no cancellation in 1 - p)."""
    for i in range(f.shape[0]):
        fApB = f[i] * A + B
        if fApB >= 0.0:
            out[i] = exp(-fApB) / (1.0 + exp(-fApB))
        else:
            out[i] = 1.0 / (1.0 + exp(fApB))
    return out


@jit
def couple(r, p, eps, max_iter):
    """Class probabilities ``p`` (filled in place) from the pairwise ones
    ``r[i, j]`` = P(class i | class i or j), r[j, i] = 1 - r[i, j]: Wu, Lin &
    Weng 2004, method 2, min p'Qp over the simplex with
    Q_tt = sum_{j != t} r_jt^2, Q_tj = -r_jt r_tj. The fixed-point iteration
    updates one p_t at a time, p_t += (p'Qp - (Qp)_t) / Q_tt, renormalising
    p (and Qp, p'Qp) after each; it stops when max_t |(Qp)_t - p'Qp| < eps.
    Returns the number of sweeps (``max_iter`` if it did not stop)."""
    k = p.shape[0]
    Q = empty((k, k), np.float64)
    Qp = empty(k, np.float64)
    for t in range(k):
        p[t] = 1.0 / k
        Q[t, t] = 0.0
        for j in range(t):
            Q[t, t] += r[j, t] * r[j, t]
            Q[t, j] = Q[j, t]
        for j in range(t + 1, k):
            Q[t, t] += r[j, t] * r[j, t]
            Q[t, j] = -r[j, t] * r[t, j]
    it = 0
    while it < max_iter:
        # recomputed every sweep for accuracy, as LIBSVM
        pQp = 0.0
        for t in range(k):
            Qp[t] = 0.0
            for j in range(k):
                Qp[t] += Q[t, j] * p[j]
            pQp += p[t] * Qp[t]
        max_error = 0.0
        for t in range(k):
            error = abs(Qp[t] - pQp)
            if error > max_error:
                max_error = error
        if max_error < eps:
            break
        for t in range(k):
            diff = (-Qp[t] + pQp) / Q[t, t]
            p[t] += diff
            pQp = (pQp + diff * (diff * Q[t, t] + 2.0 * Qp[t])) / (1.0 + diff) / (1.0 + diff)
            for j in range(k):
                Qp[j] = (Qp[j] + diff * Q[t, j]) / (1.0 + diff)
                p[j] /= (1.0 + diff)
        it += 1
    return it


@jit
def couple_rows(r, eps, max_iter, proba):
    """:func:`couple` for each row: ``r`` of shape (n, k, k), ``proba`` of
    shape (n, k) filled; returns how many rows reached ``max_iter``."""
    failed = 0
    for row in range(r.shape[0]):
        if couple(r[row], proba[row], eps, max_iter) >= max_iter:
            failed += 1
    return failed
