"""The BP lesson (周志华 5.3): standard and accumulated BP side by side.

Both networks start from the same weights and each step trains both for a
few epochs with ``partial_fit``; the page shows their errors (``loss_curve_``),
their decision regions (``predict_proba`` on a grid) and what the hidden
units output (``hidden_outputs``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..neural import MLPClassifier, hidden_outputs
from ._fields import integer, real
from ._plane import box, number, points, regions

COLUMNS = ["k", "epoch", "E_standard", "E_accumulated", "acc_standard", "acc_accumulated"]
RULES = ("standard", "accumulated")
#: hidden rows shown per network (the first samples)
MAX_HIDDEN_ROWS = 20


def _network(bp, params):
    hidden = integer(params, "hidden", 4, low=1, high=64)
    eta = real(params, "eta", 1.0, above=0, high=1e6)
    return MLPClassifier(hidden_layer_sizes=(hidden,), bp=bp, loss="squared_error",
                         activation="sigmoid", init="book", learning_rate=eta, shuffle=False,
                         random_state=integer(params, "seed", 0, low=0, high=2 ** 32 - 1))


def _features(X):
    """Numbers for the network: categorical attributes one-hot, the rest as given."""
    if isinstance(X, pd.DataFrame):
        X = pd.get_dummies(X, dtype=float)
    return np.asarray(X, dtype=np.float64)


def pictures(nets, X, low, high):
    """Each network's hidden outputs and, for 2-D data, its regions P(y = 1 | x)."""
    out = {"hidden": {r: np.round(hidden_outputs(nets[r], X[:MAX_HIDDEN_ROWS])[0], 4).tolist()
                      for r in RULES}}
    if low is not None:
        out["regions"] = {r: regions(lambda Z, r=r: nets[r].predict_proba(Z)[:, 1], low, high)
                          for r in RULES}
    return out


def network(net, digits=4):
    """A network's weights as 周志华 图5.7 names them: v[i][h] input → hidden,
    w[h][j] hidden → output, and the thresholds γ_h, θ_j of 式5.1 (the neuron
    outputs f(Σ w x − θ), so a threshold is minus the estimator's intercept)."""
    (v, w), (gamma, theta) = net.coefs_, net.intercepts_
    return {"v": np.round(v, digits).tolist(), "w": np.round(w, digits).tolist(),
            "gamma": np.round(-gamma, digits).tolist(), "theta": np.round(-theta, digits).tolist()}


def bp_steps(nets, X, y, stride, max_epochs, low, high):
    classes = np.unique(y)
    epoch = 0
    while epoch < max_epochs:
        n = min(stride, max_epochs - epoch)
        for _ in range(n):
            for net in nets.values():
                net.partial_fit(X, y, classes=classes)
        epoch += n
        row = [number(nets[r].loss_curve_[-1], 5) for r in RULES]
        row += [number(np.mean(nets[r].predict(X) == y), 3) for r in RULES]   # accuracy
        step = {"row": [str(epoch)] + row, "epoch_end": True,
                "line": "output" if epoch >= max_epochs else "until",
                "curve": {r: [round(float(v), 6) for v in nets[r].loss_curve_[-n:]]
                          for r in RULES},
                "network": {r: network(nets[r]) for r in RULES},
                "draw": lambda: pictures(nets, X, low, high)}
        yield step


def start(X, y, params):
    """``(info, steps)`` of the BP lesson."""
    features = _features(X)
    y = np.asarray(y)
    stride = integer(params, "stride", 1, low=1, high=10_000)
    max_epochs = integer(params, "max_epochs", 3000, low=1, high=1_000_000)
    nets = {r: _network(r, params) for r in RULES}
    info = {"columns": COLUMNS, "n_features": features.shape[1]}
    low = high = None
    if features.shape[1] == 2:
        low, high = box(features)
        info["points"] = points(features, y)
    return info, bp_steps(nets, features, y, stride, max_epochs, low, high)
