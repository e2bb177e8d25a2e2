"""SVC's probability estimates (LIBSVM's -b 1): Platt's sigmoid against a
NumPy re-statement of Lin, Lin & Weng (2007), Algorithm 1; the pairwise
coupling against a direct solve of Wu, Lin & Weng (2004)'s linear system;
probA_/probB_/predict_proba against scikit-learn's SVC(probability=True)
with the same folds (FoldShuffle draws scikit-learn's permutation)."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import load_iris, make_classification
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import SVC as LibSVC

from hyperplane.svm import SVC, platt_sigmoid
from hyperplane.svm._probability import FoldShuffle, couple_pairwise


# --------------------------------------------------------------------------
# slow references, written from the papers
# --------------------------------------------------------------------------
def reference_sigmoid_train(f, y):
    """Lin, Lin & Weng 2007, Algorithm 1 (pseudo-code), in NumPy: regularised
    targets, Newton on H + 1e-12 I, backtracking with sufficient decrease
    1e-4, step >= 1e-10, stop when |g| < 1e-5 in both coordinates, 100 steps."""
    f = np.asarray(f, dtype=float)
    n_pos = y.sum()
    n_neg = y.size - n_pos
    t = np.where(y, (n_pos + 1) / (n_pos + 2), 1 / (n_neg + 2))

    def F(A, B):
        z = f * A + B
        # t z + log(1 + e^{-z}), rewritten for z < 0 to avoid overflow
        return np.sum(np.where(z >= 0, t * z + np.log1p(np.exp(-np.abs(z))),
                               (t - 1) * z + np.log1p(np.exp(-np.abs(z)))))

    A, B = 0.0, np.log((n_neg + 1) / (n_pos + 1))
    value = F(A, B)
    for _ in range(100):
        z = f * A + B
        p = 1 / (1 + np.exp(z))                # P(y = 1 | f)
        g = np.array([np.sum(f * (t - p)), np.sum(t - p)])
        if np.all(np.abs(g) < 1e-5):
            break
        w = p * (1 - p)
        H = np.array([[np.sum(f * f * w), np.sum(f * w)],
                      [np.sum(f * w), np.sum(w)]]) + 1e-12 * np.eye(2)
        d = -np.linalg.solve(H, g)
        step = 1.0
        while step >= 1e-10:
            new = F(A + step * d[0], B + step * d[1])
            if new < value + 1e-4 * step * (g @ d):
                A, B, value = A + step * d[0], B + step * d[1], new
                break
            step /= 2
        else:
            break
    return A, B


def direct_coupling(r):
    """Wu, Lin & Weng 2004, method 2: min p'Qp s.t. sum p = 1 solved from its
    KKT system [[Q, e], [e', 0]] [p; b] = [0; 1]."""
    k = r.shape[0]
    Q = -r.T * r                       # Q_tj = -r_jt r_tj
    np.fill_diagonal(Q, 0.0)
    np.fill_diagonal(Q, [sum(r[j, t] ** 2 for j in range(k) if j != t) for t in range(k)])
    system = np.zeros((k + 1, k + 1))
    system[:k, :k] = Q
    system[:k, k] = system[k, :k] = 1.0
    return np.linalg.solve(system, np.r_[np.zeros(k), 1.0])[:k]


def libsvm_fit(X, y, **params):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)     # scikit-learn 1.9 deprecates it
        return LibSVC(probability=True, **params).fit(X, y)


def sklearn_prob(model):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        return model.probA_, model.probB_


# --------------------------------------------------------------------------
# Platt's sigmoid
# --------------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(st.integers(2, 300), st.floats(0.05, 5.0), st.floats(-2, 2), st.integers(0, 2**31))
def test_platt_sigmoid_is_lin_lin_weng_algorithm_1(n, scale, shift, seed):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.5
    y[:2] = [True, False]
    f = scale * rng.normal(size=n) + shift + np.where(y, 1.0, -1.0) * rng.random()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        A, B = platt_sigmoid(f, y)
    A_ref, B_ref = reference_sigmoid_train(f, y)
    np.testing.assert_allclose([A, B], [A_ref, B_ref], rtol=1e-6, atol=1e-6)


def test_platt_sigmoid_on_separable_values_keeps_regularised_targets():
    """Perfectly separated values: without Platt's targets A would go to
    -inf; with them the fit stays finite and gives P < 1."""
    f = np.array([-3.0, -2.0, -1.0, 1.0, 2.0, 3.0])
    y = f > 0
    A, B = platt_sigmoid(f, y)
    assert np.isfinite(A) and A < 0
    A_ref, B_ref = reference_sigmoid_train(f, y)
    np.testing.assert_allclose([A, B], [A_ref, B_ref], rtol=1e-6, atol=1e-6)


def test_platt_sigmoid_refuses_bad_input():
    with pytest.raises(TypeError, match="boolean"):
        platt_sigmoid([0.1, 0.2], [0, 1])
    with pytest.raises(ValueError, match="finite"):
        platt_sigmoid([0.1, np.nan], [False, True])
    with pytest.raises(ValueError, match="shape"):
        platt_sigmoid([0.1, 0.2, 0.3], [False, True])


# --------------------------------------------------------------------------
# pairwise coupling
# --------------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(st.integers(3, 7), st.integers(0, 2**31))
def test_coupling_solves_wu_lin_weng_method_2(k, seed):
    rng = np.random.default_rng(seed)
    r = np.zeros((k, k))
    upper = np.triu_indices(k, 1)
    r[upper] = rng.uniform(0.02, 0.98, size=len(upper[0]))
    r.T[upper] = 1 - r[upper]
    p = couple_pairwise(r[None], eps=1e-13, max_iter=100_000)[0]
    np.testing.assert_allclose(p, direct_coupling(r), atol=1e-9)
    # LIBSVM's own stopping rule (eps = 0.005 / k) lands near it
    np.testing.assert_allclose(couple_pairwise(r[None])[0], direct_coupling(r), atol=2e-2)


# --------------------------------------------------------------------------
# against scikit-learn's LIBSVM with the same folds
# --------------------------------------------------------------------------
def test_fold_shuffle_is_scikit_learns_generator():
    """std::mt19937 seeded as scikit-learn's set_seed: with the default seed
    5489 its 10000th output is 4123659995 (the C++ standard, [rand.predef])."""
    shuffle = FoldShuffle(0)
    shuffle.seed = 5489
    shuffle.reseed()
    outputs = [shuffle._next32() for _ in range(10000)]
    assert outputs[-1] == 4123659995


@pytest.mark.parametrize("class_weight", [None, {0: 3.0}, "balanced"])
def test_binary_probabilities_match_libsvm(class_weight):
    X, y = make_classification(150, 5, random_state=0)
    ours = SVC(probability=True, random_state=3, tol=1e-10, class_weight=class_weight).fit(X, y)
    theirs = libsvm_fit(X, y, random_state=3, tol=1e-10, class_weight=class_weight)
    prob_a, prob_b = sklearn_prob(theirs)
    np.testing.assert_allclose(ours.probA_, prob_a, rtol=1e-5)
    np.testing.assert_allclose(ours.probB_, prob_b, rtol=1e-5, atol=1e-6)
    # two classes: LIBSVM's (r_01, r_10) from the sigmoid of its decision value
    f = theirs.decision_function(X)                   # positive: classes_[1]
    first = 1 / (1 + np.exp(-prob_a[0] * f + prob_b[0]))
    proba = ours.predict_proba(X)
    np.testing.assert_allclose(proba[:, 0], first, atol=1e-5)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    # scikit-learn's fork couples even two classes (iterating to eps = 0.0025)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        np.testing.assert_allclose(proba, theirs.predict_proba(X), atol=1e-2)


@pytest.mark.parametrize("class_weight", [None, {2: 0.5, 0: 2.0}])
def test_multiclass_probabilities_match_libsvm(class_weight):
    X, y = load_iris(return_X_y=True)
    ours = SVC(probability=True, random_state=5, tol=1e-10, class_weight=class_weight).fit(X, y)
    theirs = libsvm_fit(X, y, random_state=5, tol=1e-10, class_weight=class_weight)
    prob_a, prob_b = sklearn_prob(theirs)
    np.testing.assert_allclose(ours.probA_, prob_a, rtol=1e-5)
    np.testing.assert_allclose(ours.probB_, prob_b, rtol=1e-4, atol=1e-6)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-5)
    np.testing.assert_allclose(ours.predict_log_proba(X), np.log(ours.predict_proba(X)))


