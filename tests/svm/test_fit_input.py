"""The SVMs' shortcut for plain input (a float ndarray or CSR matrix and a
numeric 1-d target) gives what scikit-learn's validate_data gives, and any
other input still goes through validate_data (its conversions and errors)."""

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from hyperplane._validation import check_X, check_X_y
from hyperplane.svm import SVC, SVR, OneClassSVM
from hyperplane.svm._base import is_plain_matrix, is_plain_target, plain_fit_input

VALUES = st.sampled_from([0.0, 1.0, -2.5, 1e300, np.nan, np.inf, -np.inf])


@settings(deadline=None, max_examples=60)
@given(n=st.integers(0, 4), d=st.integers(0, 3), data=st.data(),
       layout=st.sampled_from(["dense", "csr", "csc", "fortran", "list"]),
       dtype=st.sampled_from(["float64", "float32", "int64"]),
       target=st.sampled_from(["float", "int", "column", "object", "short", "none"]))
def test_shortcut_gives_what_validate_data_gives(n, d, data, layout, dtype, target):
    X = np.array(data.draw(st.lists(VALUES, min_size=n * d, max_size=n * d)),
                 dtype=np.float64).reshape(n, d)
    if dtype != "float64":
        with np.errstate(invalid="ignore", over="ignore"):
            X = X.astype(dtype)
    X = {"dense": X, "csr": sp.csr_matrix(X), "csc": sp.csc_matrix(X),
         "fortran": np.asfortranarray(X), "list": X.tolist()}[layout]
    y = {"float": np.arange(n, dtype=float) % 2, "int": np.arange(n) % 2,
         "column": (np.arange(n) % 2)[:, None], "object": (np.arange(n) % 2).astype(object),
         "short": np.arange(max(n - 1, 0)) % 2, "none": None}[target]
    shortcut, slow = SVC(), SVC()
    slow.feature_names_in_ = shortcut.feature_names_in_ = np.array(["left over"])
    plain = plain_fit_input(shortcut, X, y)
    try:
        expected = (check_X(slow, X, reset=True, accept_sparse="csr") if y is None
                    else check_X_y(slow, X, y, accept_sparse="csr"))
    except ValueError:
        assert plain is None                        # an error is validate_data's
        return
    if plain is None:
        return
    if y is None:
        expected = (expected, None)
    got_X, got_y = plain
    want_X, want_y = expected
    assert type(got_X) is type(want_X) and got_X.dtype == want_X.dtype
    if sp.issparse(want_X):
        assert got_X.format == want_X.format
        got_X, want_X = got_X.toarray(), want_X.toarray()
    np.testing.assert_array_equal(got_X, want_X)
    if want_y is not None:
        assert got_y.dtype == want_y.dtype and got_y.shape == want_y.shape
        np.testing.assert_array_equal(got_y, want_y)
    assert shortcut.n_features_in_ == slow.n_features_in_
    assert not hasattr(shortcut, "feature_names_in_") and not hasattr(slow, "feature_names_in_")


def test_what_is_plain():
    X = np.ones((3, 2))
    assert is_plain_matrix(X) and is_plain_matrix(sp.csr_matrix(X))
    assert not is_plain_matrix(sp.csc_matrix(X)) and not is_plain_matrix(X.tolist())
    assert not is_plain_matrix(np.ones((0, 2))) and not is_plain_matrix(X.astype(int))
    assert not is_plain_matrix(np.asmatrix(X)) and not is_plain_matrix(pd.DataFrame(X))
    assert is_plain_target(np.ones(3), 3) and not is_plain_target(np.ones(3)[::-1][::2], 2)
    assert not is_plain_target(np.array([1.0, np.nan, 0.0]), 3)


@pytest.mark.parametrize("make", [SVC, SVR, OneClassSVM])
def test_frames_keep_their_feature_names_and_a_later_array_fit_drops_them(make):
    frame = pd.DataFrame({"a": [0.0, 1.0, 2.0, 3.0], "b": [1.0, 0.0, 1.0, 0.0]})
    y = np.array([0, 0, 1, 1])
    model = make().fit(frame, y) if make is not OneClassSVM else make().fit(frame)
    assert model.feature_names_in_.tolist() == ["a", "b"]
    model.fit(frame.to_numpy(), y) if make is not OneClassSVM else model.fit(frame.to_numpy())
    assert not hasattr(model, "feature_names_in_") and model.n_features_in_ == 2


def test_nan_in_plain_looking_input_is_validate_data_s_error():
    X = np.array([[0.0, 1.0], [np.nan, 0.0], [1.0, 1.0]])
    with pytest.raises(ValueError, match="Input X contains NaN"):
        SVC().fit(X, [0, 1, 0])
    with pytest.raises(ValueError, match="Input y contains NaN"):
        SVR().fit(np.ones((3, 2)), np.array([0.0, np.nan, 1.0]))


@settings(deadline=None, max_examples=40)
@given(n=st.integers(1, 30), d=st.integers(1, 8), density=st.floats(0.0, 1.0),
       seed=st.integers(0, 2 ** 16), data=st.data(), sparse_array=st.booleans())
def test_support_rows_of_csr_samples_are_scipy_s_fancy_indexing(n, d, density, seed, data,
                                                                sparse_array):
    """The support vectors' rows gathered by the compiled kernel equal scipy's
    ``X[rows]``: values, stored structure, class and index types."""
    from hyperplane.svm._base import take_rows

    X = sp.random(n, d, density=density, format="csr", random_state=seed)
    if sparse_array:
        X = sp.csr_array(X)
    rows = np.array(sorted(data.draw(st.sets(st.integers(0, n - 1)))), dtype=np.int64)
    got, want = take_rows(X, rows), X[rows]
    assert type(got) is type(want) and got.shape == want.shape
    for name in ("data", "indices", "indptr"):
        assert getattr(got, name).tobytes() == getattr(want, name).tobytes()
        assert getattr(got, name).dtype == getattr(want, name).dtype
    dense = X.toarray()
    np.testing.assert_array_equal(take_rows(dense, rows), dense[rows])
