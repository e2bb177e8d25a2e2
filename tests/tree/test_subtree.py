"""Compiled subtree growth (hist and categorical trees) against NumPy references and Python."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import hyperplane.tree._grow._builder as builder
import hyperplane.tree._grow._subtree as subtree
from hyperplane.tree import DecisionTreeClassifier
from hyperplane.tree._scan._numeric_cut_kernels import WORK_ROWS
from hyperplane.tree._scan._split_kernels import BINNED, CATEGORICAL, ENTROPY, GINI, c_log2_c
from hyperplane.tree._scan._hist_node_kernels import (accumulate_rows_parallel, new_scratch,
                                            score_coded_parallel, take_out_siblings_parallel)
from hyperplane.tree._grow._class_tables_kernels import (accumulate_rows, clean_derived_tables,
                                                   score_coded, small_node_scores,
                                                   sorted_bins, take_out_siblings)
from hyperplane.tree._grow._expand_kernels import new_splits
from hyperplane.tree._traverse_kernels import MISSING
from hyperplane.tree._state import Columns, GrowRules, Node


@st.composite
def node_data(draw, max_rows=60):
    """A node of a coded data set: codes (−1 missing), classes, weights by position."""
    n = draw(st.integers(4, 80))
    p = draw(st.integers(1, 4))
    n_codes = np.array(draw(st.lists(st.integers(2, 9), min_size=p, max_size=p)))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    codes = np.stack([rng.integers(-1, n_codes[c], n) for c in range(p)], axis=1).astype(np.int8)
    n_classes = draw(st.integers(2, 3))
    y = rng.integers(0, n_classes, n).astype(np.int64)
    rows = np.sort(rng.choice(n, draw(st.integers(1, min(n, max_rows))), replace=False))
    unit = draw(st.booleans())
    w = np.ones(rows.size) if unit else rng.choice([0.25, 0.5, 1.0, 2.5], rows.size)
    return codes, n_codes.astype(np.int64), y, rows.astype(np.int64), w, n_classes


def reference_tables(codes, n_codes, y, rows, w, n_classes):
    """np.add.at into (p, width + 1, K) tables; the missing code in slot n_codes[c]."""
    p = codes.shape[1]
    width = n_codes.max()
    table = np.zeros((p, width + 1, n_classes))
    counts = np.zeros((p, width + 1), dtype=np.int64)
    for c in range(p):
        slot = np.where(codes[rows, c] < 0, n_codes[c], codes[rows, c]).astype(np.int64)
        np.add.at(table[c], (slot, y[rows]), w)
        np.add.at(counts[c], slot, 1)
    return table, counts


@given(node_data())
def test_accumulated_tables_equal_the_reference(data):
    codes, n_codes, y, rows, w, n_classes = data
    table = np.zeros((codes.shape[1], n_codes.max() + 1, n_classes))
    counts = np.zeros(table.shape[:2], dtype=np.int64)
    accumulate_rows(codes, n_codes, y, rows, w, table, counts)
    ref_table, ref_counts = reference_tables(codes, n_codes, y, rows, w, n_classes)
    np.testing.assert_allclose(table, ref_table, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(counts, ref_counts)


@given(node_data(), st.integers(0, 2**32 - 1))
def test_histogram_subtraction_gives_the_child_tables(data, seed):
    """Parent minus the other children = the kept child, C4.5 fractional rows included."""
    codes, n_codes, y, rows, w, n_classes = data
    rng = np.random.default_rng(seed)
    n_branches = int(rng.integers(2, 4))
    branch = rng.integers(-1, n_branches, rows.size)  # −1 = MISSING: in every child
    known = branch != MISSING
    w_branch = np.bincount(branch[known], weights=w[known], minlength=n_branches)
    if w_branch.sum() == 0:
        return
    r = w_branch / w_branch.sum()
    keep = int(rng.integers(0, n_branches))
    table = np.zeros((codes.shape[1], n_codes.max() + 1, n_classes))
    counts = np.zeros(table.shape[:2], dtype=np.int64)
    accumulate_rows(codes, n_codes, y, rows, w, table, counts)
    columns = Columns(np.zeros((0, codes.shape[0])), np.ascontiguousarray(codes.T), codes,
                      n_codes, np.zeros(codes.shape[1], dtype=np.int64),
                      np.arange(codes.shape[1]), np.zeros((codes.shape[1], 2, 0)), y)
    node = Node(rows, w, np.zeros((0, rows.size), dtype=np.int64), np.zeros((0, rows.size)),
                np.zeros(0, dtype=np.int64),
                np.zeros(n_classes), 0, np.ones(codes.shape[1], dtype=bool),
                np.zeros(0, dtype=np.int64), np.zeros(0))
    take_out_siblings(columns, node, branch, keep, r[keep], table, counts)
    unit = bool(np.all(w[branch == keep] == 1.0)) and not np.any(~known)
    clean_derived_tables(table, counts, unit)
    in_child = (branch == keep) | ~known
    child_w = np.where(known, w, r[keep] * w)[in_child]
    ref_table, ref_counts = reference_tables(codes, n_codes, y, rows[in_child], child_w,
                                             n_classes)
    np.testing.assert_array_equal(counts, ref_counts)
    np.testing.assert_allclose(table, ref_table, rtol=1e-12, atol=1e-12)
    assert np.all(table[counts == 0] == 0.0)


def value_ranges(n_codes, p):
    """Bin value ranges of ``p`` coded columns: bin ``b`` holds the one value ``b``."""
    values = np.arange(n_codes.max() + 1, dtype=np.float64)
    return np.tile(np.stack([values, values]), (p, 1, 1))


def reference_bins(codes, y, rows, w, n_classes):
    present = np.unique(codes[codes >= 0])
    table = np.array([np.bincount(y[rows][codes == v], weights=w[codes == v],
                                  minlength=n_classes) for v in present]).reshape(-1, n_classes)
    n_rows = np.array([np.sum(codes == v) for v in present], dtype=np.int64)
    missing = np.bincount(y[rows][codes < 0], weights=w[codes < 0], minlength=n_classes)
    return present, table, n_rows, missing


@given(node_data())
def test_sorted_bins_are_the_non_empty_table_rows(data):
    codes, n_codes, y, rows, w, n_classes = data
    m = rows.size
    scratch = new_scratch.py_func(m, m, n_classes)
    bins, table, n_rows, missing = (scratch.bins, scratch.bin_table, scratch.bin_rows,
                                    np.empty(n_classes))
    node_codes = np.ascontiguousarray(codes[rows, 0])
    d = sorted_bins(node_codes, y, rows, w, scratch, missing)
    ref = reference_bins(node_codes, y, rows, w, n_classes)
    np.testing.assert_array_equal(bins[:d], ref[0])
    np.testing.assert_allclose(table[:d], ref[1], rtol=1e-12)
    np.testing.assert_array_equal(n_rows[:d], ref[2])
    np.testing.assert_allclose(missing, ref[3], rtol=1e-12)


@given(node_data(), st.sampled_from([ENTROPY, GINI]), st.sampled_from([1.0, 2.0]),
       st.booleans(), st.booleans())
def test_small_node_scores_equal_the_table_scores_exactly(data, criterion, min_leaf,
                                                          categorical, c45):
    """Sorting a small node's codes gives bit for bit the scores of its class tables."""
    codes, n_codes, y, rows, w, n_classes = data
    p = codes.shape[1]
    kind = np.full(p, BINNED, dtype=np.int64)
    if categorical:
        kind[0] = CATEGORICAL
    col = np.arange(p)
    bin_range = value_ranges(n_codes, p)
    avail = np.ones(p, dtype=bool)
    unit = bool(np.all(w == 1.0))
    lookup = c_log2_c(rows.size) if unit else c_log2_c(0)
    scratch = new_scratch.py_func(n_codes.max(), rows.size, n_classes)
    columns = Columns(np.zeros((0, codes.shape[0])), np.ascontiguousarray(codes.T), codes,
                      n_codes, kind, col, bin_range, y)
    rules = GrowRules(criterion, c45 or None, np.inf, 2.0, min_leaf, 0.0)
    node = Node(rows, w, np.zeros((0, rows.size), dtype=np.int64), np.zeros((0, rows.size)),
                np.zeros(0, dtype=np.int64),
                np.bincount(y[rows], weights=w, minlength=n_classes), 0, avail,
                np.zeros(0, dtype=np.int64), np.zeros(0))
    table, counts = reference_tables(codes, n_codes, y, rows, w, n_classes)
    accumulate_rows(codes, n_codes, y, rows, w, table * 0, counts * 0)
    dense_table = np.zeros_like(table)
    dense_counts = np.zeros_like(counts)
    accumulate_rows(codes, n_codes, y, rows, w, dense_table, dense_counts)
    dense = score_coded(dense_table, dense_counts, columns, avail, rules, lookup, scratch)
    small = small_node_scores(columns, node, rules, lookup, scratch)
    for a, b in zip(dense, small):
        np.testing.assert_array_equal(a, b)


