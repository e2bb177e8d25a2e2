"""load_svmlight on files written by scikit-learn's writer and by LIBSVM."""

from importlib import resources

import numpy as np
import pytest
from scipy import sparse
from sklearn.datasets import dump_svmlight_file

from hyperplane.datasets import load_heart_scale, load_svmlight


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_files_written_by_scikit_learn_read_back_exactly(tmp_path, seed):
    rng = np.random.default_rng(seed)
    X = sparse.random(40, 25, density=0.2, format="csr", random_state=seed,
                      data_rvs=lambda n: rng.normal(size=n) * 10.0 ** rng.integers(-8, 8, n))
    y = rng.choice([-1, 1, 3], size=40)
    path = tmp_path / "data.svm"
    dump_svmlight_file(X, y, str(path), zero_based=False, comment="written by scikit-learn")
    X_read, y_read = load_svmlight(path, n_features=25)
    assert sparse.isspmatrix_csr(X_read) and X_read.dtype == np.float64
    assert (X_read.indptr == X.indptr).all() and (X_read.indices == X.indices).all()
    # scikit-learn writes 16 significant digits ("%.16g"): equal to that precision
    np.testing.assert_allclose(X_read.data, X.data, rtol=1e-15, atol=0)
    np.testing.assert_array_equal(y_read, y)


def test_heart_scale_as_libsvm_ships_it():
    text = resources.files("hyperplane.datasets").joinpath("data", "heart_scale").read_text()
    lines = text.splitlines()
    X, y = load_heart_scale()
    assert X.shape == (270, 13) and len(lines) == 270
    # the first line of LIBSVM's file, read by eye
    assert lines[0].startswith("+1 1:0.708333 2:1 3:1 4:-0.320755")
    np.testing.assert_array_equal(
        X[0].toarray().ravel(),
        [0.708333, 1, 1, -0.320755, -0.105023, -1, 1, -0.419847, -1, -0.225806, 0, 1, -1])
    assert y[0] == 1 and (y == 1).sum() == 120 and (y == -1).sum() == 150
    assert X.nnz == sum(len(line.split()) - 1 for line in lines)
    assert X.min() >= -1 and X.max() <= 1          # svm-scale's default range


def test_test_file_narrower_than_training(tmp_path):
    path = tmp_path / "test.svm"
    path.write_text("1 2:0.5\n-1 1:1 # a comment\n")
    X, y = load_svmlight(path, n_features=13)
    assert X.shape == (2, 13) and X[0, 1] == 0.5 and X[1, 0] == 1.0


@pytest.mark.parametrize("text", ["1 a:b\n", "1 3:1 2:1 x\n", "nonsense here\n"])
def test_bad_files_name_the_file(tmp_path, text):
    path = tmp_path / "bad.svm"
    path.write_text(text)
    with pytest.raises(ValueError, match="bad.svm"):
        load_svmlight(path)


def test_index_beyond_the_training_width(tmp_path):
    path = tmp_path / "wide.svm"
    path.write_text("1 20:1\n")
    with pytest.raises(ValueError, match="wide.svm"):
        load_svmlight(path, n_features=13)
