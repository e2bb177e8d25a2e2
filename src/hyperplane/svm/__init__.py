"""Support vector machines (周志华《机器学习》第6章, 李航《统计学习方法》第7章):
SVC (hard and soft margin, any kernel, one-vs-one, LIBSVM's probability
estimates), SVR (epsilon-insensitive), NuSVC and NuSVR (Schölkopf et al. 2000)
and OneClassSVM (Schölkopf et al. 2001), all solved by one compiled SMO
solver; LinearSVC and LinearSVR (LIBLINEAR's dual coordinate descent) for large or
sparse linear problems."""

from ._linear_svc import LinearSVC
from ._linear_svr import LinearSVR
from ._nu import NuSVC, NuSVR
from ._one_class import OneClassSVM
from ._probability import PlattSigmoid, platt_sigmoid
from ._svc import SVC
from ._svr import SVR

__all__ = ["LinearSVC", "LinearSVR", "NuSVC", "NuSVR", "OneClassSVM", "PlattSigmoid", "SVC", "SVR",
           "platt_sigmoid"]
