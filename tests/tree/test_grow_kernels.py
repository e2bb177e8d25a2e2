"""The expansion step of generate_tree (hyperplane.tree._grow._expand_kernels) vs NumPy references.

The references are the NumPy statements ``_builder.grow`` ran per node before
the step was compiled: attribute choice, branch weights, the partition of
rows and their class weights, and generate_tree's leaf test.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hyperplane.tree._grow._layout import layout
from hyperplane.tree._grow._expand_kernels import EMPTY_BRANCH, GROW, choose_attribute, expand_node
from hyperplane.tree._state import GrowRules, Node, Orders, Splits
from hyperplane.tree._scan._split_kernels import CATEGORICAL, NUMERIC
from hyperplane.tree._traverse_kernels import MISSING, branch_of_rows, child_orders

TIE = 1e-9


def splits_of(score, ratio, valid):
    p = score.shape[0]
    return Splits(np.asarray(score, dtype=float), np.asarray(ratio, dtype=float), np.zeros(p),
                  np.ones(p), np.full(p, np.nan), np.full(p, -1), np.asarray(valid, dtype=bool))


def c45_rules(c45):
    """Growth rules with C4.5's attribute choice (``c45`` true) or without (None)."""
    return GrowRules(0, c45 or None, np.inf, 2.0, 1.0, 0.0)


def test_grow_rules_refuse_a_false_flag():
    """numba chooses C4.5's rules and the training-value cut by the flags' types, and
    False is typed as True is: the rules take True or None, and a False raises."""
    with pytest.raises(ValueError, match="c45 is True or None"):
        GrowRules(0, False, np.inf, 2.0, 1.0, 0.0)
    with pytest.raises(ValueError, match="cut_at_training_value is True or None"):
        GrowRules(0, None, np.inf, 2.0, 1.0, 0.0, False)
    assert GrowRules(0, True, np.inf, 2.0, 1.0, 0.0, True).c45 is True


def is_final(value, depth, n_rows, avail, rules):
    """generate_tree's leaf test in NumPy (周志华 4.1 lines 2-6 plus the size limits)."""
    size = value.sum() if rules.c45 else n_rows
    return (np.count_nonzero(value > 0) <= 1 or depth >= rules.max_depth
            or size < rules.min_split or not avail.any() or value.sum() < rules.min_weight)


def select_attribute_reference(score, ratio, valid, use_ratio):
    """The attribute choice in NumPy: the first within 1e-9 of the best score; C4.5
    (Weka's C45ModelSelection): among attributes of gain ≥ mean gain − 1e-3, scanned in
    order, a ratio larger than the best so far (from 0) by more than 1e-6 takes over."""
    if not valid.any():
        return -1
    if use_ratio:
        candidates = valid & (score >= score[valid].mean() - 1e-3)
        chosen, best = -1, 0.0
        for j in np.flatnonzero(candidates):
            if ratio[j] - best > 1e-6:
                chosen, best = int(j), ratio[j]
        return chosen
    best = score[valid].max()
    return int(np.flatnonzero(valid & (score >= best - TIE))[0])


@given(st.data())
def test_choose_attribute_equals_reference(data):
    p = data.draw(st.integers(1, 20))
    grid = st.sampled_from([0.0, 5e-7, 0.1, 0.1 + 5e-10, 0.1 + 5e-7, 0.1 + 2e-6, 0.2,
                            0.2 - 9e-4, 0.3, 0.3 - 5e-10, 1.0])
    score = np.array(data.draw(st.lists(grid | st.floats(0, 1), min_size=p, max_size=p)))
    ratio = np.array(data.draw(st.lists(grid | st.floats(0, 1), min_size=p, max_size=p)))
    valid = np.array(data.draw(st.lists(st.booleans(), min_size=p, max_size=p)))
    use_ratio = data.draw(st.booleans())
    assert (choose_attribute(splits_of(score, ratio, valid), c45_rules(use_ratio))
            == select_attribute_reference(score, ratio, valid, use_ratio))