def test_sparse_input_gives_the_dense_probabilities():
    import scipy.sparse as sp

    X, y = load_iris(return_X_y=True)
    dense = SVC(probability=True, random_state=1).fit(X, y)
    sparse = SVC(probability=True, random_state=1).fit(sp.csr_matrix(X), y)
    np.testing.assert_allclose(sparse.probA_, dense.probA_, rtol=1e-6)
    np.testing.assert_allclose(sparse.predict_proba(sp.csr_matrix(X)), dense.predict_proba(X),
                               atol=1e-7)


def test_predict_proba_only_with_probability():
    X, y = make_classification(60, 4, random_state=0)
    svc = SVC().fit(X, y)
    assert not hasattr(svc, "predict_proba") and not hasattr(svc, "probA_")
    svc.set_params(probability=True).fit(X, y)
    assert svc.predict_proba(X).shape == (60, 2)
    svc.set_params(probability=False).fit(X, y)
    assert not hasattr(svc, "probA_")


def test_random_state_none_acts_as_zero():
    """The fit is deterministic: None draws the folds of random_state=0."""
    X, y = load_iris(return_X_y=True)
    a = SVC(probability=True, random_state=None).fit(X, y)
    b = SVC(probability=True, random_state=0).fit(X, y)
    np.testing.assert_array_equal(a.probA_, b.probA_)


