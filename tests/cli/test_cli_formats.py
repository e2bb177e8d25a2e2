"""ARFF and LIBSVM files on the command line give the models their CSV twins give."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import sparse
from sklearn.base import BaseEstimator
from typer.testing import CliRunner

from hyperplane.cli import app
from hyperplane.cli._data import estimator_input
from hyperplane.cli._readers import file_format, read_table
from hyperplane.datasets import load_arff, load_heart_scale
from hyperplane.io import load
from tests.tree._weka import WEKA_UNAVAILABLE, ensure_weka

VOTE = Path("/usr/share/doc/weka/examples/vote.arff")


class _Result:
    def __init__(self, result):
        self.returncode, self.stdout, self.stderr = (result.exit_code, result.stdout,
                                                     result.stderr)


@pytest.fixture
def cli():
    """The command line in this process (subprocesses would re-compile every kernel)."""
    return lambda *args: _Result(CliRunner().invoke(app, [str(a) for a in args]))


def fit(cli, tmp_path, *args):
    out = tmp_path / f"m{len(list(tmp_path.iterdir()))}.hyperplane"
    result = cli("fit", *args, "--out", out, "-q")
    assert result.returncode == 0, result.stderr
    return out


def same_svc(a, b):
    for name in ("support_", "dual_coef_", "intercept_", "alpha_"):
        np.testing.assert_allclose(getattr(a, name), getattr(b, name), rtol=0, atol=1e-12,
                                   err_msg=name)


def heart_csv(tmp_path):
    X, y = load_heart_scale()
    frame = pd.DataFrame(X.toarray(), columns=[f"x{j}" for j in range(1, 14)])
    path = tmp_path / "heart.csv"
    frame.assign(label=y.astype(int)).to_csv(path, index=False)
    return path


def test_fit_svc_heart_scale_equals_the_dense_csv(cli, tmp_path):
    from_libsvm = load(fit(cli, tmp_path, "svc", "heart_scale"))
    from_csv = load(fit(cli, tmp_path, "svc", heart_csv(tmp_path), "--target", "label"))
    same_svc(from_libsvm, from_csv)
    assert from_libsvm.n_features_in_ == 13 and len(from_libsvm.support_) > 0


def test_libsvm_file_by_content_or_format_option(cli, tmp_path):
    from importlib import resources

    text = resources.files("hyperplane.datasets").joinpath("data", "heart_scale").read_text()
    bare = tmp_path / "heart_scale"
    bare.write_text(text)                            # LIBSVM's own file, no suffix
    odd = tmp_path / "heart.dat"
    odd.write_text(text)
    assert file_format(bare) == "libsvm" and file_format(odd) == "libsvm"
    shipped = load(fit(cli, tmp_path, "svc", "heart_scale"))
    same_svc(load(fit(cli, tmp_path, "svc", bare)), shipped)
    same_svc(load(fit(cli, tmp_path, "svc", odd, "--format", "libsvm")), shipped)


def test_predict_libsvm_test_file_narrower_than_training(cli, tmp_path):
    model = fit(cli, tmp_path, "svc", "heart_scale")
    test = tmp_path / "test.svm"
    test.write_text("+1 1:0.5 2:1\n-1 3:-1\n")        # max index 3 < 13 training columns
    result = cli("predict", model, test)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "label,predicted_label" and len(lines) == 3
    dense = np.zeros((2, 13))
    dense[0, :2] = [0.5, 1]
    dense[1, 2] = -1
    expected = load(model).predict(dense)
    assert [int(line.split(",")[1]) for line in lines[1:]] == expected.tolist()


def test_arff_to_tree_equals_the_csv_twin(cli, tmp_path):
    arff = tmp_path / "weather.arff"
    arff.write_text("""@relation weather
