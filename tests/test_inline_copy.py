"""numba's inliner copies a callee's IR with one copy of its scope
(``hyperplane/_inline_copy.py``): the copy is the callee's IR, and a callee
inlined at two sites computes what it computes as Python."""

import types

import numpy as np
from numba.core import inline_closurecall
from numba.core.compiler import run_frontend

from hyperplane._inline_copy import COPIES_SCOPE_ONCE, _copy_ir
from hyperplane._numba import jit, jit_inline


@jit_inline
def clipped_sum(a, lo, hi):
    """Σ clip(a_k, lo, hi), summed in order (several blocks: a loop and branches)."""
    total = 0.0
    for k in range(a.shape[0]):
        if a[k] < lo:
            total += lo
        elif a[k] > hi:
            total += hi
        else:
            total += a[k]
    return total


@jit
def two_clipped_sums(a):
    return clipped_sum(a, -1.0, 1.0) - clipped_sum(a, 0.0, 0.5)


def test_numbas_inliner_uses_the_one_scope_copy():
    assert COPIES_SCOPE_ONCE
    consts = inline_closurecall.InlineWorker.inline_ir.__code__.co_consts
    nested = [c for c in consts if isinstance(c, types.CodeType) and c.co_name == "copy_ir"]
    assert [c.co_code for c in nested] == [_copy_ir.__code__.co_code]


def test_the_copy_is_the_callees_ir_with_one_new_scope():
    func_ir = run_frontend(clipped_sum.py_func)
    copied = _copy_ir(func_ir)
    scopes = {id(block.scope) for block in copied.blocks.values()}
    assert len(copied.blocks) > 3 and len(scopes) == 1
    assert scopes.isdisjoint(id(block.scope) for block in func_ir.blocks.values())
    assert copied.blocks.keys() == func_ir.blocks.keys()
    for label, block in func_ir.blocks.items():
        assert copied.blocks[label] is not block
        assert [str(s) for s in copied.blocks[label].body] == [str(s) for s in block.body]


def test_a_callee_inlined_at_two_sites_computes_as_python():
    a = np.random.default_rng(0).normal(size=101)
    expected = clipped_sum.py_func(a, -1.0, 1.0) - clipped_sum.py_func(a, 0.0, 0.5)
    assert two_clipped_sums(a) == expected
