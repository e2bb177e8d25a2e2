"""DataFrames through model files: a trace's column of weight vectors is one
stacked array (format 2), and a format-1 file's object columns still load."""

import warnings
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from hyperplane.io import load, read_header, save
from hyperplane.io._frames import FrameState
from hyperplane.linear import Perceptron

DATA = Path(__file__).parent / "data"
#: the points ``perceptron_trace_format_1.hyperplane`` was fitted on (3 partial_fit
#: epochs by hyperplane before format 2): not linearly separable, so every epoch updates
X_OLD = np.array([[3, 3], [4, 3], [1, 1], [2, 2.5], [3.5, 1], [1, 3]])
Y_OLD = np.array([1, 1, -1, -1, 1, -1])


def _traced(epochs):
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(50, 3)), rng.integers(0, 2, 50)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # not separable: it does not converge
        return Perceptron(record_trace=True, max_iter=epochs).fit(X, y)


def test_a_frame_round_trips_with_its_dtypes_and_cells():
    frame = pd.DataFrame({"step": [1, 2, 3], "sample": [[0, 2], [1], [4, 5, 6]],
                          "w": [np.array([1.0, 2.0]), np.array([0.5, -1.0]), np.zeros(2)],
                          "name": ["a", "b", "c"], "b": [0.5, -1.0, 2.0]},
                         index=pd.Index([10, 11, 12], name="row"))
    state = FrameState(frame)
    assert state.values[2].shape == (3, 2)             # the weight vectors, stacked
    assert state.values[1].dtype == object             # unequal lists stay cells
    expected = frame.assign(sample=[np.asarray(v) for v in frame["sample"]])
    pd.testing.assert_frame_equal(state.to_pandas(), expected)


def test_a_long_trace_is_a_fixed_number_of_archive_members(tmp_path):
    """skops writes each array of an object array as its own member: the
    trace's weights are one member however many updates it has."""
    members = []
    for epochs in (2, 40):
        model = _traced(epochs)
        path = tmp_path / f"{epochs}.hyperplane"
        save(model, path)
        with zipfile.ZipFile(path) as archive:
            members.append(len(archive.namelist()))
        loaded = load(path)
        pd.testing.assert_frame_equal(loaded.trace_, model.trace_)
        assert list(loaded.trace_.dtypes) == list(model.trace_.dtypes)
    assert _traced(40).n_updates_ > 10 * _traced(2).n_updates_
    assert members[0] == members[1]


def test_a_format_1_file_still_loads_and_goes_on_streaming():
    path = DATA / "perceptron_trace_format_1.hyperplane"
    assert read_header(path)["format_version"] == 1
    loaded = load(path)
    now = Perceptron(record_trace=True)
    for _ in range(3):
        now.partial_fit(X_OLD, Y_OLD, classes=[-1, 1])
    pd.testing.assert_frame_equal(loaded.trace_, now.trace_)
    loaded.partial_fit(X_OLD, Y_OLD)   # its states' updates are not counted twice
    now.partial_fit(X_OLD, Y_OLD)
    assert len(loaded.trace_) == loaded.n_updates_
    pd.testing.assert_frame_equal(loaded.trace_, now.trace_)


@pytest.mark.parametrize("cells", [[np.array([1, 2]), np.array([1.0, 2.0])],
                                   [np.array([1.0]), np.array([1.0, 2.0])]])
def test_arrays_of_unequal_dtype_or_shape_stay_an_object_column(cells):
    state = FrameState(pd.DataFrame({"w": cells}))
    assert state.values[0].dtype == object and not state.stacked
    pd.testing.assert_frame_equal(state.to_pandas(), pd.DataFrame({"w": cells}))
