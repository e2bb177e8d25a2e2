"""numba's reference counting walks only the members that hold a meminfo
(``hyperplane/_nrt_meminfos.py``): the same meminfos in the same order as
numba's own walk, fewer instructions, and balanced reference counts."""

from collections import namedtuple

import numpy as np
from llvmlite import ir
from numba import typeof
from numba.core.registry import cpu_target
from numba.core.runtime import _nrt_python, context, rtsys

from hyperplane._nrt_meminfos import NUMBAS_GET_MEMINFOS, WALKS_MEMINFOS_ONLY, get_meminfos
from hyperplane._numba import jit, jit_inline

Inner = namedtuple("Inner", "scale rows empty")
Record = namedtuple("Record", "a n b none inner x")


def record():
    rows = np.arange(6.0).reshape(2, 3)
    return Record(a=np.ones(4), n=np.int64(3), b=np.arange(5), none=None,
                  inner=Inner(scale=2.0, rows=rows, empty=None), x=1.5)


def walks(walk):
    """(the types of the meminfos ``walk`` finds in a :func:`record`, the
    instructions it emits)."""
    copied_totals(record())         # numba's CPU target set up
    # a copy with reference counting on, as numba compiles with: reading ``nrt`` of the
    # shared context itself would cache a disabled NRTContext there, which every later
    # compilation in the process copies ("NRT required but not enabled")
    ctx = cpu_target.target_context.subtarget(enable_nrt=True)
    ty = typeof(record())
    module = ir.Module()
    func = ir.Function(module, ir.FunctionType(ir.VoidType(), [ctx.get_value_type(ty)]), "f")
    builder = ir.IRBuilder(func.append_basic_block())
    found = walk(ctx.nrt, builder, ty, func.args[0])
    return [str(t) for t, _ in found], len(builder.block.instructions)


def test_numbas_walk_is_replaced():
    assert WALKS_MEMINFOS_ONLY and context.NRTContext.get_meminfos is get_meminfos


def test_the_same_meminfos_in_the_same_order_from_fewer_instructions():
    ours, our_instructions = walks(get_meminfos)
    numbas, numbas_instructions = walks(NUMBAS_GET_MEMINFOS)
    assert ours == numbas and len(ours) == 3        # a, b, inner.rows
    assert our_instructions == 2 * 2 + 3 < numbas_instructions


@jit_inline
def total(rec):
    return rec.a[3] + rec.b[4] + rec.inner.scale * rec.inner.rows[1, 2] + rec.x


@jit
def copied_totals(rec):
    """The record copied (the inlined callee's argument, a variable) and released."""
    other = rec
    return total(rec) + total(other)


def test_copies_of_a_record_count_their_references_in_balance():
    rec = record()
    copied_totals(rec)
    was_on = _nrt_python.memsys_stats_enabled()
    _nrt_python.memsys_enable_stats()
    try:
        before = rtsys.get_allocation_stats()
        assert copied_totals(rec) == 2 * (1.0 + 4 + 2.0 * 5.0 + 1.5)
        after = rtsys.get_allocation_stats()
    finally:
        if not was_on:
            _nrt_python.memsys_disable_stats()
    assert after.mi_alloc > before.mi_alloc        # each array's meminfo, made for the call
    assert after.alloc - before.alloc == after.free - before.free
    assert after.mi_alloc - before.mi_alloc == after.mi_free - before.mi_free


def test_walking_leaves_the_process_able_to_compile_with_reference_counting():
    walks(get_meminfos)
    assert "nrt" not in vars(cpu_target.target_context)

    @jit
    def fresh_array(n):
        return np.zeros(n)

    assert fresh_array(3).tolist() == [0.0, 0.0, 0.0]
