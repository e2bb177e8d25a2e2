import os

import matplotlib
import pytest
from hypothesis import HealthCheck, settings

matplotlib.use("Agg")
os.environ.setdefault("MPLBACKEND", "Agg")

# compiled kernels take seconds on their first call: no per-example deadline
settings.register_profile(
    "hyperplane", deadline=None, max_examples=40,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("hyperplane")


@pytest.fixture(scope="session")
def weka_jar():
    """Path of ``weka.jar`` (Debian's ``weka``, installed when absent), or skip."""
    from tests.tree._weka import WEKA_UNAVAILABLE, ensure_weka

    jar = ensure_weka()
    if jar is None:
        pytest.skip(f"Weka unavailable: {WEKA_UNAVAILABLE['reason']}")
    return jar
