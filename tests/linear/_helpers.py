"""Slow, obviously correct NumPy references and data makers for the linear tests."""

import numpy as np


def blobs(n=120, d=3, k=3, *, seed=0, spread=3.0, offset=0.0):
    """Gaussian classes with shifted means; y in 0..k-1, every class present."""
    rng = np.random.default_rng(seed)
    y = np.arange(n) % k
    centres = rng.normal(scale=spread, size=(k, d))
    X = centres[y] + rng.normal(size=(n, d)) + offset
    return X, y


def scatter_reference(X, y, k):
    """Counts, class means and S_W = Σ_k Σ_{n∈C_k} (x_n − m_k)(x_n − m_k)ᵀ by loops."""
    d = X.shape[1]
    counts = np.array([np.sum(y == c) for c in range(k)], dtype=float)
    means = np.array([X[y == c].mean(axis=0) if counts[c] else np.zeros(d)
                      for c in range(k)])
    S_W = np.zeros((d, d))
    for x, c in zip(X, y):
        S_W += np.outer(x - means[c], x - means[c])
    return counts, means, S_W


def cosine(a, b):
    a, b = np.ravel(a), np.ravel(b)
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))
