"""Class moments: compiled passes vs loops, exact merging of chunks."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from hyperplane.linear._moments import class_moments, merge_class_moments, psd_eigh
from hyperplane.linear._moments_kernels import center_by_class, class_counts_and_sums

from ._helpers import scatter_reference


@st.composite
def labelled_data(draw):
    n = draw(st.integers(1, 40))
    d = draw(st.integers(1, 5))
    k = draw(st.integers(1, 4))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) * draw(st.sampled_from([1e-3, 1.0, 1e3]))
    X += draw(st.sampled_from([0.0, 1e4]))
    return X, rng.integers(0, k, n), k


@given(labelled_data(), st.booleans())
def test_counts_and_sums_match_loops(data, weighted):
    X, y, k = data
    s = np.random.default_rng(2).integers(0, 4, len(y)).astype(float) if weighted \
        else np.ones(len(y))
    counts, sums = class_counts_and_sums(X, y, k, s)
    for c in range(k):
        assert counts[c] == np.sum(s[y == c])
        np.testing.assert_allclose(sums[c], (s[y == c, None] * X[y == c]).sum(axis=0),
                                   rtol=1e-12, atol=1e-9)


@given(labelled_data())
def test_center_by_class_subtracts_the_class_mean(data):
    X, y, k = data
    means = np.random.default_rng(1).normal(size=(k, X.shape[1]))
    out = center_by_class(X, y, means, np.empty_like(X))
    np.testing.assert_array_equal(out, X - means[y])


@given(labelled_data(), st.sampled_from([1, 3, 8192]))
def test_class_moments_match_loops(data, block_rows):
    X, y, k = data
    mom = class_moments(X, y, k, block_rows=block_rows)
    counts, means, S_W = scatter_reference(X, y, k)
    np.testing.assert_array_equal(mom.counts, counts)
    np.testing.assert_allclose(mom.means, means, rtol=1e-10, atol=1e-10 * np.abs(X).max())
    scale = max(1.0, np.abs(S_W).max())
    np.testing.assert_allclose(mom.scatter, S_W, rtol=1e-9, atol=1e-9 * scale)


@given(labelled_data(), st.integers(0, 40))
def test_merging_chunks_equals_the_whole(data, cut):
    """Disjoint chunks merged exactly (the Dask reduction of issue 7)."""
    X, y, k = data
    cut = min(cut, X.shape[0])
    whole = class_moments(X, y, k)
    merged = merge_class_moments(class_moments(X[:cut], y[:cut], k),
                                 class_moments(X[cut:], y[cut:], k))
    np.testing.assert_array_equal(merged.counts, whole.counts)
    np.testing.assert_allclose(merged.means, whole.means, rtol=1e-10,
                               atol=1e-12 * max(1.0, np.abs(X).max()))
    scale = max(1e-300, np.abs(whole.scatter).max())
    np.testing.assert_allclose(merged.scatter, whole.scatter, rtol=1e-8, atol=1e-9 * scale)


def test_total_scatter_is_within_plus_between():
    rng = np.random.default_rng(3)
    X, y = rng.normal(size=(50, 3)), rng.integers(0, 3, 50)
    mom = class_moments(X, y, 3)
    centred = X - X.mean(axis=0)
    np.testing.assert_allclose(mom.total_scatter(), centred.T @ centred, rtol=1e-12)


def test_float32_input_gives_float64_moments():
    X = np.random.default_rng(0).normal(size=(30, 2)).astype(np.float32)
    mom = class_moments(X, np.arange(30) % 2, 2)
    assert mom.scatter.dtype == np.float64 and mom.means.dtype == np.float64


def test_psd_eigh_drops_null_directions():
    a = np.array([1.0, 2.0, 3.0])
    lam, V, keep = psd_eigh(np.outer(a, a))
    assert keep.tolist() == [False, False, True]
    assert lam.min() >= 0
    np.testing.assert_allclose(abs(V[:, -1] @ a) / np.linalg.norm(a), 1.0)
    assert not psd_eigh(np.zeros((2, 2)))[2].any()


@pytest.mark.parametrize("k", [2, 3])
def test_a_class_missing_from_a_chunk(k):
    X = np.arange(12.0).reshape(6, 2)
    y = np.array([0, 0, 0, 1, 1, 1]) % k
    merged = merge_class_moments(class_moments(X[:3], y[:3], k),
                                 class_moments(X[3:], y[3:], k))
    whole = class_moments(X, y, k)
    np.testing.assert_allclose(merged.scatter, whole.scatter)
    np.testing.assert_allclose(merged.means, whole.means)
