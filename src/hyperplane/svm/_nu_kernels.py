"""Compiled start of the nu and one-class duals (LIBSVM's ``solve_nu_svc``,
``solve_nu_svr``, ``solve_one_class``; Chang & Lin 2011, §4.1)."""

from __future__ import annotations

import numpy as np

from .._numba import jit


@jit
def fill_in_order(total, C):
    """LIBSVM's start of a sum constraint: alpha_t = min(C_t, what is left of
    ``total``) in order, so the first variables sit at their bound C_t, one
    takes the remainder and the rest are 0 (the remainder subtracted one
    variable at a time, as LIBSVM does)."""
    alpha = np.zeros(C.shape[0])
    for t in range(C.shape[0]):
        if total <= 0.0:
            break
        alpha[t] = min(C[t], total)
        total -= alpha[t]
    return alpha
