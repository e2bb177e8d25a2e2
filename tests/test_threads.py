"""``n_jobs`` and ``--threads`` (issue #30): the declared rule, the thread
counts in force inside a fit (numba's, BLAS's through threadpoolctl), the
adaptive default, and models that do not depend on the count."""

import numba
import numpy as np
import pytest
from sklearn.datasets import make_classification
from threadpoolctl import threadpool_info

from hyperplane import _threads
from hyperplane._parameters import N_JOBS, validate_params
from hyperplane.linear import FisherDiscriminant, LeastSquaresClassifier, LogisticRegression
from hyperplane.linear import _fisher, _least_squares
from hyperplane.neural import MLPClassifier, MLPRegressor
from hyperplane.neural import _mlp  # noqa: F401  (spied on)
from hyperplane.svm import SVC, SVR
from hyperplane.tree import DecisionTreeClassifier, DecisionTreeRegressor

THREADED = [LogisticRegression, SVC, SVR, LeastSquaresClassifier, FisherDiscriminant,
            DecisionTreeClassifier, DecisionTreeRegressor]


def blas_threads():
    """The thread counts of every BLAS library loaded in the process."""
    return sorted({lib["num_threads"] for lib in threadpool_info()
                   if lib["user_api"] == "blas"})


@pytest.fixture
def quiet_machine(monkeypatch):
    """No other process holds a core: the default is numba's count."""
    monkeypatch.setattr(_threads, "busy_cores", lambda: 0)


# ----------------------------------------------------------------------
# the rule
# ----------------------------------------------------------------------
@pytest.mark.parametrize("value", [None, 1, 2, -1, -2, np.int64(3)])
def test_n_jobs_rule_accepts_what_scikit_learn_accepts(value):
    N_JOBS.check(value, "n_jobs")


@pytest.mark.parametrize("value, error", [(0, ValueError), (1.5, TypeError), ("2", TypeError),
                                          (True, TypeError), (2.0, TypeError)])
@pytest.mark.parametrize("Estimator", THREADED)
def test_bad_n_jobs_is_refused_by_name(Estimator, value, error):
    with pytest.raises(error, match="n_jobs"):
        validate_params(Estimator(n_jobs=value))
    with pytest.raises(error, match="n_jobs"):
        Estimator(n_jobs=value).fit(np.zeros((4, 2)), [0, 1, 0, 1])


def test_n_jobs_means_what_it_means_in_scikit_learn():
    pool = _threads.pool_size()
    assert _threads.resolve_n_jobs(-1) == pool
    assert _threads.resolve_n_jobs(1) == 1
    assert _threads.resolve_n_jobs(pool + 5) == pool          # at most numba's pool
    assert _threads.resolve_n_jobs(-2) == max(1, pool - 1)     # all cores but one
    assert _threads.resolve_n_jobs(-pool - 5) == 1


# ----------------------------------------------------------------------
# the counts inside a fit, restored after it
# ----------------------------------------------------------------------
def test_fit_threads_sets_and_restores_numba_and_blas():
    np.ones((64, 64)) @ np.ones((64, 64))  # load the BLAS library
    numba_before, blas_before = numba.get_num_threads(), blas_threads()
    with _threads.fit_threads(1) as k:
        assert k == 1 and numba.get_num_threads() == 1 and blas_threads() == [1]
    assert numba.get_num_threads() == numba_before and blas_threads() == blas_before


def test_default_leaves_out_the_cores_other_processes_hold(monkeypatch):
    usable = _threads.usable_cores()
    monkeypatch.setattr(_threads, "busy_cores", lambda: usable - 1)
    assert _threads.resolve_n_jobs(None) == 1
    monkeypatch.setattr(_threads, "busy_cores", lambda: 10 * usable)
    assert _threads.resolve_n_jobs(None) == 1                   # never fewer than one
    monkeypatch.setattr(_threads, "busy_cores", lambda: 0)
    assert _threads.resolve_n_jobs(None) == min(numba.get_num_threads(), usable)
    assert _threads.resolve_n_jobs(2) == min(2, _threads.pool_size())  # n_jobs is obeyed


