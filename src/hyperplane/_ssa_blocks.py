"""numba's SSA reconstruction rewrites only the blocks that name the variable it fixes.

numba puts every function's IR in SSA form (``numba.core.ssa``, the algorithm
of Choi et al. as in the SSA book, Rastello & Bouchez Tichadou (eds.), ch. 5):
for each variable assigned more than once (an SSA violator) it renames the
assignments (``_fresh_vars``) and then points every use at its reaching
definition, adding phi nodes on the iterated dominance frontier
(``_fix_ssa_vars``). numba 0.68 walks every statement of every block twice per
violator, though a block that neither assigns nor reads the variable comes
out unchanged: 2 V S handler calls for V violators and S statements. A large
loop with inlined steps has both many: the SMO's ``smo_iterate`` ~100
violators over ~1.7k statements, ~174k calls, ~15% of its own compilation
(cProfile of a fresh compile after a fit of ``hyperplane fit svc heart_scale``).

:func:`_run_ssa` is numba's ``_run_ssa`` with one index made first, the
labels of the blocks in which each variable occurs (as a target or among a
statement's ``list_vars``); per violator the two rewrites run numba's own
handlers over those blocks only and carry the others' statements over as
they are. The handlers visit the same statements in the same order, so the
renamed variables, the phi nodes and every compiled function are the same.
Installed in place of numba's ``_run_ssa`` where numba has the functions it
uses (:data:`INDEXES_SSA_BLOCKS`); another numba reconstructs as it does.
"""

from __future__ import annotations

from collections import defaultdict

__all__ = ["INDEXES_SSA_BLOCKS"]

#: numba's own ``ssa._run_ssa`` (None where it is not replaced)
NUMBAS_RUN_SSA = None


def _labels_of_names(blocks):
    """Variable name -> the labels of the blocks whose statements name it."""
    labels = defaultdict(set)
    for label, block in blocks.items():
        for stmt in block.body:
            for var in stmt.list_vars():
                labels[var.name].add(label)
    return labels


def _rewrite_where_named(blocks, states, handler, where):
    """numba's ``_run_block_rewrite`` over the blocks labelled in ``where``;
    every other block's statements are carried over unchanged (each handler
    returns a statement that does not name the variable as it is)."""
    from numba.core import ir, ssa

    newblocks = {}
    for label, blk in blocks.items():
        newblk = ir.Block(scope=blk.scope, loc=blk.loc)
        if label in where:
            states["label"] = label
            states["block"] = blk
            newblk.body = list(ssa._run_ssa_block_pass(states, blk, handler))
        else:
            newblk.body = list(blk.body)
        newblocks[label] = newblk
    return newblocks


def _run_ssa(blocks):
    """numba's ``ssa._run_ssa``, each violator's rewrites over the blocks that name it."""
    from numba.core import errors, ssa
    from numba.core.analysis import compute_cfg_from_blocks

    if not blocks:
        return {}
    cfg = compute_cfg_from_blocks(blocks)
    df_plus = ssa._iterated_domfronts(cfg)
    violators = ssa._find_defs_violators(blocks, cfg)
    cache_list_vars = ssa._CacheListVars()
    where = _labels_of_names(blocks)
    for varname in violators:
        states = ssa._make_states(blocks)
        states["varname"] = varname
        states["defmap"] = defmap = defaultdict(list)
        blocks = _rewrite_where_named(blocks, states, ssa._FreshVarHandler(), where[varname])
        states = ssa._make_states(blocks)
        states["varname"] = varname
        states["defmap"] = defmap
        states["phimap"] = phimap = defaultdict(list)
        states["cfg"] = cfg
        states["phi_locations"] = ssa._compute_phi_locations(df_plus, defmap)
        blocks = _rewrite_where_named(blocks, states, ssa._FixSSAVars(cache_list_vars),
                                      where[varname])
        for label, philist in phimap.items():
            blocks[label].body = philist + blocks[label].body
    if compute_cfg_from_blocks(blocks) != cfg:
        raise errors.CompilerError("CFG mutated in SSA pass")
    return blocks


def _index_ssa_blocks():
    """Put :func:`_run_ssa` in place of numba's; whether numba has what it uses."""
    from numba.core import ssa

    needed = ("_run_ssa", "_iterated_domfronts", "_find_defs_violators", "_CacheListVars",
              "_make_states", "_run_ssa_block_pass", "_FreshVarHandler", "_FixSSAVars",
              "_compute_phi_locations")
    global NUMBAS_RUN_SSA
    if not all(hasattr(ssa, name) for name in needed):
        return False
    if ssa._run_ssa is not _run_ssa:
        NUMBAS_RUN_SSA = ssa._run_ssa
    ssa._run_ssa = _run_ssa
    return True


#: whether numba's SSA reconstruction rewrites only the blocks naming each variable (:func:`_run_ssa`)
INDEXES_SSA_BLOCKS = _index_ssa_blocks()
