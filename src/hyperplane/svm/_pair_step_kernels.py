"""The SMO solver's two-variable step (李航 §7.4.1; Chang & Lin, ACM TIST
2011, section 4.1): the pair's update clipped to the box, the gradient's
update on the active set and H (LIBSVM's G_bar) when a variable reaches or
leaves its upper bound, and the variables' I_up / I_low status."""

from __future__ import annotations

import numpy as np

from llvmlite import ir
from numba.core import types
from numba.extending import intrinsic

from .._numba import jit_fast_internal, jit_fast_twin, jit_inline, jit_twin
from ._smo_state import IN_LOW, IN_UP, TAU


@intrinsic
def fused_multiply_add(typingctx, a, b, c):
    """``a b + c`` (float64) rounded once: LLVM's ``llvm.fma``, a call without
    fast-math flags, so that no pass splits or reorders it. Where fastmath
    may contract ``a b + c d`` into either ``fma(a, b, c d)`` or ``fma(c, d,
    a b)``, LLVM's choice could differ between a loop's vector body and its
    scalar remainder, and with it the last bit of the entries the remainder
    computes, whenever a change elsewhere in the solver moved the split."""
    if not (a == b == c == types.float64):
        return None

    def codegen(context, builder, signature, args):
        double = ir.DoubleType()
        fn = builder.module.declare_intrinsic("llvm.fma", [double],
                                              ir.FunctionType(double, [double, double, double]))
        return builder.call(fn, args)
    return types.float64(types.float64, types.float64, types.float64), codegen


@jit_inline
def bound_status(y, alpha, C):
    """IN_UP if t is in I_up(alpha) (alpha_t can move so that y_t alpha_t
    grows), plus IN_LOW if t is in I_low(alpha) (y_t alpha_t can shrink)."""
    up = (y > 0 and alpha < C) or (y < 0 and alpha > 0.0)
    low = (y > 0 and alpha > 0.0) or (y < 0 and alpha < C)
    return np.uint8((IN_UP if up else 0) | (IN_LOW if low else 0))


@jit_twin
def all_bound_status(y, alpha, C, status):
    """status_t = bound_status(y_t, alpha_t, C_t) for every variable (a
    solve's set-up in :func:`._smo_kernels.smo_iterate`; a twin: the tests
    call it from Python)."""
    for t in range(alpha.shape[0]):
        status[t] = bound_status(y[t], alpha[t], C[t])


@jit_inline
def update_alpha_pair(var, i, j, eta):
    """Minimise f along the feasible direction alpha_i += y_i t,
    alpha_j -= y_j t (which keeps y'alpha fixed) and clip to the box.

    The unclipped step is ``t = (score_i - score_j) / eta`` with
    score = -y G (李航 式7.106 in the variable t); it is clipped to
    ``[0, min(room_i, room_j)]``, the book's ``L <= alpha_2 <= H``
    (式7.108). A variable that reaches its bound is set to it exactly.
    Returns the new (alpha_i, alpha_j); ``var`` is not changed."""
    alpha_i, alpha_j, y_i, y_j = var.alpha[i], var.alpha[j], var.y[i], var.y[j]
    score_i, score_j, C_i, C_j = var.score[i], var.score[j], var.C[i], var.C[j]
    if eta <= 0.0:
        eta = TAU
    t = (score_i - score_j) / eta
    room_i = C_i - alpha_i if y_i > 0 else alpha_i
    room_j = alpha_j if y_j > 0 else C_j - alpha_j
    if t > room_i:
        t = room_i
    if t > room_j:
        t = room_j
    new_i = alpha_i + y_i * t
    new_j = alpha_j - y_j * t
    if t == room_i:
        new_i = C_i if y_i > 0 else 0.0
    if t == room_j:
        new_j = 0.0 if y_j > 0 else C_j
    return min(max(new_i, 0.0), C_i), min(max(new_j, 0.0), C_j)


@jit_fast_twin
def update_gradient(score, kidx, n_active, K_i, K_j, a_i, a_j):
    """G_t += Q_ti d_alpha_i + Q_tj d_alpha_j on the active set, kept as
    score_t = -y_t G_t: score_t -= a_i K_ti + a_j K_tj with a_i = y_i d_alpha_i,
    a_j = y_j d_alpha_j (Q_ti = y_t y_i K_ti). Takes the arrays, not the
    :data:`Variables` (a fastmath step given the whole tuple made the
    solver 1.2x slower). The sum of the two terms is rounded as
    ``fma(a_i, K_ti, a_j K_tj)`` on every entry (:func:`fused_multiply_add`)."""
    for t in range(n_active):
        r = kidx[t]
        score[t] -= fused_multiply_add(a_i, np.float64(K_i[r]), a_j * np.float64(K_j[r]))


@jit_fast_internal
def update_h(H, K_r, coef):
    """H_r += coef K_ur for every sample r, with coef = +-C_u y_u when
    variable u reaches or leaves its upper bound (LIBSVM's G_bar update,
    kept per sample: contiguous, so it vectorises)."""
    for r in range(H.shape[0]):
        H[r] += coef * K_r[r]
