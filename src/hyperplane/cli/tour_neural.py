"""Tour section: BP networks on 西瓜数据集3.0 and on XOR (周志华 chapter 5)."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
from rich.table import Table
from sklearn.exceptions import ConvergenceWarning

from ..datasets import load_watermelon
from ..linear import Perceptron
from ..neural import MLPClassifier

#: epochs whose loss the tour prints (1-based)
SHOWN_EPOCHS = (1, 10, 100, 300, 1000, 10000)

XOR_X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]], dtype=float)
XOR_Y = np.array([0, 1, 1, 0])


def _fit_quietly(model, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return model.fit(X, y)


def _watermelon_table(X, y):
    """Standard and accumulated BP in the book's setting: loss curve and accuracy."""
    table = Table(title="BP network 19-10-1 on 西瓜数据集3.0 "
                  "(sigmoid, squared error, initial weights in (0, 1), η=1)")
    table.add_column("bp")
    for epoch in SHOWN_EPOCHS:
        table.add_column(f"E @ {epoch}", justify="right")
    table.add_column("updates", justify="right")
    table.add_column("train acc", justify="right")
    for bp in ("standard", "accumulated"):
        net = _fit_quietly(MLPClassifier(hidden_layer_sizes=(10,), bp=bp, init="book",
                                         loss="squared_error",
                                         learning_rate=1.0, max_iter=max(SHOWN_EPOCHS), tol=0,
                                         n_iter_no_change=max(SHOWN_EPOCHS), shuffle=False,
                                         random_state=0), X, y)
        losses = [f"{net.loss_curve_[e - 1]:.4f}" for e in SHOWN_EPOCHS]
        table.add_row(bp, *losses, str(net.n_updates_), f"{net.score(X, y):.3f}")
    return table


def _xor_table():
    """A hidden layer learns XOR; a single-layer perceptron cannot."""
    net = _fit_quietly(MLPClassifier(hidden_layer_sizes=(4,), activation="tanh", bp="standard",
                                     learning_rate=0.5, max_iter=2000, random_state=0),
                       XOR_X, XOR_Y)
    perceptron = _fit_quietly(Perceptron(max_iter=1000), XOR_X, XOR_Y)
    table = Table(title="XOR: network 2-4-1 vs perceptron")
    for column in ("x1", "x2", "y", "network", "perceptron"):
        table.add_column(column, justify="right")
    for x, target, a, b in zip(XOR_X.astype(int), XOR_Y, net.predict(XOR_X),
                               perceptron.predict(XOR_X)):
        table.add_row(str(x[0]), str(x[1]), str(target), str(a), str(b))
    table.caption = (f"network accuracy {net.score(XOR_X, XOR_Y):.2f} after {net.n_iter_} "
                     f"epochs; perceptron {perceptron.score(XOR_X, XOR_Y):.2f}")
    return table


def tour_neural(console):
    """Print the BP section of ``hyperplane tour``."""
    X, y = load_watermelon("3.0")
    X = pd.get_dummies(X, dtype=float)  # categorical attributes one-hot, 密度/含糖率 as given
    console.print(_watermelon_table(X, y))
    console.print("Standard BP updates after every sample (17 updates per epoch) and its "
                  "error E falls in far fewer epochs; accumulated BP updates once per epoch "
                  "and needs many more epochs (周志华 section 5.3).")
    console.print(_xor_table())
