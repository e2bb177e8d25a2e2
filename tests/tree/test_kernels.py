"""Compiled split kernels against slow, obviously-correct NumPy references (hypothesis)."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from hyperplane.tree._scan._numeric_cut_kernels import best_numeric_cut, ordered_table_cut
from hyperplane.tree._scan._split_kernels import ENTROPY, GINI, c_log2_c, impurity, table_split_score
from hyperplane.tree._state import GatherBuffers, GrowRules, Orders, Scan
from hyperplane.tree._scan._table_kernels import category_class_table, class_weights
from hyperplane.tree._traverse_kernels import MISSING, child_orders, partition_node


def ref_impurity(counts, criterion):
    total = counts.sum()
    if total <= 0:
        return 0.0
    p = counts / total
    if criterion == GINI:
        return 1.0 - np.sum(p ** 2)
    p = p[p > 0]
    return float(-np.sum(p * np.log2(p)))


def ref_score(groups_y, groups_w, missing_w, n_classes, criterion):
    """ρ (I(D̃) − Σ r_v I(D̃_v)) with a dict of branches -> (y, w)."""
    counts = [np.bincount(gy, weights=gw, minlength=n_classes) for gy, gw in
              zip(groups_y, groups_w)]
    known = np.sum(counts, axis=0)
    w_known = known.sum()
    rho = w_known / (w_known + missing_w)
    after = sum(c.sum() / w_known * ref_impurity(c, criterion) for c in counts)
    r = np.array([c.sum() / w_known for c in counts])
    r = r[r > 0]
    iv = -np.sum(r * np.log2(r))
    score = rho * (ref_impurity(known, criterion) - after)
    return score, score / iv if iv > 0 else 0.0, after, rho


criteria = st.sampled_from([ENTROPY, GINI])


@given(st.integers(1, 5), st.lists(st.tuples(st.integers(0, 40), st.floats(0, 1e3)),
                                   max_size=40))
def test_class_weights(n_classes, picks):
    """The compiled class weights and the NumPy entry (``py_func``) both give the
    row-order sums of a plain loop, bit for bit (the root's and the pruning's
    node statistic are one rule)."""
    rng = np.random.default_rng(len(picks))
    y = rng.integers(0, n_classes, 41).astype(np.int64)
    rows = np.array([r for r, _ in picks], dtype=np.int64)
    w = np.array([v for _, v in picks], dtype=np.float64)
    expected = np.zeros(n_classes)
    for r, v in zip(rows, w):
        expected[y[r]] += v
    np.testing.assert_array_equal(class_weights(y, rows, w, n_classes), expected)
    np.testing.assert_array_equal(class_weights.py_func(y, rows, w, n_classes), expected)


@given(arrays(np.float64, st.integers(1, 6), elements=st.floats(0, 50)), criteria)
def test_impurity(counts, criterion):
    assert np.isclose(impurity(counts, counts.sum(), criterion), ref_impurity(counts, criterion))


@st.composite
def coded_data(draw, max_codes=5):
    n = draw(st.integers(2, 40))
    n_codes = draw(st.integers(2, max_codes))
    n_classes = draw(st.integers(2, 4))
    codes = np.array(draw(st.lists(st.integers(-1, n_codes - 1), min_size=n, max_size=n)),
                     dtype=np.int32)
    y = np.array(draw(st.lists(st.integers(0, n_classes - 1), min_size=n, max_size=n)))
    w = np.array(draw(st.lists(st.sampled_from([0.5, 1.0, 2.0, 3.0]), min_size=n,
                               max_size=n)))
    return codes, y.astype(np.int64), w, n_codes, n_classes


@given(coded_data(), st.integers(1, 39))
def test_class_tables_add_up_over_chunks(data, cut):
    codes, y, w, n_codes, n_classes = data
    cut = min(cut, codes.size - 1)
    table, n_rows = category_class_table(codes, y, w, n_codes, n_classes)
    ref = np.zeros((n_codes + 1, n_classes))
    np.add.at(ref, (np.where(codes < 0, n_codes, codes), y), w)
    assert np.allclose(table, ref)
    assert n_rows.sum() == codes.size
    t1, r1 = category_class_table(codes[:cut], y[:cut], w[:cut], n_codes, n_classes)
    t2, r2 = category_class_table(codes[cut:], y[cut:], w[cut:], n_codes, n_classes)
    assert np.allclose(t1 + t2, table) and np.array_equal(r1 + r2, n_rows)


@given(coded_data(), criteria)
def test_multiway_score(data, criterion):
    codes, y, w, n_codes, n_classes = data
    table, n_rows = category_class_table(codes, y, w, n_codes, n_classes)
    score, ratio, after, rho, _, _, valid = table_split_score(table, n_rows, criterion, 1.0)
    present = [v for v in range(n_codes) if np.any(codes == v)]
    assert valid == (len(present) >= 2)
    if not valid:
        return
    groups = [codes == v for v in present]
    ref = ref_score([y[g] for g in groups], [w[g] for g in groups], w[codes < 0].sum(),
                    n_classes, criterion)
    assert np.allclose((score, ratio, after, rho), ref)


@given(coded_data(max_codes=8), criteria)
def test_ordered_cut_is_best_of_all_bin_cuts(data, criterion):
    codes, y, w, n_codes, n_classes = data
    table, n_rows = category_class_table(codes, y, w, n_codes, n_classes)
    values = np.arange(n_codes, dtype=float)  # bin v holds the value v
    bin_range = np.vstack([values, values])
    rules = GrowRules(criterion, None, np.inf, 2.0, 1.0, 0.0)
    score, ratio, after, rho, threshold, cut_bin, valid = ordered_table_cut(
        table, n_rows, bin_range, rules, c_log2_c(0))
    known = codes >= 0
    candidates = []
    for b in range(n_codes - 1):
        left = known & (codes <= b)
        right = known & (codes > b)
        if left.any() and right.any():
            candidates.append((b, ref_score([y[left], y[right]], [w[left], w[right]],
                                            w[~known].sum(), n_classes, criterion)))
    assert valid == bool(candidates)
    if np.all(w == 1.0):  # integer counts: the c·log2(c) lookup gives the same cut
        looked_up = ordered_table_cut(table, n_rows, bin_range, rules, c_log2_c(w.size))
        assert looked_up[5] == cut_bin and np.isclose(looked_up[0], score)
    if valid:
        best = max(c[1][0] for c in candidates)
        assert np.isclose(score, best)
        # smallest cut among the equally good ones (same partition of known rows counts once)
        first = min(b for b, s in candidates if np.isclose(s[0], best, rtol=1e-9, atol=1e-12))
        following = min(v for v in range(first + 1, n_codes) if n_rows[v] > 0)
        assert cut_bin == first and threshold == (first + following) / 2


@st.composite
def numeric_data(draw):
    n = draw(st.integers(2, 40))
    x = np.array(draw(st.lists(st.one_of(st.integers(0, 8).map(float), st.just(np.nan)),
                               min_size=n, max_size=n)))
    y = np.array(draw(st.lists(st.integers(0, 2), min_size=n, max_size=n)), dtype=np.int64)
    w = np.array(draw(st.lists(st.sampled_from([0.5, 1.0, 2.0]), min_size=n, max_size=n)))
    return x, y, w


#: no scratch for the numeric scan's gathered classes and weights: it allocates them
NO_SCRATCH = GatherBuffers(np.empty(0, dtype=np.int32), np.empty(0))


def assert_same_cut(a, b):
    """Two numeric scans' results are the same (NaN threshold equal to NaN)."""
    np.testing.assert_array_equal(np.array(a, dtype=float), np.array(b, dtype=float))


