import pytest

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="session")
def dask_client():
    """A LocalCluster of 2 worker processes on 127.0.0.1 (SPEC's test set-up)."""
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       host="127.0.0.1", dashboard_address=None,
                                       memory_limit="2GiB")
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()