@attribute outlook {sunny, overcast, rainy}
@attribute temperature numeric
@attribute windy {gusty, calm}
@attribute play {yes, no}
@data
sunny,85,calm,no
sunny,80,gusty,no
overcast,83,calm,yes
rainy,70,calm,yes
rainy,68,calm,yes
rainy,65,gusty,no
overcast,64,gusty,yes
sunny,72,calm,no
sunny,69,calm,yes
rainy,75,calm,yes
sunny,75,gusty,yes
overcast,72,gusty,yes
overcast,81,calm,yes
rainy,71,gusty,no
""", encoding="utf-8")
    assert_tree_twins(cli, tmp_path, arff)


def assert_tree_twins(cli, tmp_path, arff):
    """The CLI's tree from ``arff`` and from its CSV twin: the same predictions and
    the same tree; node for node (``tree_`` arrays, drawing) when the ARFF file
    declares every nominal attribute's values sorted, the order a CSV file's text
    columns get (else branches are drawn, and class ties broken, in another order)."""
    X, y = load_arff(arff)
    csv = tmp_path / (arff.stem + ".csv")
    X.assign(**{y.name: y}).to_csv(csv, index=False)
    from_arff = fit(cli, tmp_path, "tree", arff)               # default target: last attribute
    from_csv = fit(cli, tmp_path, "tree", csv, "--target", y.name)
    predicted = []
    for model_file, data in ((from_arff, arff), (from_csv, csv)):
        result = cli("predict", model_file, data)
        assert result.returncode == 0, result.stderr
        predicted.append(result.stdout.splitlines()[1:])
    assert predicted[0] == predicted[1]
    shows = [cli("show", m).stdout.splitlines()[1:] for m in (from_arff, from_csv)]
    assert tree_paths(shows[0]) == tree_paths(shows[1])
    nominal = [c.cat.categories for _, c in X.assign(y=y).items()
               if isinstance(c.dtype, pd.CategoricalDtype)]
    if all(list(values) == sorted(values) for values in nominal):
        assert shows[0] == shows[1]
        a, b = (load(m) for m in (from_arff, from_csv))
        for name, array in vars(a.tree_).items():
            np.testing.assert_array_equal(array, getattr(b.tree_, name), err_msg=name)
        return True
    return False


def tree_paths(lines):
    """Every line of ``export_text`` as the path of tests from the root to it, sorted."""
    stack, paths = [], []
    for line in lines:
        depth = 0
        while line.startswith("|   ", 4 * depth):
            depth += 1
        stack[depth:] = [line[4 * depth:]]
        paths.append(tuple(stack))
    return sorted(paths)


def test_fit_tree_vote_arff(cli, tmp_path):
    if not VOTE.is_file() and ensure_weka() is None:
        pytest.skip(f"Weka's vote.arff needs the weka package: {WEKA_UNAVAILABLE['reason']}")
    assert assert_tree_twins(cli, tmp_path, VOTE)     # vote declares {n, y}, {democrat, ...}


class _SparseTaker(BaseEstimator):
    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags


class _DenseOnly(BaseEstimator):
    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = False
        return tags


def test_sparse_goes_dense_only_to_estimators_whose_tags_refuse_it():
    X = sparse.random(5, 4, density=0.3, format="csr", random_state=0)
    assert estimator_input(_SparseTaker(), X) is X
    dense = estimator_input(_DenseOnly(), X)
    assert isinstance(dense, np.ndarray) and np.array_equal(dense, X.toarray())


def test_read_table_of_arff_and_libsvm(tmp_path):
    table = read_table("heart_scale")
    assert table.format == "libsvm" and table.default_target == "label"
    assert sparse.issparse(table.sparse) and table.sparse.shape == (270, 13)
    assert table.frame["label"].dtype == np.int64
    arff = tmp_path / "t.arff"
    arff.write_text("@relation r\n@attribute a {u, v}\n@attribute c {p, q}\n@data\nv,q\n?,p\n")
    table = read_table(arff)
    assert table.format == "arff" and table.default_target == "c"
    assert list(table.frame["a"].cat.categories) == ["u", "v"]
