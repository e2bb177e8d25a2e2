"""LIBSVM / svmlight files (``label index:value ...``) as sparse matrices.

The parsing is scikit-learn's :func:`sklearn.datasets.load_svmlight_file`
(the format LIBSVM's ``svm-train`` reads and ``svm-scale`` writes); this
module only fixes the conventions: 1-based feature indices as LIBSVM writes
them, float64 CSR features, and errors that name the file.
"""

from __future__ import annotations

import re
from importlib import resources
from typing import NamedTuple

import numpy as np


def load_svmlight(path, *, n_features=None, zero_based=False):
    """Read a LIBSVM/svmlight file into a CSR matrix and a label vector.

    Parameters
    ----------
    path : str or path-like
        The file: one sample a line, ``label index:value ...``, indices
        increasing, ``#`` starting a comment.
    n_features : int, optional
        Number of columns of ``X``; default the largest index in the file.
        Give the training width when reading a test file, whose last
        columns may all be zero.
    zero_based : bool or "auto", default False
        Whether the first feature index is 0. LIBSVM numbers features from
        1 (``False``); ``"auto"`` guesses from the file, as scikit-learn does.

    Returns
    -------
    X : scipy.sparse.csr_matrix of shape (n_samples, n_features), float64
    y : ndarray of shape (n_samples,), float64
        The labels as written (``+1``/``-1`` for LIBSVM's binary files).

    Raises
    ------
    ValueError
        If the file is not in the format, or has an index beyond
        ``n_features``; the message names the file and the first line
        that breaks the format.

    Examples
    --------
    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = os.path.join(tmp, "tiny.svm")
    ...     with open(path, "w") as handle:
    ...         _ = handle.write("+1 1:0.5 3:-1\\n-1 2:2\\n")
    ...     X, y = load_svmlight(path)
    >>> X.toarray().tolist(), y.tolist()
    ([[0.5, 0.0, -1.0], [0.0, 2.0, 0.0]], [1.0, -1.0])
    """
    from sklearn.datasets import load_svmlight_file

    try:
        with open(path, "rb") as handle:
            if handle.read(len(_BOM)) != _BOM:  # a UTF-8 byte-order mark is skipped
                handle.seek(0)
            X, y = load_svmlight_file(handle, n_features=n_features,
                                      zero_based=zero_based, dtype="float64")
    except (ValueError, RuntimeError, OverflowError) as exc:
        found = _first_bad_line(path, n_features=n_features, zero_based=zero_based)
        if found is not None:
            raise ValueError(f"{path}, line {found.line}: {found.reason}") from None
        raise ValueError(f"{path}: not a readable LIBSVM/svmlight file: {exc}") from None
    return _int32_indexed(X.tocsr()), y


def _int32_indexed(X):
    """``X`` with 32-bit indices when they fit: scikit-learn's reader gives 64-bit
    ones, which LIBLINEAR's and LIBSVM's wrappers in scikit-learn refuse."""
    limit = np.iinfo(np.int32).max
    if X.nnz <= limit and X.shape[1] <= limit:
        X.indices = X.indices.astype(np.int32)
        X.indptr = X.indptr.astype(np.int32)
    return X


_BOM = b"\xef\xbb\xbf"

#: the largest feature index scikit-learn's reader holds (a C ``int``)
_MAX_INDEX = 2 ** 31 - 1


class _BadLine(NamedTuple):
    """Where a LIBSVM file first breaks the format: a 1-based line and why."""

    line: int
    reason: str


def _first_bad_line(path, *, n_features=None, zero_based=False):
    """The first line of ``path`` that breaks the LIBSVM format, or None.

    Only called once scikit-learn's reader has refused the file (its messages
    name no line): one pass in Python over the rules that reader applies --
    ``#`` starts a comment, the label is a number, an optional ``qid:N``
    follows it, then ``index:value`` pairs with integer indices from 1 (0 when
    ``zero_based``), strictly increasing, below 2^31 (and at most
    ``n_features`` when given), and numeric values.
    """
    lowest = 1 if zero_based is False else 0
    with open(path, "rb") as handle:
        data = handle.read()
    if data.startswith(_BOM):
        data = data[len(_BOM):]
    for number, raw in enumerate(data.split(b"\n"), start=1):
        parts = raw.split(b"#", 1)[0].split()
        if not parts:
            continue
        shown = raw.strip()[:60].decode("utf-8", errors="replace")
        label, *pairs = parts
        if not _is_number(label):
            return _BadLine(number, f"the label {_text(label)} is not a number ({shown!r})")
        if pairs and pairs[0].startswith(b"qid"):
            if b":" not in pairs[0]:
                return _BadLine(number, f"{_text(pairs[0])} is not qid:value ({shown!r})")
            pairs = pairs[1:]
        previous = -1
        for pair in pairs:
            index, colon, value = pair.partition(b":")
            if not colon:
                return _BadLine(number, f"{_text(pair)} is not index:value ({shown!r})")
            if not re.fullmatch(rb"[-+]?\d+", index):
                return _BadLine(number, f"the feature index {_text(index)} is not an "
                                        f"integer ({shown!r})")
            position = int(index)
            if position < lowest:
                return _BadLine(number, f"feature index {position} is below {lowest} "
                                        f"(LIBSVM numbers features from 1)")
            if position > _MAX_INDEX:
                return _BadLine(number, f"feature index {position} is too large (LIBSVM "
                                        f"files number features below 2^31)")
            if position <= previous:
                return _BadLine(number, f"feature index {position} follows {previous}: "
                                        f"indices must increase along a line")
            if n_features is not None and zero_based != "auto" and position - lowest >= n_features:
                return _BadLine(number, f"feature index {position} is beyond "
                                        f"n_features={n_features}")
            if not _is_number(value):
                return _BadLine(number, f"the value {_text(value)} of feature {position} "
                                        f"is not a number")
            previous = position
    return None


def _is_number(token):
    """Whether ``token`` (bytes) reads as a number, as the reader's ``float``."""
    try:
        float(token)
    except ValueError:
        return False
    return True


def _text(token):
    return repr(token.decode("utf-8", errors="replace"))


def load_heart_scale():
    """LIBSVM's example data ``heart_scale``: 270 patients, 13 features, labels ±1.

    The file shipped with LIBSVM 3.37 (Chang & Lin, BSD licence): the
    Statlog (Heart) data of the UCI repository with every feature scaled to
    [-1, 1] by LIBSVM's ``svm-scale``. It is the file ``svm-train
    heart_scale`` is first run on in LIBSVM's README.

    Returns
    -------
    X : scipy.sparse.csr_matrix of shape (270, 13), float64
    y : ndarray of shape (270,), float64 with values +1/-1

    Examples
    --------
    >>> X, y = load_heart_scale()
    >>> X.shape, sorted(set(y.tolist()))
    ((270, 13), [-1.0, 1.0])
    """
    path = resources.files(__package__).joinpath("data", "heart_scale")
    with resources.as_file(path) as local:
        return load_svmlight(local, n_features=13)