def test_busy_cores_reads_the_runnable_count():
    assert 0 <= _threads.busy_cores()
    assert 1 <= _threads.idle_cores() <= _threads.usable_cores()


def spy_on_epochs(monkeypatch):
    """A list that gets ``(numba threads, BLAS threads)`` at every MLP epoch."""
    seen = []
    real = _mlp._BaseMLP._epoch

    def spy(self, *args, **kwargs):
        seen.append((numba.get_num_threads(), blas_threads()))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(_mlp._BaseMLP, "_epoch", spy)
    return seen


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("bp", ["minibatch", "accumulated", "standard"])
@pytest.mark.parametrize("Estimator", [MLPClassifier, MLPRegressor])
def test_mlp_trains_on_one_blas_thread(monkeypatch, quiet_machine, bp, Estimator):
    np.ones((64, 64)) @ np.ones((64, 64))  # load the BLAS library
    outside = blas_threads()
    if outside == [1]:
        pytest.skip("BLAS already runs on one thread here: a limit cannot be told apart")
    seen = spy_on_epochs(monkeypatch)
    X, y = make_classification(n_samples=600, n_features=20, random_state=0)
    Estimator(bp=bp, hidden_layer_sizes=(32,), batch_size=50, max_iter=2,
              random_state=0).fit(X, y)
    assert seen and all(blas == [1] for _, blas in seen)
    assert all(k == numba.get_num_threads() for k, _ in seen)   # numba's count kept
    assert blas_threads() == outside                           # restored after the fit


# ----------------------------------------------------------------------
# the same bits on 1 and 2 threads
# ----------------------------------------------------------------------
def on_n_jobs(make, X, y):
    return [make(n_jobs).fit(X, y) for n_jobs in (1, 2)]


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("bp", ["minibatch", "accumulated", "standard"])
def test_mlp_weights_do_not_depend_on_the_blas_threads_outside(bp):
    """The accumulated rule's ``A^T delta`` sums 3000 rows: on two BLAS threads
    OpenBLAS splits that sum (the bits changed before the fit limited it)."""
    from threadpoolctl import threadpool_limits

    X, y = make_classification(n_samples=3000, n_features=64, n_classes=3,
                               n_informative=10, random_state=1)
    fits = []
    for k in (1, 2):
        with threadpool_limits(k, user_api="blas"):
            fits.append(MLPClassifier(bp=bp, hidden_layer_sizes=(96,), max_iter=2,
                                      learning_rate=0.01, random_state=0).fit(X, y))
    a, b = fits
    for wa, wb in zip(a.coefs_ + a.intercepts_, b.coefs_ + b.intercepts_):
        assert wa.tobytes() == wb.tobytes()


@pytest.mark.parametrize("Estimator, module", [(LeastSquaresClassifier, _least_squares),
                                               (FisherDiscriminant, _fisher)])
def test_moments_run_on_the_idle_cores_only(monkeypatch, Estimator, module):
    """The class moments' Gram products run on threaded BLAS: with every core
    but one busy, the default fit gives BLAS one thread (measured on 16 cores:
    Fisher 1.38x its one-thread time with one core busy before the limit)."""
    np.ones((64, 64)) @ np.ones((64, 64))  # load the BLAS library
    outside = blas_threads()
    if outside == [1]:
        pytest.skip("BLAS already runs on one thread here: a limit cannot be told apart")
    monkeypatch.setattr(_threads, "busy_cores", lambda: _threads.usable_cores() - 1)
    seen, real = [], module.class_moments

    def spy(*args, **kwargs):
        seen.append((numba.get_num_threads(), blas_threads()))
        return real(*args, **kwargs)

    monkeypatch.setattr(module, "class_moments", spy)
    X, y = make_classification(n_samples=400, n_features=8, random_state=0)
    Estimator().fit(X, y)
    assert seen == [(1, [1])]
    assert blas_threads() == outside


