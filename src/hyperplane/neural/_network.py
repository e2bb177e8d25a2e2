"""Layout of a multilayer network: activations, losses, flat parameters.

The registries below map the public names of :mod:`hyperplane.neural` to the
codes the compiled kernels understand; the layout packs ``coefs_`` and
``intercepts_`` into the one vector the kernels update in place.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import _backprop_kernels as K
from ._state import Network

#: hidden-layer activation name -> (kernel code, Glorot factor)
#: (sigmoid: 周志华 eq. 5.2 computed without overflow; ReLU; tanh)
ACTIVATIONS = {
    "sigmoid": (K.SIGMOID, 2.0),
    "tanh": (K.TANH, 6.0),
    "relu": (K.RELU, 6.0),
}

def glorot_init(fan_in, fan_out, activation, rng):
    """Glorot & Bengio (2010), scikit-learn's initialisation: weights and biases
    ``U(-r, r)`` with ``r = sqrt(factor / (fan_in + fan_out))``."""
    bound = np.sqrt(ACTIVATIONS[activation][1] / (fan_in + fan_out))
    return rng.uniform(-bound, bound, (fan_in, fan_out)), rng.uniform(-bound, bound, fan_out)


def book_init(fan_in, fan_out, activation, rng):
    """周志华 figure 5.8, step 1: every weight and threshold in (0, 1)
    (biases are ``-theta``, so in (-1, 0))."""
    return rng.uniform(0.0, 1.0, (fan_in, fan_out)), -rng.uniform(0.0, 1.0, fan_out)


#: init name -> function(fan_in, fan_out, activation, rng) -> (W, b)
INITIALISATIONS = {
    "glorot": glorot_init,
    "book": book_init,
}

#: output activation name (scikit-learn's ``out_activation_`` names) -> kernel code
OUTPUT_ACTIVATIONS = {
    "identity": K.IDENTITY,
    "logistic": K.SIGMOID,
    "softmax": K.SOFTMAX,
}

#: loss name -> kernel code
LOSSES = {
    "squared_error": K.SQUARED_ERROR,
    "log_loss": K.LOG_LOSS,
}


def output_activation(loss, n_outputs, task):
    """Activation of the output layer matching the loss.

    * regression: identity output, squared error;
    * classification with ``"squared_error"``: sigmoid output neurons as in
      the book's network (figure 5.7, eq. 5.3), one per class (one for two
      classes);
    * classification with ``"log_loss"``: logistic output for two classes,
      softmax for more, so that ``g_j = y_j - y_hat_j``.
    """
    if task == "regression":
        return "identity"
    if loss == "squared_error" or n_outputs == 1:
        return "logistic"
    return "softmax"


@dataclass(frozen=True)
class Layout:
    """Offsets of every layer's weights, biases and outputs.

    Parameters
    ----------
    sizes : ndarray of int64
        Neurons per layer, input first: ``(d, q_1, ..., q_L, l)``.
    """

    sizes: np.ndarray
    w_off: np.ndarray
    b_off: np.ndarray
    u_off: np.ndarray
    n_params: int

    @classmethod
    def from_sizes(cls, sizes):
        sizes = np.asarray(sizes, dtype=np.int64)
        w_off, b_off, offset = [], [], 0
        for fan_in, fan_out in zip(sizes[:-1], sizes[1:]):
            w_off.append(offset)
            offset += fan_in * fan_out
            b_off.append(offset)
            offset += fan_out
        u_off = np.concatenate(([0], np.cumsum(sizes))).astype(np.int64)
        return cls(sizes, np.array(w_off, dtype=np.int64),
                   np.array(b_off, dtype=np.int64), u_off, int(offset))

    @classmethod
    def of(cls, coefs):
        """The layout of fitted ``coefs_``."""
        return cls.from_sizes([coefs[0].shape[0]] + [W.shape[1] for W in coefs])

    def network(self, packed, act, out_act):
        """The :class:`~._state.Network` the kernels train: ``packed`` (shared,
        not copied) in this layout, hidden and output activation codes."""
        return Network(packed, self.sizes, self.w_off, self.b_off, self.u_off, act, out_act)

    def pack(self, coefs, intercepts, dtype):
        """One flat vector from ``coefs_`` and ``intercepts_`` (a new array)."""
        parts = []
        for W, b in zip(coefs, intercepts):
            parts.extend((np.ravel(W), np.ravel(b)))
        return np.concatenate(parts).astype(dtype, copy=False)  # concatenate made a new array

    def unpack(self, packed):
        """``coefs_`` and ``intercepts_`` (copies) from a flat vector."""
        coefs, intercepts = [], []
        for l in range(len(self.sizes) - 1):
            n_in, n_out = self.sizes[l], self.sizes[l + 1]
            w, b = self.w_off[l], self.b_off[l]
            coefs.append(packed[w:w + n_in * n_out].reshape(n_in, n_out).copy())
            intercepts.append(packed[b:b + n_out].copy())
        return coefs, intercepts

    def initial_params(self, activation, rng, dtype, init="glorot"):
        """Random initial weights and biases of every layer, packed.

        ``init="glorot"`` (default, as scikit-learn) or ``"book"`` (values in
        (0, 1) as in figure 5.8; they saturate the sigmoid neurons of wide
        layers, so they suit small networks like the book's).
        """
        coefs, intercepts = [], []
        for fan_in, fan_out in zip(self.sizes[:-1], self.sizes[1:]):
            W, b = INITIALISATIONS[init](fan_in, fan_out, activation, rng)
            coefs.append(W)
            intercepts.append(b)
        return self.pack(coefs, intercepts, dtype)


def penalty(packed):
    """sum_w w^2 over every weight and threshold (eq. 5.17)."""
    return float(np.dot(packed, packed))