def test_a_bin_scan_refuses_a_short_work_table():
    """The bin scan's work table has ``WORK_ROWS`` rows (``new_scratch``); a shorter one
    (a hand-made ``Scratch`` of an older layout) is refused, not written past its end."""
    codes = np.array([[0], [1], [2], [0], [1], [2]], dtype=np.int16)
    n_codes = np.array([3])
    y = np.array([0, 0, 1, 1, 0, 1])
    rows = np.arange(6)
    w = np.ones(6)
    columns = Columns(np.zeros((0, 6)), np.ascontiguousarray(codes.T), codes, n_codes,
                      np.array([BINNED]), np.arange(1), value_ranges(n_codes, 1), y)
    rules = GrowRules(GINI, None, np.inf, 2.0, 1.0, 0.0)
    node = Node(rows, w, np.zeros((0, 6), dtype=np.int64), np.zeros((0, 6)),
                np.zeros(0, dtype=np.int64), np.bincount(y, minlength=2).astype(float), 0,
                np.ones(1, dtype=bool), np.zeros(0, dtype=np.int64), np.zeros(0))
    scratch = new_scratch.py_func(3, 6, 2)
    assert scratch.work.shape == (WORK_ROWS, 2)
    assert small_node_scores(columns, node, rules, c_log2_c(6), scratch).valid[0]
    short = scratch._replace(work=scratch.work[:WORK_ROWS - 2].copy())
    with pytest.raises(ValueError, match="WORK_ROWS"):
        small_node_scores(columns, node, rules, c_log2_c(6), short)


