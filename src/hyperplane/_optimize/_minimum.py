"""What every solver of :mod:`hyperplane._optimize` returns."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class Minimum(NamedTuple):
    """The point a solver stopped at, the iterations it ran and whether the
    caller's stopping test held there (otherwise the iteration limit or the
    line search ended it)."""

    theta: np.ndarray
    n_iter: int
    converged: bool


__all__ = ["Minimum"]