@pytest.mark.parametrize("Tree", [DecisionTreeClassifier, DecisionTreeRegressor])
def test_trees_do_not_depend_on_n_jobs(Tree):
    X, y = make_classification(n_samples=6000, n_features=12, random_state=3)
    target = y if Tree is DecisionTreeClassifier else X[:, 0] + y
    a, b = on_n_jobs(lambda k: Tree(n_jobs=k), X, target)
    for field in ("feature", "threshold", "children", "value"):
        assert getattr(a.tree_, field).tobytes() == getattr(b.tree_, field).tobytes(), field


def test_moments_do_not_depend_on_n_jobs():
    X, y = make_classification(n_samples=20000, n_features=60, n_informative=10, n_classes=3,
                               random_state=2)
    for Estimator in (LeastSquaresClassifier, FisherDiscriminant):
        a, b = on_n_jobs(lambda k: Estimator(n_jobs=k), X, y)
        assert a.coef_.tobytes() == b.coef_.tobytes()
        assert a.intercept_.tobytes() == b.intercept_.tobytes()


def test_svc_and_logistic_do_not_depend_on_n_jobs():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(2200, 240))   # 528,000 multiply-adds per kernel row: parallel
    y = np.where(X[:, 0] + 0.5 * X[:, 1] ** 2 > 0.5, 1, 0)
    a, b = on_n_jobs(lambda k: SVC(kernel="rbf", n_jobs=k), X, y)
    assert a.dual_coef_.tobytes() == b.dual_coef_.tobytes()
    assert a.support_.tobytes() == b.support_.tobytes()
    assert a.decision_function(X).tobytes() == b.decision_function(X).tobytes()
    X = np.repeat(X, 20, axis=0)[:, :50]
    y = np.repeat(y, 20)
    a, b = on_n_jobs(lambda k: LogisticRegression(solver="lbfgs", n_jobs=k), X, y)
    assert a.coef_.tobytes() == b.coef_.tobytes()
    assert a.intercept_.tobytes() == b.intercept_.tobytes()


# ----------------------------------------------------------------------
# --threads through the command line
# ----------------------------------------------------------------------
PROBE = '''
import json, os
import numba
from threadpoolctl import threadpool_info
from sklearn.dummy import DummyClassifier


class Probe(DummyClassifier):
    """Records the thread counts in force while it is fitted."""

    def fit(self, X, y, sample_weight=None):
        with open(os.environ["PROBE_OUT"], "w") as f:
            json.dump({"numba": numba.get_num_threads(),
                       "blas": sorted({lib["num_threads"] for lib in threadpool_info()
                                       if lib["user_api"] == "blas"})}, f)
        return super().fit(X, y, sample_weight)
'''


@pytest.mark.parametrize("threads", ["1", "-1"])
def test_threads_option_sets_the_counts_of_the_fit(tmp_path, monkeypatch, threads):
    import json

    from tests.cli.conftest import run_cli

    (tmp_path / "probe.py").write_text(PROBE, encoding="utf-8")
    monkeypatch.setenv("PROBE_OUT", str(tmp_path / "counts.json"))
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    result = run_cli("fit", "probe:Probe", "watermelon-3.0", "--target", "好瓜",
                     "--out", tmp_path / "m.hyperplane", "--threads", threads)
    counts = json.loads((tmp_path / "counts.json").read_text())
    expected = 1 if threads == "1" else _threads.pool_size()
    assert counts["numba"] == expected, result.stderr
    assert set(counts["blas"]) <= {expected}


def test_threads_option_refuses_zero(tmp_path):
    from tests.cli.conftest import run_cli

    result = run_cli("fit", "logistic", "watermelon-3.0", "--target", "好瓜",
                     "--out", tmp_path / "m.hyperplane", "--threads", "0")
    assert result.returncode != 0
    assert "--threads" in result.stderr and "Traceback" not in result.stderr
