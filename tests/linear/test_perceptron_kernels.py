"""Each compiled epoch body against a slow, obviously correct NumPy loop."""

import numpy as np
import scipy.sparse as sp
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from hyperplane.linear._perceptron_kernels import (
    averaged_online_epoch,
    batch_epoch,
    count_mistakes,
    DualSamples,
    DualState,
    dual_epoch,
    is_mistake,
    online_epoch,
    perceptron_update,
)
from hyperplane.linear._state import Averages, CSRRows, Trace

# small integers keep every sum exact, so the comparison can be exact
values = st.integers(-4, 4).map(float)


@st.composite
def problems(draw):
    n = draw(st.integers(1, 12))
    d = draw(st.integers(1, 4))
    X = draw(arrays(np.float64, (n, d), elements=values))
    y = np.array(draw(st.lists(st.sampled_from([-1.0, 1.0]), min_size=n, max_size=n)))
    w = draw(arrays(np.float64, (d,), elements=values))
    b = draw(values)
    order = np.array(draw(st.permutations(range(n))), dtype=np.int64)
    eta = draw(st.sampled_from([1.0, 0.5, 2.0]))
    return X, y, w, b, order, eta


#: the kernels read dense rows and CSR rows through the row layer: each test
#: runs on both (the same bits), and with sample weights in {0, 1, 2}
layouts = st.sampled_from(["dense", "csr"])
weights = st.lists(st.sampled_from([0.0, 1.0, 2.0]), min_size=12, max_size=12)


def rows_of(X, layout):
    return CSRRows.of(sp.csr_matrix(X)) if layout == "csr" else X


@given(problems(), layouts)
def test_mistake_test_and_update_of_one_sample(problem, layout):
    """The two functions every primal epoch calls: ``y_i (w·x_i + b) <= 0`` and
    ``w ← w + step x_i``, ``b ← b + step``, on dense and CSR rows."""
    X, y, w, b, order, eta = problem
    rows = rows_of(X, layout)
    for i in range(len(y)):
        assert is_mistake(rows, y, i, w, b) == (y[i] * (X[i] @ w + b) <= 0)
        w_got = w.copy()
        b_got = perceptron_update(rows, i, w_got, b, eta * y[i])
        np.testing.assert_array_equal(w_got, w + eta * y[i] * X[i])
        assert b_got == b + eta * y[i]


def reference_online(X, y, w, b, eta, order):
    """Algorithm 2.1 with a step ``eta[i]`` per sample."""
    w = w.copy()
    updated = []
    for i in order:
        if y[i] * (X[i] @ w + b) <= 0:
            w = w + eta[i] * y[i] * X[i]
            b = b + eta[i] * y[i]
            updated.append(i)
    return w, b, updated


@given(problems(), layouts, weights)
def test_online_epoch(problem, layout, s):
    X, y, w, b, order, eta = problem
    eta = eta * np.array(s[:len(y)])
    w_ref, b_ref, upd_ref = reference_online(X, y, w, b, eta, order)
    w_got = w.copy()
    updated = np.empty(len(y), dtype=np.int64)
    trace_w, trace_b = np.empty((len(y), X.shape[1])), np.empty(len(y))
    b_got, n = online_epoch(rows_of(X, layout), y, w_got, b, eta, order,
                            Trace(updated, trace_w, trace_b))
    np.testing.assert_array_equal(w_got, w_ref)
    assert b_got == b_ref and updated[:n].tolist() == upd_ref
    if n:
        np.testing.assert_array_equal(trace_w[n - 1], w_ref)
        assert trace_b[n - 1] == b_ref


@given(problems(), layouts)
def test_averaged_online_epoch(problem, layout):
    X, y, w0, b0, order, eta = problem
    w, b, total_w, total_b = w0.copy(), b0, np.zeros_like(w0), 0.0
    for i in order:
        if y[i] * (X[i] @ w + b) <= 0:
            w, b = w + eta * y[i] * X[i], b + eta * y[i]
        total_w, total_b = total_w + w, total_b + b
    w_got, u = w0.copy(), np.zeros_like(w0)
    updated = np.empty(len(y), dtype=np.int64)
    empty_w, empty_b = np.empty((0, X.shape[1])), np.empty(0)
    b_got, ub, c, _ = averaged_online_epoch(rows_of(X, layout), y, w_got, b0,
                                            Averages(u, 0.0, 0.0), np.full(len(y), eta),
                                            order, Trace(updated, empty_w, empty_b))
    assert c == len(order)
    # the average of the weights after every visit, minus the contribution of w0
    np.testing.assert_allclose(w_got - u / c, total_w / c, atol=1e-12)
    np.testing.assert_allclose(b_got - ub / c, total_b / c, atol=1e-12)


@given(problems(), layouts, weights)
def test_batch_epoch(problem, layout, s):
    X, y, w, b, _, eta = problem
    s = np.array(s[:len(y)])
    wrong = (y * (X @ w + b) <= 0) & (s > 0)
    w_ref = w + eta * ((s * y)[wrong] @ X[wrong])
    b_ref = b + eta * (s * y)[wrong].sum()
    w_got = w.copy()
    updated = np.empty(len(y), dtype=np.int64)
    b_got, n = batch_epoch(rows_of(X, layout), y, w_got, b, eta, s, updated)
    np.testing.assert_array_equal(w_got, w_ref)
    assert b_got == b_ref and updated[:n].tolist() == np.flatnonzero(wrong).tolist()


@given(problems(), layouts, weights)
def test_count_mistakes(problem, layout, s):
    X, y, w, b, _, _ = problem
    s = np.array(s[:len(y)])
    assert count_mistakes(rows_of(X, layout), y, w, b, s) == np.sum(s[y * (X @ w + b) <= 0])


@given(problems())
def test_dual_epoch(problem):
    X, y, _, _, order, eta = problem
    gram = X @ X.T
    alpha_ref, b_ref, upd_ref = np.zeros(len(y)), 0.0, []
    for i in order:
        if y[i] * (np.sum(alpha_ref * y * gram[:, i]) + b_ref) <= 0:
            alpha_ref[i] += eta
            b_ref += eta * y[i]
            upd_ref.append(i)
    alpha, f = np.zeros(len(y)), np.zeros(len(y))
    updated = np.empty(len(y), dtype=np.int64)
    b_got, n = dual_epoch(DualSamples(gram, y, np.full(len(y), eta)),
                          DualState(alpha, f, updated), 0.0, order)
    np.testing.assert_array_equal(alpha, alpha_ref)
    assert b_got == b_ref and updated[:n].tolist() == upd_ref
    np.testing.assert_allclose(f, gram @ (alpha * y))
