"""Support vector machines (周志华《机器学习》第6章, 李航《统计学习方法》第7章):
SVC (hard and soft margin, any kernel, one-vs-one, LIBSVM's probability
estimates), SVR (epsilon-insensitive), NuSVC and NuSVR (Schölkopf et al. 2000)
and OneClassSVM (Schölkopf et al. 2001), all solved by one compiled SMO
solver; LinearSVC and LinearSVR (LIBLINEAR's dual coordinate descent) for large or
sparse linear problems."""

import hyperplane._wait_policy  # noqa: F401  (OpenMP's, before numba's pool starts; no numba import)
from hyperplane._lazy import lazy_exports

__all__ = ["LinearSVC", "LinearSVR", "NuSVC", "NuSVR", "OneClassSVM", "PlattSigmoid", "SVC", "SVR",
           "platt_sigmoid"]

#: where each public name is defined: imported on first use, so fitting an
#: SVC does not import LinearSVC's modules
__getattr__, __dir__ = lazy_exports(__name__, {
    "._linear_svc": ("LinearSVC",),
    "._linear_svr": ("LinearSVR",),
    "._nu": ("NuSVC", "NuSVR"),
    "._one_class": ("OneClassSVM",),
    "._probability": ("PlattSigmoid", "platt_sigmoid"),
    "._svc": ("SVC",),
    "._svr": ("SVR",),
})
