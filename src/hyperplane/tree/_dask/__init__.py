"""Decision trees on Dask: the tree grown level by level from summed chunk statistics.
"""
