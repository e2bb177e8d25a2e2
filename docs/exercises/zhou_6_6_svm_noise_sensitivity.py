r"""
周志华 习题6.6 / Zhou Zhihua, exercise 6.6: why the SVM is sensitive to noise
=============================================================================

**题目**：试析 SVM 对噪声敏感的原因。

**Question**: analyse why the SVM is sensitive to noise.

**答案 / Answer**.

* *The solution is decided by a few samples.* :math:`w=\sum_i\alpha_iy_ix_i` over the support
  vectors only, the samples on or inside the margin — exactly where mislabelled or noisy samples
  sit. One such sample becomes a support vector and moves the hyperplane, while the many correct
  samples far from the boundary have no say.
* *Hard margin.* With :math:`\xi_i=0` (式6.6) a single mislabelled sample can make the data
  inseparable (no solution), or, if still separable, force the hyperplane next to it with a tiny
  margin.
* *The hinge loss is unbounded* (式6.34, 图6.5): a sample on the wrong side costs
  :math:`1-y_if(x_i)`, growing linearly with its distance, so a far outlier gets the maximal
  :math:`\alpha_i=C` and keeps pulling; with large :math:`C` the pull is strong. Bounded losses
  (the ramp loss, or the 0/1 loss of 式6.29) do not have this, at the price of non-convexity.
* *Kernels add flexibility*: a Gaussian kernel with a large γ can bend around a noisy sample and
  fit it, which is overfitting.

The page trains a linear :class:`hyperplane.svm.SVC` on two separable Gaussian classes, then flips
the label of one sample near the boundary and of one far away, and compares each fit with the
clean fit of the same :math:`C`. With :math:`C=1000` (nearly a hard margin) the flipped sample near
the boundary, still separable, becomes a support vector with a large :math:`\alpha_i`: the
hyperplane turns by about 43°, the margin halves and two correct samples are now misclassified.
The far one lands at :math:`\alpha_i=C` and changes the margin and the support vectors. With
:math:`C=0.1` either flip turns :math:`w` by only about 6°.

**答案（中文）**：(1) 解由少数样本决定：w = Σ α_i y_i x_i 只取决于支持向量，即间隔上或间隔内的样本，而标错或有噪声的样本恰好在那里；一个这样的样本成为支持向量就会移动超平面，远离边界的大量正确样本却不起作用。(2) 硬间隔：ξ_i = 0（式6.6）时，一个标错的样本就可能使数据不可分（无解），或把超平面逼到它旁边、间隔极小。(3) hinge 损失无界（式6.34，图6.5）：分错一侧的样本代价 1 − y_i f(x_i) 随距离线性增长，远处的离群点取到最大的 α_i = C，持续拉动超平面，C 越大拉力越强；有界损失（ramp 损失或式6.29 的 0/1 损失）没有这个问题，代价是非凸。(4) 核函数增加了灵活性：γ 很大的高斯核可以绕过噪声样本把它拟合进去，即过拟合。本页用实验显示：C = 1000 时翻转边界附近一个样本的标记，超平面转过约 43°，间隔减半。

**与公开解答比较 / Compared with public solutions**

公开解答（han1057578619 的习题集）只给出一点：SVM 的决策只由少量支持向量决定，噪声样本一旦成为支持向量就会影响决策。这是本页的第 1 点；本页还讨论了硬间隔与无界的 hinge 损失，并用实验显示了标签噪声的影响。

The public solution set of han1057578619 gives one reason: the SVM's decision rests on a few support
vectors, so a noisy sample that becomes one moves it. That is point 1 of this page, which also
discusses the hard margin and the unbounded hinge loss and shows the effect of label noise by
experiment.
"""

import matplotlib.pyplot as plt
import numpy as np

from hyperplane.plot import apply_cjk_font
from hyperplane.svm import SVC

rng = np.random.default_rng(2)
X = np.vstack([rng.normal([-2, 0], 0.7, size=(30, 2)), rng.normal([2, 0], 0.7, size=(30, 2))])
y = np.r_[-np.ones(30), np.ones(30)]


def angle(w):
    return np.degrees(np.arctan2(w[1], w[0]))


cleans = {C: SVC(kernel="linear", C=C).fit(X, y) for C in (1000.0, 0.1)}
clean = cleans[1000.0]
for C, model in cleans.items():
    print(f"clean data, C = {C:g}: w at {angle(model.coef_[0]):+.1f} deg, margin 2/||w|| = "
          f"{2 / np.linalg.norm(model.coef_[0]):.3f}, {len(model.support_)} support vectors")
near = int(np.argmin(np.abs(X[:30, 0] + 0.8)))       # a -1 sample near the boundary
far = int(np.argmin(X[:30, 0]))                       # the -1 sample farthest from the boundary
models = {}
for name, index in (("near", near), ("far", far)):
    noisy = y.copy()
    noisy[index] *= -1
    for C in (1000.0, 0.1):
        model = SVC(kernel="linear", C=C).fit(X, noisy)
        models[name, C] = (model, noisy)
        print(f"flip the {name} sample, C = {C:g}: w at {angle(model.coef_[0]):+.1f} deg, margin "
              f"{2 / np.linalg.norm(model.coef_[0]):.3f}, "
              f"alpha of the flipped sample = {model.alpha_[index]:.3g}, "
              f"{len(model.support_)} support vectors, accuracy on the true labels {np.mean(model.predict(X) == y):.3f}")
    assert models[name, 1000.0][0].alpha_[index] > 100  # the noisy sample is a heavy support vector
turn = {key: abs(angle(m.coef_[0]) - angle(cleans[key[1]].coef_[0])) for key, (m, _) in models.items()}
print("turn of w against the clean fit with the same C (degrees):",
      {f"{k[0]}, C={k[1]:g}": round(v, 1) for k, v in turn.items()})
assert np.isclose(models["far", 1000.0][0].alpha_[far], 1000.0)  # the far one: alpha = C
assert turn["near", 1000.0] > 20 and turn["near", 1000.0] > 3 * turn["near", 0.1]

figure, axes = plt.subplots(1, 2, figsize=(10, 4))
xx, yy = np.meshgrid(np.linspace(-5, 5, 200), np.linspace(-3, 3, 200))
grid = np.column_stack([xx.ravel(), yy.ravel()])
for ax, C in zip(axes, (1000.0, 0.1)):
    model, noisy = models["near", C]
    ax.scatter(*X.T, c=noisy, cmap="coolwarm", s=15)
    ax.scatter(*X[near], s=200, facecolors="none", edgecolors="k", label="flipped label")
    ax.contour(xx, yy, cleans[C].decision_function(grid).reshape(xx.shape), levels=[0], colors="gray", linestyles=":")
    ax.contour(xx, yy, model.decision_function(grid).reshape(xx.shape), levels=[-1, 0, 1], colors="k",
               linestyles=["--", "-", "--"])
    ax.set_title(f"习题6.6: 一个噪声样本, C = {C:g}", fontsize=9)
    ax.legend(fontsize=7)
apply_cjk_font(figure)
plt.show()
