"""OpenMP's wait policy for numba's thread pool: idle workers sleep
(``OMP_WAIT_POLICY=PASSIVE``, the OpenMP API specification's wait policy)
unless the user chose one; set before numba's OpenMP library loads (it
reads the policy then). Its own module, so that a package can set it
without importing numba (``hyperplane.svm``: loading a model file needs no
numba); :mod:`hyperplane._numba` explains why and imports it first."""

import os

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
