"""The OpenMP workers of numba's parallel kernels sleep between regions unless
the user set ``OMP_WAIT_POLICY``."""


def test_omp_workers_sleep_unless_the_user_chose_otherwise():
    import os
    import subprocess
    import sys
    code = ("import os, numba, numpy as np; import hyperplane.svm; "
            "numba.njit(parallel=True)(lambda a: a.sum())(np.ones(10)); "
            "print(os.environ['OMP_WAIT_POLICY'])")
    env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    ours = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert ours.stdout.strip() == "PASSIVE", ours.stderr
    env["OMP_WAIT_POLICY"] = "ACTIVE"
    theirs = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert theirs.stdout.strip() == "ACTIVE", theirs.stderr
