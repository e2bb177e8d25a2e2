"""The kernels' BP steps are gradient steps: compare with central differences.

For every hidden activation and every (loss, output) pair the estimators use,
with and without the penalty of eq. 5.17, ``(before - after) / eta`` of one
step must equal the finite-difference gradient of the objective the step
claims to descend.
"""

import numpy as np
import pytest

from hyperplane.neural import _backprop_kernels as K
from hyperplane.neural._network import Layout
from hyperplane.neural._state import Learning

from ._reference import numeric_gradient, ref_objective

HIDDEN = {"sigmoid": K.SIGMOID, "tanh": K.TANH, "relu": K.RELU}
#: (loss, output activation, n_outputs): the classifier's and regressor's outputs
OUTPUTS = {
    "squared_error/sigmoid": (K.SQUARED_ERROR, K.SIGMOID, 2),
    "squared_error/identity": (K.SQUARED_ERROR, K.IDENTITY, 2),
    "log_loss/logistic": (K.LOG_LOSS, K.SIGMOID, 1),
    "log_loss/softmax": (K.LOG_LOSS, K.SOFTMAX, 3),
}


def _problem(n_outputs, loss, seed=0, n=6):
    rng = np.random.default_rng(seed)
    layout = Layout.from_sizes((3, 4, 5, n_outputs))  # two hidden layers
    packed = rng.normal(scale=0.7, size=layout.n_params)
    X = rng.normal(size=(n, 3))
    if loss == K.LOG_LOSS:
        labels = rng.integers(0, max(n_outputs, 2), n)
        Y = (labels[:, None] == 1).astype(float) if n_outputs == 1 else np.eye(n_outputs)[labels]
    else:
        Y = rng.uniform(size=(n, n_outputs))
    return layout, packed, X, Y


ETA = 1e-3


#: sample weights of the six rows: none (the book), and uneven ones with a zero
WEIGHTS = {"unweighted": np.ones(6), "weighted": np.array([0.5, 2.0, 0.0, 1.0, 3.0, 0.25])}
CASES_WEIGHTED = [pytest.param(act, out, lam, w, id=f"{act}-{out}-{name}-{w}")
                  for act in HIDDEN for out in OUTPUTS
                  for lam, name in ((1.0, "no_penalty"), (0.6, "reg_lambda"))
                  for w in WEIGHTS]


def _assert_step_descends(step, activation, output, lam, rows, seed, weights, scale=1.0):
    """``(before - after) / eta`` of ``step`` equals the finite-difference gradient
    of eq. 5.17 on the given rows, the mean error weighted by ``weights``
    (``scale`` times the error term: standard BP's step on ``s_k E_k``)."""
    loss, out_act, n_outputs = OUTPUTS[output]
    act = HIDDEN[activation]
    layout, packed, X, Y = _problem(n_outputs, loss, seed=seed)
    after = packed.copy()
    step(after, layout, X, Y, act, out_act, loss)

    def objective(p):
        error = ref_objective(p, layout, X[rows], Y[rows], act, out_act, loss, 1.0,
                              weights[rows])
        return scale * lam * error + (1 - lam) * np.sum(p ** 2)

    expected = numeric_gradient(objective, packed)
    np.testing.assert_allclose((packed - after) / ETA, expected, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("activation, output, lam, weights", CASES_WEIGHTED)
def test_batch_step_is_gradient_of_eq_5_17(activation, output, lam, weights):
    """Accumulated / mini-batch step on all rows: the gradient of the batch
    objective, the error ``sum_k s_k E_k / sum_k s_k``."""
    def step(packed, layout, X, Y, act, out_act, loss):
        K.batch_step(layout.network(packed, act, out_act), Learning(ETA, lam, loss), X, Y,
                     WEIGHTS[weights], np.empty_like(packed))

    _assert_step_descends(step, activation, output, lam, slice(None), 0, WEIGHTS[weights])


@pytest.mark.parametrize("activation, output, lam, weights", CASES_WEIGHTED)
def test_standard_step_g_j_e_h_is_gradient_of_E_k(activation, output, lam, weights):
    """One sample: the update from g_j and e_h descends lam s_k E_k + (1-lam) sum w^2."""
    k = 1

    def step(packed, layout, X, Y, act, out_act, loss):
        K.standard_bp_epoch(layout.network(packed, act, out_act), X, Y, WEIGHTS[weights],
                            np.array([k]), ETA, lam, loss)

    _assert_step_descends(step, activation, output, lam, slice(k, k + 1), 1,
                          np.ones(6), scale=WEIGHTS[weights][k])


def test_book_output_gradient_formula():
    """Eq. 5.10: g_j = y_hat_j (1 - y_hat_j)(y_j - y_hat_j) for sigmoid + squared error."""
    y_hat, y = np.array([0.2, 0.9]), np.array([1.0, 0.0])
    g = np.empty(2)
    K.output_gradient(y_hat, y, K.SQUARED_ERROR, K.SIGMOID, g, 1.0)
    np.testing.assert_allclose(g, [0.2 * 0.8 * 0.8, 0.9 * 0.1 * -0.9])
