"""numba's SSA reconstruction over the blocks that name each variable
(``hyperplane/_ssa_blocks.py``) gives numba's own IR."""

import copy

import numpy as np
from numba.core import ssa
from numba.core.compiler import run_frontend

from hyperplane import _ssa_blocks
from hyperplane._numba import jit


def clipped_total(a, lo, hi):
    """Σ clip(a_k, lo, hi) with variables assigned in several blocks (SSA violators)."""
    total, k, last = 0.0, 0, -1.0
    while k < a.shape[0]:
        x = a[k]
        if x < lo:
            x = lo
            last = x
        elif x > hi:
            x = hi
        total += x
        k += 1
    return total + last


def _ir_text(blocks):
    return [(label, [str(stmt) for stmt in block.body]) for label, block in blocks.items()]


def test_numbas_reconstruction_is_ours():
    assert _ssa_blocks.INDEXES_SSA_BLOCKS
    assert ssa._run_ssa is _ssa_blocks._run_ssa
    assert _ssa_blocks.NUMBAS_RUN_SSA is not None


def test_the_same_ir_as_numbas_reconstruction():
    blocks = run_frontend(clipped_total).blocks
    theirs = _ssa_blocks.NUMBAS_RUN_SSA(copy.deepcopy(blocks))
    ours = _ssa_blocks._run_ssa(blocks)
    text = _ir_text(ours)
    assert text == _ir_text(theirs)
    assert any("phi" in stmt for _, body in text for stmt in body)


def test_a_function_compiled_through_it_computes_as_python():
    a = np.random.default_rng(0).normal(size=101)
    assert jit(clipped_total)(a, -0.5, 0.8) == clipped_total(a, -0.5, 0.8)
