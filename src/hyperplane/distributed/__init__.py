"""Scale-out on Dask.

The estimators that can (least squares, Fisher, logistic regression,
perceptron, decision trees) accept ``dask.array`` / ``dask.dataframe`` input in
``fit`` and fit on the Dask cluster without gathering the data into one
process: each chunk is reduced to small statistics (sums, histograms,
gradients, weight vectors) on the workers and only those travel. ``predict``
on Dask input returns a lazy Dask result.

Dask is an optional dependency (``pip install hyperplane[dask]``); it is
imported only when a Dask collection is given.
"""

from ._chunks import Chunks
from ._dask import add_parts, chunk_pairs, import_dask, predict_lazy, tree_reduce

__all__ = ["Chunks", "add_parts", "chunk_pairs", "import_dask", "predict_lazy", "tree_reduce"]