def test_check_estimator_with_probability():
    from sklearn.utils.estimator_checks import check_estimator

    from tests.svm.test_svc import SVC_XFAIL

    check_estimator(SVC(probability=True, random_state=0), expected_failed_checks=SVC_XFAIL)


def test_trace_is_the_final_solve_only():
    X, y = make_classification(40, 4, random_state=0)
    traced = SVC(probability=True, record_trace=True, random_state=0).fit(X, y)
    plain = SVC(record_trace=True).fit(X, y)
    assert len(traced.trace_) == len(plain.trace_)


def test_saved_model_keeps_its_probabilities(tmp_path):
    from hyperplane.io import load, save

    X, y = load_iris(return_X_y=True)
    svc = SVC(probability=True, random_state=0).fit(X, y)
    save(svc, tmp_path / "m.hyperplane")
    np.testing.assert_array_equal(load(tmp_path / "m.hyperplane").predict_proba(X),
                                  svc.predict_proba(X))


def test_sample_weights_and_dropped_rows_give_libsvms_folds():
    """scikit-learn's LIBSVM drops weight-0 rows before shuffling; so do we."""
    X, y = make_classification(120, 4, random_state=4)
    s = np.random.default_rng(2).choice([0.0, 0.5, 1.0, 2.0], size=len(y))
    ours = SVC(probability=True, random_state=7, tol=1e-10).fit(X, y, sample_weight=s)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        theirs = LibSVC(probability=True, random_state=7, tol=1e-10).fit(X, y, sample_weight=s)
    prob_a, prob_b = sklearn_prob(theirs)
    np.testing.assert_allclose([ours.probA_[0], ours.probB_[0]], [prob_a[0], prob_b[0]],
                               rtol=1e-5, atol=1e-6)


