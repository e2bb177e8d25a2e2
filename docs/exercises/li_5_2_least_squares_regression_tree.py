r"""
李航 习题5.2 / Li Hang, exercise 5.2: a least-squares regression tree on 表5.2
==============================================================================

**题目**：已知如表 5.2 所示的训练数据，试用平方误差损失准则生成一个二叉回归树。

**Question**: from the training data of 表5.2 (:math:`x_i=1,\dots,10`;
:math:`y_i=4.50, 4.75, 4.91, 5.34, 5.80, 7.05, 7.90, 8.23, 8.70, 9.00`), generate a binary
regression tree with the squared-error loss (算法5.5).

**答案 / Answer**: 算法5.5 picks the cut :math:`s` minimising
:math:`\min_{c_1}\sum_{x_i\le s}(y_i-c_1)^2+\min_{c_2}\sum_{x_i>s}(y_i-c_2)^2` (式5.21), with
:math:`c_m` the mean of its region. The root cut is :math:`x\le 5` (:math:`c_1=5.06`,
:math:`c_2=8.176`, loss 3.359 against 27.632 with no cut). Growing on until a region's squared error
is below 0.2 (an arbitrary stopping rule: the book leaves it open), the tree is

.. math::

   f(x)=\begin{cases}4.72 & x\le 3\\ 5.57 & 3<x\le 5\\ 7.05 & 5<x\le 6\\ 7.90 & 6<x\le 7\\
   8.23 & 7<x\le 8\\ 8.85 & x>8\end{cases}

The page writes 算法5.5 in NumPy, then grows the same root with the library's
:class:`hyperplane.tree.DecisionTreeRegressor` and with scikit-learn's (squared error, the same
criterion); both put the thresholds at the midpoints 5.5 etc. of the same cuts.

**答案（中文）**：算法5.5 选择使式5.21 最小的切分点 s，每个区域的 c_m 取其均值。根结点的切分为 x ≤ 5（c₁ = 5.06，c₂ = 8.176，损失 3.359，不切分时为 27.632）。继续生长直到区域的平方误差小于 0.2（书中未规定停止条件，这是一个任意的选择），得到的树为：x ≤ 3 时 4.72；3 < x ≤ 5 时 5.57；5 < x ≤ 6 时 7.05；6 < x ≤ 7 时 7.90；7 < x ≤ 8 时 8.23；x > 8 时 8.85。

**与公开解答比较 / Compared with public solutions**

datawhale 的《统计学习方法》习题解答（statistical-learning-method-solutions-manual）：它在阈值 0.2 下打印的是同一棵树（它检验切分的损失，本页检验区域的误差；在这份数据上两者停在同样的区域），两者一致。

The datawhale solutions manual prints this tree for its threshold 0.2 (it tests the loss of the
split, this page the error of the region; on these data both stop at the same regions).
"""

import matplotlib.pyplot as plt
import numpy as np
from sklearn.tree import DecisionTreeRegressor as SklearnTreeRegressor

from hyperplane.plot import apply_cjk_font
from hyperplane.tree import DecisionTreeRegressor

x = np.arange(1.0, 11.0)
y = np.array([4.50, 4.75, 4.91, 5.34, 5.80, 7.05, 7.90, 8.23, 8.70, 9.00])


def best_cut(x, y):
    """式5.21 over the cuts between consecutive x: (loss, s, c1, c2)."""
    best = None
    for s in x[:-1]:
        left, right = y[x <= s], y[x > s]
        loss = ((left - left.mean()) ** 2).sum() + ((right - right.mean()) ** 2).sum()
        if best is None or loss < best[0]:
            best = (loss, s, left.mean(), right.mean())
    return best


def grow(x, y, tol=0.2, depth=0):
    """算法5.5: cut until a region's squared error is below tol (or one point is left)."""
    error = ((y - y.mean()) ** 2).sum()
    if error < tol or len(y) == 1:
        print("    " * depth + f"leaf c = {y.mean():.2f}  (x in {x.min():.0f}..{x.max():.0f})")
        return [(x.max(), y.mean())]
    loss, s, c1, c2 = best_cut(x, y)
    print("    " * depth + f"cut x <= {s:.0f}: loss {loss:.4f}, c1 = {c1:.2f}, c2 = {c2:.2f}")
    return grow(x[x <= s], y[x <= s], tol, depth + 1) + grow(x[x > s], y[x > s], tol, depth + 1)


# %%
# 各切分点的损失 / The loss of each root cut (式5.21)
# ---------------------------------------------------
for s in x[:-1]:
    left, right = y[x <= s], y[x > s]
    print(f"s = {s:.0f}: {((left - left.mean()) ** 2).sum() + ((right - right.mean()) ** 2).sum():.4f}")
leaves = grow(x, y)
assert best_cut(x, y)[1] == 5.0 and abs(best_cut(x, y)[0] - 3.3587) < 1e-4
ends, values = np.array(leaves).T
np.testing.assert_allclose(ends, [3, 5, 6, 7, 8, 10])
np.testing.assert_allclose(values, [4.72, 5.57, 7.05, 7.90, 8.23, 8.85], atol=5e-3)

# %%
# 用库中的回归树 / The library's regression tree
# ----------------------------------------------
ours = DecisionTreeRegressor(max_depth=1).fit(x[:, None], y)
print("hyperplane root threshold:", ours.tree_.threshold[0], " predictions:",
      np.unique(ours.predict(x[:, None]).round(2)))
np.testing.assert_allclose(np.unique(ours.predict(x[:, None])), best_cut(x, y)[2:], atol=1e-12)

# %%
# 与 scikit-learn 比较 / Against scikit-learn
# -------------------------------------------
peer = SklearnTreeRegressor(max_depth=1).fit(x[:, None], y)
print("scikit-learn root threshold:", peer.tree_.threshold[0], " leaf values:",
      peer.tree_.value[1:, 0, 0].round(2))
assert peer.tree_.threshold[0] == 5.5
root = best_cut(x, y)
np.testing.assert_allclose(peer.tree_.value[1:, 0, 0], root[2:], atol=1e-12)

figure, ax = plt.subplots(figsize=(6, 4))
ax.scatter(x, y, label="表5.2")
starts = np.r_[0.5, ends[:-1] + 0.5]
ax.hlines(values, starts, ends + 0.5, colors="C3", label="f(x), 6 regions")
ax.set_xlabel("x")
ax.set_ylabel("y")
ax.set_title("习题5.2: 最小二乘回归树")
ax.legend()
apply_cjk_font(figure)
plt.show()
