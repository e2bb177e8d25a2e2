"""numba's reference counting reads only the members of a value that hold a meminfo.

numba counts references to an array through its meminfo, and to a record (a
named tuple) through each of its arrays: every copy of a record variable
(an argument, each argument of an inlined callee, an assignment) and every
release of one lowers an ``NRT_incref`` / ``NRT_decref`` per array. To find
the meminfos numba's ``NRTContext.get_meminfos`` walks the value's data model
and extracts every member, at every level, before it asks whether the member
holds one: a 1-d array's seven members and its shape's and strides' items,
nine ``extractvalue`` instructions for its one meminfo, and the scalars of a
record besides. An SVM's ``SparseSamples`` (14 arrays, 5 scalars) cost ~150
instructions per copy, of which 28 find its meminfos; ``extractvalue`` was
more than half of the IR the SMO's first fit lowered (``smo_iterate`` 13.8k
of 25.9k lines), all of it built by llvmlite in Python and parsed by LLVM
before LLVM removes it as dead code.

:func:`get_meminfos` walks the same members in the same order and extracts
only those that hold a meminfo (:func:`holds_meminfo`, per type, once): the
same meminfos in the same order, hence the same ``NRT_incref`` /
``NRT_decref`` calls and the same compiled functions, from about 40% fewer
lowered IR lines. Installed in place of numba's method where numba has it
(:data:`WALKS_MEMINFOS_ONLY`).
"""

from __future__ import annotations

__all__ = ["WALKS_MEMINFOS_ONLY", "get_meminfos", "holds_meminfo"]

#: numba's own ``NRTContext.get_meminfos`` (None where numba has none)
NUMBAS_GET_MEMINFOS = None


def holds_meminfo(dmm, ty, builder):
    """Whether a value of the numba type ``ty`` holds a meminfo anywhere (its
    data model's own, or one of a member's, by the walk of
    :func:`get_meminfos`); kept on the data model, which the manager ``dmm``
    keeps per type."""
    model = dmm[ty]
    held = getattr(model, "_holds_meminfo", None)
    if held is None:
        held = model.has_nrt_meminfo() or any(holds_meminfo(dmm, member, builder)
                                              for member, _ in model.traverse(builder))
        model._holds_meminfo = held
    return held


def get_meminfos(nrt, builder, ty, val):
    """numba's ``NRTContext.get_meminfos``: the list of ``(type, meminfo)``
    inside ``val`` (of type ``ty``), depth first in member order, each
    member extracted only if it holds a meminfo."""
    dmm = nrt._context.data_model_manager
    model = dmm[ty]
    meminfos = []
    if model.has_nrt_meminfo():
        meminfos.append((ty, model.get_nrt_meminfo(builder, val)))
    for member, getter in model.traverse(builder):
        if holds_meminfo(dmm, member, builder):
            meminfos.extend(get_meminfos(nrt, builder, member, getter(val)))
    return meminfos


def _install():
    """Make :func:`get_meminfos` numba's; whether numba has the method (and
    its data models the calls it makes)."""
    global NUMBAS_GET_MEMINFOS
    from numba.core.datamodel import models
    from numba.core.runtime import context

    method = getattr(context.NRTContext, "get_meminfos", None)
    if method is None or not all(hasattr(models.DataModel, name) for name in
                                 ("traverse", "has_nrt_meminfo", "get_nrt_meminfo")):
        return False
    NUMBAS_GET_MEMINFOS = method
    context.NRTContext.get_meminfos = get_meminfos
    return True


#: whether numba's reference counting walks only the members that hold a meminfo
WALKS_MEMINFOS_ONLY = _install()
