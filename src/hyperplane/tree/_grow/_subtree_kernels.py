"""Compiled generate_tree (周志华 4.1): whole subtrees grown in one compiled call.

Without pre-pruning or a per-node trace, :func:`grow_subtree` grows a subtree
node by node exactly as :func:`~._builder.grow` does in Python (the same
scoring and the same :func:`~._expand_kernels.expand_node`), without Python
work per node. A tree with exact numeric attributes scores every node with
:func:`~hyperplane.tree._scan._node_kernels.score_attributes` from its presorted orders; a
regression tree by its rows' moments; a coded-only tree from its nodes' class
tables (:mod:`._class_tables_kernels`: histogram subtraction, small nodes
by sorting).
"""

from __future__ import annotations

from numba.core import types
from numba.core.imputils import impl_ret_borrowed
from numba.extending import intrinsic

from ..._numba import by_first_type, by_none, jit, jit_internal
from ._class_tables_kernels import (adopt_tables, hand_down, new_pool, node_table_scores,
                                    node_tables, pass_tables_on, release_slot)
from ._expand_kernels import EMPTY_BRANCH, GROW, attributes_left, expand_node
from .._scan._node_kernels import score_attributes
from .._scan._loops_kernels import all_unit, sum_in_order
from .._scan._regression_kernels import expand_regression_node, regression_scores
from .._scan._split_kernels import CATEGORICAL
from .._absent import never, nothing
from .._state import (Deferred, NodeTest, Orders, Pending, Scan, Subtree, Workspace,
                      compiled_new_node)
from .._traverse_kernels import child_orders, child_spare
from ._store_kernels import split_leaf


#: the split table of an exact node: a classifier's
#: (:func:`~hyperplane.tree._scan._node_kernels.score_attributes`, ``least`` None) or a
#: regression tree's (:func:`~hyperplane.tree._scan._regression_kernels.regression_scores`,
#: ``least`` its :class:`~hyperplane.tree._state.MinDecrease`)
exact_scores = by_none(score_attributes, regression_scores, pass_first=(False, True))


#: a node's expansion: a classifier's (:func:`~._expand_kernels.expand_node`,
#: ``least`` None) or a regression tree's
#: (:func:`~hyperplane.tree._scan._regression_kernels.expand_regression_node`)
expand = by_none(expand_node, expand_regression_node, pass_first=(False, False))


@jit_internal
def _exact_split_table(workspace, columns, node, rules, tuning, pool, slot):
    """The split table of a node of a tree with exact numeric attributes, scored
    from its presorted orders with ``workspace``'s scratch (no class tables:
    ``pool`` and ``slot`` unused)."""
    scan = Scan(workspace.wbuf, all_unit(node.w), tuning.clogc)
    return exact_scores(tuning.least, columns, node, rules, scan, tuning.parallel_rows)


def _exact_growth(space):
    """Whether the numba type ``space`` of a growth's scratch is an exact
    tree's :class:`~hyperplane.tree._state.Workspace` (else: a coded-only tree's bin-scan
    :class:`~hyperplane.tree._state.Scratch`, or None without binned attributes)."""
    return isinstance(space, types.BaseNamedTuple) and space.instance_class is Workspace


#: a node's split table: ``subtree_splits(space, columns, node,
#: rules, tuning, pool, slot)`` is :func:`_exact_split_table` when the growth's
#: scratch ``space`` is an exact tree's workspace, else :func:`node_table_scores`; numba
#: chooses when it compiles :func:`grow_subtree`, which then holds one of them
subtree_splits = by_first_type(lambda space: _exact_split_table if _exact_growth(space)
                               else node_table_scores, "subtree_splits")


@intrinsic
def _workspace_branch_scratch(typingctx, space):
    """The row-indexed branch scratch of exact growth, ``space.dest``, read in
    the caller's IR (a numba intrinsic: no compiled unit for a field)."""
    index = space.fields.index("dest")

    def codegen(context, builder, signature, args):
        return impl_ret_borrowed(context, builder, signature.return_type,
                                 builder.extract_value(args[0], index))
    return space.types[index](space), codegen


#: the branch scratch of a growth with exact attributes (its workspace's) or without (None)
#: (a coded-only tree's partition needs none: :data:`~.._absent.nothing`, no unit compiled)
branch_scratch = by_first_type(lambda space: _workspace_branch_scratch if _exact_growth(space)
                               else nothing, "branch_scratch")


@jit_internal
def _new_deferred(root, pool, handoff):
    """The empty :class:`~hyperplane.tree._state.Deferred` lists of a growth that may defer nodes."""
    ids = [0]
    nodes = [root]
    tables = [hand_down(root, -1, pool, handoff)]
    ids.pop()  # typed by their first element, which goes again
    nodes.pop()
    tables.pop()
    return Deferred(ids, nodes, tables)


#: ``new_deferred(defer_rows, root, pool, handoff)``: None when ``defer_rows`` is None (a
#: growth that defers no node keeps no list of them: :data:`~.._absent.nothing`), else the
#: empty lists of deferred nodes; numba compiles the one the growth's tuning asks for
new_deferred = by_none(nothing, _new_deferred, pass_first=(False, False))


@jit_internal
def _deferred_if_small(deferred, node_id, node, slot, pool, handoff, defer_rows):
    """Whether ``node`` (``node_id`` in the call's store) is left to a further call:
    it is not the call's root and has at least ``handoff.min_rows`` and fewer
    than ``defer_rows`` rows. Then it joins ``deferred`` with the tables it
    takes along (:func:`~._class_tables_kernels.hand_down`)."""
    if node_id > 0 and handoff.min_rows <= node.rows.shape[0] < defer_rows:
        deferred.tables.append(hand_down(node, slot, pool, handoff))
        deferred.ids.append(node_id)
        deferred.nodes.append(node)
        return True
    return False