# --------------------------------------------------------------------------
# against LIBSVM itself (Debian's svm-train -b 1), on LIBSVM's own folds
# --------------------------------------------------------------------------
def glibc_rand(seed=1):
    """glibc's rand() (the TYPE_3 additive feedback generator) after
    srand(seed); svm-train never seeds it, so seed 1."""
    r = [seed]
    for i in range(1, 31):
        hi, lo = divmod(r[i - 1], 127773)
        word = 16807 * lo - 2836 * hi
        r.append(word + 2147483647 if word < 0 else word)
    r += r[:3]
    k = 34
    while True:
        r.append((r[k - 31] + r[k - 3]) & 0xFFFFFFFF)
        if k >= 344:
            yield r[k] >> 1
        k += 1


class UpstreamShuffle:
    """LIBSVM's ``perm[i] <-> perm[i + rand() % (l - i)]`` with glibc's rand()."""

    def __init__(self):
        self.rand = glibc_rand()

    def permutation(self, l):
        perm = np.arange(l)
        for i in range(l):
            j = i + next(self.rand) % (l - i)
            perm[i], perm[j] = perm[j], perm[i]
        return perm

    def reseed(self):
        """Upstream LIBSVM does not re-seed."""


def test_platt_sigmoid_on_libsvm_folds_is_svm_train_b1(tmp_path):
    """heart_scale with ``svm-train -b 1``: the same 5 folds (glibc's rand),
    our SMO's decision values on them and :func:`platt_sigmoid` give the
    probA/probB that LIBSVM writes into its model file."""
    import shutil
    import subprocess

    from hyperplane.datasets import load_heart_scale
    from hyperplane.svm._probability import cross_validated_decisions
    from tests._libsvm import svm_train_header

    header = svm_train_header(tmp_path, "-b", "1", "-e", "1e-10")
    data = tmp_path / "heart_scale"
    labels = [float(v) for v in header["label"].split()]
    X, y = load_heart_scale()
    # LIBSVM's problem: the first label's rows, then the second's, each in file order
    rows = np.concatenate([np.flatnonzero(y == label) for label in labels])
    positive = y[rows] == labels[0]

    def fit_predict(train, test):
        svc = SVC(C=1.0, gamma=1 / 13, tol=1e-10).fit(X[rows[train]], positive[train])
        return svc.decision_function(X[rows[test]])      # positive: True = labels[0]

    decisions = cross_validated_decisions(fit_predict, positive, UpstreamShuffle())
    A, B = platt_sigmoid(decisions, positive)
    np.testing.assert_allclose([A, B], [float(header["probA"]), float(header["probB"])],
                               rtol=1e-5, atol=1e-7)

    # svm-predict -b 1 with that sigmoid: two classes are the sigmoid itself
    subprocess.run([shutil.which("svm-predict"), "-b", "1", str(data), str(tmp_path / "libsvm.model"),
                    str(tmp_path / "out")], check=True, capture_output=True)
    lines = (tmp_path / "out").read_text().splitlines()
    columns = [float(v) for v in lines[0].split()[1:]]           # "labels 1 -1"
    theirs = np.array([[float(v) for v in line.split()[1:]] for line in lines[1:]])
    svc = SVC(C=1.0, gamma=1 / 13, tol=1e-10, probability=True).fit(X, y)
    assert svc.classes_.tolist() == sorted(columns) and svc.pairs_ == [(0, 1)]
    # the pair's first class is classes_[0] = -1, LIBSVM's model has +1 first:
    # P(-1 | f) = 1 - P(+1 | -f) gives A' = A, B' = -B
    svc.probA_, svc.probB_ = np.array([A]), np.array([-B])
    ours = svc.predict_proba(X)[:, [svc.classes_.tolist().index(c) for c in columns]]
    np.testing.assert_allclose(ours, theirs, atol=1e-6)                # its 6 digits