def problem(seed, n, n_classes, missing, weighted):
    rng = np.random.default_rng(seed)
    X = np.column_stack([rng.normal(size=n).round(1), rng.integers(0, 5, n).astype(float),
                         rng.normal(size=n)])
    X[rng.random(X.shape) < missing] = np.nan
    y = rng.integers(0, n_classes, n)
    w = rng.choice([0.5, 1.0, 3.0], n) if weighted else np.ones(n)
    return X, y, w


@settings(max_examples=40)
@given(seed=st.integers(0, 10_000), n=st.integers(2, 120), n_classes=st.integers(2, 9),
       missing=st.sampled_from([0.0, 0.2, 0.6]), weighted=st.booleans(),
       j=st.integers(0, 2), splitter=st.sampled_from(["best", "hist"]),
       use_ratio=st.booleans(), max_depth=st.sampled_from([1.0, np.inf]),
       min_split=st.sampled_from([2.0, 6.5]))
def test_split_node_equals_numpy_steps(seed, n, n_classes, missing, weighted, j, splitter,
                                       use_ratio, max_depth, min_split):
    X, y, w = problem(seed, n, n_classes, missing, weighted)
    categorical = np.array([False, True, False])
    data = layout(X, y, w, categorical, np.array([0, 5, 0]), n_classes, splitter, 8)
    rows = np.flatnonzero(np.random.default_rng(seed).random(n) < 0.8).astype(np.int64)
    if rows.size == 0:
        rows = np.arange(n, dtype=np.int64)
    wr = w[rows].copy()
    num = np.flatnonzero(data.kind == NUMERIC)
    order = np.array([rows[np.argsort(data.num_T[data.col[a], rows], kind="stable")]
                      for a in num], dtype=np.int32).reshape(num.size, rows.size)
    sorted_x = np.array([data.num_T[data.col[a], order[f]] for f, a in enumerate(num)],
                        dtype=np.float64).reshape(num.size, rows.size)
    kind, c = data.kind[j], data.col[j]
    threshold, cut_bin = 0.05, 3
    known = X[rows, j][~np.isnan(X[rows, j])]
    if known.size == 0:
        return  # no split is chosen on an attribute nobody knows
    avail = np.array([True, True, seed % 2 == 0])
    # NumPy reference: the statements grow used to run
    numeric = kind != CATEGORICAL
    code = data.codes_T[c, rows].astype(np.int64) if kind != NUMERIC else None
    branch = (branch_of_rows(data.num_T[c], rows, True, threshold) if kind == NUMERIC
              else np.where(code < 0, MISSING, np.where(code <= cut_bin, 0, 1) if numeric
                            else code))
    n_branches = 2 if numeric else 5
    ok = branch != MISSING
    w_branch = np.bincount(branch[ok], weights=wr[ok], minlength=n_branches)
    if w_branch.sum() <= 0:
        return
    r = w_branch / w_branch.sum()
    chosen = np.arange(3) == j  # C4.5 splits only on a gain ratio above 1e-6
    splits = splits_of(0.5 * chosen, 0.5 * chosen, chosen)
    splits.threshold[j], splits.cut_bin[j] = threshold, cut_bin
    rules = GrowRules(0, use_ratio or None, max_depth, min_split, 1.0, 0.0)
    parent = np.bincount(y[rows], weights=wr, minlength=n_classes)
    node = Node(rows, wr, order, sorted_x, np.zeros(0, dtype=np.int64), parent, 2, avail,
                np.zeros(0, dtype=np.int32), np.zeros(0))  # no spare region: fresh arrays
    out = expand_node(node, splits, data.columns, rules, n_classes, np.zeros(n, dtype=np.int64),
                      False)
    assert out.attribute == j
    child_rows, child_w, child_order, offsets = out.rows, out.w, out.order, out.offsets
    np.testing.assert_array_equal(out.branch, branch)
    np.testing.assert_array_equal(out.r, r)
    child_avail = avail.copy()
    if not numeric:
        child_avail[j] = False
    for v in range(n_branches):
        take = (branch == v) | (branch == MISSING)
        a, b = offsets[v], offsets[v + 1]
        np.testing.assert_array_equal(child_rows[a:b], rows[take])
        np.testing.assert_array_equal(child_w[a:b],
                                      np.where(branch[take] == MISSING, r[v] * wr[take], wr[take]))
        if w_branch[v] <= 0:  # an empty branch: a leaf with the parent's class weights
            assert out.reason[v] == EMPTY_BRANCH and out.weight[v] == 0.0
            np.testing.assert_array_equal(out.value[v], parent)
            continue
        expected = np.bincount(y[rows[take]], weights=child_w[a:b], minlength=n_classes)
        np.testing.assert_array_equal(out.value[v], expected)
        assert out.weight[v] == expected.sum()
        assert (out.reason[v] != GROW) == is_final(expected, 3, b - a, child_avail, rules)
        assert out.unit[v] == bool(np.all(child_w[a:b] == 1.0))
        block, block_x = child_orders(Orders(child_order, out.sorted_x), offsets, v, num.size)
        for f in range(num.size):  # each child's orders stay sorted by the attribute
            values = data.num_T[data.col[num[f]], block[f]]
            known_v = values[~np.isnan(values)]
            assert np.all(np.diff(known_v) >= 0)
            assert sorted(block[f]) == sorted(rows[take])
            # the values travel with the rows: still each row's own value
            np.testing.assert_array_equal(block_x[f], values)


