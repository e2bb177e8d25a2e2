"""The None side of a growth's optional parts, lowered in place (no compiled unit).

A growth without class tables, deferred nodes or branch scratch chooses, when
numba types it (:func:`~hyperplane._numba.by_none`,
:func:`~hyperplane._numba.by_first_type`), a function that returns None or
False (or, for a table slot, −1) whatever it is given. As a kernel each such
function is a compiled unit of its own: a numba pipeline, a module
stringified, parsed and linked into its caller's library, ~0.02-0.05 CPU s of
a first fit each. As numba intrinsics they are a constant in the caller's IR:
:data:`nothing` (None), :data:`never` (False) and :data:`no_slot` (−1) take
any arguments and compile nothing.
"""

from __future__ import annotations

from numba.core import types
from numba.extending import intrinsic


@intrinsic
def nothing(typingctx, *args):
    """None, whatever the arguments (a growth's absent part)."""
    def codegen(context, builder, signature, values):
        return context.get_dummy_value()
    return types.none(*args), codegen


@intrinsic
def never(typingctx, *args):
    """False, whatever the arguments (a growth's test that never holds)."""
    def codegen(context, builder, signature, values):
        return context.get_constant(types.boolean, False)
    return types.boolean(*args), codegen


@intrinsic
def no_slot(typingctx, *args):
    """−1, whatever the arguments: the table slot of every node of a growth
    without class tables (none is ever taken from its absent pool)."""
    def codegen(context, builder, signature, values):
        return context.get_constant(types.int64, -1)
    return types.int64(*args), codegen
