"""
周志华 习题6.2 / Zhou Zhihua, exercise 6.2: linear and Gaussian-kernel SVMs on 西瓜数据集3.0α
=============================================================================================

**题目**：试使用 LIBSVM，在西瓜数据集 3.0α 上分别用线性核和高斯核训练一个 SVM，并比较其支持向量的差别。

**Question**: with LIBSVM, train an SVM with a linear kernel and one with a Gaussian kernel on
watermelon data set 3.0α and compare their support vectors.

:class:`hyperplane.svm.SVC` solves the soft-margin dual (式6.40) with SMO (§6.2.2) on the kernels
of 表6.1; here it stands in for LIBSVM, and we check it against LIBSVM itself (scikit-learn's
``SVC`` wraps LIBSVM): same support vectors, same :math:`\\alpha`.

**答案 / Answer**: with C = 100, the linear kernel keeps 13 support vectors (编号 3–10, 12–15, 17;
10 of them at α = C, 3 melons misclassified: 3.0α is not linearly separable), the Gaussian kernel
(γ = 10) 7 (编号 2, 3, 6, 7, 12, 14, 15; none at α = C, every melon right). Six are support vectors
of both; LIBSVM finds the same sets.

**答案（中文）**：库中的 SVC 用 SMO（§6.2.2）解软间隔对偶问题（式6.40），核函数取自表6.1；这里它代替 LIBSVM，并与 LIBSVM 本身（scikit-learn 的 SVC 封装了 LIBSVM）核对：支持向量相同，α 相同。西瓜数据集 3.0α 线性不可分，所以线性核 SVM 把大多数瓜留作支持向量（许多 α_i = C），仍有几个分错；高斯核使边界绕着各类弯曲，拟合训练集，留下另一组支持向量。C = 100 时，线性核有 13 个支持向量（编号 3–10、12–15、17；其中 10 个 α = C，3 个瓜分错），高斯核（γ = 10）有 7 个（编号 2、3、6、7、12、14、15；没有 α = C，全部判对），其中 6 个是两者共有的；LIBSVM 得到相同的集合。

**与公开解答比较 / Compared with public solutions**

公开解答（han1057578619 的习题集）用 scikit-learn 的 SVC（当时默认 gamma = 1/属性数 = 0.5）列出了 C = 100 与 C = 10000 时两种核的支持向量，并说 C 大时高斯核的支持向量变少、线性核几乎不变。本页最后一节用库中的 SVC 复算：四组支持向量与公开解答完全相同（C = 100 时两种核都是 13 个；C = 10000 时高斯核 6 个、线性核 12 个），结论一致。

The public solution set of han1057578619 lists, with scikit-learn's SVC (whose default gamma was
then 1/n_features = 0.5), the support vectors of both kernels at C = 100 and C = 10000, and observes
that at large C the Gaussian kernel keeps fewer support vectors while the linear kernel keeps nearly
the same. The last section of this page recomputes them with the library's SVC: all four sets equal
the published ones (13 for both kernels at C = 100; 6 Gaussian and 12 linear at C = 10000), so the
two agree.
"""

import matplotlib.pyplot as plt
import numpy as np
from sklearn.svm import SVC as LibsvmSVC

from hyperplane.datasets import load_watermelon
from hyperplane.plot import apply_cjk_font, cjk_rc, plot_svm_margins
from hyperplane.svm import SVC

X, y = load_watermelon("3.0alpha")
settings = {"linear": {"kernel": "linear", "C": 100.0},
            "rbf": {"kernel": "rbf", "C": 100.0, "gamma": 10.0}}
models = {}
for name, params in settings.items():
    ours = SVC(tol=1e-6, **params).fit(X, y)
    libsvm = LibsvmSVC(tol=1e-6, **params).fit(X, y)
    models[name] = ours
    print(f"{name:6s}: {len(ours.support_)} support vectors (编号 {(ours.support_ + 1).tolist()}), "
          f"training accuracy {ours.score(X, y):.3f}")
    print(f"        LIBSVM: {len(libsvm.support_)} support vectors (编号 {sorted((libsvm.support_ + 1).tolist())})")
    assert sorted(ours.support_) == sorted(libsvm.support_)
    np.testing.assert_allclose(ours.intercept_, libsvm.intercept_, atol=1e-3)

# %%
# 支持向量的差别 / How the support vectors differ
# -----------------------------------------------
# 3.0α is not linearly separable, so the linear SVM keeps most melons as support vectors (many at
# the bound :math:`\alpha_i=C`) and still misclassifies several; the Gaussian kernel bends the
# boundary around the classes, fits the training melons and keeps a different set.
for name, model in models.items():
    at_bound = np.isclose(model.alpha_, settings[name]["C"]).sum()
    print(f"{name}: {at_bound} of {len(model.support_)} support vectors at alpha = C, "
          f"{(model.predict(X) != y).sum()} training melons misclassified")
linear, rbf = ({int(i) + 1 for i in models[k].support_} for k in ("linear", "rbf"))
print("support vectors of both:", sorted(linear & rbf))
print("only linear:", sorted(linear - rbf), " only Gaussian:", sorted(rbf - linear))

with cjk_rc():
    figure, axes = plt.subplots(1, 2, figsize=(10, 4))
    plot_svm_margins(models["linear"], X, y, ax=axes[0], title="线性核 (linear)")
    plot_svm_margins(models["rbf"], X, y, ax=axes[1], title="高斯核 (Gaussian, γ=10)")
apply_cjk_font(figure)
plt.show()

# %%
# 与公开解答比较 / Against a public solution's support vectors
# ------------------------------------------------------------
# A public solution set (scikit-learn's SVC, gamma then 1/n_features = 0.5) lists, as 0-based row
# numbers, the support vectors at C = 100 and C = 10000. The library finds the same four sets.
published = {("rbf", 100.0): [8, 9, 11, 12, 13, 14, 16, 2, 3, 4, 5, 6, 7],
             ("linear", 100.0): [8, 9, 11, 12, 13, 14, 16, 2, 3, 4, 5, 6, 7],
             ("rbf", 10000.0): [11, 13, 14, 1, 5, 6],
             ("linear", 10000.0): [9, 11, 12, 13, 14, 16, 2, 3, 4, 5, 6, 7]}
for (kernel, C), rows in published.items():
    found = SVC(kernel=kernel, C=C, gamma=0.5).fit(X, y).support_
    print(f"{kernel:6s} C = {C:7.0f}: {len(found)} support vectors, 编号 {(np.sort(found) + 1).tolist()}")
    assert sorted(found.tolist()) == sorted(rows)
