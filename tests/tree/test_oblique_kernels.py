"""Compiled oblique-tree kernels vs slow, obviously correct NumPy references."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from hyperplane.tree._oblique_kernels import (apply_tree, best_threshold,
                                              perturb_coefficient, project,
                                              split_impurity, weighted_gram)
from hyperplane.tree._scan._split_kernels import ENTROPY, GINI
from hyperplane.tree._scan._split_kernels import impurity as node_impurity

CRITERIA = st.sampled_from([GINI, ENTROPY])


def impurity_ref(counts, criterion):
    total = counts.sum()
    if total <= 0:
        return 0.0
    p = counts[counts > 0] / total
    return 1 - np.sum(p ** 2) if criterion == GINI else -np.sum(p * np.log2(p))


def split_ref(left_mask, y, w, K, criterion):
    cl = np.bincount(y[left_mask], w[left_mask], K)
    cr = np.bincount(y[~left_mask], w[~left_mask], K)
    return (cl.sum() * impurity_ref(cl, criterion)
            + cr.sum() * impurity_ref(cr, criterion)) / w.sum()


@st.composite
def labelled(draw, max_n=30):
    n = draw(st.integers(2, max_n))
    K = draw(st.integers(2, 4))
    z = draw(arrays(np.float64, n, elements=st.integers(-6, 6).map(float)))
    y = np.array(draw(st.lists(st.integers(0, K - 1), min_size=n, max_size=n)))
    w = draw(arrays(np.float64, n, elements=st.sampled_from([0.5, 1.0, 2.0, 3.0])))
    return z, y.astype(np.int64), w, K


@given(labelled(), CRITERIA)
def test_node_impurity_matches_reference(data, criterion):
    _, y, w, K = data
    counts = np.bincount(y, w, K)
    assert node_impurity(counts, counts.sum(), criterion) == pytest.approx(
        impurity_ref(counts, criterion), abs=1e-12)


@given(labelled(), CRITERIA, st.integers(1, 4))
def test_best_threshold_is_the_best_admissible_midpoint(data, criterion, min_leaf):
    z, y, w, K = data
    order = np.argsort(z, kind="stable")
    z, y, w = z[order], y[order], w[order]
    imp, t, n_left = best_threshold(z, y, w, K, criterion, min_leaf)
    distinct = np.unique(z)
    cuts = (distinct[:-1] + distinct[1:]) / 2
    scores = [(split_ref(z <= c, y, w, K, criterion), c) for c in cuts
              if min_leaf <= np.sum(z <= c) <= len(z) - min_leaf]
    if not scores:
        assert imp == np.inf and n_left == 0
        return
    best = min(s for s, _ in scores)
    assert imp == pytest.approx(best, abs=1e-12)
    # the smallest t among (numerically) equally good cuts
    assert t == min(c for s, c in scores if s <= best + 1e-12)
    assert n_left == np.sum(z <= t)


@given(arrays(np.float64, (7, 3), elements=st.floats(-100, 100)),
       arrays(np.float64, 3, elements=st.floats(-10, 10)))
def test_project_is_the_dot_product(X, w):
    rows = np.array([6, 0, 3, 3], dtype=np.int64)
    assert np.allclose(project(X, rows, w), X[rows] @ w, rtol=1e-12, atol=1e-9)


@given(labelled(max_n=20), CRITERIA)
def test_split_impurity_matches_reference(data, criterion):
    V, y, w, K = data
    assert split_impurity(V, y, w, K, criterion) == pytest.approx(
        split_ref(V <= 0, y, w, K, criterion), abs=1e-12)


@given(labelled(max_n=20), CRITERIA, st.integers(1, 3),
       arrays(np.float64, 20, elements=st.integers(-3, 3).map(float)),
       st.floats(-2, 2))
def test_perturb_coefficient_is_an_exact_line_search(data, criterion, min_leaf, x_all, a_m):
    V, y, w, K = data
    x_m = x_all[:V.shape[0]]
    imp, a = perturb_coefficient(V, x_m, a_m, y, w, K, criterion, min_leaf)
    # brute force: every midpoint between adjacent distinct change points
    moving = x_m != 0
    U = np.unique(a_m - V[moving] / x_m[moving])
    cands = list((U[:-1] + U[1:]) / 2) + ([U[-1] + 1.0] if U.size else [])
    scores = []
    for c in cands:
        left = V + (c - a_m) * x_m <= 0
        if min_leaf <= left.sum() <= len(V) - min_leaf:
            scores.append(split_ref(left, y, w, K, criterion))
    if not scores:
        assert imp == np.inf
        return
    assert imp == pytest.approx(min(scores), abs=1e-9)
    # the returned coefficient really achieves the reported impurity
    left = V + (a - a_m) * x_m <= 0
    assert split_ref(left, y, w, K, criterion) == pytest.approx(imp, abs=1e-9)


def apply_ref(X, coef, threshold, left, right):
    out = []
    for x in X:
        node = 0
        while left[node] != -1:
            node = left[node] if x @ coef[node] <= threshold[node] else right[node]
        out.append(node)
    return np.array(out)


@given(arrays(np.float64, (15, 2), elements=st.integers(-5, 5).map(float)),
       arrays(np.float64, (3, 2), elements=st.integers(-3, 3).map(float)),
       arrays(np.float64, 3, elements=st.integers(-4, 4).map(float)))
def test_apply_tree_routes_like_the_reference(X, C, T):
    # a fixed 3-split shape: 0 -> (1 -> (3, 4), 2 -> (5, 6))
    coef = np.zeros((7, 2))
    coef[:3] = C
    threshold = np.zeros(7)
    threshold[:3] = T
    left = np.array([1, 3, 5, -1, -1, -1, -1])
    right = np.array([2, 4, 6, -1, -1, -1, -1])
    assert np.array_equal(apply_tree(X, coef, threshold, left, right),
                          apply_ref(X, coef, threshold, left, right))


@given(arrays(np.float64, (9, 4), elements=st.floats(-10, 10)),
       arrays(np.float64, 9, elements=st.floats(0, 5)))
def test_weighted_gram_is_z_transpose_w_z(Z, w):
    G = weighted_gram(Z, w)
    assert np.allclose(G, Z.T @ np.diag(w) @ Z, rtol=1e-10, atol=1e-8)
    assert np.array_equal(G, G.T)
