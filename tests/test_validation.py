import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from hyperplane._validation import check_number, check_option, encode_labels, sign


@given(st.floats(allow_nan=False, allow_infinity=False), st.floats(-1e6, 1e6))
def test_check_number_accepts_exactly_the_interval(value, low):
    if value > low:
        assert check_number(value, "eta", low=low, low_open=True) == value
    else:
        with pytest.raises(ValueError, match="eta"):
            check_number(value, "eta", low=low, low_open=True)


@pytest.mark.parametrize("value", [True, "1", None, [1]])
def test_check_number_rejects_non_numbers(value):
    with pytest.raises(TypeError, match="C must be"):
        check_number(value, "C")


def test_check_number_inf_only_when_allowed():
    assert check_number(np.inf, "C", low=0, allow_inf=True) == np.inf
    with pytest.raises(ValueError, match="finite"):
        check_number(np.inf, "C", low=0)
    with pytest.raises(ValueError, match="finite"):
        check_number(float("nan"), "C")


def test_check_option_lists_choices():
    with pytest.raises(ValueError, match=r"\['a', 'b'\]"):
        check_option("c", "kind", {"a": 1, "b": 2})


@given(st.lists(st.sampled_from(["是", "否", "x"]), min_size=2))
def test_encode_labels_round_trips_and_sorts(labels):
    if len(set(labels)) < 2:
        with pytest.raises(ValueError, match="one class"):
            encode_labels(labels)
        return
    classes, index = encode_labels(labels)
    assert list(classes) == sorted(set(labels))
    assert classes[index].tolist() == labels


def test_sign_of_zero_is_plus_one():
    np.testing.assert_array_equal(sign(np.array([-0.5, 0.0, -0.0, 2.0])), [-1, 1, 1, 1])


def assert_encoded_as_numpy_unique(y):
    """encode_labels(y) gives np.unique's sorted classes (in y's type) and inverse."""
    if np.unique(y).size < 2:
        return
    classes, index = encode_labels(y)
    want_classes, want_index = np.unique(y, return_inverse=True)
    assert classes.dtype == y.dtype and index.dtype == np.int64
    np.testing.assert_array_equal(classes, want_classes)
    np.testing.assert_array_equal(index, want_index)


@given(st.sampled_from(["int8", "int16", "int64", "uint8", "uint64"]), st.data())
def test_integer_labels_are_encoded_as_numpy_unique_does(dtype, data):
    """Integer labels (counted, no pandas) against np.unique's sorted classes and
    inverse, with labels at the ends of their type's range."""
    info = np.iinfo(dtype)
    low = data.draw(st.sampled_from([int(info.min), 0, int(info.max) - 20]))
    near = st.integers(low, low + 20)                   # a span shorter than y: counted
    anywhere = st.integers(int(info.min), int(info.max))
    pool = data.draw(st.lists(data.draw(st.sampled_from([near, anywhere])), min_size=2,
                              max_size=5, unique=True))
    y = np.array(data.draw(st.lists(st.sampled_from(pool), min_size=2, max_size=300)),
                 dtype=dtype)
    assert_encoded_as_numpy_unique(y)


@pytest.mark.parametrize("dtype, labels", [("int8", [-100, 100]), ("int16", [-30000, 30000, 0]),
                                           ("uint8", [0, 255]), ("int8", [-128, 127])])
def test_integer_labels_spanning_most_of_their_type(dtype, labels):
    """Labels whose difference overflows their type (the counted path's offsets)."""
    y = np.tile(np.array(labels, dtype=dtype), 200)
    classes, index = encode_labels(y)
    np.testing.assert_array_equal(classes, np.unique(y))
    np.testing.assert_array_equal(classes[index], y)


@given(st.sampled_from(["float32", "float64"]),
       st.lists(st.sampled_from([-1.0, 1.0, 0.0, 2.0, 7.0, -3.0, 2.0 ** 40]), min_size=2,
                max_size=300))
def test_float_labels_with_integer_values_are_encoded_as_numpy_unique_does(dtype, labels):
    """Float labels holding integers (LIBSVM files' ±1) take the counted path:
    the classes and inverse of np.unique, the classes in y's float type."""
    y = np.array(labels, dtype=dtype)
    assert_encoded_as_numpy_unique(y)


@pytest.mark.parametrize("labels, message", [([0.5, 1.0, 0.5], "continuous"),
                                             ([1.0, np.inf], "infinity"),
                                             ([1.0, np.nan, 0.0], "missing label at row 1")])
def test_float_labels_that_are_not_classes_are_refused(labels, message):
    with pytest.raises(ValueError, match=message):
        encode_labels(np.array(labels))
