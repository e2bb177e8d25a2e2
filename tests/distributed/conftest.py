import pytest
import distributed


@pytest.fixture(scope="session")
def dask_client():
    """A LocalCluster of 2 worker processes on 127.0.0.1."""
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       host="127.0.0.1", dashboard_address=None,
                                       memory_limit="2GiB")
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()


def _refit_with_a_worker_killed(client, fit, attempts=4):
    """Fit once for reference, then again while one worker is killed a third of the way in.

    Returns ``(reference, model)``. Dask recomputes the chunks the killed worker
    held from the task graph, so the second fit must finish; any exception
    fails the test. A kill that lands after the fit has already finished (the reference fit
    was slower than the refit, e.g. on a busy machine) proves nothing, so the
    refit is repeated with the kill timed from the last refit, up to
    ``attempts`` times.
    """
    import time

    t0 = time.perf_counter()
    reference = fit()
    delay = (time.perf_counter() - t0) / 3
    for _ in range(attempts):
        victim = sorted(client.scheduler_info()["workers"])[0]
        outcome, started, killed_at, finished = _fit_while_killing(client, fit, victim, delay)
        if killed_at < finished:
            assert started < killed_at          # the kill was sent during the fit
            _wait_for_replacement(client, victim)   # and the worker really died
            return reference, outcome
        _wait_for_replacement(client, victim)
        delay = (finished - started) / 3
    raise AssertionError(f"the worker was never killed during the fit in {attempts} attempts")


def _wait_for_replacement(client, victim, timeout=60):
    """Block until the nanny's new worker has replaced the killed ``victim``."""
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        workers = client.scheduler_info()["workers"]
        if victim not in workers and len(workers) == 2:
            return
        time.sleep(0.2)
    raise AssertionError(f"worker {victim} was not replaced within {timeout} s")


def _fit_while_killing(client, fit, victim, delay):
    """``(model, started, killed_at, finished)`` of one fit with ``victim`` killed after ``delay``."""
    import os
    import threading
    import time

    killed_at = []

    def kill_one_worker():
        time.sleep(delay)
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
    finally:
        finished = time.perf_counter()
        killer.join()
    return model, started, killed_at[0], finished


@pytest.fixture
def refit_with_a_worker_killed():
    """``run(client, fit) -> (reference, model)``: see :func:`_refit_with_a_worker_killed`."""
    return _refit_with_a_worker_killed
