"""Benchmark of hyperplane.neural against scikit-learn's MLPClassifier.

Both libraries train the same network (one hidden layer of 64 ReLU neurons,
softmax output, cross-entropy, Glorot initialisation from the same seed) with
plain SGD (sklearn: ``solver="sgd", momentum=0, alpha=0``) on the same data, in
the same process, one after the other:

1. mini-batch BP (batch 200) on 200 000 x 50 samples for 5 epochs
   (target: >= 2x faster at equal final loss);
2. standard BP (one update per sample; sklearn ``batch_size=1``) on
   20 000 x 50 samples (target: >= 20x faster).

Run from the repository root::

    PYTHONPATH=src python benchmarks/neural.py            # full size
    PYTHONPATH=src python benchmarks/neural.py --quick    # a tenth of the data

Prints a Markdown table (time, ratio, final training loss, training accuracy).
Timings exclude numba compilation (a small warm-up fit runs first).
"""

from __future__ import annotations

import argparse
import time
import warnings

from sklearn.datasets import make_classification
from sklearn.exceptions import ConvergenceWarning
from sklearn.neural_network import MLPClassifier as SklearnMLP

from hyperplane.neural import MLPClassifier

EXPERIMENTS = {
    # name: (n_samples, bp, batch_size, learning_rate, epochs)
    "mini-batch SGD": (200_000, "minibatch", 200, 0.05, 5),
    "standard BP": (20_000, "standard", 1, 0.001, 2),
}


def _data(n_samples, seed=0):
    return make_classification(n_samples=n_samples, n_features=50, n_informative=20,
                               n_classes=4, random_state=seed)


def _time_fit(model, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        start = time.perf_counter()
        model.fit(X, y)
        return time.perf_counter() - start


def run(name, n_samples, bp, batch_size, learning_rate, epochs):
    X, y = _data(n_samples)
    common = dict(hidden_layer_sizes=(64,), batch_size=batch_size, max_iter=epochs, tol=0,
                  n_iter_no_change=epochs, shuffle=True, random_state=0)
    ours = MLPClassifier(activation="relu", bp=bp, learning_rate=learning_rate, **common)
    peer = SklearnMLP(activation="relu", solver="sgd", learning_rate_init=learning_rate,
                      momentum=0.0, alpha=0.0, **common)
    _time_fit(MLPClassifier(**ours.get_params()), X[:500], y[:500])  # compile
    t_ours = _time_fit(ours, X, y)
    t_peer = _time_fit(peer, X, y)
    return {
        "experiment": f"{name} ({n_samples:,}x50, {epochs} epochs)",
        "hyperplane s": t_ours, "sklearn s": t_peer, "speed-up": t_peer / t_ours,
        "loss hyperplane": ours.loss_curve_[-1], "loss sklearn": peer.loss_curve_[-1],
        "acc hyperplane": ours.score(X, y), "acc sklearn": peer.score(X, y),
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of the samples")
    args = parser.parse_args(argv)
    rows = []
    for name, (n, bp, batch, eta, epochs) in EXPERIMENTS.items():
        rows.append(run(name, n // 10 if args.quick else n, bp, batch, eta, epochs))
    header = list(rows[0])
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for row in rows:
        cells = [row["experiment"]] + [
            f"{row[k]:.2f}" if k.endswith(" s") else
            f"{row[k]:.1f}x" if k == "speed-up" else f"{row[k]:.4f}" for k in header[1:]]
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
