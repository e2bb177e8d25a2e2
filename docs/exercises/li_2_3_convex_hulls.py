r"""
李航 习题2.3 / Li Hang, exercise 2.3: linear separability and disjoint convex hulls
===================================================================================

**题目**：证明以下定理：样本集线性可分的充分必要条件是正实例点集所构成的凸壳与负实例点集所构成的凸壳互不相交。

**Question**: prove that a sample set is linearly separable if and only if the convex hull of its
positive points and the convex hull of its negative points do not intersect.

**答案 / Answer** (the convex hull of :math:`S=\{x_1,\dots,x_k\}` is
:math:`\operatorname{conv}(S)=\{\sum_i\lambda_ix_i : \lambda_i\ge0,\ \sum_i\lambda_i=1\}`).

*Necessity.* If :math:`w\cdot x_i+b>0` for every positive point and :math:`<0` for every negative
point, then for any convex combination of the positives
:math:`w\cdot\sum_i\lambda_ix_i+b=\sum_i\lambda_i(w\cdot x_i+b)>0`, and likewise every point of the
negative hull gives :math:`<0`. A common point would give both, so the hulls are disjoint.

*Sufficiency.* The two hulls are compact and convex (hulls of finite sets). If they are disjoint,
the distance between them is attained at some :math:`p\in\operatorname{conv}(S_+)`,
:math:`q\in\operatorname{conv}(S_-)`, :math:`p\ne q`. Take the perpendicular bisector
:math:`w=p-q`, :math:`b=-(\|p\|^2-\|q\|^2)/2`, so :math:`w\cdot p+b=\|p-q\|^2/2>0`. For
:math:`x\in\operatorname{conv}(S_+)` the segment :math:`p+t(x-p)`, :math:`t\in[0,1]`, stays in the
hull, and :math:`\frac{d}{dt}\|p+t(x-p)-q\|^2\big|_{t=0}=2w\cdot(x-p)` must be :math:`\ge 0`
(otherwise a point nearer to :math:`q` exists), so :math:`w\cdot x+b\ge w\cdot p+b>0`. The same
argument with :math:`q` gives :math:`w\cdot x+b<0` on the negative hull: :math:`(w,b)` separates.

The page checks the equivalence on random sample sets: "separable" decided by
:class:`hyperplane.linear.Perceptron` converging (定理2.1 guarantees it on separable data) against
"the hulls intersect" decided by a linear program in the :math:`\lambda, \mu` weights (scipy).

**答案（中文）**：（凸包 conv(S) 为 S 中点的全部凸组合。）必要性：若 w·x_i + b 对所有正例大于 0、对所有负例小于 0，则正例的任意凸组合也使 w·x + b > 0，负例的凸组合使其小于 0，公共点不可能存在，凸包不相交。充分性：两个凸包都是紧凸集，若不相交，它们之间的距离在某对点 p（正例凸包中）、q（负例凸包中）处取到，p ≠ q。取 p、q 的垂直平分超平面 w = p − q、b = −(‖p‖² − ‖q‖²)/2，则 w·p + b = ‖p − q‖²/2 > 0；对正例凸包中的任意 x，线段 p + t(x − p) 留在凸包内，由 p 是离 q 最近的点得 w·(x − p) ≥ 0，故 w·x + b ≥ ‖p − q‖²/2 > 0；对负例凸包同理得 w·x + b < 0，所以 (w, b) 严格分开两类。

**与公开解答比较 / Compared with public solutions**

datawhale 的《统计学习方法》习题解答（statistical-learning-method-solutions-manual）：它用同一对最近点与垂直平分超平面证明充分性，但只得出正例凸包上 f(x) ≥ 0；定义2.2 要求的严格不等式来自其展开式中 ‖x₊ − x₋‖²/2 > 0 这一项，如上所示。

The datawhale solutions manual proves sufficiency with the same nearest pair :math:`(x_+, x_-)` and
bisecting hyperplane, but concludes only :math:`f(x)\ge0` on the positive hull; the strict
inequality that 定义2.2 requires follows from the :math:`\|x_+-x_-\|^2/2>0` term of its own expansion,
as above.
"""

import warnings

import matplotlib.pyplot as plt
import numpy as np
from scipy.optimize import linprog
from scipy.spatial import ConvexHull

from hyperplane.linear import Perceptron
from hyperplane.plot import apply_cjk_font


def hulls_intersect(positive, negative):
    """Is there lambda, mu >= 0, each summing to 1, with sum lambda_i x_i = sum mu_j x_j?"""
    k, m = len(positive), len(negative)
    A_eq = np.zeros((positive.shape[1] + 2, k + m))
    A_eq[:-2, :k], A_eq[:-2, k:] = positive.T, -negative.T
    A_eq[-2, :k] = A_eq[-1, k:] = 1.0
    b_eq = np.r_[np.zeros(positive.shape[1]), 1.0, 1.0]
    return linprog(np.zeros(k + m), A_eq=A_eq, b_eq=b_eq, bounds=(0, None)).status == 0


rng = np.random.default_rng(0)
agree, counts, examples = 0, {True: 0, False: 0}, {}
for trial in range(200):
    shift = rng.uniform(0.0, 3.0)  # from heavily overlapping to far apart
    positive = rng.normal(size=(6, 2)) + [shift, 0.0]
    negative = rng.normal(size=(6, 2)) - [shift, 0.0]
    X, y = np.vstack([positive, negative]), np.r_[np.ones(6), -np.ones(6)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        separable = Perceptron(max_iter=3000).fit(X, y).converged_
    intersect = hulls_intersect(positive, negative)
    agree += separable != intersect
    counts[separable] += 1
    examples.setdefault(separable, (positive, negative))
print(f"200 random sets: {counts[True]} separable, {counts[False]} not; "
      f"'perceptron converged' == 'hulls disjoint' on {agree} of 200")
assert agree == 200 and counts[True] > 20 and counts[False] > 20

# %%
# One separable and one inseparable set with their hulls.
figure, axes = plt.subplots(1, 2, figsize=(9, 4))
for ax, separable in zip(axes, (True, False)):
    for points, colour in zip(examples[separable], ("#d62728", "#1f77b4")):
        hull = ConvexHull(points)
        ax.fill(*points[hull.vertices].T, color=colour, alpha=0.25)
        ax.scatter(*points.T, color=colour)
    ax.set_title("线性可分: 凸壳不相交" if separable else "线性不可分: 凸壳相交")
apply_cjk_font(figure)
plt.show()
