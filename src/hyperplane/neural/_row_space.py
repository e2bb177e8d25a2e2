"""BP on wide data: the first layer's weights kept in the row space of ``X``.

Every BP rule of section 5.3 (周志华) changes the first layer's weights
``W_0`` (d × q_1) by ``- step · X_Bᵀ δ_B`` (the rows ``B`` of a sample, a batch
or all of them, eq. 5.16) after shrinking them by ``s = 1 - 2 η (1 - λ)``
(eq. 5.17). Starting from ``W_0⁰`` the weights are therefore always

    ``W_0 = c · W_0⁰ + Xᵀ A``,  ``c = sᵗ``,  ``A`` an m × q_1 matrix,

and the first layer's input of rows ``B`` is
``X_B W_0 = c · (X_B W_0⁰) + (X_B Xᵀ) A``. With ``P = X W_0⁰`` and the Gram
matrix ``G = X Xᵀ`` computed once, an update costs O(m q_1) and a forward
pass O(|B| m q_1) instead of O(d q_1): when there are fewer rows than
features (text, genes, 3 rows × 10⁶ columns) an epoch no longer touches the
d × q_1 weights, which are formed once at the end. The updates are those of
the direct rules (the same arithmetic up to the order of the sums).
"""

from __future__ import annotations

import numpy as np

from . import _backprop_kernels as K
from ._bp import epoch_rule
from ._network import penalty

#: the row-space form is used up to this many training rows (G is m × m)
ROW_SPACE_MAX_ROWS = 2048


def uses_row_space(X, early_stopping):
    """Whether to train in the row space: dense ``X`` with fewer rows than
    columns (and at most ``ROW_SPACE_MAX_ROWS``), no validation split."""
    m, d = X.shape
    return (isinstance(X, np.ndarray) and not early_stopping
            and m < d and m <= ROW_SPACE_MAX_ROWS)


class DirectTraining:
    """The BP rules on the weights themselves (dense or CSR rows)."""

    def __init__(self, bp, net, X):
        self.rule = epoch_rule(bp, X)

    def epoch(self, net, learning, X, Y, weights, order, batch_size):
        """One epoch of the rule; returns ``sum_k s_k E_k``."""
        return self.rule(net, learning, X, Y, weights, order, batch_size)

    def penalty(self, packed):
        """``sum_w w²`` over every weight and threshold (eq. 5.17)."""
        return penalty(packed)

    def finite(self, packed):
        """Whether every weight is finite (a finite sum has finite terms)."""
        return bool(np.isfinite(np.sum(packed)))

    def finish(self, net, X):
        """Nothing to do: ``net.packed`` already holds the weights."""


def _batches(bp, order, batch_size, m):
    """The row sets of one epoch, each updated in one step (section 5.3)."""
    if bp == "accumulated":
        return [np.arange(m)]
    size = 1 if bp == "standard" else min(batch_size, m)
    return [order[start:start + size] for start in range(0, m, size)]


class RowSpaceTraining:
    """The BP rules with ``W_0 = c W_0⁰ + Xᵀ A`` (see the module docstring)."""

    def __init__(self, bp, net, X):
        self.bp = bp
        n_in, q1 = net.sizes[0], net.sizes[1]
        W0 = net.packed[:n_in * q1].reshape(n_in, q1)
        self.P = X @ W0  # X W_0⁰
        self.G = X @ X.T  # Gram matrix X Xᵀ
        self.A = np.zeros((X.shape[0], q1), dtype=net.packed.dtype)
        self.c = 1.0
        self.W0_norm2 = float(np.dot(W0.ravel(), W0.ravel()))
        self.tail = int(net.b_off[0])  # b_0 and every layer above W_0
        # the layers above W_0 as a network of their own: a view of packed[tail:] with the
        # offsets shifted by tail (layer 0's shifted weight offset is never used there)
        self.above = net._replace(packed=net.packed[self.tail:], w_off=net.w_off - self.tail,
                                  b_off=net.b_off - self.tail)
        self.grad = np.zeros(net.packed.shape[0] - self.tail, dtype=net.packed.dtype)

    def first_layer_input(self, rows):
        """``Z_1 = X_B W_0 + b_0`` for the rows ``B``."""
        b0 = self.above.packed[:self.above.sizes[1]]
        return self.c * self.P[rows] + self.G[rows] @ self.A + b0

    def epoch(self, net, learning, X, Y, weights, order, batch_size):
        """One epoch of the BP rule; returns ``sum_k s_k E_k`` (each batch before
        its step). A batch's step divides by its summed weight, as
        :func:`~._backprop_kernels.gradient_step` (standard BP: ``s_k`` is in
        ``delta`` and the divisor is 1)."""
        eta, lam, loss = learning.eta, learning.lam, learning.loss
        shrink = K.weight_decay(eta, lam)
        q1, total, grad, above = net.sizes[1], 0.0, self.grad, self.above
        for rows in _batches(self.bp, order, batch_size, X.shape[0]):
            Z1 = self.first_layer_input(rows)
            batch_total, delta = K.above_first_layer(above, loss, Z1, Y[rows], weights[rows],
                                                     grad)
            total += batch_total
            batch_weight = 1.0 if self.bp == "standard" else K.total_weight(weights[rows])
            if batch_weight <= 0.0:
                continue  # no mean error, no step (gradient_step)
            grad[:q1] = delta.sum(axis=0)  # b_0's gradient
            K.gradient_step(above.packed, grad, eta, lam, batch_weight)
            self.c *= shrink
            self.A *= shrink
            self.A[rows] -= (eta * lam / batch_weight) * delta
        return total

    def penalty(self, packed):
        """``sum_w w²`` with ``||W_0||² = c²||W_0⁰||² + 2c⟨P, A⟩ + ⟨A, G A⟩``."""
        W0_norm2 = (self.c ** 2 * self.W0_norm2 + 2.0 * self.c * np.sum(self.P * self.A)
                    + np.sum(self.A * (self.G @ self.A)))
        return float(W0_norm2 + penalty(packed[self.tail:]))

    def finite(self, packed):
        """Whether ``A``, ``c`` and the other weights are finite."""
        return bool(np.isfinite(np.sum(self.A) + np.sum(packed[self.tail:]) + self.c))

    def finish(self, net, X):
        """Form ``W_0 = c W_0⁰ + Xᵀ A`` in ``net.packed``."""
        n_in, q1 = net.sizes[0], net.sizes[1]
        W0 = net.packed[:n_in * q1].reshape(n_in, q1)
        W0 *= self.c
        W0 += X.T @ self.A


def training_for(bp, net, X, early_stopping):
    """The form in which to run ``bp`` on ``net``: row space on wide dense data, else direct."""
    form = RowSpaceTraining if uses_row_space(X, early_stopping) else DirectTraining
    return form(bp, net, X)


__all__ = ["DirectTraining", "RowSpaceTraining", "training_for",
           "uses_row_space"]