#: ``deferred_here(deferred, node_id, node, slot, pool, handoff, defer_rows)``: whether the
#: node is deferred (:func:`_deferred_if_small`; never when ``deferred`` is None:
#: :data:`~.._absent.never`)
deferred_here = by_none(never, _deferred_if_small)


@jit
def grow_subtree(columns, root, rules, tuning, space, tables, handoff, store):
    """Grow the subtree below ``root`` depth first (generate_tree, 周志华 4.1).

    Every node is scored and expanded by
    :func:`~._expand_kernels.expand_node`, the step :func:`~._builder.grow`
    takes in Python (a regression tree's, ``tuning.least`` not None:
    :func:`~hyperplane.tree._scan._regression_kernels.regression_scores` and
    :func:`~hyperplane.tree._scan._regression_kernels.expand_regression_node`, exact or binned
    attributes, always with a workspace and never class tables). With exact
    numeric attributes (``space`` a :class:`~hyperplane.tree._state.Workspace`) a node is
    scored from its presorted orders and values (:data:`exact_scores`, scratch in
    ``space``), its children's partitioned from its own. Otherwise (``space``
    the bin scans' :class:`~hyperplane.tree._state.Scratch`, or None when no attribute is
    binned; numba compiles only the kind of scoring the tree takes,
    :data:`subtree_splits`, and only the parallel kernels a
    ``tuning.parallel_rows`` not None asks for) it is scored from
    its class tables: nodes pass their tables on to their largest child when it
    has at least ``tuning.subtract_rows`` rows
    (:data:`~._class_tables_kernels.pass_tables_on`, which chooses it); nodes
    below ``tuning.sort_rows`` rows are scored by :func:`~._class_tables_kernels.small_node_scores`.

    Returns the grown :class:`~hyperplane.tree._state.Subtree`: its nodes in
    ``store``, a :class:`~hyperplane.tree._state.NodeStore` whose node 0 is ``root``
    (:func:`~._subtree.job_store`; a node is split by
    :func:`~._store_kernels.split_leaf`, the Python loop's rule) or a larger copy, and the
    deferred nodes. Nodes below
    ``tuning.defer_rows`` rows (other than node 0) are left unexpanded and
    returned (:class:`~hyperplane.tree._state.Deferred`: their ids, nodes and
    tables; ``tuning.defer_rows`` None: none is, and numba compiles the growth
    without the deferred nodes' lists, :data:`new_deferred`), to be grown by further calls
    (side by side, as they are independent): those of at least
    ``handoff.min_rows`` rows; smaller ones are grown here. ``tables``: the
    root's handed-down :class:`~hyperplane.tree._state.Tables` (:data:`~._class_tables_kernels.NO_TABLES`: none), as a
    deferred node's ``tables`` entry is (:func:`~._class_tables_kernels.hand_down`); with them a job
    grows its nodes with the numbers one call growing the whole tree would
    use. ``tables`` None: the growth keeps no class tables (an exact or
    regression tree, or a coded one whose every node sorts), and numba
    compiles it without their code.
    """
    n_classes = root.value.shape[0]
    pool = new_pool(tables, columns.codes_count, n_classes)
    dest = branch_scratch(space)
    leaf_weight = 0.0
    deferred = new_deferred(tuning.defer_rows, root, pool, handoff)
    stack = [Pending(root, 0, adopt_tables(tables, pool))]
    while len(stack) > 0:
        pending = stack.pop()
        node, node_id, slot = pending.node, pending.node_id, pending.slot
        if deferred_here(deferred, node_id, node, slot, pool, handoff, tuning.defer_rows):
            continue
        slot = node_tables(pool, columns, node, slot, tuning)
        splits = subtree_splits(space, columns, node, rules, tuning, pool, slot)
        children = expand(tuning.least, node, splits, columns, rules, n_classes, dest,
                          tuning.parallel_rows)
        j = children.attribute
        if j < 0:
            release_slot(pool, slot)
            leaf_weight += sum_in_order(node.w)
            continue
        kept = pass_tables_on(pool, slot, columns, node, children, tuning.subtract_rows,
                              tuning.parallel_rows, tuning.groups)
        first = store.n_nodes
        store = split_leaf(store, node_id,
                                NodeTest(j, columns.kind[j] != CATEGORICAL, splits.threshold[j]),
                                children.r, children.value, children.weight)
        avail = attributes_left(node.avail, j, columns.kind[j] != CATEGORICAL)
        offsets = children.offsets
        for v in range(children.r.shape[0] - 1, -1, -1):
            a, b = offsets[v], offsets[v + 1]
            if children.reason[v] == GROW:
                n_num = node.order.shape[0]
                child = compiled_new_node(
                    children.rows[a:b].copy(), children.w[a:b].copy(),
                    child_orders(Orders(children.order, children.sorted_x), offsets, v, n_num),
                    node.count, children.value[v], node.depth + 1, avail,
                    child_spare(Orders(children.spare_order, children.spare_x), offsets, v,
                                n_num))
                stack.append(Pending(child, first + v, slot if v == kept else -1))
            elif children.reason[v] != EMPTY_BRANCH:
                leaf_weight += sum_in_order(children.w[a:b])
    return Subtree(store, leaf_weight, deferred)