def fit_with(monkeypatch, X, y, python=False, subtract=True, sort=True, **params):
    """Fit with the Python loop or the compiled growth (histogram subtraction and
    small-node sorting switched on or off)."""
    with monkeypatch.context() as m:
        if python:
            m.setattr(builder, "compiled_growth_applies", lambda data, pre_pruner: False)
        m.setattr(subtree, "SUBTREE_ROWS", 1000)  # the top grown first, then threads
        m.setattr(subtree, "SUBTRACT_ROWS", 64 if subtract else None)
        m.setattr(subtree, "SORT_ROWS", 32 if sort else 0)
        return DecisionTreeClassifier(**params).fit(X, y)


def assert_same_tree(a, b, exact=True):
    ta, tb = a.tree_, b.tree_
    assert ta.n_nodes == tb.n_nodes
    np.testing.assert_array_equal(ta.feature, tb.feature)
    np.testing.assert_array_equal(ta.threshold, tb.threshold)
    np.testing.assert_array_equal(ta.children, tb.children)
    if exact:
        np.testing.assert_array_equal(ta.value, tb.value)
    else:
        np.testing.assert_allclose(ta.value, tb.value, rtol=1e-9, atol=1e-12)


def classification(n=3000, p=8, seed=0, missing=0.0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, p))
    y = (X[:, 0] + X[:, 1] * X[:, 2] + 0.5 * rng.standard_normal(n) > 0).astype(int)
    y[X[:, 3] > 1.2] = 2
    X[rng.random(X.shape) < missing] = np.nan
    return X, y


