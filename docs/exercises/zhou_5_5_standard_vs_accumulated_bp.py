"""
周志华 习题5.5 / Zhou Zhihua, exercise 5.5: standard and accumulated BP on 西瓜数据集3.0
========================================================================================

**题目**：试编程实现标准 BP 算法和累积 BP 算法，在西瓜数据集 3.0 上分别用这两个算法训练一个单隐层网络，
并进行比较。

**Question**: implement standard and accumulated backpropagation, train a network with one hidden
layer on watermelon data set 3.0 with each, and compare them.

Both networks are the book's: sigmoid hidden and output units, the error of one sample
:math:`E_k=\\frac12\\sum_j(\\hat y_j^k-y_j^k)^2` (式5.4, ``loss="squared_error"``; one output unit for
the two classes 好瓜 是/否), every weight and threshold drawn uniformly in (0, 1) (图5.8 step 1,
``init="book"``), the samples visited in the order of the table (``shuffle=False``) and
:math:`\\eta = 0.1`. ``bp="standard"`` updates after every sample with the gradients of
:math:`E_k` (式5.11–5.14, 图5.8); ``bp="accumulated"`` updates once per pass with the gradient of
:math:`E=\\frac1m\\sum_k E_k` (式5.16). The stopping condition of 图5.8 is left to the reader; here
it is a budget of 3000 passes (epochs), the same for both. The six categorical attributes are
one-hot encoded; 密度 and 含糖率 are used as they are.

**答案 / Answer** (what §5.3 predicts, and what the run below prints): per pass, standard BP's
error falls much faster, ending near 0.002 with every melon right, while accumulated BP, one update
per pass, sits on the plateau :math:`E\\approx 0.125` (the error of predicting the class shares) for
hundreds of passes and ends near 0.05. Counted per *update* the two are level: after 3000 updates
each (3000 passes of accumulated BP, about 176 of standard BP) both stand near 0.05, but each
accumulated update costs a whole pass over the data. Public solutions (e.g. the datawhale
南瓜书 notes on §5.3 and community notebooks for 习题5.5) draw the same two curves; their exact
numbers depend on the random initial weights.

**答案（中文）**：两个网络都是书中的：Sigmoid 隐层与输出单元、式5.4 的误差、权重与阈值在 (0, 1) 内均匀初始化（图5.8 第 1 步）、按表中顺序访问样本、η = 0.1，各训练 3000 轮。按轮计，标准 BP 的误差下降快得多，最后约 0.002 且全部判对；累积 BP 每轮只更新一次，在 E ≈ 0.125（预测类别比例时的误差）的平台上停留数百轮，最后约 0.05。按更新次数计两者相当：各更新 3000 次后都在 0.05 左右，但累积 BP 的每次更新要遍历全部数据。

**与公开解答比较 / Compared with public solutions**

公开解答（han1057578619 的习题集）把标准 BP 说成“标准梯度下降”、累积 BP 说成“随机梯度下降”，接着又说后者每次用全部数据、前者每次用一个样本。名称说反了：标准 BP（式5.11–5.14）每个样本更新一次，是随机梯度下降；累积 BP（式5.16）每轮用全部样本更新一次，是（批量）梯度下降。它的随机梯度下降每步随机抽样，而图5.8 按顺序遍历样本。它的结论（累积 BP 更平稳，迭代次数相同时两者结果相近）与本页按更新次数计的比较一致。

The public solution set of han1057578619 calls standard BP "standard gradient descent" and
accumulated BP "stochastic gradient descent", then says the latter uses all the data per step and
the former one sample. The names are swapped: standard BP (式5.11–5.14) updates after every sample,
i.e. stochastic gradient descent; accumulated BP (式5.16) updates once per pass over all samples,
i.e. (batch) gradient descent. Its stochastic version also draws a random sample per step, where
图5.8 visits the samples in order. Its conclusion (accumulated BP is smoother, and after the same
number of updates the two end close) agrees with this page's count per update.
"""

import warnings

import matplotlib.pyplot as plt
import pandas as pd
from sklearn.exceptions import ConvergenceWarning

from hyperplane.datasets import load_watermelon
from hyperplane.neural import MLPClassifier
from hyperplane.plot import apply_cjk_font, plot_loss_curves

X, y = load_watermelon("3.0")
X = pd.get_dummies(X, dtype=float)
EPOCHS = 3000
networks = {}
for bp in ("standard", "accumulated"):
    book = MLPClassifier(hidden_layer_sizes=(10,), bp=bp, learning_rate=0.1, loss="squared_error",
                         init="book", shuffle=False, max_iter=EPOCHS, tol=0.0,
                         n_iter_no_change=EPOCHS, random_state=0)
    with warnings.catch_warnings():   # the 3000 passes are this page's stopping condition
        warnings.simplefilter("ignore", ConvergenceWarning)
        networks[bp] = book.fit(X, y)


def error_after(net, updates):
    """E after the pass in which the network made its ``updates``-th update."""
    per_pass = len(X) if net.bp == "standard" else 1
    return net.loss_curve_[min(-(-updates // per_pass), EPOCHS) - 1]


rows = [{"bp": bp, "passes": net.n_iter_, "updates": net.n_iter_ * (len(X) if bp == "standard" else 1),
         "E after 100 passes": net.loss_curve_[99], "E after 3000 updates": error_after(net, 3000),
         "final E": net.loss_curve_[-1], "training accuracy": net.score(X, y)}
        for bp, net in networks.items()]
print(pd.DataFrame(rows).round(4).to_string(index=False))

# %%
# 比较 / Comparison
# -----------------
# Per pass, standard BP is far ahead; accumulated BP leaves the plateau only after hundreds of
# passes. Per update the two are level: after 3000 updates each, accumulated BP (3000 passes) and
# standard BP (about 176 passes) stand at about the same error.
standard, accumulated = networks["standard"], networks["accumulated"]
assert standard.loss_curve_[-1] < accumulated.loss_curve_[-1] / 10
assert standard.loss_curve_[99] < accumulated.loss_curve_[99]
assert 0.8 < error_after(accumulated, 3000) / error_after(standard, 3000) < 1.25
ax = plot_loss_curves(standard, accumulated, labels=["标准BP (standard)", "累积BP (accumulated)"],
                      log=True, title="习题5.5: 西瓜数据集3.0, E (式5.4) per pass")
apply_cjk_font(ax.figure)
plt.show()
