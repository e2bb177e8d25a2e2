"""Named state of the backpropagation kernels (周志华《机器学习》section 5.3).

The compiled kernels of :mod:`._backprop_kernels` take a few of these named
tuples instead of long positional lists (numba compiles a field access to a
plain load): the network being trained (:class:`Network`), what a BP step
minimises and how far it moves (:class:`Learning`); CSR training rows are the
package's one :class:`~hyperplane._csr_rows.CSRRows` record. A fit builds its
network once; every epoch passes the same one.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._csr_rows import CSRRows  # the shared record of CSR training rows


class Network(NamedTuple):
    """A multilayer network: its parameters, their layout and its neurons' ``f``.

    Layer ``l``'s connection weights (``v_ih`` for the first layer, ``w_hj``
    for the last) are ``packed[w_off[l]:w_off[l] + sizes[l] * sizes[l+1]]``,
    row-major; its biases (the thresholds ``-gamma_h``, ``-theta_j``) follow
    at ``b_off[l]``. The outputs of layer ``l`` for one sample (``x``, the
    ``b_h``, the ``y_hat_j``) occupy ``u_off[l]:u_off[l+1]`` of a unit vector.
    """

    packed: np.ndarray  # every W_l then b_l, updated in place by training
    sizes: np.ndarray  # (d, q_1, ..., l): neurons per layer, input first
    w_off: np.ndarray
    b_off: np.ndarray
    u_off: np.ndarray
    act: int  # activation code of the hidden neurons
    out_act: int  # activation code of the output neurons


class Learning(NamedTuple):
    """What a BP step descends and how far: ``E_k`` and the objective of eq. 5.17."""

    eta: float  # learning rate (eq. 5.11: Delta w_hj = eta g_j b_h)
    lam: float  # lambda of eq. 5.17 (1: no penalty)
    loss: int  # E_k: SQUARED_ERROR (eq. 5.4) or LOG_LOSS