@pytest.mark.parametrize("criterion", ["gini", "info_gain", "gain_ratio"])
def test_compiled_growth_equals_the_python_loop(monkeypatch, criterion):
    """Same tree, bit for bit, whether or not subtraction and sorting are used
    (unit weights: subtraction is exact)."""
    X, y = classification()
    params = dict(splitter="hist", criterion=criterion, max_bins=64)
    reference = fit_with(monkeypatch, X, y, python=True, **params)
    assert reference.tree_.n_nodes > 100
    for subtract in (False, True):
        for sort in (False, True):
            assert_same_tree(fit_with(monkeypatch, X, y, subtract=subtract, sort=sort,
                                      **params), reference)


@pytest.mark.parametrize("criterion", ["gini", "info_gain", "gain_ratio"])
def test_histogram_subtraction_with_weights_missing_values_and_categories(monkeypatch,
                                                                         criterion):
    """Fractional C4.5 rows, sample weights and a categorical column: subtraction
    changes the tables only by round-off, so the tree is the same."""
    X, y = classification(n=2500, p=6, seed=1, missing=0.08)
    rng = np.random.default_rng(1)
    X = pd.DataFrame(X, columns=[f"x{j}" for j in range(6)])
    colour = np.array(["red", "green", "blue", "grey"], dtype=object)[rng.integers(0, 4, len(X))]
    X["x5"] = np.where(X["x5"].isna(), None, colour)
    y = np.where(X["x5"] == "red", 1, y)
    w = rng.choice([0.5, 1.0, 1.5, 3.0], X.shape[0])
    params = dict(splitter="hist", criterion=criterion, max_bins=32, min_samples_leaf=2,
                  min_samples_split=4)
    kwargs = dict(sample_weight=w)
    with monkeypatch.context() as m:
        m.setattr(builder, "compiled_growth_applies", lambda data, pre_pruner: False)
        reference = DecisionTreeClassifier(**params).fit(X, y, **kwargs)
    with monkeypatch.context() as m:
        m.setattr(subtree, "SUBTRACT_ROWS", 64)
        m.setattr(subtree, "SORT_ROWS", 32)
        m.setattr(subtree, "SUBTREE_ROWS", 800)
        model = DecisionTreeClassifier(**params).fit(X, y, **kwargs)
    assert reference.tree_.n_nodes > 50
    assert_same_tree(model, reference, exact=False)
    np.testing.assert_array_equal(model.predict(X), reference.predict(X))


@pytest.mark.parametrize("criterion", ["info_gain", "gain_ratio", "gini"])
def test_categorical_trees_grow_compiled_as_in_python(monkeypatch, criterion):
    """Only categorical attributes (ID3 / C4.5 multiway splits, C4.5's weight floor
    on splits): the compiled growth gives the Python loop's tree."""
    rng = np.random.default_rng(2)
    codes = rng.integers(0, 5, size=(3000, 6))
    y = ((codes[:, 0] + codes[:, 1] * codes[:, 2]) % 3 == 0) ^ (rng.random(3000) < 0.1)
    X = pd.DataFrame({f"a{j}": pd.Categorical.from_codes(codes[:, j], list("vwxyz"))
                      for j in range(6)})
    X.iloc[rng.random(3000) < 0.05, 3] = None
    params = dict(criterion=criterion, min_samples_leaf=2)
    reference = fit_with(monkeypatch, X, y, python=True, **params)
    assert reference.tree_.n_nodes > 50
    assert_same_tree(fit_with(monkeypatch, X, y, **params), reference, exact=False)


