"""The family-agnostic Dask engine and what every Dask fit shares with the
in-memory one: parameters checked before any chunk is computed, the same
input errors, the same ``random_state`` semantics."""

import warnings

import numpy as np
import pytest
import dask
import dask.array as da
from sklearn.exceptions import ConvergenceWarning

from hyperplane.distributed import Chunks, add_parts
from hyperplane.linear import (
    FisherDiscriminant,
    LeastSquaresClassifier,
    LogisticRegression,
    Perceptron,
)
from hyperplane.tree import DecisionTreeClassifier


class ChunkComputed(Exception):
    """Raised by a trap chunk: a chunk of X was computed."""


def _trap(block):
    raise ChunkComputed("a chunk of X was computed")


def trapped_data(n=120, d=3, chunk=40):
    """A Dask X whose every chunk raises :class:`ChunkComputed` when computed
    (also on a worker: the exception travels back), and a plain Dask y."""
    X = da.zeros((n, d), chunks=(chunk, d)).map_blocks(_trap, dtype=np.float64)
    y = da.from_array(np.arange(n) % 2, chunks=chunk)
    return X, y


BAD_PARAMETERS = [
    (LeastSquaresClassifier, {"fit_intercept": 1}, "fit_intercept"),
    (FisherDiscriminant, {"reg": -1.0}, "reg"),
    (LogisticRegression, {"C": 0.0}, "C"),
    (LogisticRegression, {"verbose": "yes"}, "verbose"),
    (Perceptron, {"eta": 0.0}, "eta"),
    (Perceptron, {"shuffle": "no"}, "shuffle"),
    (Perceptron, {"random_state": "seed"}, "random_state"),
    (DecisionTreeClassifier, {"criterion": "entropy"}, "criterion"),
    (DecisionTreeClassifier, {"max_bins": 1}, "max_bins"),
]


@pytest.mark.parametrize("Estimator, params, name", BAD_PARAMETERS)
def test_bad_parameter_on_dask_fails_before_the_first_chunk_is_computed(Estimator, params,
                                                                        name):
    X, y = trapped_data()
    with pytest.raises((TypeError, ValueError), match=name):
        Estimator(**params).fit(X, y)


@pytest.mark.parametrize("Estimator", [LeastSquaresClassifier, LogisticRegression,
                                       Perceptron, DecisionTreeClassifier])
def test_the_trap_does_fire_when_the_parameters_are_good(Estimator):
    """The control for the test above: with valid parameters the fit reads X."""
    X, y = trapped_data()
    with pytest.raises(ChunkComputed):
        Estimator().fit(X, y)


