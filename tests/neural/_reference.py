"""Slow, obviously-correct NumPy versions of the BP kernels (for tests only)."""

import numpy as np
from scipy.special import expit, softmax

from hyperplane.neural import _backprop_kernels as K

REF_ACTIVATIONS = {
    K.IDENTITY: lambda z: z,
    K.SIGMOID: expit,
    K.TANH: np.tanh,
    K.RELU: lambda z: np.maximum(z, 0.0),
    K.SOFTMAX: lambda z: softmax(z, axis=-1),
}

#: f'(z) through a = f(z), written out per activation
REF_DERIVATIVES = {
    K.IDENTITY: lambda a: np.ones_like(a),
    K.SIGMOID: lambda a: a * (1 - a),
    K.TANH: lambda a: 1 - a ** 2,
    K.RELU: lambda a: (a > 0).astype(a.dtype),
}


def unpack(packed, layout):
    coefs, intercepts = layout.unpack(packed)
    return coefs, intercepts


def ref_forward(packed, layout, X, act, out_act):
    """Outputs of every layer, input first."""
    coefs, intercepts = unpack(packed, layout)
    outs = [np.asarray(X, dtype=float)]
    for l, (W, b) in enumerate(zip(coefs, intercepts)):
        code = out_act if l == len(coefs) - 1 else act
        outs.append(REF_ACTIVATIONS[code](outs[-1] @ W + b))
    return outs


def ref_sample_losses(Y_hat, Y, loss):
    """E_k of every row: 1/2 ||y_hat - y||^2 or the cross-entropy."""
    if loss == K.SQUARED_ERROR:
        return 0.5 * ((Y_hat - Y) ** 2).sum(axis=1)
    eps = np.finfo(Y_hat.dtype).eps
    P = np.clip(Y_hat, eps, 1 - eps)
    if Y.shape[1] == 1:
        return -(Y * np.log(P) + (1 - Y) * np.log(1 - P))[:, 0]
    return -(Y * np.log(P)).sum(axis=1)


def ref_objective(packed, layout, X, Y, act, out_act, loss, lam, weights=None):
    """Eq. 5.17: lam * mean_k E_k + (1 - lam) * sum of all squared parameters;
    with ``weights`` the mean is ``sum_k s_k E_k / sum_k s_k``."""
    Y_hat = ref_forward(packed, layout, X, act, out_act)[-1]
    E = np.average(ref_sample_losses(Y_hat, Y, loss), weights=weights)
    return lam * E + (1 - lam) * np.sum(packed ** 2)


def numeric_gradient(f, packed, h=1e-6):
    """Central finite differences of ``f`` at ``packed``."""
    grad = np.empty_like(packed)
    for p in range(packed.size):
        up, down = packed.copy(), packed.copy()
        up[p] += h
        down[p] -= h
        grad[p] = (f(up) - f(down)) / (2 * h)
    return grad


def ref_standard_epoch(packed, layout, X, Y, order, eta, lam, act, out_act, loss,
                       weights=None):
    """The book's algorithm (figure 5.8), literally: for each sample compute
    the outputs, g_j, e_h (all with the old weights), then update; a sample
    weight s_k multiplies E_k, so g_j (and every e_h below it)."""
    weights = np.ones(len(X)) if weights is None else weights
    packed = packed.copy()
    total = 0.0
    for k in order:
        coefs, intercepts = unpack(packed, layout)
        outs = ref_forward(packed, layout, X[k:k + 1], act, out_act)
        y_hat, y = outs[-1][0], Y[k]
        total += weights[k] * ref_sample_losses(outs[-1], Y[k:k + 1], loss)[0]
        g = weights[k] * (y - y_hat)
        if loss == K.SQUARED_ERROR:
            g = g * REF_DERIVATIVES[out_act](y_hat)
        grads = [g]
        for l in range(len(coefs) - 1, 0, -1):
            b_h = outs[l][0]
            grads.insert(0, REF_DERIVATIVES[act](b_h) * (coefs[l] @ grads[0]))
        new_coefs, new_intercepts = [], []
        for l, (W, b) in enumerate(zip(coefs, intercepts)):
            decay = 2 * (1 - lam) * eta
            new_coefs.append(W - decay * W + eta * lam * np.outer(outs[l][0], grads[l]))
            new_intercepts.append(b - decay * b + eta * lam * grads[l])
        packed = layout.pack(new_coefs, new_intercepts, packed.dtype)
    return packed, total


def ref_minibatch_epoch(packed, layout, X, Y, order, batch_size, eta, lam, act, out_act, loss,
                        weights=None):
    """Mini-batch BP from finite differences of the batch objective (weighted
    mean error; a batch of weight 0 makes no step)."""
    weights = np.ones(len(X)) if weights is None else weights
    packed = packed.copy()
    total = 0.0
    for start in range(0, len(order), batch_size):
        rows = order[start:start + batch_size]
        Y_hat = ref_forward(packed, layout, X[rows], act, out_act)[-1]
        total += (weights[rows] * ref_sample_losses(Y_hat, Y[rows], loss)).sum()
        if weights[rows].sum() == 0:
            continue
        grad = numeric_gradient(
            lambda p: ref_objective(p, layout, X[rows], Y[rows], act, out_act, loss, lam,
                                    weights[rows]),
            packed)
        packed = packed - eta * grad
    return packed, total