def test_choose_attribute_tie_rules():
    """SPEC: within 1e-9 the first column wins; C4.5 needs at least the average gain."""
    near = np.array([0.1, 0.1 + 5e-10, 0.1 - 5e-10])
    valid = np.ones(3, dtype=np.int64)
    assert choose_attribute(splits_of(near, near, valid), c45_rules(False)) == 0
    assert choose_attribute(splits_of(near[::-1].copy(), near, valid), c45_rules(False)) == 0
    # gain ratio: attribute 0 has the best ratio but a gain below the average (0.5)
    gain, ratio = np.array([0.1, 0.7, 0.7]), np.array([0.9, 0.3, 0.3 + 5e-10])
    assert choose_attribute(splits_of(gain, ratio, valid), c45_rules(True)) == 1
    assert choose_attribute(splits_of(gain, ratio, np.array([1, 0, 0])), c45_rules(True)) == 0
    assert choose_attribute(splits_of(gain, ratio, np.zeros(3)), c45_rules(True)) == -1
    for args in ((near, near, valid, False), (gain, ratio, valid, True)):
        assert choose_attribute(splits_of(*args[:3]), c45_rules(args[3])) == select_attribute_reference(
            args[0], args[1], args[2].astype(bool), args[3])


@settings(max_examples=15)
@given(seed=st.integers(0, 10_000), min_leaf=st.sampled_from([1, 2, 5, 30]),
       weighted=st.booleans())
def test_c45_split_floor_changes_no_tree(seed, min_leaf, weighted):
    """Not scoring nodes under the C4.5 weight floor gives the tree scoring them would."""
    import hyperplane.tree._grow._builder as builder
    from hyperplane.tree import DecisionTreeClassifier

    X, y, w = problem(seed, 300, 3, 0.1, weighted)
    model = DecisionTreeClassifier(criterion="gain_ratio", min_samples_leaf=min_leaf)
    with_floor = model.fit(X, y, sample_weight=w).tree_
    floor = builder.c45_split_floor
    builder.c45_split_floor = lambda kind, rules: 0.0
    try:
        without = model.fit(X, y, sample_weight=w).tree_
    finally:
        builder.c45_split_floor = floor
    assert floor(layout(X, y, w, np.zeros(3, bool), np.zeros(3, np.int64), 3, "best", 8).kind,
                 GrowRules(0, True, np.inf, 2.0, float(min_leaf), 0.0)) > 0
    for name in ("feature", "threshold", "children", "value", "weight"):
        np.testing.assert_array_equal(getattr(with_floor, name), getattr(without, name))
