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


def _refit_with_a_worker_killed(client, fit):
    """Fit once for reference, then again while one worker is killed a third of the way in.

    Returns ``(reference, model)``; ``model`` is None when the second fit failed
    with a clear error naming the worker (acceptable: a wrong model is not).
    """
    import os
    import threading
    import time

    t0 = time.perf_counter()
    reference = fit()
    duration = time.perf_counter() - t0
    victim = sorted(client.scheduler_info()["workers"])[0]
    killed_at = []

    def kill_one_worker():
        time.sleep(duration / 3)
        killed_at.append(time.perf_counter())
        try:
            client.run(os._exit, 1, workers=[victim])
        except Exception:  # the worker dies before it can answer
            pass

    killer = threading.Thread(target=kill_one_worker)
    started = time.perf_counter()
    killer.start()
    try:
        model = fit()
        finished = time.perf_counter()
    except Exception as exc:  # a clear failure is acceptable, a wrong model is not
        assert "worker" in str(exc).lower() or "killed" in str(exc).lower()
        return reference, None
    finally:
        killer.join()
    assert started < killed_at[0] < finished      # the kill really hit the fit
    return reference, model


@pytest.fixture
def refit_with_a_worker_killed():
    """``run(client, fit) -> (reference, model or None)``: see :func:`_refit_with_a_worker_killed`."""
    return _refit_with_a_worker_killed
