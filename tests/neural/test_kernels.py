"""Compiled kernels against the NumPy references of ``_reference.py``."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hyperplane.neural import _backprop_kernels as K
from hyperplane.neural._network import Layout
from hyperplane.neural._state import CSRRows, Learning

from tests._compile_events import RECORD_COMPILATIONS

from ._reference import (
    REF_ACTIVATIONS, ref_forward, ref_minibatch_epoch, ref_sample_losses, ref_standard_epoch,
)

HIDDEN_CODES = st.sampled_from([K.SIGMOID, K.TANH, K.RELU])
#: (loss, output activation) pairs and whether they need one-hot / 0-1 targets
OUTPUT_PAIRS = st.sampled_from([(K.SQUARED_ERROR, K.SIGMOID), (K.SQUARED_ERROR, K.IDENTITY),
                                (K.LOG_LOSS, K.SIGMOID), (K.LOG_LOSS, K.SOFTMAX)])


@st.composite
def networks(draw):
    """A random network, data and targets that fit its loss."""
    seed = draw(st.integers(0, 2 ** 32 - 1))
    rng = np.random.default_rng(seed)
    hidden = draw(st.lists(st.integers(1, 5), min_size=1, max_size=3))
    loss, out_act = draw(OUTPUT_PAIRS)
    n_out = 1 if (loss, out_act) == (K.LOG_LOSS, K.SIGMOID) else draw(st.integers(2, 3))
    n_features, n = draw(st.integers(1, 4)), draw(st.integers(1, 9))
    layout = Layout.from_sizes((n_features, *hidden, n_out))
    packed = rng.normal(size=layout.n_params)
    X = rng.normal(scale=2.0, size=(n, n_features))
    if loss == K.LOG_LOSS and n_out > 1:
        Y = np.eye(n_out)[rng.integers(0, n_out, n)]
    elif loss == K.LOG_LOSS:
        Y = rng.integers(0, 2, (n, 1)).astype(float)
    else:
        Y = rng.uniform(size=(n, n_out))
    order = rng.permutation(n)
    return layout, packed, X, Y, order, draw(HIDDEN_CODES), out_act, loss


#: sample weights: all ones (the book), or drawn with zeros among them
WEIGHTS = st.sampled_from(["ones", "drawn"])


def _weights(kind, n, seed=0):
    if kind == "ones":
        return np.ones(n)
    rng = np.random.default_rng(seed)
    return rng.choice([0.0, 0.5, 1.0, 3.0], size=n)


@given(networks(), st.floats(0.01, 0.5), st.sampled_from([1.0, 0.9]), WEIGHTS)
def test_standard_epoch_matches_the_books_algorithm(net, eta, lam, kind):
    layout, packed, X, Y, order, act, out_act, loss = net
    weights = _weights(kind, len(X))
    expected, expected_loss = ref_standard_epoch(packed, layout, X, Y, order, eta, lam,
                                                 act, out_act, loss, weights)
    got = packed.copy()
    total = K.standard_bp_epoch(layout.network(got, act, out_act), X, Y, weights, order, eta,
                                lam, loss)
    np.testing.assert_allclose(got, expected, rtol=1e-9, atol=1e-10)
    np.testing.assert_allclose(total, expected_loss, rtol=1e-9, atol=1e-12)


@settings(max_examples=15)
@given(networks(), st.integers(1, 4), st.sampled_from([1.0, 0.8]), WEIGHTS)
def test_minibatch_epoch_matches_finite_difference_descent(net, batch_size, lam, kind):
    layout, packed, X, Y, order, act, out_act, loss = net
    weights = _weights(kind, len(X))
    packed, eta = 0.5 * packed, 0.05  # keep probabilities off the clip at eps
    expected, expected_loss = ref_minibatch_epoch(packed, layout, X, Y, order, batch_size,
                                                  eta, lam, act, out_act, loss, weights)
    got = packed.copy()
    total = K.minibatch_bp_epoch(layout.network(got, act, out_act), X, Y, weights, order,
                                 batch_size, Learning(eta, lam, loss))
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(total, expected_loss, rtol=1e-9, atol=1e-12)


@given(networks(), WEIGHTS)
def test_forward_batch_and_loss_match_numpy(net, kind):
    layout, packed, X, Y, _, act, out_act, loss = net
    weights = _weights(kind, len(X))
    expected = ref_forward(packed, layout, X, act, out_act)[-1]
    got = K.forward_from(layout.network(packed, act, out_act), X, 0)[-1]
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(K.batch_loss(got, Y, loss, weights),
                               (weights * ref_sample_losses(expected, Y, loss)).sum(),
                               rtol=1e-10, atol=1e-12)


@given(st.lists(st.floats(-800, 800), min_size=1, max_size=20),
       st.sampled_from([K.SIGMOID, K.TANH, K.RELU, K.IDENTITY, K.SOFTMAX]))
def test_activations_match_numpy_without_overflow(values, code):
    z = np.array(values)
    got = z.copy()
    K.activate(got, code)
    assert np.all(np.isfinite(got))
    np.testing.assert_allclose(got, REF_ACTIVATIONS[code](z), rtol=1e-12, atol=1e-300)


def test_sigmoid_extremes_do_not_overflow():
    with np.errstate(over="raise"):
        assert K.sigmoid(-1000.0) == 0.0
        assert K.sigmoid(1000.0) == 1.0
        assert K.sigmoid(0.0) == 0.5


def test_float32_kernels_stay_float32():
    layout = Layout.from_sizes((2, 3, 1))
    packed = np.linspace(-1, 1, layout.n_params).astype(np.float32)
    X = np.ones((4, 2), dtype=np.float32)
    Y = np.ones((4, 1), dtype=np.float32)
    net = layout.network(packed, K.SIGMOID, K.SIGMOID)
    K.standard_bp_epoch(net, X, Y, np.ones(4, dtype=np.float32), np.arange(4), 0.1, 1.0,
                        K.SQUARED_ERROR)
    out = K.forward_from(net, X, 0)[-1]
    assert packed.dtype == np.float32 and out.dtype == np.float32


def test_every_kernel_takes_named_state_not_a_long_argument_list():
    """Kernels take a Network (and a Learning), not 9-15 positional arguments."""
    import inspect

    from numba.core.registry import CPUDispatcher

    kernels = {name: f for name, f in vars(K).items() if isinstance(f, CPUDispatcher)}
    assert len(kernels) >= 25
    arity = {name: len(inspect.signature(f.py_func).parameters) for name, f in kernels.items()}
    assert {name: n for name, n in arity.items() if n > 8} == {}
    for step in ("forward", "backward", "update", "sample_step", "batch_step", "gradient_from",
                 "standard_bp_epoch", "minibatch_bp_epoch", "forward_from"):
        assert next(iter(inspect.signature(kernels[step].py_func).parameters)) == "net"


def test_sparse_standard_epoch_equals_the_dense_epoch():
    """The CSR epoch scatters each row and runs the same sample_step: same bits."""
    import scipy.sparse as sp

    rng = np.random.default_rng(3)
    layout = Layout.from_sizes((6, 4, 3, 2))
    X = rng.normal(size=(20, 6)) * (rng.random((20, 6)) < 0.4)
    Y = rng.uniform(size=(20, 2))
    order = rng.permutation(20)
    start = rng.normal(size=layout.n_params)
    dense, sparse = start.copy(), start.copy()
    learning = (0.1, 0.9, K.SQUARED_ERROR)
    weights = rng.choice([0.0, 0.5, 2.0], size=20)
    total_dense = K.standard_bp_epoch(layout.network(dense, K.TANH, K.IDENTITY), X, Y, weights,
                                      order, *learning)
    C = sp.csr_matrix(X)
    total_sparse = K.sparse_standard_bp_epoch(layout.network(sparse, K.TANH, K.IDENTITY),
                                              CSRRows(C.data, C.indices, C.indptr), Y, weights,
                                              order, *learning)
    np.testing.assert_array_equal(sparse, dense)
    assert total_sparse == total_dense
    assert not np.array_equal(dense, start)


_FIRST_FIT = RECORD_COMPILATIONS + r'''
import json, sys
import numpy as np
import pytest
from hyperplane.neural import MLPClassifier

X = np.array([[0.697, 0.46], [0.774, 0.376], [0.634, 0.264], [0.608, 0.318], [0.556, 0.215],
              [0.403, 0.237], [0.481, 0.149], [0.437, 0.211], [0.666, 0.091], [0.243, 0.267],
              [0.245, 0.057], [0.343, 0.099], [0.639, 0.161], [0.657, 0.198], [0.36, 0.37],
              [0.593, 0.042], [0.719, 0.103]])
y = np.array([1] * 8 + [0] * 9)
net = MLPClassifier(bp=sys.argv[1], batch_size=5, max_iter=20, random_state=0).fit(X, y)
net.predict(X)
print(json.dumps(sorted(set(name.rsplit(".", 1)[1] for name in compiled
                            if name.startswith("hyperplane.neural.")))))
'''


@pytest.mark.parametrize("bp, kernels", [
    ("accumulated", ["batch_step", "derivative", "forward_from", "total_weight"]),
    ("standard", ["derivative", "forward_from", "sample_step", "standard_bp_epoch",
                  "total_weight"]),
])
def test_a_first_fit_compiles_its_epoch_kernel_and_prediction_only(tmp_path, bp, kernels):
    """numba compiles a callee as a library of its own and optimises it again in
    each caller, so the rules only compiled code uses are inlined into the
    epoch kernels: a first fit compiles its epoch kernel, forward_from (for
    prediction) and the leaves that stay calls -- no gradient_from, activate,
    layer_weights, ... of their own -- and a second process compiles nothing."""
    import json
    import os
    import subprocess
    import sys

    import hyperplane

    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=os.path.dirname(os.path.dirname(hyperplane.__file__)))
    runs = []
    for _ in range(2):
        done = subprocess.run([sys.executable, "-c", _FIRST_FIT, bp], env=env, cwd=tmp_path,
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr
        runs.append(json.loads(done.stdout.strip().splitlines()[-1]))
    assert runs == [kernels, []]
