"""``hyperplane grid`` (LIBSVM's grid.py) and ``fit --scale`` (svm-scale)."""

import json

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.model_selection import StratifiedKFold, cross_val_predict
from sklearn.preprocessing import MaxAbsScaler, MinMaxScaler
from sklearn.svm import SVC as LibSVC
from typer.testing import CliRunner

from hyperplane.cli import app
from hyperplane.cli._grid import correct_count, parse_axis, search_layout
from hyperplane.cli._models import UserError
from hyperplane.datasets import load_heart_scale, load_watermelon
from hyperplane.io import load
from hyperplane.svm import SVC


class _Result:
    def __init__(self, result):
        self.returncode, self.stdout, self.stderr = (result.exit_code, result.stdout,
                                                     result.stderr)


@pytest.fixture
def cli_here():
    """The command line in this process (a subprocess re-imports everything)."""
    return lambda *args: _Result(CliRunner().invoke(app, [str(a) for a in args]))


def libsvm_cv_accuracy(X, y, C, gamma, folds=5, seed=0):
    """LIBSVM (scikit-learn's SVC) on the folds grid uses: correct / n."""
    splitter = StratifiedKFold(folds, shuffle=True, random_state=seed)
    predicted = cross_val_predict(LibSVC(C=C, gamma=gamma), X, y, cv=splitter)
    return np.mean(predicted == y)


def test_grid_svc_heart_scale_through_the_entry_point(cli, tmp_path):
    """The console script on the shipped heart_scale: a 3 x 3 log2 grid, its
    JSON, the best pair's rate against LIBSVM's on the same folds, the plot."""
    plot = tmp_path / "grid.png"
    result = cli("grid", "svc", "heart_scale", "--C", "2^-1:2^3:2", "--gamma", "2^-3:2^-7:-2",
                 "--json", "--plot", plot, "--jobs", "2")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert len(report["grid"]) == 9
    assert {p["C"] for p in report["grid"]} == {0.5, 2.0, 8.0}
    assert {p["gamma"] for p in report["grid"]} == {2.0 ** -3, 2.0 ** -5, 2.0 ** -7}
    X, y = load_heart_scale()
    for point in report["grid"]:
        assert point["cv_accuracy"] == pytest.approx(
            libsvm_cv_accuracy(X, y, point["C"], point["gamma"]), abs=1e-12)
    best = max(report["grid"], key=lambda p: p["cv_accuracy"])       # first of the ties
    assert report["best"] == {"C": best["C"], "gamma": best["gamma"]}
    assert report["cv_accuracy"] == best["cv_accuracy"]
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_search_layout_densifies_only_mostly_nonzero_matrices():
    """heart_scale (96% nonzero: its dense array is smaller than its CSR arrays)
    is searched dense, with the same values; a 5%-dense matrix stays sparse, and
    a dense array is passed through."""
    X, _ = load_heart_scale()
    dense = search_layout(X)
    assert isinstance(dense, np.ndarray)
    np.testing.assert_array_equal(dense, X.toarray())
    text_like = sp.random(50, 400, density=0.05, format="csr", random_state=0)
    assert search_layout(text_like) is text_like
    assert search_layout(dense) is dense


def test_correct_count_is_accuracy_times_n():
    """The fold score is the number of right predictions (scikit-learn's
    accuracy_score with normalize=False)."""
    from sklearn.metrics import accuracy_score

    X, y = load_heart_scale()
    model = LibSVC().fit(X[:200], y[:200])
    assert correct_count(model, X[200:], y[200:]) == accuracy_score(
        y[200:], model.predict(X[200:]), normalize=False)


def test_grid_prints_grid_py_lines(cli_here):
    result = cli_here("grid", "svc", "heart_scale", "--C", "2^0:2^1:1", "--gamma", "none",
                      "-p", "kernel=linear", "--jobs", "2", "--backend", "loky")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert lines[0].startswith("C=2^0  ") and lines[0].endswith("%")
    assert lines[-1].startswith("best C=2^")
    assert "(5-fold CV, 2 points)" in lines[-1]


def test_grid_other_parameters_with_g(cli_here):
    """A tree has no C or gamma: the grid is the -g axes only."""
    result = cli_here("grid", "tree", "watermelon-3.0", "--target", "好瓜", "-g",
                      "max_depth=1,2,3", "--folds", "3", "--json", "--jobs", "1")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert [p["max_depth"] for p in report["grid"]] == [1, 2, 3]
    assert set(report["best"]) == {"max_depth"}


@pytest.mark.parametrize("args, message", [
    (["--C", "2^1:2^5:-1"], "never goes"),
    (["--C", "1:5:1"], "2^BEGIN:2^END:STEP"),
    (["-g", "depth=1,2"], "unknown parameter 'depth'"),
    (["--C", "1", "--gamma", "1", "--backend", "dask"], "--backend must be one of"),
    (["--C", "1", "--gamma", "none", "-g", "kernel=rbf,poly", "--plot", "x.png"],
     "--plot draws one or two log2 axes"),
])
def test_grid_errors_are_one_line(cli_here, tmp_path, args, message):
    args = [a if a != "x.png" else tmp_path / "x.png" for a in args]
    result = cli_here("grid", "svc", "heart_scale", *args, "--jobs", "1")
    assert result.returncode == 1
    assert result.stderr.startswith("error:") and message in result.stderr
    assert not (tmp_path / "x.png").exists()


def test_parse_axis_is_grid_pys_range():
    """grid.py's range(begin, end, step) includes the end when it is reached."""
    axis = parse_axis("C", "2^-5:2^15:2")
    assert axis.exponents == list(range(-5, 16, 2))
    assert parse_axis("gamma", "2^3:2^-15:-2").exponents == list(range(3, -16, -2))
    with pytest.raises(UserError):
        parse_axis("C", "2^a:2^3:1")


