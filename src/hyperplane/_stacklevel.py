"""Where a warning points: the user's line, not the package's.

:func:`warnings.warn` names the frame ``stacklevel`` calls up. A fixed count
is wrong as soon as a call passes through one more frame of the package --
an estimator's ``fit`` runs inside :func:`hyperplane._threads.uses_threads`'s
wrapper, a check is shared by several estimators -- so the package's
warnings count the frames up to the first one outside the package (the
user's script, a test, scikit-learn's cross-validation).
"""

from __future__ import annotations

import os
import sys

_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep


def user_stacklevel():
    """The ``stacklevel`` that makes a :func:`warnings.warn` in the function
    calling this one point at the first frame outside the package.

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warnings.warn("here", UserWarning, stacklevel=user_stacklevel())
    >>> caught[0].filename.startswith("<doctest")
    True
    """
    frame, level = sys._getframe(1), 1
    while frame.f_back is not None and os.path.abspath(frame.f_code.co_filename).startswith(_PACKAGE):
        frame, level = frame.f_back, level + 1
    return level


__all__ = ["user_stacklevel"]
