"""
李航 习题2.2 / Li Hang, exercise 2.2: a perceptron example of our own, primal and dual
======================================================================================

**题目**：模仿例题 2.1，构建从训练数据集求解感知机模型的例子。

**Question**: in the manner of 例2.1, build an example that learns a perceptron from a training set.

Our data: positive points :math:`x_1=(2,4)^T`, :math:`x_2=(4,3)^T`, negative points
:math:`x_3=(1,1)^T`, :math:`x_4=(3,1)^T`; learning rate :math:`\\eta=1`, start
:math:`w_0=0, b_0=0`, samples visited in order. We run 算法2.1 (primal form, class
:class:`hyperplane.linear.Perceptron`) and 算法2.2 (dual form, class
:class:`hyperplane.linear.DualPerceptron`), print their update tables the way 表2.1 and 表2.2 do,
and check that both end at the same hyperplane and within Novikoff's bound (定理2.1).

**答案 / Answer**: both forms make the same nine updates, on x₁, x₃, x₄, x₂, x₃, x₄, x₂, x₃, x₄, and
stop at w = (−2, 4)ᵀ, b = −3, i.e. f(x) = sign(−2x⁽¹⁾ + 4x⁽²⁾ − 3). The dual form ends at
α = (1, 2, 3, 3) (with η = 1, the number of updates made on each point), and Σ αᵢyᵢxᵢ is the same w.
Nine updates are within Novikoff's bound (R/γ)² = 130 (R = 5.099, γ = 0.447).

**答案（中文）**：本页取正例 x₁ = (2, 4)ᵀ、x₂ = (4, 3)ᵀ，负例 x₃ = (1, 1)ᵀ、x₄ = (3, 1)ᵀ，学习率 η = 1，初值 w₀ = 0、b₀ = 0，按顺序访问样本；分别用算法2.1（原始形式，库中的 Perceptron）与算法2.2（对偶形式，库中的 DualPerceptron）求解，按表2.1、表2.2 的样式打印更新过程，并验证两者得到同一个超平面、更新次数不超过 Novikoff 界（定理2.1）。本页的两种形式做同样的 9 次更新（依次在 x₁、x₃、x₄、x₂、x₃、x₄、x₂、x₃、x₄ 上），停在 w = (−2, 4)ᵀ、b = −3，即 f(x) = sign(−2x⁽¹⁾ + 4x⁽²⁾ − 3)；对偶形式得 α = (1, 2, 3, 3)（η = 1 时即各点上的更新次数），Σ α_i y_i x_i 给出同一个 w；9 次不超过 Novikoff 界 (R/γ)² = 130（R = 5.099，γ = 0.447）。

**与公开解答比较 / Compared with public solutions**

datawhale 的《统计学习方法》习题解答（statistical-learning-method-solutions-manual）没有另造数据，而是用例2.1 自己的三个点（η = 1）运行算法2.1，经 7 次更新得到 w = (1, 1)ᵀ、b = -3，即书中表2.1 的结果。本页最后一节用库中的感知机复算，得到同样的 7 次更新。题目要求“模仿例题”构建新的例子，所以本页另取了四个点，并同时给出原始形式与对偶形式；两份解答的算法一致，只是例子不同。

The datawhale solutions manual (statistical-learning-method-solutions-manual) does not build new
data: it runs 算法2.1 on 例2.1's own three points (η = 1) and reaches w = (1, 1)ᵀ, b = -3 after seven
updates, the result of 表2.1. The last section of this page reruns that with the library's perceptron
and gets the same seven updates. The question asks for an example built in the manner of 例2.1, so
this page takes four new points and gives both the primal and the dual form; the two answers run the
same algorithm on different examples.
"""

import matplotlib.pyplot as plt
import numpy as np

from hyperplane.linear import DualPerceptron, Perceptron, novikoff_bound
from hyperplane.plot import apply_cjk_font, plot_perceptron_updates

X = np.array([[2.0, 4.0], [4.0, 3.0], [1.0, 1.0], [3.0, 1.0]])
y = np.array([1, 1, -1, -1])

# %%
# 原始形式（算法2.1）/ Primal form (algorithm 2.1)
# ------------------------------------------------
# Each row is one update :math:`w \leftarrow w + \eta y_i x_i,\ b \leftarrow b + \eta y_i` on the
# misclassified point ``sample`` (0-based: ``0`` is :math:`x_1`).
primal = Perceptron(eta=1.0, record_trace=True).fit(X, y)
print(primal.trace_.to_string(index=False))
print("w =", primal.coef_[0], " b =", primal.intercept_[0])

# %%
# 对偶形式（算法2.2）/ Dual form (algorithm 2.2)
# ----------------------------------------------
# The dual form keeps :math:`\alpha_i = n_i\eta` and the Gram matrix :math:`G=[x_i\cdot x_j]`;
# it makes the same updates in the same order, so :math:`w=\sum_i\alpha_i y_i x_i` is the primal
# :math:`w`.
dual = DualPerceptron(eta=1.0, record_trace=True).fit(X, y)
print("Gram matrix:\n", dual.gram_)
print(dual.trace_.to_string(index=False))
w_dual = (dual.alpha_ * y) @ X
print("alpha =", dual.alpha_, " w = sum alpha_i y_i x_i =", w_dual, " b =", dual.intercept_[0])

# %%
# 结果 / Result
# -------------
# Both forms end at the same hyperplane after the same number of updates :math:`k`, and
# :math:`k \le (R/\gamma)^2` (定理2.1, computed by :func:`hyperplane.linear.novikoff_bound`).
np.testing.assert_allclose(w_dual, primal.coef_[0])
assert dual.intercept_[0] == primal.intercept_[0]
bound = novikoff_bound(X, y)
print(f"updates k = {len(primal.trace_)}; R = {bound.R:.3f}, gamma = {bound.gamma:.3f}, "
      f"(R/gamma)^2 = {bound.bound:.1f}")
assert len(primal.trace_) == len(dual.trace_) <= bound.bound

figure = plot_perceptron_updates(primal, X, y)
apply_cjk_font(figure)
plt.show()

# %%
# 与公开解答比较 / Against the datawhale solutions manual
# -------------------------------------------------------
# The manual runs 算法2.1 on 例2.1's own three points (η = 1) and prints seven updates ending at
# w = (1, 1), b = -3. The library makes the same seven updates.
book_X = np.array([[3.0, 3.0], [4.0, 3.0], [1.0, 1.0]])
book_y = np.array([1, 1, -1])
example = Perceptron(eta=1.0, record_trace=True).fit(book_X, book_y)
print(example.trace_.to_string(index=False))
assert example.trace_["sample"].tolist() == [0, 2, 2, 2, 0, 2, 2]
np.testing.assert_array_equal(example.coef_[0], [1.0, 1.0])
assert example.intercept_[0] == -3.0
