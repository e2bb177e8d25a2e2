"""numba's inliner copies a callee's IR in one piece: one copy of its scope, not one per block.

A function compiled with ``inline='always'`` (``_numba.jit_inline``,
``jit_fast_inline``) is inlined in numba's own IR, per call site: the
inliner (numba's ``InlineWorker.inline_ir``) copies the callee's IR twice
(the copy it splices in and an unmutated one it returns), and numba 0.68
deep-copies each block on its own. Every block refers to the function's
``Scope``, which holds every variable of the function, so each block's copy
copies the whole scope again: a callee of B blocks and V variables costs
2 B V variable copies (the SMO's ``shrink``, 71 blocks and 647 variables,
~92k), plus the equality tests numba's ``_get_all_scopes`` then makes
between the copies. That was about a third of the front end of an SVM's
first fit (cProfile of ``hyperplane fit svc heart_scale``).

:func:`_copy_ir` deep-copies the blocks together, so that they share one
copy of the scope, as the blocks of the callee itself do; the IR spliced in
is the same, and so is every compiled function. Installed by replacing the
code of the nested ``copy_ir`` of numba's ``inline_ir`` (it reads the
module globals of numba's ``inline_closurecall``, where ``copy`` is
imported), only where that numba has one of that name: another numba
inlines as it does (:data:`COPIES_SCOPE_ONCE` False).
"""

from __future__ import annotations

import copy
import types

__all__ = ["COPIES_SCOPE_ONCE"]


def _copy_ir(the_ir):
    """numba's ``copy_ir``: a copy of ``the_ir`` whose blocks are deep copies,
    made by one ``deepcopy`` of the block map (one memo: one scope copy)."""
    kernel_copy = the_ir.copy()
    kernel_copy.blocks = copy.deepcopy(the_ir.blocks)
    return kernel_copy


def _copy_callee_ir_once():
    """Give numba's ``InlineWorker.inline_ir`` :func:`_copy_ir` as its nested
    ``copy_ir``; whether it was found (and replaced)."""
    from numba.core import inline_closurecall

    inline_ir = inline_closurecall.InlineWorker.inline_ir
    code = inline_ir.__code__
    nested = [c for c in code.co_consts if isinstance(c, types.CodeType) and c.co_name == "copy_ir"]
    if len(nested) != 1 or nested[0].co_freevars or nested[0].co_argcount != 1:
        return False
    names = {k: getattr(nested[0], k) for k in ("co_name", "co_qualname", "co_firstlineno")
             if hasattr(nested[0], k)}        # co_qualname: Python 3.11 on
    ours = _copy_ir.__code__.replace(**names)
    inline_ir.__code__ = code.replace(
        co_consts=tuple(ours if c is nested[0] else c for c in code.co_consts))
    return True


#: whether numba's inliner copies a callee's IR with one scope (:func:`_copy_ir`)
COPIES_SCOPE_ONCE = _copy_callee_ir_once()