@given(numeric_data(), criteria)
def test_numeric_cut_is_best_midpoint(data, criterion):
    x, y, w = data
    order = np.argsort(x, kind="stable").astype(np.int32)
    value = np.bincount(y, weights=w, minlength=3)
    rules = GrowRules(criterion, None, np.inf, 2.0, 1.0, 0.0)
    score, ratio, after, rho, t, _, valid = best_numeric_cut(x[order], order, y, value,
                                                             Scan(w, False, c_log2_c(0)), rules,
                                                             NO_SCRATCH)
    # gathering into a longer scratch (its former contents do not matter): the same cut
    scratch = GatherBuffers(np.full(x.size + 3, 7, dtype=np.int32), np.full(x.size + 3, np.nan))
    assert_same_cut(best_numeric_cut(x[order], order, y, value, Scan(w, False, c_log2_c(0)),
                                     rules, scratch), (score, ratio, after, rho, t, -1, valid))
    # unit weights: the integer-count path (c log2 c looked up) agrees with the general one
    ones = np.ones_like(w)
    counts = np.bincount(y, minlength=3).astype(float)
    general = best_numeric_cut(x[order], order, y, counts, Scan(ones, False, c_log2_c(0)), rules,
                               NO_SCRATCH)
    fast = best_numeric_cut(x[order], order, y, counts, Scan(ones, True, c_log2_c(x.size)), rules,
                            NO_SCRATCH)
    assert general.valid == fast.valid and general.threshold == fast.threshold or np.isnan(
        general.threshold)
    assert np.allclose(general[:4], fast[:4])
    if criterion == GINI:  # sums of squared integer counts are exact: the very same cut
        assert general[:4] == fast[:4]
    known = ~np.isnan(x)
    values = np.unique(x[known])
    mids = (values[:-1] + values[1:]) / 2
    assert valid == (mids.size > 0)
    if not valid:
        return
    results = []
    for m in mids:
        left, right = known & (x <= m), known & (x > m)
        results.append(ref_score([y[left], y[right]], [w[left], w[right]], w[~known].sum(), 3,
                                 criterion))
    scores = np.array([r[0] for r in results])
    assert np.isclose(score, scores.max())
    first = np.flatnonzero(np.isclose(scores, scores.max(), rtol=1e-9, atol=1e-12))[0]
    assert t == mids[first]
    assert np.allclose((ratio, after, rho), results[first][1:])