def finite_problem(n=600, d=4, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    return X, (X[:, 0] + 0.3 * X[:, 1] > 0).astype(int)


@pytest.mark.parametrize("Estimator", [LeastSquaresClassifier, FisherDiscriminant,
                                       LogisticRegression, Perceptron])
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_nan_or_inf_on_dask_raises_the_in_memory_error(Estimator, bad):
    X, y = finite_problem()
    X[437, 2] = bad                       # in the fifth of six chunks
    with pytest.raises(ValueError) as in_memory:
        Estimator().fit(X, y)
    with pytest.raises(ValueError) as on_dask:
        Estimator().fit(da.from_array(X, chunks=(100, 4)), da.from_array(y, chunks=100))
    assert str(on_dask.value) == str(in_memory.value)
    assert ("Input X contains NaN" if np.isnan(bad) else "Input X contains infinity") \
        in str(in_memory.value)


def _shuffled_dask_fit(random_state):
    X, y = finite_problem(seed=4)
    Xd, yd = da.from_array(X, chunks=(150, 4)), da.from_array(y, chunks=150)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return Perceptron(shuffle=True, max_iter=4, random_state=random_state).fit(Xd, yd)


def test_dask_fits_reproduce_with_a_random_state_seed(dask_client):
    by_int = _shuffled_dask_fit(7)
    for seed in (np.random.RandomState(7), np.int64(7), np.uint32(7)):
        again = _shuffled_dask_fit(seed)
        np.testing.assert_array_equal(again.coef_, by_int.coef_)
        np.testing.assert_array_equal(again.intercept_, by_int.intercept_)
    # the seed matters: another one visits the rows in another order
    assert not np.array_equal(_shuffled_dask_fit(8).coef_, by_int.coef_)


def test_a_random_state_instance_is_consumed_as_in_memory(dask_client):
    """scikit-learn's semantics: a shared RandomState advances, so a second fit
    with the same instance differs from the first, and an unseeded fit runs."""
    rs = np.random.RandomState(7)
    first, second = _shuffled_dask_fit(rs), _shuffled_dask_fit(rs)
    assert not np.array_equal(first.coef_, second.coef_)
    assert np.all(np.isfinite(_shuffled_dask_fit(None).coef_))


def _row_sums(X, y, scale):
    return scale * X.sum(axis=0), np.bincount(y, minlength=2)


def test_chunks_map_and_reduce_a_statistic_like_the_whole_data():
    X, y = finite_problem(n=250)
    chunks = Chunks(da.from_array(X, chunks=(60, 4)), da.from_array(y, chunks=70))
    assert (len(chunks), chunks.n_samples, chunks.n_features) == (5, 250, 4)
    chunks.encode_labels(chunks.classes())
    total, counts = chunks.reduce(_row_sums, add_parts, 2.0)
    np.testing.assert_allclose(total, 2.0 * X.sum(axis=0), rtol=1e-12)
    np.testing.assert_array_equal(counts, np.bincount(y))


def test_chunks_pass_per_chunk_arguments_in_chunk_order():
    X = np.arange(20.0).reshape(10, 2)
    chunks = Chunks(da.from_array(X, chunks=(4, 2)))
    parts = dask.compute(*chunks.map(lambda Xb, k: (k, Xb.shape[0]),
                                     per_chunk=[(0,), (1,), (2,)]))
    assert list(parts) == [(0, 4), (1, 4), (2, 2)]


def test_a_label_outside_the_classes_is_named():
    chunks = Chunks(da.zeros((4, 1), chunks=2), da.from_array(np.array([0, 1, 1, 5]), chunks=2))
    with pytest.raises(ValueError, match=r"label 5 outside \[0, 1\]"):
        chunks.encode_labels(np.array([0, 1]))      # persisted: computed here or on use
        dask.compute(*chunks.y_blocks)


def _frame_parts(X_block, y_block, w_block):
    return (str(X_block["c"].dtype), X_block.shape[0], y_block.shape[0], float(w_block.sum()))


@pytest.mark.parametrize("y_partitions", [3, 2])
def test_frames_keep_their_partitions_and_dtypes_with_y_and_weights_aligned(y_partitions):
    import pandas as pd
    import dask.dataframe as dd

    frame = pd.DataFrame({"c": pd.Categorical(list("abcabcabca")), "x": np.arange(10.0)})
    X = dd.from_pandas(frame, npartitions=3)
    y = dd.from_pandas(pd.Series(np.arange(10) % 2), npartitions=y_partitions)
    weight = np.linspace(0.5, 1.5, 10)
    chunks = Chunks(X, y, sample_weight=weight, frames=True)
    parts = dask.compute(*chunks.map(_frame_parts))
    assert [p[0] for p in parts] == ["category"] * 3
    assert [p[1] for p in parts] == [p[2] for p in parts]          # y follows X's rows
    assert sum(p[1] for p in parts) == chunks.n_samples == 10
    np.testing.assert_allclose(sum(p[3] for p in parts), weight.sum())
    assert chunks.feature_names.tolist() == ["c", "x"]


def _times(X_block, k):
    return X_block * k


def _total(X_block):
    return X_block.sum()


def test_transform_persists_a_per_chunk_encoding_once():
    chunks = Chunks(da.ones((10, 2), chunks=4)).transform(_times, 3.0)
    assert chunks.reduce(_total, add_parts) == 60.0


def test_per_chunk_arguments_must_match_the_chunks():
    chunks = Chunks(da.ones((10, 2), chunks=4))
    with pytest.raises(ValueError, match="per_chunk has 2 entries for 3 chunks"):
        chunks.map(_total, per_chunk=[(), ()])


def _record(X_block, y_block, w_block, k):
    return {"X": X_block * k, "y": y_block, "w": np.ones(len(y_block)) if w_block is None
            else w_block}


def _record_total(record):
    return np.array([record["X"].sum(), (record["w"] * record["y"]).sum()])


@pytest.mark.parametrize("weighted", [False, True])
def test_a_whole_chunk_transform_carries_y_and_the_weights(weighted):
    X = np.arange(20.0).reshape(10, 2)
    y = np.arange(10.0)
    w = np.linspace(0.5, 2.0, 10) if weighted else None
    chunks = Chunks(da.from_array(X, chunks=(4, 2)), da.from_array(y, chunks=3),
                    sample_weight=w, always_weights=True)
    assert chunks.lengths == (4, 4, 2)
    chunks.transform(_record, 2.0, whole=True)
    assert chunks.y_blocks is None and chunks.weight_blocks is None
    total = chunks.reduce(_record_total, add_parts)
    np.testing.assert_allclose(total, [2.0 * X.sum(), (y if w is None else w * y).sum()])


def _smallest(w_block):
    return float(np.min(w_block))


def test_weight_blocks_are_read_and_rescaled_without_x():
    X = da.from_array(np.ones((6, 1)), chunks=(3, 1))
    w = np.array([2.0, 4.0, 6.0, 8.0, 10.0, 12.0])
    chunks = Chunks(X, sample_weight=w)
    assert chunks.each_weight_block(_smallest) == [2.0, 8.0]
    chunks.transform_weights(np.divide, 2.0)
    assert chunks.each_weight_block(_smallest) == [1.0, 4.0]
    unweighted = Chunks(X, always_weights=True)
    assert unweighted.each_weight_block(_smallest) is None
    assert unweighted.transform_weights(np.divide, 2.0).weight_blocks == [None, None]
    assert unweighted.each(lambda Xb, wb: wb is None) == [True, True]


def test_the_round_arguments_are_one_object_every_task_reads():
    chunks = Chunks(da.from_array(np.ones((9, 2)), chunks=(3, 2)))
    coef = np.arange(1000.0)

    def keys(tasks):
        return set(dask.delayed(tasks).__dask_graph__())

    with_args, without = keys(chunks.map(np.add, coef)), keys(chunks.map(np.negative))
    # the 3 tasks, the list of them and one key that holds the arguments for all three
    assert len(with_args - without) == 3 + 1 + 1
    assert chunks.each(lambda Xb, c: c.sum(), coef) == [coef.sum()] * 3
