"""Safe model files: :func:`save` and :func:`load` (skops, never pickle).

Examples
--------
>>> import tempfile, os
>>> from sklearn.linear_model import LogisticRegression
>>> from hyperplane.io import save, load, read_header
>>> with tempfile.TemporaryDirectory() as tmp:
...     path = os.path.join(tmp, "logistic.hyperplane")
...     save(LogisticRegression().fit([[0], [1]], [0, 1]), path)
...     header = read_header(path)
>>> header["format"]
'hyperplane-model'
"""

from ._files import FORMAT_NAME, FORMAT_VERSION, load, read_header, save, trusted_types

__all__ = ["save", "load", "read_header", "trusted_types", "FORMAT_NAME", "FORMAT_VERSION"]