@given(numeric_data(), st.sampled_from([1.0, 2.0, 3.0]))
def test_c45_numeric_cut_counts_weights_and_charges_mdl(data, min_leaf):
    """C4.5 rules: each side weighs >= min(25, max(M, 0.1 W~/K)); the best cut's gain
    minus log2(#admissible cuts)/W (W with missing weight) must stay positive."""
    x, y, w = data
    order = np.argsort(x, kind="stable").astype(np.int32)
    value = np.bincount(y, weights=w, minlength=3)
    score, ratio, after, rho, t, _, valid = best_numeric_cut(
        x[order], order, y, value, Scan(w, False, c_log2_c(0)),
        GrowRules(ENTROPY, True, np.inf, 2.0, min_leaf, 0.0), NO_SCRATCH)
    known = ~np.isnan(x)
    min_side = min(25.0, max(min_leaf, 0.1 * w[known].sum() / 3))
    values = np.unique(x[known])
    if known.sum() < 2 * (min_side - 1e-9):     # J48: too few known rows to split at all
        assert not valid
        return
    mids = [m for m in (values[:-1] + values[1:]) / 2
            if min(w[known & (x <= m)].sum(), w[known & (x > m)].sum()) >= min_side - 1e-9]
    results = [ref_score([y[known & (x <= m)], y[known & (x > m)]],
                         [w[known & (x <= m)], w[known & (x > m)]], w[~known].sum(), 3, ENTROPY)
               for m in mids]
    if not mids:
        assert not valid
        return
    scores = np.array([r[0] for r in results])
    best = np.flatnonzero(np.isclose(scores, scores.max(), rtol=1e-9, atol=1e-12))[0]
    corrected = scores.max() - np.log2(len(mids)) / w.sum()
    assert valid == (corrected > 1e-12) or abs(corrected) < 1e-9
    if valid:
        assert np.isclose(score, corrected) and t == mids[best]
        sides = np.array([w[known & (x <= mids[best])].sum(), w[known & (x > mids[best])].sum(),
                          w[~known].sum()])
        p = sides[sides > 0] / w.sum()  # C4.5's split info: missing is one more branch
        assert np.isclose(ratio, corrected / -np.sum(p * np.log2(p)))


