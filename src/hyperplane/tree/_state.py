"""Named state of the tree kernels: what a grower passes around, by name.

The compiled kernels take a few of these named tuples instead of long
positional lists (numba compiles a field access to a plain load, so they cost
nothing at run time): the rules of growth (:class:`GrowRules`), the training
columns (:class:`Columns`), the node being grown (:class:`Node`), its split
table (:class:`Splits`), its expansion (:class:`Children`), the scan buffers
(:class:`Scan`, :class:`Scratch`, :class:`GatherBuffers`), a regression tree's
admissibility bound (:class:`MinDecrease`), the subtree grower's knobs and
buffers (:class:`Tuning`, :class:`Workspace`, :class:`TablePool`), the tree while
it grows (:class:`NodeStore`, a split's :class:`NodeTest`, a compiled call's
:class:`Subtree` and :class:`Deferred` nodes) and a grown tree's arrays (:class:`TreeArrays`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._numba import jit_inline


class _GrowRuleFields(NamedTuple):
    criterion: int  # ENTROPY or GINI
    #: C4.5 / J48's rules (criterion="gain_ratio"): True, or None (not C4.5: numba
    #: then compiles no C4.5 attribute choice)
    c45: object
    max_depth: float
    min_split: float  # rows (C4.5: weight) a node needs to be split
    min_leaf: float
    min_weight: float  # a node lighter than this has no admissible C4.5 split (0: no bound)
    #: exact numeric cuts move to a training value (:func:`~hyperplane.tree._grow._expand_kernels.training_value_cut`):
    #: True, or None (the midpoint: numba then compiles no move)
    cut_at_training_value: object = None


class GrowRules(_GrowRuleFields):
    """The parameters every expansion obeys.

    ``c45`` and ``cut_at_training_value`` are True or None: numba chooses the
    rules by their type, so a False, typed as a bool like True, would grow
    with C4.5's rules; it raises :class:`ValueError` instead.
    """

    __slots__ = ()

    def __new__(cls, criterion, c45, max_depth, min_split, min_leaf, min_weight,
                cut_at_training_value=None):
        for name, flag in (("c45", c45), ("cut_at_training_value", cut_at_training_value)):
            if flag is not True and flag is not None:
                raise ValueError(f"GrowRules.{name} is True or None, not {flag!r}")
        return super().__new__(cls, criterion, c45, max_depth, min_split, min_leaf, min_weight,
                               cut_at_training_value)


class Columns(NamedTuple):
    """The training data as the kernels read them (attributes as rows)."""

    num_T: np.ndarray  # (p_num, n) exact numeric attributes
    codes_T: np.ndarray  # (p_coded, n) int32 codes, -1 missing
    codes_rows: np.ndarray  # (n, p_coded) the same codes row-major
    codes_count: np.ndarray  # (p_coded,) codes of each coded column
    kind: np.ndarray  # (p,) NUMERIC / CATEGORICAL / BINNED
    col: np.ndarray  # (p,) row of attribute j in num_T or codes_T
    #: (p_coded, 2, width) smallest [c, 0, b] and largest [c, 1, b] training value of
    #: bin b of binned column c (NaN: a bin without one); where a binned cut's threshold lies
    bin_range: np.ndarray
    #: (n,) class index or regression target; a Dask level's bins: their
    #: :class:`~._scan._regression_kernels.BinMoments`, which a regression expansion reads
    y: np.ndarray


class Node(NamedTuple):
    """A node being grown: its rows with their weights (a row missing a value
    tested above carries its ``r̃_v``-scaled weight), the rows sorted by every
    exact numeric attribute and the attribute's values in that order (so a
    scan reads them in sequence), ``count[pos]`` rows that entry ``pos``
    stands for (empty: one each; a class table's cells stand for several),
    and the spare region where its children's orders and values are written
    (:func:`~._traverse_kernels.children_regions`; empty: none)."""

    rows: np.ndarray
    w: np.ndarray
    order: np.ndarray  # (p_num, m) rows sorted by each exact numeric attribute, NaN last
    sorted_x: np.ndarray  # (p_num, m) float64: sorted_x[f, pos] = num_T[f, order[f, pos]]
    count: np.ndarray
    value: np.ndarray  # class weights
    depth: int
    avail: np.ndarray  # attributes still usable
    spare_order: np.ndarray  # flat (p_num * m,) or empty: where the children's orders go
    spare_x: np.ndarray  # flat (p_num * m,) or empty: where the children's sorted values go


class Orders(NamedTuple):
    """Rows sorted by every exact numeric attribute and their values in that
    order (:attr:`Node.order`, :attr:`Node.sorted_x`): ``(p_num, m)`` blocks,
    or flat, as a node's spare region and its children's are."""

    order: np.ndarray
    sorted_x: np.ndarray


def new_node(rows, w, orders, count, value, depth, avail, spare):
    """The :class:`Node` of ``rows`` with weights ``w``, their :class:`Orders`
    ``orders`` and ``spare`` (its spare region), in Python and in compiled
    code (:data:`compiled_new_node`); every place that makes a node calls it.

    Examples
    --------
    >>> import numpy as np
    >>> from hyperplane.tree._state import Orders, new_node
    >>> none = Orders(np.zeros((0, 2), dtype=np.int64), np.zeros((0, 2)))
    >>> node = new_node(np.arange(2), np.ones(2), none, np.zeros(0, dtype=np.int64),
    ...                 np.array([1.0, 1.0]), 0, np.ones(3, dtype=bool),
    ...                 Orders(none.order.ravel(), none.sorted_x.ravel()))
    >>> node.rows.tolist(), node.depth, node.order.shape
    ([0, 1], 0, (0, 2))
    """
    return Node(rows, w, orders.order, orders.sorted_x, count, value, depth, avail,
                spare.order, spare.sorted_x)


#: :func:`new_node` for compiled callers, inlined into their IR before numba types them
#: (its untyped inlining): nothing of its own is typed or compiled, where an
#: ``overload(new_node, inline="always")`` compiled it as a library of its own (0.1 s and
#: ~0.5k instructions in every regressor's first fit)
compiled_new_node = jit_inline(new_node)


class RowWeights(NamedTuple):
    """Rows of a node (or of its children, one after the other) and their weights."""

    rows: np.ndarray
    w: np.ndarray


class Span(NamedTuple):
    """Coded columns ``lo`` to ``hi − 1`` (one thread's group, or all)."""

    lo: int
    hi: int


class Kept(NamedTuple):
    """The child whose class tables a node's become (histogram subtraction):
    its branch and ``r̃_v``."""

    branch: int
    r: float


class Tables(NamedTuple):
    """A node's class tables: weight ``table[c, code, k]`` and row count
    ``counts[c, code]`` of every coded column ``c`` (missing: the last code)."""

    table: np.ndarray
    counts: np.ndarray


class Splits(NamedTuple):
    """A node's split table: one entry per attribute."""

    score: np.ndarray  # rho * (I(D~) - sum_v r_v I(D~_v)), C4.5: MDL-charged
    ratio: np.ndarray  # score / IV
    after: np.ndarray  # sum_v r_v I(D~_v) (the Gini index for gini)
    rho: np.ndarray
    threshold: np.ndarray  # numeric cut (NaN: categorical)
    cut_bin: np.ndarray  # binned cut: code <= cut_bin goes first
    valid: np.ndarray  # admissible under min_samples_leaf (and C4.5's rules)


class Split(NamedTuple):
    """One attribute's entry of a split table (what every scan returns)."""

    score: float
    ratio: float
    after: float
    rho: float
    threshold: float  # numeric cut x <= threshold (NaN: categorical)
    cut_bin: int  # binned cut code <= cut_bin (-1: none)
    valid: bool


class CutBounds(NamedTuple):
    """What an ordered scan of one node's attribute compares its cuts with
    (:func:`~hyperplane.tree._scan._numeric_cut_kernels.cut_bounds`)."""

    tie: float  # a cut replaces the best so far when better by more than this
    equal: float  # values closer than this are one value (no cut between them)
    min_side: float  # C4.5: the least weight of either side
    floor: float  # a side lighter than this is empty
    possible: bool  # enough known rows for any admissible cut


class Children(NamedTuple):
    """The expansion of a node on ``attribute`` (−1: the node stays a leaf)."""

    attribute: int
    branch: np.ndarray  # branch of each of the node's rows (MISSING: every branch)
    r: np.ndarray  # r~_v
    rows: np.ndarray  # child v owns rows[offsets[v]:offsets[v + 1]] (and w)
    w: np.ndarray
    order: np.ndarray  # flat: child v's (p_num, size) block is child_orders(...).order
    sorted_x: np.ndarray  # flat, as order
    offsets: np.ndarray
    value: np.ndarray  # (n_branches, K) class weights (an empty branch: the parent's)
    weight: np.ndarray  # (n_branches,) sum of value (an empty branch: 0)
    reason: np.ndarray  # leaf_reason of each child (GROW: grow it further)
    unit: np.ndarray  # every row of the child weighs 1
    spare_order: np.ndarray  # flat, as order (or empty): child_spare(...) is child v's
    spare_x: np.ndarray  # spare region (Node.spare_order, Node.spare_x)


class Partition(NamedTuple):
    """A node's rows dealt to its branches (:func:`~._traverse_kernels.partition_node`):
    child ``v`` owns ``rows[offsets[v]:offsets[v + 1]]`` (and ``w``), its
    ``(p_num, size)`` block of the flat ``order`` and ``sorted_x``
    (:func:`~._traverse_kernels.child_orders`) and the same part of ``spare_order``
    / ``spare_x`` (empty: none) as its spare region."""

    rows: np.ndarray
    w: np.ndarray
    order: np.ndarray
    sorted_x: np.ndarray
    offsets: np.ndarray
    spare_order: np.ndarray
    spare_x: np.ndarray


class NodeStore(NamedTuple):
    """A tree while it grows: every grower (the Python loop, the compiled
    subtree growth, the Dask levels) writes its nodes into one of these
    (:func:`new_store`, :func:`~hyperplane.tree._grow._store_kernels.attach_children`,
    :func:`~hyperplane.tree._grow._store_kernels.graft`), and the fitted tree is
    it laid out in preorder (:func:`~hyperplane.tree._grow._builder.finalize`).

    The first ``n_nodes`` entries of each array are the nodes (node 0 the
    root), the rest room to grow into (the arrays are reallocated at twice
    their length when full, as scikit-learn's ``Tree._resize`` does). The
    children of node ``t`` are the contiguous nodes ``first_child[t] ..
    first_child[t] + n_child[t] − 1`` in branch order: a node's branches are
    all made when it is split (周志华 图4.2, line 11: one child per value), so
    no list of children is kept while the tree grows.
    """

    feature: np.ndarray  # tested attribute, -1 at a leaf
    is_numeric: np.ndarray  # the test is ``x <= threshold`` (else one branch per value)
    threshold: np.ndarray  # numeric cut (NaN: categorical or a leaf)
    first_child: np.ndarray  # the first child's id (0 at a leaf)
    n_child: np.ndarray  # number of branches (0 at a leaf)
    branch_r: np.ndarray  # r_v of the branch that leads to the node (周志华 4.4.2; root: 1)
    value: np.ndarray  # (capacity, K) class weights (a regression tree: its moments)
    weight: np.ndarray  # the node's weight
    depth: np.ndarray  # the root's 0
    n_nodes: int  # the nodes so far


class NodeTest(NamedTuple):
    """The test a node makes (:func:`~hyperplane.tree._grow._store_kernels.attach_children`)."""

    feature: int  # the attribute
    numeric: bool  # ``x <= threshold`` first (else one branch per value)
    threshold: float  # the cut (NaN: categorical)


def new_store(value, weight, depth, capacity):
    """A :class:`NodeStore` of one node, the root (a leaf until it is split):
    statistic ``value``, weight ``weight``, depth ``depth``, room for
    ``capacity`` nodes (at least 1). Made in Python: a compiled subtree
    growth is handed its store (:func:`~hyperplane.tree._grow._subtree_kernels.grow_subtree`).

    Examples
    --------
    >>> import numpy as np
    >>> from hyperplane.tree._state import new_store
    >>> store = new_store(np.array([3.0, 1.0]), 4.0, 0, 8)
    >>> store.n_nodes, store.feature.shape, store.value[0].tolist(), store.weight[:1].tolist()
    (1, (8,), [3.0, 1.0], [4.0])
    """
    capacity = max(capacity, 1)
    n_stats = value.shape[0]
    values = np.zeros((capacity, n_stats))
    for k in range(n_stats):
        values[0, k] = value[k]
    weights = np.zeros(capacity)
    weights[0] = weight
    depths = np.zeros(capacity, dtype=np.int64)
    depths[0] = depth
    return NodeStore(np.full(capacity, -1, dtype=np.int64), np.zeros(capacity, dtype=np.bool_),
                     np.full(capacity, np.nan), np.zeros(capacity, dtype=np.int64),
                     np.zeros(capacity, dtype=np.int64), np.ones(capacity), values, weights,
                     depths, 1)


class Deferred(NamedTuple):
    """The nodes a compiled call left for further calls: their ids in its
    store, the nodes, and the class tables each takes along."""

    ids: list
    nodes: list
    tables: list


class Pending(NamedTuple):
    """A node the depth-first growth has still to expand: the node, its id in
    the store, and its class tables' slot in the pool (−1: none)."""

    node: Node
    node_id: int
    slot: int


class Subtree(NamedTuple):
    """What one compiled call grows (:func:`~hyperplane.tree._grow._subtree_kernels.grow_subtree`):
    a :class:`NodeStore` whose node 0 is the call's root, the weight that
    ended in its leaves, and the nodes it left for further calls
    (:class:`Deferred`; None from a call that defers none,
    :attr:`Tuning.defer_rows` None)."""

    store: NodeStore
    leaf_weight: float  # the total weight that ended in leaves
    deferred: Deferred | None


class TreeArrays(NamedTuple):
    """A tree as flat arrays: the children of node ``t`` are
    ``children[child_start[t]:child_start[t] + n_child[t]]``."""

    feature: np.ndarray  # tested attribute, -1 at a leaf
    is_numeric: np.ndarray
    threshold: np.ndarray  # numeric cut (a bin for coded data: code <= cut first)
    child_start: np.ndarray
    n_child: np.ndarray
    children: np.ndarray
    branch_r: np.ndarray  # r_v of the branch leading to each node


class Walk(NamedTuple):
    """The pending branches of one sample's walk down a tree."""

    node: np.ndarray
    w: np.ndarray


class Scan(NamedTuple):
    """What the scans of one node share besides its rows."""

    wbuf: np.ndarray  # (n,) scratch: the node's weight of each row, by row
    unit: bool  # every row of the node weighs 1 (counts are integers)
    clogc: np.ndarray  # c log2 c for c = 0..n (:func:`~hyperplane.tree._scan._split_kernels.c_log2_c`)


class GatherBuffers(NamedTuple):
    """Where an exact numeric scan gathers the node's classes and weights in the
    attribute's order (:func:`~hyperplane.tree._scan._numeric_cut_kernels.gather_buffers`):
    its part of the node's spare region, or empty arrays (the scan allocates)."""

    classes: np.ndarray  # int: a row's class index
    weights: np.ndarray  # float64: a row's weight in the node


class MinDecrease(NamedTuple):
    """A regression tree's admissibility bound: a cut must decrease the tree's
    weighted impurity ``W_t / W · score`` by at least ``min_impurity_decrease``
    (``W_t`` the node's weight, ``W`` the root's, ``root_weight``)."""

    min_impurity_decrease: float
    root_weight: float


class Tuning(NamedTuple):
    """How :func:`grow_subtree` works (not what it grows)."""

    clogc: np.ndarray  # c log2 c table of unit-weight entropy scans
    subtract_rows: int  # nodes this large pass their tables on (histogram subtraction)
    sort_rows: int  # nodes smaller than this sort their codes
    #: nodes smaller than this (other than the first) are returned unexpanded; None: no
    #: node is, and the growth is compiled without the deferred nodes' lists and tables
    defer_rows: int | None
    #: nodes this large score and partition their attributes in parallel; None: no node
    #: does, and the compiled growth holds no parallel region (numba drops the branches
    #: of an ``is None`` test on an argument when it compiles: a smaller, faster compile)
    parallel_rows: int | None
    groups: int  # column groups of a parallel node's table kernels (1: serial kernels)
    #: None: a classifier (class weights); a regression tree's :class:`MinDecrease`
    #: (the moments of its targets, :mod:`hyperplane.tree._scan._regression_kernels`); numba
    #: compiles the growth of the one kind a call grows
    least: MinDecrease | None = None


class Workspace(NamedTuple):
    """Scratch indexed by row that an exact tree's growth reuses from node to
    node (empty for coded-only trees, which need none)."""

    wbuf: np.ndarray  # (n,) float64: :attr:`Scan.wbuf`
    dest: np.ndarray  # (n,) int8 or int64: the branch of each row (as ``partition_node`` takes it)


class Scratch(NamedTuple):
    """Buffers of the bin scans (no allocation per node)."""

    bins: np.ndarray  # non-empty bins of one attribute
    bin_table: np.ndarray  # their class weights
    bin_rows: np.ndarray  # their row counts
    work: np.ndarray  # (WORK_ROWS, K) for :func:`~hyperplane.tree._scan._numeric_cut_kernels.ordered_cut`
    keys: np.ndarray  # sort keys of a small node


class TablePool(NamedTuple):
    """The class tables a compiled subtree growth reuses from node to node
    (:func:`~hyperplane.tree._grow._class_tables_kernels.new_pool`): slot ``s`` is
    ``tables[s]`` (weights ``[c, code, k]``) and ``counts[s]`` (rows ``[c, code]``);
    ``free`` lists the slots to hand out again. Slot 0 is the small nodes'
    scratch, allocated at its first use and never handed out."""

    tables: list
    counts: list
    free: list
