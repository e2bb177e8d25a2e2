"""
周志华 习题6.8 / Zhou Zhihua, exercise 6.8: SVR from 密度 to 含糖率 on 西瓜数据集3.0α
=====================================================================================

**题目**：以西瓜数据集 3.0α 的"密度"为输入，"含糖率"为输出，试使用 LIBSVM 训练一个 SVR。

**Question**: with 密度 (density) of watermelon data set 3.0α as input and 含糖率 (sugar content)
as output, train an SVR with LIBSVM.

:class:`hyperplane.svm.SVR` solves the dual of the ε-insensitive problem (式6.43–6.47, §6.5) with
the same SMO solver as :class:`hyperplane.svm.SVC`. We fit a Gaussian-kernel SVR and check it
against LIBSVM (scikit-learn's ``SVR``): same support vectors and the same predictions.

**答案 / Answer**: a Gaussian-kernel SVR (C = 10, ε = 0.05, γ = 10) keeps 14 of the 17 melons as
support vectors (编号 1–4, 6, 7, 9–13, 15–17): 含糖率 depends little on 密度, so most points lie
outside the ε-tube. LIBSVM keeps the same 14, and the two predictions agree to within 2e-6.

**答案（中文）**：库中的 SVR 用与 SVC 相同的 SMO 求解器解 ε-不敏感问题的对偶（式6.43–6.47，§6.5）。本页以西瓜数据集 3.0α 的密度为输入、含糖率为输出拟合高斯核 SVR，并与 LIBSVM（scikit-learn 的 SVR）核对：支持向量相同，预测相同。高斯核 SVR（C = 10，ε = 0.05，γ = 10）把 17 个瓜中的 14 个留作支持向量（编号 1–4、6、7、9–13、15–17）：含糖率与密度关系不大，多数点落在 ε-间隔带之外。LIBSVM 得到同样的 14 个，两者的预测相差不超过 2e-6。

**与公开解答比较 / Compared with public solutions**

公开解答（han1057578619 的习题集）用 scikit-learn 的 SVR 画出不同 γ、C 下的拟合曲线，没有给出数字；它观察到密度与含糖率关系不明显、拟合都不好，γ 或 C 增大时模型更复杂。与本页一致；本页还检验了库中的 SVR 与 LIBSVM 的支持向量和预测相同。

The public solution set of han1057578619 plots scikit-learn's SVR for several γ and C without
numbers; it observes that 密度 says little about 含糖率, so no fit is good, and that larger γ or C gives
a more complex model. This agrees with this page, which also checks that the library's SVR has
LIBSVM's support vectors and predictions.
"""

import matplotlib.pyplot as plt
import numpy as np
from sklearn.svm import SVR as LibsvmSVR

from hyperplane.datasets import load_watermelon
from hyperplane.plot import apply_cjk_font, cjk_rc
from hyperplane.svm import SVR

X, _ = load_watermelon("3.0alpha")
density, sugar = X[["密度"]].to_numpy(), X["含糖率"].to_numpy()
params = {"kernel": "rbf", "C": 10.0, "epsilon": 0.05, "gamma": 10.0}
svr = SVR(tol=1e-6, **params).fit(density, sugar)
libsvm = LibsvmSVR(tol=1e-6, **params).fit(density, sugar)
print(f"{len(svr.support_)} support vectors (编号 {(svr.support_ + 1).tolist()}); "
      f"LIBSVM: {len(libsvm.support_)}")
grid = np.linspace(density.min() - 0.05, density.max() + 0.05, 200)[:, None]
gap = np.abs(svr.predict(grid) - libsvm.predict(grid)).max()
print(f"largest difference from LIBSVM's prediction on a grid: {gap:.2e}")
assert sorted(svr.support_) == sorted(libsvm.support_) and gap < 1e-3

# %%
# The ε-tube: points strictly inside it have :math:`\alpha_i=\hat\alpha_i=0` and are not support
# vectors (式6.47's KKT conditions).
f = svr.predict(grid)
with cjk_rc():
    figure, ax = plt.subplots(figsize=(6, 4))
    ax.fill_between(grid[:, 0], f - params["epsilon"], f + params["epsilon"], alpha=0.2,
                    label="ε-间隔带")
    ax.plot(grid[:, 0], f, color="black", label="f(密度)")
    ax.scatter(density[:, 0], sugar, s=20, label="西瓜")
    ax.scatter(density[svr.support_, 0], sugar[svr.support_], s=90, facecolors="none",
               edgecolors="red", label="支持向量")
    ax.set_xlabel("密度")
    ax.set_ylabel("含糖率")
    ax.set_title("习题6.8: SVR")
    ax.legend()
apply_cjk_font(figure)
plt.show()