@given(coded_data(), st.sampled_from([1.0, 2.0, 4.0]))
def test_c45_multiway_split_needs_two_heavy_branches(data, min_leaf):
    """J48: valid iff at least two branches weigh >= M; the ratio's split info counts the
    missing weight as one more branch."""
    codes, y, w, n_codes, n_classes = data
    table, n_rows = category_class_table(codes, y, w, n_codes, n_classes)
    score, ratio, after, rho, _, _, valid = table_split_score(table, n_rows, ENTROPY, min_leaf,
                                                              True)
    book = table_split_score(table, n_rows, ENTROPY, min_leaf)
    assert np.allclose((score, after, rho), book[0:1] + book[2:4])
    sizes = table.sum(axis=1)
    assert valid == (np.sum(sizes[:-1] >= min_leaf) >= 2)
    p = sizes[sizes > 0] / sizes.sum()
    iv = -np.sum(p * np.log2(p))
    assert np.isclose(ratio, score / iv if iv > 0 else 0.0)


@given(numeric_data(), st.integers(2, 4))
def test_partition_keeps_orders_sorted_and_weights(data, n_branches):
    x, _, w = data
    n = x.size
    rng = np.random.default_rng(n)
    rows = np.arange(n, dtype=np.int64)
    branch = rng.integers(-1, n_branches, size=n)
    r = rng.random(n_branches)
    r /= r.sum()
    order = np.argsort(x, kind="stable").astype(np.int32)[None, :]
    no_spare = Orders(np.zeros(0, dtype=np.int32), np.zeros(0))
    child_rows, child_w, child_order, child_x, offsets, _, _ = partition_node(
        rows, w, branch, r, Orders(order, x[order]), no_spare, np.zeros(n, dtype=np.int64), False)
    # the values travel with their rows
    np.testing.assert_array_equal(child_x, x[child_order])
    # the attributes split side by side: the same arrays (child v's attribute 0 first)
    both = np.vstack([order, order[:, ::-1]])
    parallel = partition_node(rows, w, branch, r, Orders(both, x[both]), no_spare,
                              np.zeros(n, dtype=np.int64), True)
    assert np.array_equal(parallel.offsets, offsets)
    np.testing.assert_array_equal(parallel.sorted_x, x[parallel.order])
    for v in range(n_branches):
        assert np.array_equal(
            child_orders(Orders(parallel.order, parallel.sorted_x), offsets, v, 2).order[0],
            child_orders(Orders(child_order, child_x), offsets, v, 1).order[0])
    for v in range(n_branches):
        a, b = offsets[v], offsets[v + 1]
        mask = (branch == v) | (branch == MISSING)
        assert np.array_equal(np.sort(child_rows[a:b]), rows[mask])
        expected_w = np.where(branch == MISSING, r[v] * w, w)[mask]
        assert np.allclose(child_w[a:b][np.argsort(child_rows[a:b])], expected_w)
        # the child's order is the parent's order filtered: still sorted, NaN last
        expected_order = [i for i in order[0] if mask[i]]
        assert (child_orders(Orders(child_order, child_x), offsets, v, 1).order[0].tolist()
                == expected_order)