def mixed_frame(n=2500, seed=4, missing=0.05):
    """Numeric columns with missing values, ties and two categorical columns."""
    X, y = classification(n=n, p=6, seed=seed, missing=missing)
    rng = np.random.default_rng(seed)
    X[:, 4] = np.round(X[:, 4], 1)  # many tied values
    frame = pd.DataFrame(X, columns=[f"x{j}" for j in range(6)])
    colour = np.array(["red", "green", "blue"], dtype=object)[rng.integers(0, 3, n)]
    frame["colour"] = np.where(rng.random(n) < missing, None, colour)
    frame["size"] = pd.Categorical.from_codes(rng.integers(0, 4, n), list("SMLX"))
    return frame, np.where(frame["colour"] == "red", 1, y)


@pytest.mark.parametrize("params", [
    dict(criterion="gini"), dict(criterion="info_gain"),
    dict(criterion="gain_ratio", min_samples_leaf=2),
    dict(criterion="gain_ratio", pruning="pessimistic", min_samples_leaf=2),
    dict(criterion="gini", max_depth=5, min_samples_leaf=3, min_samples_split=9)])
@pytest.mark.parametrize("data", ["numeric", "mixed", "weighted"])
def test_exact_trees_grow_compiled_bit_for_bit_as_in_python(monkeypatch, params, data):
    """splitter="best": the compiled growth (top of the tree with parallel scoring,
    then subtrees side by side in threads) gives the Python loop's tree bit for
    bit, with missing values, ties, categorical columns and sample weights."""
    X, y = classification(n=3000, p=6, seed=2) if data == "numeric" else mixed_frame()
    w = (np.random.default_rng(5).choice([0.5, 1.0, 2.0], len(y)) if data == "weighted"
         else None)
    with monkeypatch.context() as m:
        m.setattr(builder, "compiled_growth_applies", lambda data, pre_pruner: False)
        reference = DecisionTreeClassifier(**params).fit(X, y, sample_weight=w)
    assert reference.tree_.n_nodes > 20
    with monkeypatch.context() as m:
        m.setattr(subtree, "SUBTREE_ROWS", 700)
        m.setattr(subtree, "PARALLEL_ROWS", 1500)
        model = DecisionTreeClassifier(**params).fit(X, y, sample_weight=w)
    assert_same_tree(model, reference)
    np.testing.assert_array_equal(model.tree_.branch_r, reference.tree_.branch_r)
    np.testing.assert_array_equal(model.predict_proba(X), reference.predict_proba(X))


@given(st.integers(1, 10**8), st.integers(1, 256), st.booleans())
def test_subtree_jobs_never_start_parallel_loops(n_rows, threads, exact):
    """Jobs grown side by side are below ``PARALLEL_ROWS`` rows (numba's parallel
    loops are never started from those threads); exact trees on many threads get
    smaller jobs, never below ``MIN_SUBTREE_ROWS``; coded-only trees keep
    ``SUBTREE_ROWS`` and split their jobs instead, at no fewer rows (never on
    one or two threads at 200k rows)."""
    from hyperplane.tree._scan._node_kernels import PARALLEL_ROWS
    rows = subtree.subtree_rows(n_rows, threads, exact)
    split = subtree.job_split_rows(n_rows, threads, exact)
    assert rows <= subtree.SUBTREE_ROWS <= PARALLEL_ROWS
    assert split <= subtree.SUBTREE_ROWS
    if not exact:
        assert rows == subtree.SUBTREE_ROWS
        assert split >= subtree.MIN_SUBTREE_ROWS
        if threads <= 2 and n_rows >= 200_000:
            assert split == subtree.SUBTREE_ROWS
    else:
        assert split == 0
        assert rows >= subtree.MIN_SUBTREE_ROWS
        if n_rows >= subtree.JOBS_PER_THREAD * threads * subtree.SUBTREE_ROWS:
            assert rows == subtree.SUBTREE_ROWS
    groups = subtree.table_groups(threads)
    assert groups == (threads if threads >= subtree.PARALLEL_TABLE_THREADS else 1)
    assert subtree.table_groups(2) == 1  # no parallel region per node on two threads


