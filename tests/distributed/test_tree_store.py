"""The three growers write the same tree into the one growing storage (``_state.NodeStore``).

On watermelon 2.0 with information gain every grower must store the tree of
周志华 图4.4: the Python loop (``record_trace=True``), the compiled subtree
growth (the default) and the Dask level grower. The expected store is built
here from the book's figure and 表4.1's row counts, numbering the nodes as a
grower does: a node's children get the next ids when it is split, the nodes
split depth first in memory and level by level on Dask.
"""

import numpy as np
import pytest
import dask.dataframe as dd

from hyperplane.datasets import load_watermelon
from hyperplane.tree import DecisionTreeClassifier
from hyperplane.tree._grow import _builder

#: 周志华 图4.4 with each node's (好瓜 是, 否) rows of 表4.1: (counts, attribute,
#: {value: node}), or (counts,) for a leaf; 色泽 = 浅白 below 稍蜷 has no row:
#: a leaf with its parent's class weights (图4.2 line 12) and weight 0, (counts, 0)
FIGURE_4_4 = ((8, 9), "纹理", {
    "清晰": ((7, 2), "根蒂", {
        "蜷缩": ((5, 0),),
        "稍蜷": ((2, 1), "色泽", {
            "青绿": ((1, 0),),
            "乌黑": ((1, 1), "触感", {"硬滑": ((1, 0),), "软粘": ((0, 1),)}),
            "浅白": ((2, 1), 0)}),
        "硬挺": ((0, 1),)}),
    "稍糊": ((1, 4), "触感", {"硬滑": ((0, 4),), "软粘": ((1, 0),)}),
    "模糊": ((0, 3),)})


def expected_store(tree, depth_first):
    """``[(counts, attribute or None, [child ids], depth, weight)]`` by store id:
    the children of a split node take the next ids, the nodes split in
    depth-first (stack) or level (queue) order."""
    entries = [None]
    pending = [(0, tree, 0)]
    while pending:
        node_id, node, depth = pending.pop() if depth_first else pending.pop(0)
        weight = node[1] if len(node) == 2 else sum(node[0])
        if len(node) < 3:
            entries[node_id] = (node[0], None, [], depth, weight)
            continue
        counts, attribute, branches = node
        ids = list(range(len(entries), len(entries) + len(branches)))
        entries.extend([None] * len(branches))
        entries[node_id] = (counts, attribute, ids, depth, weight)
        kids = [(t, child, depth + 1) for t, child in zip(ids, branches.values())]
        pending.extend(reversed(kids) if depth_first else kids)
    return entries


def store_entries(store, est):
    """The same list read from a grown store (class counts in 是, 否 order)."""
    yes, no = (list(est.classes_).index(label) for label in ("是", "否"))
    entries = []
    for t in range(store.n_nodes):
        j = store.feature[t]
        first, k = store.first_child[t], store.n_child[t]
        entries.append(((store.value[t, yes], store.value[t, no]),
                        est._spec.names[j] if j >= 0 else None,
                        list(range(first, first + k)), store.depth[t], store.weight[t]))
    return entries


@pytest.fixture
def grown_stores(monkeypatch):
    """Every store a fit finalizes (``_builder.finalize``) during the test."""
    stores = []
    finalize = _builder.finalize

    def recording(store, *args, **kw):
        stores.append(store)
        return finalize(store, *args, **kw)

    monkeypatch.setattr(_builder, "finalize", recording)
    return stores


def test_three_growers_store_figure_4_4(dask_client, grown_stores):
    X, y = load_watermelon("2.0")
    python_loop = DecisionTreeClassifier(criterion="info_gain", record_trace=True).fit(X, y)
    compiled = DecisionTreeClassifier(criterion="info_gain").fit(X, y)
    on_dask = DecisionTreeClassifier(criterion="info_gain").fit(
        dd.from_pandas(X, npartitions=2), dd.from_pandas(y, npartitions=2))
    loop_store, compiled_store, dask_store = grown_stores

    depth_first = expected_store(FIGURE_4_4, depth_first=True)
    assert store_entries(loop_store, python_loop) == depth_first
    assert store_entries(compiled_store, compiled) == depth_first
    assert store_entries(dask_store, on_dask) == expected_store(FIGURE_4_4, depth_first=False)
    n = loop_store.n_nodes
    for a, b in zip(loop_store[:-1], compiled_store[:-1]):     # every field, bit for bit
        np.testing.assert_array_equal(a[:n], b[:n])
    for store in grown_stores:                                  # categorical tests, r̃_v
        n = store.n_nodes
        assert not store.is_numeric[:n].any() and np.isnan(store.threshold[:n]).all()
        internal = store.feature[:n] >= 0
        np.testing.assert_array_equal(store.branch_r[:n][~internal & (store.weight[:n] == 0)],
                                      0.0)
