"""The real classification sets the LIBLINEAR comparisons share."""

import scipy.sparse as sp
from sklearn.datasets import load_breast_cancer
from sklearn.preprocessing import StandardScaler

from hyperplane.datasets import load_heart_scale


def real_classification(name):
    """``(X, y)`` of breast cancer (standardised, dense) or heart_scale (CSR,
    LIBSVM's copy)."""
    if name == "breast_cancer":
        X, y = load_breast_cancer(return_X_y=True)
        return StandardScaler().fit_transform(X), y
    X, y = load_heart_scale()
    return sp.csr_matrix(X), y