@given(node_data(), st.integers(1, 6))
def test_parallel_accumulated_tables_are_the_serial_ones_bit_for_bit(data, groups):
    """Columns counted in groups side by side: the reference's tables, and the
    serial kernel's to the last bit (every cell sums the rows in their order)."""
    codes, n_codes, y, rows, w, n_classes = data
    shape = (codes.shape[1], n_codes.max() + 1, n_classes)
    table, counts = np.zeros(shape), np.zeros(shape[:2], dtype=np.int64)
    accumulate_rows_parallel(codes, n_codes, y, rows, w, table, counts, groups)
    serial, serial_counts = np.zeros(shape), np.zeros(shape[:2], dtype=np.int64)
    accumulate_rows(codes, n_codes, y, rows, w, serial, serial_counts)
    ref_table, ref_counts = reference_tables(codes, n_codes, y, rows, w, n_classes)
    np.testing.assert_allclose(table, ref_table, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(counts, ref_counts)
    np.testing.assert_array_equal(table, serial)


def coded_columns(codes, n_codes, y, kind=None):
    p = codes.shape[1]
    kind = np.full(p, BINNED, dtype=np.int64) if kind is None else kind
    bin_range = value_ranges(n_codes, p)
    return Columns(np.zeros((0, codes.shape[0])), np.ascontiguousarray(codes.T), codes,
                   n_codes, kind, np.arange(p), bin_range, y)


@given(node_data(), st.integers(0, 2**32 - 1), st.integers(1, 6))
def test_parallel_subtraction_is_the_serial_one_bit_for_bit(data, seed, groups):
    """Histogram subtraction with column groups side by side (C4.5 fractional rows
    included): the serial kernel's tables to the last bit."""
    codes, n_codes, y, rows, w, n_classes = data
    rng = np.random.default_rng(seed)
    n_branches = int(rng.integers(2, 4))
    branch = rng.integers(-1, n_branches, rows.size)
    keep = int(rng.integers(0, n_branches))
    r_keep = float(rng.uniform(0.1, 0.9))
    shape = (codes.shape[1], n_codes.max() + 1, n_classes)
    start, start_counts = np.zeros(shape), np.zeros(shape[:2], dtype=np.int64)
    accumulate_rows(codes, n_codes, y, rows, w, start, start_counts)
    columns = coded_columns(codes, n_codes, y)
    node = Node(rows, w, np.zeros((0, rows.size), dtype=np.int64), np.zeros((0, rows.size)),
                np.zeros(0, dtype=np.int64), np.zeros(n_classes), 0,
                np.ones(codes.shape[1], dtype=bool), np.zeros(0, dtype=np.int64), np.zeros(0))
    serial, serial_counts = start.copy(), start_counts.copy()
    take_out_siblings(columns, node, branch, keep, r_keep, serial, serial_counts)
    table, counts = start.copy(), start_counts.copy()
    take_out_siblings_parallel(columns, node, branch, keep, r_keep, table, counts, groups)
    np.testing.assert_array_equal(table, serial)
    np.testing.assert_array_equal(counts, serial_counts)
    # and against NumPy: the kept child's rows (missing ones with r_keep · w) remain
    gone = (branch != keep) & (branch != MISSING)
    kept_w = np.where(branch == MISSING, r_keep * w, w)
    ref_table, _ = reference_tables(codes, n_codes, y, rows[~gone], kept_w[~gone], n_classes)
    _, ref_counts = reference_tables(codes, n_codes, y, rows[branch == keep], w[branch == keep],
                                     n_classes)
    missing_counts = reference_tables(codes, n_codes, y, rows[branch == MISSING],
                                      w[branch == MISSING], n_classes)[1]
    np.testing.assert_allclose(table, ref_table, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(counts, ref_counts + missing_counts)


@given(node_data(), st.sampled_from([ENTROPY, GINI]), st.sampled_from([1.0, 2.0]),
       st.booleans(), st.booleans())
def test_parallel_coded_scores_are_the_serial_ones_bit_for_bit(data, criterion, min_leaf,
                                                                categorical, c45):
    """Attributes scored side by side: the serial split table, every entry to the
    last bit (an unavailable attribute stays invalid)."""
    codes, n_codes, y, rows, w, n_classes = data
    p = codes.shape[1]
    kind = np.full(p, BINNED, dtype=np.int64)
    if categorical:
        kind[0] = CATEGORICAL
    columns = coded_columns(codes, n_codes, y, kind)
    avail = np.ones(p, dtype=bool)
    avail[-1] = p == 1
    unit = bool(np.all(w == 1.0))
    lookup = c_log2_c(rows.size) if unit else c_log2_c(0)
    rules = GrowRules(criterion, c45 or None, np.inf, 2.0, min_leaf, 0.0)
    table, counts = reference_tables(codes, n_codes, y, rows, w, n_classes)
    scratch = new_scratch(n_codes.max(), 0, n_classes)
    serial = score_coded(table, counts, columns, avail, rules, lookup, scratch)
    parallel = new_splits(p)
    score_coded_parallel(table, counts, columns, avail, rules, lookup, parallel)
    for a, b in zip(serial, parallel):
        np.testing.assert_array_equal(a, b)
    assert p == 1 or not parallel.valid[-1]


@pytest.mark.parametrize("weighted", [False, True])
def test_hist_tree_is_the_same_on_any_thread_count_and_job_split(monkeypatch, weighted):
    """Parallel tables at the top, jobs split into smaller jobs that take their
    tables along: the one-thread tree bit for bit (weights and C4.5's fractional
    rows included)."""
    import numba
    X, y = classification(n=4000, p=6, seed=3, missing=0.05 if weighted else 0.0)
    w = np.random.default_rng(3).choice([0.5, 1.0, 3.0], len(y)) if weighted else None
    params = dict(splitter="hist", criterion="gain_ratio" if weighted else "gini", max_bins=64)
    threads = numba.get_num_threads()
    with monkeypatch.context() as m:
        m.setattr(subtree, "SUBTREE_ROWS", 1500)
        m.setattr(subtree, "SUBTRACT_ROWS", 64)
        m.setattr(subtree, "PARALLEL_ROWS", 1500)
        m.setattr(subtree, "PARALLEL_TABLE_THREADS", 2)  # column groups on this machine too
        try:
            numba.set_num_threads(1)
            reference = DecisionTreeClassifier(**params).fit(X, y, sample_weight=w)
        finally:
            numba.set_num_threads(threads)
        assert reference.tree_.n_nodes > 100
        for split in (600, 200):
            m.setattr(subtree, "job_split_rows", lambda n, k, exact, s=split: 0 if exact else s)
            m.setattr(subtree, "SPLIT_FRACTION", 4)
            model = DecisionTreeClassifier(**params).fit(X, y, sample_weight=w)
            assert_same_tree(model, reference)
            np.testing.assert_array_equal(model.tree_.branch_r, reference.tree_.branch_r)
            np.testing.assert_array_equal(model.feature_importances_,
                                          reference.feature_importances_)


@pytest.mark.parametrize("splitter", ["best", "hist"])
def test_a_tree_grown_in_one_job_grows_in_its_own_store(monkeypatch, splitter):
    """A tree below ``SUBTREE_ROWS`` rows is one job, its root's: it grows in the
    tree's store itself, so no graft runs (nor is compiled for it), and the
    tree, root weight included, is the Python loop's."""
    X, y = classification(n=600, p=5, seed=6, missing=0.05)
    params = dict(splitter=splitter, criterion="info_gain", max_bins=32)
    reference = fit_with(monkeypatch, X, y, python=True, **params)
    with monkeypatch.context() as m:
        m.setattr(subtree, "graft", lambda *args: pytest.fail("graft of a one-job tree"))
        model = DecisionTreeClassifier(**params).fit(X, y)
    assert reference.tree_.n_nodes > 20
    assert_same_tree(model, reference, exact=splitter == "best")
    np.testing.assert_array_equal(model.tree_.weight, reference.tree_.weight)
