import os

import matplotlib
import pytest
from hypothesis import HealthCheck, settings

matplotlib.use("Agg")
os.environ.setdefault("MPLBACKEND", "Agg")
# no kept-warm worker outlives the suite (tests/cli/test_worker.py turns it on for itself)
os.environ["HYPERPLANE_WORKER"] = "off"

# compiled kernels take seconds on their first call: no per-example deadline
settings.register_profile(
    "hyperplane", deadline=None, max_examples=40,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("hyperplane")

@pytest.fixture(scope="session")
def weka_jar(tmp_path_factory):
    """Path of ``weka.jar`` (Debian's ``weka``, installed when absent), or skip."""
    from filelock import FileLock

    from tests.tree._weka import WEKA_UNAVAILABLE, ensure_weka

    # one xdist worker installs Weka while the other waits: two apt-gets side by side
    # fail on apt's lock, and the loser's Weka comparisons were skipped
    with FileLock(str(tmp_path_factory.getbasetemp().parent / "weka.lock")):
        jar = ensure_weka()
    if jar is None:
        pytest.skip(f"Weka unavailable: {WEKA_UNAVAILABLE['reason']}")
    return jar
