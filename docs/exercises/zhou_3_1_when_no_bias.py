r"""
周志华 习题3.1 / Zhou Zhihua, exercise 3.1: when the bias b can be left out
===========================================================================

**题目**：试分析在什么情形下式 (3.2) 中不必考虑偏置项 :math:`b`。

**Question**: in which situations need the bias term :math:`b` of 式3.2,
:math:`f(x)=w^Tx+b`, not be considered?

**答案 / Answer**. :math:`b` shifts the hyperplane away from the origin; it can be left out when
the best hyperplane passes through the origin, or when something else plays its role:

1. *Centred data.* For least squares (式3.5–3.8, and 式3.11 in matrix form) setting
   :math:`\partial E/\partial b=0` gives :math:`b=\bar y-w^T\bar x`. After centring,
   :math:`x_i\leftarrow x_i-\bar x` and :math:`y_i\leftarrow y_i-\bar y`, the optimal :math:`b` is 0
   and :math:`w` is unchanged, so fitting without :math:`b` on centred data is the same model
   (:math:`b=\bar y-w^T\bar x` is recovered afterwards).
2. *A constant feature.* If some attribute is constant (the :math:`\hat x=(x;1)` of 式3.10), its
   weight is the bias; a separate :math:`b` would be redundant (and the normal equations singular).
   One-hot encoded discrete attributes hide one: the columns of one attribute sum to 1 on every
   row, so they already span the constant (a community solution set, yunist.cn's 西瓜书习题 第 3 章,
   makes the same point about one-hot encoding).
3. *The task says so.* When the output must vanish at :math:`x=0` (a proportional law,
   :math:`y=kx`), :math:`b=0` is prior knowledge; also when only differences
   :math:`f(x_i)-f(x_j)=w^T(x_i-x_j)` matter (ranking), :math:`b` cancels.

The page checks 1 and 2 with :class:`hyperplane.linear.LeastSquaresClassifier` (least squares on
targets :math:`\pm1`, PRML §4.1.3) on 西瓜数据集3.0α: fitted with and without :math:`b` after
centring, the weights agree and the fitted :math:`b` is :math:`\bar y`; without centring, leaving
:math:`b` out changes the model; a column of ones restores it. The same is checked against
NumPy's ``lstsq``.

**答案（中文）**：b 使超平面离开原点；以下情形可不考虑 b。(1) 数据已中心化（x、y 都减去均值）：最小二乘的最优 b 为 0，w 不变，b = ȳ − wᵀx̄ 可事后恢复。(2) 有一个恒为常数的属性（如式3.10 的 x̂ = (x; 1)，或某个离散属性独热编码后各列之和恒为 1）：它的权重就是偏置，再加 b 会使正规方程奇异。(3) 任务本身要求 f(0) = 0（正比关系），或只关心差值 f(x_i) − f(x_j)（如排序）：b 被消去。

**与公开解答比较 / Compared with public solutions**

公开解答（GitHub 上 han1057578619 的西瓜书习题集 MachineLearning_Zhouzhihua_ProblemSets）只给出上面的第 2 种情形：某个属性恒为常数时，它的权重就起了偏置的作用。这一点与本页一致，但不完整：数据中心化后最优的 b 为 0（本页用最小二乘验证了这一点），任务本身要求 f(0)=0 或只关心差值时也不需要 b。

The public solution set of GitHub user han1057578619 (MachineLearning_Zhouzhihua_ProblemSets) gives
only case 2 above: when one attribute is constant, its weight plays the role of b. That agrees with
this page but is incomplete: after centring, the optimal b is 0 (checked below with least squares),
and a task that fixes f(0)=0 or uses only differences needs no b either.
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from hyperplane.datasets import load_watermelon
from hyperplane.linear import LeastSquaresClassifier
from hyperplane.plot import apply_cjk_font

X, labels = load_watermelon("3.0alpha")
X = X.to_numpy()
t = np.where(labels == "是", 1.0, -1.0)  # the classifier's +-1 targets (classes_[1] = 是 is +1)

with_b = LeastSquaresClassifier().fit(X, labels)
without_b = LeastSquaresClassifier(fit_intercept=False).fit(X, labels)
print("raw data, with b:    w =", with_b.coef_[0].round(4), " b =", with_b.intercept_.round(4))
print("raw data, without b: w =", without_b.coef_[0].round(4))
assert not np.allclose(with_b.coef_, without_b.coef_, atol=1e-3)

# %%
# 1. 中心化 / Centred data
# ------------------------
Xc = X - X.mean(axis=0)
centred_b = LeastSquaresClassifier().fit(Xc, labels)
centred = LeastSquaresClassifier(fit_intercept=False).fit(Xc, labels)
print("centred, with b:     w =", centred_b.coef_[0].round(4), " b =", centred_b.intercept_.round(4),
      " (mean target =", round(t.mean(), 4), ")")
print("centred, without b:  w =", centred.coef_[0].round(4))
np.testing.assert_allclose(centred.coef_, with_b.coef_, atol=1e-10)   # same w as the full model
np.testing.assert_allclose(centred_b.intercept_, [t.mean()], atol=1e-10)  # b = y-bar
# with centred targets too, b = 0 exactly
w_numpy, *_ = np.linalg.lstsq(np.column_stack([Xc, np.ones(len(t))]), t - t.mean(), rcond=None)
print("NumPy lstsq on centred x and y: w =", w_numpy[:2].round(4), " b =", round(w_numpy[2], 12))
assert abs(w_numpy[2]) < 1e-12

# %%
# 2. 常数特征 / A constant feature instead of b
# ---------------------------------------------
ones = LeastSquaresClassifier(fit_intercept=False).fit(np.column_stack([X, np.ones(len(X))]), labels)
print("column of ones, no b: weights =", ones.coef_[0].round(4))
np.testing.assert_allclose(ones.coef_[0], np.r_[with_b.coef_[0], with_b.intercept_], atol=1e-10)

# One-hot columns of a discrete attribute (西瓜数据集2.0's 色泽 and 纹理) sum to 1: no b needed.
X20, labels20 = load_watermelon("2.0")
onehot = pd.get_dummies(X20[["色泽", "纹理"]], dtype=float)
a = LeastSquaresClassifier().fit(onehot, labels20).decision_function(onehot)
b = LeastSquaresClassifier(fit_intercept=False).fit(onehot, labels20).decision_function(onehot)
print("one-hot 色泽, 纹理 of 西瓜数据集2.0: largest difference with and without b:", f"{np.abs(a - b).max():.1e}")
np.testing.assert_allclose(a, b, atol=1e-10)

figure, ax = plt.subplots(figsize=(5.5, 4))
for data, model, style, name in ((X, with_b, "k-", "with b"), (X, without_b, "r--", "without b (raw)")):
    xx = np.linspace(0.2, 0.8, 10)
    w, b = model.coef_[0], model.intercept_[0]
    ax.plot(xx, -(w[0] * xx + b) / w[1], style, label=name)
ax.scatter(*X[t > 0].T, c="#d62728", label="好瓜")
ax.scatter(*X[t < 0].T, c="#1f77b4", marker="x", label="坏瓜")
ax.set_xlabel("密度")
ax.set_ylabel("含糖率")
ax.set_ylim(0, 0.6)
ax.set_title("习题3.1: 未中心化时去掉 b 改变了模型")
ax.legend(fontsize=8)
apply_cjk_font(figure)
plt.show()