# --------------------------------------------------------------------------
# fit --scale
# --------------------------------------------------------------------------
def test_scale_minmax_dense_is_svm_scale_to_minus_one_one(cli_here, tmp_path):
    out = tmp_path / "m.hyperplane"
    result = cli_here("fit", "svc", "watermelon-3.0alpha", "--scale", "minmax", "-o", out, "-q")
    assert result.returncode == 0, result.stderr
    model = load(out)
    X, y = load_watermelon("3.0alpha")
    scaled = MinMaxScaler(feature_range=(-1, 1)).fit_transform(X)
    assert scaled.min() == -1 and scaled.max() == 1
    direct = SVC().fit(scaled, y)
    np.testing.assert_allclose(model.decision_function(X), direct.decision_function(scaled),
                               atol=1e-12)
    predicted = cli_here("predict", out, "watermelon-3.0alpha")
    assert predicted.returncode == 0, predicted.stderr
    column = [line.split(",")[-1] for line in predicted.stdout.strip().splitlines()[1:]]
    assert column == list(direct.predict(scaled))


def test_scale_sparse_keeps_zeros(cli_here, tmp_path):
    """heart_scale (LIBSVM format, sparse): minmax divides by max |x| (no
    centring, so the zeros stay zeros) and the model keeps that step."""
    from sklearn.datasets import dump_svmlight_file

    X, y = load_heart_scale()
    X = X.multiply(np.arange(1, 14)).tocsr()           # columns scaled 1..13 times
    data = tmp_path / "wide.svm"
    dump_svmlight_file(X, y, str(data), zero_based=False)
    out = tmp_path / "m.hyperplane"
    result = cli_here("fit", "svc", data, "--scale", "minmax", "-o", out, "-q")
    assert result.returncode == 0, result.stderr
    model = load(out)
    assert isinstance(model.steps[0][1], MaxAbsScaler)
    scaled = MaxAbsScaler().fit_transform(X)
    assert scaled.nnz == X.nnz and abs(scaled).max() == 1
    np.testing.assert_allclose(model.decision_function(X),
                               SVC().fit(scaled, y).decision_function(scaled), atol=1e-12)


def test_scale_standard_with_categorical_columns(cli_here, tmp_path):
    """One-hot columns and numeric ones are all standardised for an SVM; a
    tree keeps its categorical columns and scales only the numeric ones."""
    for model in ("svc", "tree"):
        out = tmp_path / f"{model}.hyperplane"
        result = cli_here("fit", model, "watermelon-3.0", "--target", "好瓜", "--scale",
                          "standard", "-o", out, "-q")
        assert result.returncode == 0, result.stderr
        predicted = cli_here("predict", out, "watermelon-3.0")
        assert predicted.returncode == 0, predicted.stderr


def test_scale_refuses_unknown_kind(cli_here, tmp_path):
    result = cli_here("fit", "svc", "heart_scale", "--scale", "unit", "-o",
                      tmp_path / "m.hyperplane")
    assert result.returncode == 1 and "--scale must be one of minmax, standard" in result.stderr
    assert not (tmp_path / "m.hyperplane").exists()


def test_grid_regressor_reports_cv_mse(cli_here, tmp_path):
    """SVR: K-fold CV, the mean of the folds' squared errors, the smallest wins."""
    import pandas as pd
    from sklearn.model_selection import KFold, cross_val_score

    from hyperplane.svm import SVR

    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 2))
    y = np.sin(X[:, 0]) + 0.1 * rng.normal(size=60)
    data = tmp_path / "reg.csv"
    pd.DataFrame({"a": X[:, 0], "b": X[:, 1], "y": y}).to_csv(data, index=False)
    result = cli_here("grid", "svr", data, "-t", "y", "--C", "2^-1:2^3:2", "--gamma", "2^-1",
                      "-g", "epsilon=0.05,0.1", "--json", "--jobs", "1")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert len(report["grid"]) == 6 and "cv_mse" in report
    best = min(report["grid"], key=lambda p: p["cv_mse"])
    assert report["best"] == {k: best[k] for k in ("C", "epsilon", "gamma")}
    direct = -cross_val_score(SVR(C=best["C"], gamma=best["gamma"], epsilon=best["epsilon"]),
                              X, y, cv=KFold(5, shuffle=True, random_state=0),
                              scoring="neg_mean_squared_error").mean()
    assert report["cv_mse"] == pytest.approx(direct, rel=1e-12)


def test_fit_class_weight_is_svm_train_w(cli_here, tmp_path):
    """``fit svc heart_scale -p class_weight={1: 5} -p gamma=auto`` is
    ``svm-train -w1 5`` (LIBSVM 3.24): the same support vectors and rho."""
    from tests._libsvm import svm_train_header

    header = svm_train_header(tmp_path, "-w1", "5", "-e", "1e-10")
    data = tmp_path / "heart_scale"
    out = tmp_path / "m.hyperplane"
    result = cli_here("fit", "svc", data, "-p", "class_weight={1: 5}", "-p", "gamma=auto",
                      "-p", "tol=1e-10", "-o", out, "-q")
    assert result.returncode == 0, result.stderr
    model = load(out)
    assert model.class_weight_.tolist() == [1.0, 5.0]
    assert len(model.support_) == int(header["total_sv"])
    # LIBSVM's first label is +1 here (file order), as our positive class_[1]: b = -rho
    assert header["label"].split() == ["1", "-1"]
    assert model.intercept_[0] == pytest.approx(-float(header["rho"]), abs=1e-6)