def test_level_tables_summed_over_chunks_give_the_hist_split():
    """The Dask contract: per-chunk tables add up to what the in-memory tree scores."""
    from hyperplane.tree._grow._layout import layout
    from hyperplane.tree._scan._node_kernels import score_attributes
    from hyperplane.tree._state import Node
    from hyperplane.tree._scan._numeric_cut_kernels import score_table
    from hyperplane.tree._scan._table_kernels import level_class_tables

    rng = np.random.default_rng(0)
    n = 500
    X = np.column_stack([rng.normal(size=n), rng.integers(0, 4, n).astype(float),
                         rng.normal(size=n)])
    X[rng.random((n, 3)) < 0.1] = np.nan
    y = (np.nan_to_num(X[:, 0]) + (X[:, 1] == 2) > 0.3).astype(np.int64)
    w = rng.choice([0.5, 1.0, 2.0], size=n)
    data = layout(X, y, w, np.array([False, True, False]), np.array([0, 4, 0]), 2, "hist", 16)
    codes_count = data.codes_count
    rows = np.arange(n)
    parts = [level_class_tables(data.codes_T, codes_count, y, rows[a:b], np.zeros(b - a, np.int64),
                                w[a:b], 1, 2) for a, b in ((0, 123), (123, n))]
    tables = parts[0][0] + parts[1][0]
    n_rows = parts[0][1] + parts[1][1]
    node = Node(rows, w, np.empty((0, n), np.int32), np.empty((0, n)), np.zeros(0, np.int64),
                np.bincount(y, weights=w, minlength=2), 0, np.ones(3, bool),
                np.empty(0, np.int32), np.empty(0))
    splits = score_attributes(data.columns, node, GrowRules(ENTROPY, None, np.inf, 2.0, 1.0, 0.0),
                              Scan(np.zeros(n), False, c_log2_c(0)), None)
    for j in range(3):
        c = data.col[j]
        got = score_table(tables[0, c, :codes_count[c] + 1], n_rows[0, c, :codes_count[c] + 1],
                          data.kind[j] == 1, data.bin_range[c],
                          GrowRules(ENTROPY, None, np.inf, 2.0, 1.0, 0.0), c_log2_c(0))
        assert np.allclose(got[:4], [splits.score[j], splits.ratio[j], splits.after[j],
                                     splits.rho[j]])
        assert got[5] == splits.cut_bin[j] and got[6] == splits.valid[j]


def test_parallel_node_scores_equal_the_serial_ones():
    """The split table of a large node, scored attribute by attribute in parallel."""
    from hyperplane.tree._grow._builder import root_node, sorted_orders
    from hyperplane.tree._grow._layout import layout
    from hyperplane.tree._scan._node_kernels import score_attributes
    from hyperplane.tree._state import GrowRules

    rng = np.random.default_rng(3)
    n = 400
    X = np.column_stack([rng.normal(size=n), rng.integers(0, 4, n).astype(float),
                         rng.normal(size=n).round(1)])
    X[rng.random((n, 3)) < 0.1] = np.nan
    y = rng.integers(0, 3, n)
    data = layout(X, y, np.ones(n), np.array([False, True, False]), np.array([0, 4, 0]), 3,
                  "best", 16)
    node = root_node(data, sorted_orders)
    for c45 in (False, True):
        rules = GrowRules(ENTROPY, c45 or None, np.inf, 2.0, 1.0, 0.0)
        scan = Scan(np.zeros(n), True, c_log2_c(n))
        serial = score_attributes(data.columns, node, rules, scan, None)
        parallel = score_attributes(data.columns, node, rules, scan, 0)  # every node side by side
        for a, b in zip(serial, parallel):
            np.testing.assert_array_equal(a, b)


@given(seed=st.integers(0, 10_000), numeric=st.booleans())
def test_prediction_without_missing_values_reaches_one_leaf(seed, numeric):
    """tree_proba without a stack (no value missing) gives the walk's numbers bit for bit:
    each row's distribution is its leaf's (NumPy's gather at ``tree_apply``'s leaves)."""
    import pandas as pd

    from hyperplane.tree import DecisionTreeClassifier
    from hyperplane.tree._traverse_kernels import tree_apply, tree_proba

    rng = np.random.default_rng(seed)
    codes = rng.integers(0, 3, size=(60, 3))
    X = codes + rng.random(codes.shape) if numeric else pd.DataFrame(codes).astype("category")
    y = rng.integers(0, 3, size=60)
    model = DecisionTreeClassifier().fit(X, y)
    X_enc, arrays = model._encode(X), model.tree_.arrays
    walked = tree_proba(X_enc, arrays, model._leaf_proba, model._stack_size)
    one_leaf = tree_proba(X_enc, arrays, model._leaf_proba, None)
    assert np.array_equal(one_leaf, walked)
    assert np.array_equal(one_leaf, model._leaf_proba[tree_apply(X_enc, arrays)])
