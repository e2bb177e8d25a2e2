"""Support vector machines (周志华《机器学习》第6章, 李航《统计学习方法》第7章):
SVC (hard and soft margin, any kernel, one-vs-one), SVR (epsilon-insensitive),
both solved by one compiled SMO solver."""

from ._svc import SVC
from ._svr import SVR

__all__ = ["SVC", "SVR"]
